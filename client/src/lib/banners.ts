import type { Banner } from '@pm/protocol/banner';

/**
 * GET /api/banner (public): the home carousel's active slides. A plain fetch, not the api()
 * wrapper: the home page is the first visit (bundle budget), and a failure only means the
 * built-in slides stay, so there is nothing to report.
 */
export async function fetchBanners(): Promise<Banner[]> {
  const res = await fetch('/api/banner', { headers: { accept: 'application/json' } });
  if (!res.ok) return [];
  const body = (await res.json()) as { data?: Banner[] };
  return Array.isArray(body.data) ? body.data : [];
}
