import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Banner } from '../../../../../sync-protocol/src/banner';
import { api } from '../../../lib/api-client';

/** POST /api/banner (new) or PUT /api/banner (with id); the dialog shows failures. */
export function saveBanner(input: Omit<Banner, 'id'> & { id?: string | undefined }): Promise<{ success: boolean; msg: string; data: Banner }> {
  return input.id ? api('/banner', { method: 'PUT', body: input, silent: true }) : api('/banner', { method: 'POST', body: input, silent: true });
}
export function useSaveBanner() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: saveBanner, onSuccess: () => qc.invalidateQueries({ queryKey: ['admin', 'banners'] }) });
}
