import type { StaticPage, StaticPageKey } from '@pm/protocol/static-page';
import { api } from './api-client';

/**
 * GET /api/static-page/{key} (public): the admin's text of a public page, or null when it was
 * never edited. Background and silent: the page shows its built-in text meanwhile, and keeps
 * it when this fails (offline, for one).
 */
export function fetchStaticPage(key: StaticPageKey): Promise<{ success: boolean; data: StaticPage | null }> {
  return api(`/static-page/${key}`, { skipAuth: true, silent: true, background: true });
}

/**
 * The page's HTML in `lang`, or null when that language has no text of its own: the reader then
 * gets the built-in page in their language, never the other language's text (docs/admin.md,
 * Static pages).
 */
export function pageHtml(page: StaticPage | null | undefined, lang: string): string | null {
  if (!page) return null;
  const html = lang === 'hi' ? page.content.hi : page.content.en;
  return html.trim() ? html : null;
}
