import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PersonView } from '@pm/protocol/person';
import { api } from '@/lib/api-client';

export type Profile = PersonView & {
  uplines: { id: string; name: string }[];
  /** An e-mail address waiting for its code (docs/api.md "Profile"); the person's own only. */
  pendingEmail: string | null;
  termsVersion: string | null;
  termsAcceptedAt: number | null;
};

/** GET /api/Person: the signed-in person with the referral tree around them. */
export function getProfile(): Promise<{ success: boolean; data: Profile }> {
  return api('/Person', { silent: true });
}

export const profileQueryOptions = (personId: string) =>
  queryOptions({ queryKey: ['person', 'me', personId], queryFn: getProfile, select: (r) => r.data });

export function useProfile(personId: string) {
  return useQuery(profileQueryOptions(personId));
}
