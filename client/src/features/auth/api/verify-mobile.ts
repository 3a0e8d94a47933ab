import { api } from '@/lib/api-client';

/**
 * POST /api/Person/me/mobile/code: a code to one's own mobile (docs/sms.md "Every code by SMS");
 * the answer names the mobile by its last two digits, to say where the code went.
 */
export function requestMobileCode(): Promise<{ success: boolean; msg: string; sentTo: string; email: boolean }> {
  return api('/Person/me/mobile/code', { method: 'POST', silent: true });
}

/** POST /api/Person/me/mobile/verify: the code sent to one's mobile marks it verified (`mv`). */
export function verifyMobile(input: { code: string }): Promise<{ success: boolean; msg: string; mv: true }> {
  return api('/Person/me/mobile/verify', { method: 'POST', body: { code: input.code.trim() }, silent: true });
}
