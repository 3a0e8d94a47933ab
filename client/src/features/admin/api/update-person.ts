import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { PersonView, personUpdateSchema } from '@pm/protocol/person';
import { api } from '@/lib/api-client';

export type PersonUpdateBody = z.input<typeof personUpdateSchema>;

/**
 * PUT /api/Person (admin). A changed role makes the server copy the role's permissions.
 * The answer's msg is "<name> updated successfully"; a failure is notified by api().
 */
export function updatePerson(body: PersonUpdateBody): Promise<{ success: boolean; msg: string; data: PersonView }> {
  return api('/Person', { method: 'PUT', body });
}

export function useUpdatePerson() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: updatePerson, onSuccess: () => qc.invalidateQueries({ queryKey: ['admin', 'persons'] }) });
}
