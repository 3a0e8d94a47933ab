import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** DELETE /api/brand/{id}. */
export function deleteBrand(id: string): Promise<{ success: boolean; msg: string }> {
  return api(`/brand/${encodeURIComponent(id)}`, { method: 'DELETE' });
}
export function useDeleteBrand() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: deleteBrand, onSuccess: () => qc.invalidateQueries({ queryKey: ['admin', 'brands'] }) });
}
