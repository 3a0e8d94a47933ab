import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PersonView } from '../../../../../sync-protocol/src/person';
import { api } from '../../../lib/api-client';

export type PersonInput = { id?: string | undefined; n: string; m: string; e: string; password?: string | undefined; r?: string | undefined; s: string };
type Saved = { success: boolean; msg: string; data: PersonView };

/** POST /api/Person (new) or PUT /api/Person (with id). Failures notify the server message (spec §8). */
export function savePerson(input: PersonInput): Promise<Saved> {
  const { id, password, ...body } = input;
  return id
    ? api('/Person', { method: 'PUT', body: { id, ...body } })
    : api('/Person', { method: 'POST', body: { ...body, ...(password ? { password } : {}) } });
}

export function useSavePerson() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: savePerson, onSuccess: () => qc.invalidateQueries({ queryKey: ['admin', 'persons'] }) });
}
