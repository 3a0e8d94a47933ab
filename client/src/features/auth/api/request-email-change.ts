import { api } from '@/lib/api-client';

/**
 * POST /api/Person/me/email: a code goes to the new address, which replaces the old one only once
 * the code is entered (verify-email-change). The answer is the same whether or not the address
 * can be used (docs/api.md "Profile").
 */
export function requestEmailChange(input: { email: string }): Promise<{ success: boolean; msg: string }> {
  return api('/Person/me/email', { method: 'POST', body: { e: input.email.trim() }, silent: true });
}
