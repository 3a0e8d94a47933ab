import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { BrandInput } from './create-brand';
import type { Brand } from './get-brands';

/** PUT /api/brand (the whole brand with its id); silent, because the dialog lists the failure itself. */
export function updateBrand(body: BrandInput & { id: string }): Promise<{ success: boolean; msg: string; data: Brand }> {
  return api('/brand', { method: 'PUT', body, silent: true });
}
export function useUpdateBrand() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: updateBrand, onSuccess: () => qc.invalidateQueries({ queryKey: ['admin', 'brands'] }) });
}
