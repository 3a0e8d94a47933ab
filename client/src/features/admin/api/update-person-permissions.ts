import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { PersonView, personPermissionsSchema } from '@pm/protocol/person';
import { api } from '@/lib/api-client';

export type PersonPermissionsBody = z.input<typeof personPermissionsSchema>;

/**
 * PATCH /api/Person/updatePermissionCollection {id, permissions: names}. Silent: the dialog says
 * 'Person detail updated but failed to update permission' itself.
 */
export function updatePersonPermissions(body: PersonPermissionsBody): Promise<{ success: boolean; msg: string; data: PersonView }> {
  return api('/Person/updatePermissionCollection', { method: 'PATCH', body, silent: true });
}

export function useUpdatePersonPermissions() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: updatePersonPermissions, onSettled: () => qc.invalidateQueries({ queryKey: ['admin', 'persons'] }) });
}
