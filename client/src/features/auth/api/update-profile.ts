import { api } from '@/lib/api-client';

/** PATCH /api/Person/me: the signed-in person's own name (docs/api.md "Profile"). */
export function updateProfile(input: { name: string }): Promise<{ success: boolean; msg: string; name: string }> {
  return api('/Person/me', { method: 'PATCH', body: { n: input.name.trim() }, silent: true });
}
