import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** PATCH /api/Person/updatePermissionCollection; the dialog reports a failure itself (spec §8). */
export function updatePersonPermissions(input: { id: string; permissions: string[] }): Promise<{ success: boolean }> {
  return api('/Person/updatePermissionCollection', { method: 'PATCH', body: input, silent: true });
}

export function useUpdatePersonPermissions() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: updatePersonPermissions, onSettled: () => qc.invalidateQueries({ queryKey: ['admin', 'persons'] }) });
}
