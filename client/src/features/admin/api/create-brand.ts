import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Brand } from './get-brands';

export type BrandInput = { name: string; description: string; logo: string | null };

/** POST /api/brand; silent, because the dialog lists the failure itself. */
export function createBrand(body: BrandInput): Promise<{ success: boolean; msg: string; data: Brand }> {
  return api('/brand', { method: 'POST', body, silent: true });
}
export function useCreateBrand() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: createBrand, onSuccess: () => qc.invalidateQueries({ queryKey: ['admin', 'brands'] }) });
}
