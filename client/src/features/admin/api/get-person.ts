import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PersonView } from '@pm/protocol/person';
import { api } from '@/lib/api-client';

/** GET /api/Person/:id — one person with role and permissions as stored now. */
export function getPerson(id: string): Promise<{ success: boolean; data: PersonView }> {
  return api(`/Person/${encodeURIComponent(id)}`);
}

/** Under ['admin', 'persons'] so that every person write (which invalidates that key) refreshes it. */
export const personQueryOptions = (id: string) =>
  queryOptions({ queryKey: ['admin', 'persons', 'one', id], queryFn: () => getPerson(id), select: (r) => r.data });

/** The person with this id; idle while id is null. */
export function usePerson(id: string | null) {
  return useQuery({ ...personQueryOptions(id ?? ''), enabled: id !== null });
}
