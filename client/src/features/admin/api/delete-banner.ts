import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** DELETE /api/banner/{id}. */
export function deleteBanner(id: string): Promise<{ success: boolean; msg: string }> {
  return api(`/banner/${encodeURIComponent(id)}`, { method: 'DELETE' });
}
export function useDeleteBanner() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: deleteBanner, onSuccess: () => qc.invalidateQueries({ queryKey: ['admin', 'banners'] }) });
}
