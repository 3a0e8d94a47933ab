import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** DELETE /api/permission/{id}. */
export function deletePermission(id: string): Promise<{ success: boolean; msg: string }> {
  return api(`/permission/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export function useDeletePermission() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: deletePermission, onSuccess: () => qc.invalidateQueries({ queryKey: ['admin'] }) });
}
