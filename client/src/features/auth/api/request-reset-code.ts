import { api } from '@/lib/api-client';
import { toUsername } from '../lib/username';

/** POST /api/UserLogin/resetPassword: the server mails (or texts) a 6-digit code. */
export function requestResetCode(username: string): Promise<{ success: boolean; msg?: string }> {
  return api('/UserLogin/resetPassword', {
    method: 'POST',
    body: { username: toUsername(username) },
    skipAuth: true,
    silent: true,
  });
}
