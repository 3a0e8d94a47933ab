import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ProductView } from '@pm/protocol/plan';
import { api } from '@/lib/api-client';

export type ProductInput = Omit<ProductView, 'id' | 'createdAt' | 'orders'> & { id?: string | undefined };

/** POST /api/product (new) or PUT /api/product (with id); the dialog shows failures. */
export function saveProduct(input: ProductInput): Promise<{ success: boolean; msg: string; data: ProductView }> {
  return input.id ? api('/product', { method: 'PUT', body: input, silent: true }) : api('/product', { method: 'POST', body: input, silent: true });
}
export function useSaveProduct() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: saveProduct, onSuccess: () => qc.invalidateQueries({ queryKey: ['admin', 'products'] }) });
}
