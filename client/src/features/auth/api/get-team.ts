import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { TeamPage } from '@pm/protocol/person';
import { api } from '@/lib/api-client';

/** The query of GET /api/person/team: a part of a name or a whole mobile, the page from 1, its size (at most 50). */
export type TeamQuery = { q: string; page: number; size: number };

/**
 * GET /api/person/team: the signed-in person's own referral team, paged, mobiles masked
 * (docs/charity.md "The referral team"). Silent: the screen shows its own failure.
 */
export function getTeam({ q, page, size }: TeamQuery): Promise<TeamPage> {
  return api('/person/team', { query: { q: q || undefined, page, size }, silent: true });
}

export const teamQueryOptions = (personId: string, query: TeamQuery) =>
  queryOptions({ queryKey: ['person', 'team', personId, query], queryFn: () => getTeam(query), placeholderData: keepPreviousData });

export function useTeam(personId: string, query: TeamQuery) {
  return useQuery(teamQueryOptions(personId, query));
}
