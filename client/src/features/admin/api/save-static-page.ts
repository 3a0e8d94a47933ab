import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { StaticPage, StaticPageKey, StaticPageLang } from '@pm/protocol/static-page';
import { api } from '@/lib/api-client';

type Saved = { success: boolean; msg: string; data: StaticPage };

/** PUT /api/static-page {key, lang, html, baseVersion}: one language, as its next version. */
export function saveStaticPage(input: { key: StaticPageKey; lang: StaticPageLang; html: string; baseVersion: number }): Promise<Saved> {
  return api('/static-page', { method: 'PUT', body: input });
}

/** POST /api/static-page/restore {key, lang, version, baseVersion}: an earlier version again. */
export function restoreStaticPage(input: { key: StaticPageKey; lang: StaticPageLang; version: number; baseVersion: number }): Promise<Saved> {
  return api('/static-page/restore', { method: 'POST', body: input });
}

/**
 * The saved (server-sanitised) page goes into the list at once, so the editor does not fall back
 * to the previous text while the list reloads; its versions and the public page reload too.
 */
function useStoreSaved() {
  const qc = useQueryClient();
  return (r: Saved) => {
    qc.setQueryData<{ success: boolean; data: StaticPage[] }>(['admin', 'staticPages'], (old) =>
      old ? { ...old, data: [...old.data.filter((p) => p.key !== r.data.key), r.data] } : old,
    );
    void qc.invalidateQueries({ queryKey: ['admin', 'staticPages'] });
    void qc.invalidateQueries({ queryKey: ['admin', 'staticPageVersions', r.data.key] });
    void qc.invalidateQueries({ queryKey: ['static-page', r.data.key] });
  };
}

export function useSaveStaticPage() {
  return useMutation({ mutationFn: saveStaticPage, onSuccess: useStoreSaved() });
}

export function useRestoreStaticPage() {
  return useMutation({ mutationFn: restoreStaticPage, onSuccess: useStoreSaved() });
}
