import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Banner } from '@pm/protocol/banner';
import { api } from '@/lib/api-client';

export type BannerInput = Omit<Banner, 'id'>;

/** POST /api/banner: a new home carousel slide. Silent: the dialog lists the failure itself. */
export function createBanner(input: BannerInput): Promise<{ success: boolean; msg: string; data: Banner }> {
  return api('/banner', { method: 'POST', body: input, silent: true });
}
export function useCreateBanner() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: createBanner, onSuccess: () => qc.invalidateQueries({ queryKey: ['admin', 'banners'] }) });
}
