import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { PersonView } from '@pm/protocol/person';
import { api } from '@/lib/api-client';

/** docs/glossary.md "Fixed values": the person grid's page size. */
export const PERSON_PAGE_SIZE = 30;

/** GET /api/Person/get?strQuery&limit&offset (docs/api.md). */
export function searchPersons(strQuery: string, offset: number): Promise<{ success: boolean; data: PersonView[]; count: number }> {
  return api('/Person/get', { query: { strQuery, limit: PERSON_PAGE_SIZE, offset } });
}

export const personsQueryOptions = (strQuery: string, offset: number) =>
  queryOptions({ queryKey: ['admin', 'persons', strQuery, offset], queryFn: () => searchPersons(strQuery, offset), placeholderData: keepPreviousData });

export function usePersonSearch(strQuery: string, offset: number) {
  return useQuery(personsQueryOptions(strQuery, offset));
}
