import { api } from '@/lib/api-client';
import { toUsername } from '../lib/username';

/**
 * POST /api/UserLogin/updatePasswordWithResetCode: the code and the new password travel in Basic
 * auth as `code:newPassword` (docs/api.md), the account in the body.
 */
export function resetWithCode(input: { username: string; code: string; newPassword: string }): Promise<{ success: boolean; msg?: string }> {
  return api('/UserLogin/updatePasswordWithResetCode', {
    method: 'POST',
    body: { username: toUsername(input.username) },
    basic: { user: input.code, pass: input.newPassword },
    silent: true,
  });
}
