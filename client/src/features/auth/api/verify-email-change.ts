import { api } from '@/lib/api-client';

/** POST /api/Person/me/email/verify: the code sent to the new address makes it the person's e-mail. */
export function verifyEmailChange(input: { code: string }): Promise<{ success: boolean; msg: string; email: string }> {
  return api('/Person/me/email/verify', { method: 'POST', body: { code: input.code.trim() }, silent: true });
}
