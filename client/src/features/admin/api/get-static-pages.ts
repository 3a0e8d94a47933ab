import { queryOptions, useQuery } from '@tanstack/react-query';
import type { StaticPage } from '@pm/protocol/static-page';
import { api } from '@/lib/api-client';

/** GET /api/static-page — the pages saved so far. */
export function getStaticPages(): Promise<{ success: boolean; data: StaticPage[] }> {
  return api('/static-page');
}
export const staticPagesQueryOptions = () => queryOptions({ queryKey: ['admin', 'staticPages'], queryFn: getStaticPages, select: (r) => r.data });
export function useStaticPages() {
  return useQuery(staticPagesQueryOptions());
}
