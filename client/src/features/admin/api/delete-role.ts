import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** DELETE /api/role/{id}; failures are listed on the screen. */
export function deleteRole(id: string): Promise<{ success: boolean; msg: string }> {
  return api(`/role/${encodeURIComponent(id)}`, { method: 'DELETE', silent: true });
}

export function useDeleteRole() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: deleteRole, onSuccess: () => qc.invalidateQueries({ queryKey: ['admin'] }) });
}
