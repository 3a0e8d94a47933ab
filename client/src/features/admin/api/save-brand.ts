import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Brand } from './get-brands';

/** POST /api/brand (new) or PUT /api/brand (with id); the dialog lists failures itself. */
export function saveBrand(input: { id?: string | undefined; name: string; description: string; logo: string | null }): Promise<{ success: boolean; msg: string; data: Brand }> {
  const { id, ...body } = input;
  return id ? api('/brand', { method: 'PUT', body: { id, ...body }, silent: true }) : api('/brand', { method: 'POST', body, silent: true });
}
export function useSaveBrand() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: saveBrand, onSuccess: () => qc.invalidateQueries({ queryKey: ['admin', 'brands'] }) });
}
