import { queryOptions, useQuery } from '@tanstack/react-query';
import type { StaticPageKey, StaticPageLang, StaticPageVersion } from '@pm/protocol/static-page';
import { api } from '@/lib/api-client';

/** GET /api/static-page/{key}/versions?lang= — every saved version of one language, newest first. */
export function getStaticPageVersions(key: StaticPageKey, lang: StaticPageLang): Promise<{ success: boolean; data: StaticPageVersion[] }> {
  return api(`/static-page/${key}/versions?lang=${lang}`);
}
export const staticPageVersionsQueryOptions = (key: StaticPageKey, lang: StaticPageLang) =>
  queryOptions({ queryKey: ['admin', 'staticPageVersions', key, lang], queryFn: () => getStaticPageVersions(key, lang), select: (r) => r.data });
export function useStaticPageVersions(key: StaticPageKey, lang: StaticPageLang) {
  return useQuery(staticPageVersionsQueryOptions(key, lang));
}
