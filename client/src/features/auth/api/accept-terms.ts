import { api } from '@/lib/api-client';

/** POST /api/UserLogin/acceptTerms: the signed-in person accepts the version of the terms they were shown. */
export function acceptTerms(input: { version: string }): Promise<{ success: boolean; msg: string; version: string; accepted: boolean }> {
  return api('/UserLogin/acceptTerms', { method: 'POST', body: { version: input.version, terms: true }, silent: true });
}
