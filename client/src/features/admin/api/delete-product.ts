import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** DELETE /api/product/{id}: refused with a message when orders name the plan. */
export function deleteProduct(id: string): Promise<{ success: boolean; msg: string }> {
  return api(`/product/${encodeURIComponent(id)}`, { method: 'DELETE' });
}
export function useDeleteProduct() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: deleteProduct, onSuccess: () => qc.invalidateQueries({ queryKey: ['admin', 'products'] }) });
}
