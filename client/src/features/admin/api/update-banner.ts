import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Banner } from '@pm/protocol/banner';
import { api } from '@/lib/api-client';

/** PUT /api/banner: changes a slide (the body carries its id). Silent: the dialog lists the failure itself. */
export function updateBanner(input: Banner): Promise<{ success: boolean; msg: string; data: Banner }> {
  return api('/banner', { method: 'PUT', body: input, silent: true });
}
export function useUpdateBanner() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: updateBanner, onSuccess: () => qc.invalidateQueries({ queryKey: ['admin', 'banners'] }) });
}
