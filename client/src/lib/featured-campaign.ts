/**
 * GET /api/campaign/featured (public, docs/charity.md "API"): the campaign the home page's third
 * slide opens, or null. A plain fetch, not the api() wrapper, as the banners are read
 * (lib/banners): the home page is the first visit (bundle budget), and without an answer the
 * slide keeps its configured link, so there is nothing to report.
 */
export async function fetchFeaturedCampaignId(): Promise<string | null> {
  const res = await fetch('/api/campaign/featured', { headers: { accept: 'application/json' } });
  if (!res.ok) return null;
  const body = (await res.json()) as { data?: { id?: unknown } | null };
  const id = body.data?.id;
  return typeof id === 'string' && id ? id : null;
}
