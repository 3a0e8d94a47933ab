import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { PersonView, personCreateSchema } from '@pm/protocol/person';
import { api } from '@/lib/api-client';

export type PersonCreateBody = z.input<typeof personCreateSchema>;

/**
 * POST /api/Person (admin). The answer's msg is "<name> created successfully. Assign role and
 * permissions"; a failure is notified with the server's message by api().
 */
export function createPerson(body: PersonCreateBody): Promise<{ success: boolean; id: string; msg: string; data: PersonView }> {
  return api('/Person', { method: 'POST', body });
}

export function useCreatePerson() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: createPerson, onSuccess: () => qc.invalidateQueries({ queryKey: ['admin', 'persons'] }) });
}
