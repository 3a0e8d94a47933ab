import type { StaticPage, StaticPageKey } from '../../../sync-protocol/src/static-page';
import { api } from './api-client';

/**
 * GET /api/static-page/{key} (public): the admin's text of a public page, or null when it was
 * never edited. Background and silent: the page shows its built-in text meanwhile, and keeps
 * it when this fails (offline, for one).
 */
export function fetchStaticPage(key: StaticPageKey): Promise<{ success: boolean; data: StaticPage | null }> {
  return api(`/static-page/${key}`, { skipAuth: true, silent: true, background: true });
}

/** The page's HTML in `lang`, else in the other language, else null. */
export function pageHtml(page: StaticPage | null | undefined, lang: string): string | null {
  if (!page) return null;
  const first = lang === 'hi' ? page.content.hi : page.content.en;
  const other = lang === 'hi' ? page.content.en : page.content.hi;
  return first.trim() ? first : other.trim() ? other : null;
}
