import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { StaticPage, StaticPageKey } from '../../../../../sync-protocol/src/static-page';
import { api } from '../../../lib/api-client';

/** PUT /api/static-page {key, content: {en, hi}}. */
export function saveStaticPage(input: { key: StaticPageKey; content: { en: string; hi: string } }): Promise<{ success: boolean; msg: string; data: StaticPage }> {
  return api('/static-page', { method: 'PUT', body: input });
}
export function useSaveStaticPage() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: saveStaticPage, onSuccess: () => qc.invalidateQueries({ queryKey: ['admin', 'staticPages'] }) });
}
