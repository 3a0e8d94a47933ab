import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { StaticPageKey } from '@pm/protocol/static-page';
import { fetchStaticPage, pageHtml } from '../lib/static-page';

/** The admin-edited HTML of a public page in the UI language, or null (then the built-in text shows). */
export function useStaticPageHtml(key: StaticPageKey): string | null {
  const { i18n } = useTranslation();
  const q = useQuery({ queryKey: ['static-page', key], queryFn: () => fetchStaticPage(key), staleTime: 5 * 60_000, retry: false });
  return pageHtml(q.data?.data, i18n.language);
}
