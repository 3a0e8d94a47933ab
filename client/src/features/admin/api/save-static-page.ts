import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { StaticPage, StaticPageKey } from '../../../../../sync-protocol/src/static-page';
import { api } from '../../../lib/api-client';

/** PUT /api/static-page {key, content: {en, hi}}. */
export function saveStaticPage(input: { key: StaticPageKey; content: { en: string; hi: string } }): Promise<{ success: boolean; msg: string; data: StaticPage }> {
  return api('/static-page', { method: 'PUT', body: input });
}
export function useSaveStaticPage() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: saveStaticPage,
    onSuccess: (r) => {
      // The saved (server-sanitised) text goes into the list at once, so the editor does not
      // fall back to the previous text while the list reloads; the public page reloads too.
      qc.setQueryData<{ success: boolean; data: StaticPage[] }>(['admin', 'staticPages'], (old) =>
        old ? { ...old, data: [...old.data.filter((p) => p.key !== r.data.key), r.data] } : old,
      );
      void qc.invalidateQueries({ queryKey: ['admin', 'staticPages'] });
      void qc.invalidateQueries({ queryKey: ['static-page', r.data.key] });
    },
  });
}
