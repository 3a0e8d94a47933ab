import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Campaign, CampaignCard, CampaignDraft, CampaignImage, CampaignSort, CampaignUpdate, Cause, QueuedCampaign } from './types';

/**
 * The campaign routes of docs/charity.md "API". Reads are silent: each screen shows its own
 * failure. The public reads run whatever the browser says about the network (`networkMode:
 * 'always'`): offline, the service worker answers them with the last copy it kept
 * (vite.config.ts, "campaigns"), so a visitor reads the list and the campaigns they saw.
 */
export type CampaignQuery = { q?: string; cause?: Cause | ''; sort?: CampaignSort; page: number; size: number };

export type Page<T> = { success: boolean; data: T[]; total?: number };
type One<T> = { success: boolean; data: T };

export function listCampaigns({ q, cause, sort, page, size }: CampaignQuery): Promise<Page<CampaignCard> & { total: number }> {
  return api('/campaigns', { query: { q: q || undefined, cause: cause || undefined, sort, page, size }, silent: true });
}

export const campaignKeys = {
  all: ['campaigns'] as const,
  list: (query: CampaignQuery) => ['campaigns', 'list', query] as const,
  one: (id: string) => ['campaigns', 'one', id] as const,
  mine: ['campaigns', 'mine'] as const,
  queue: ['campaigns', 'queue'] as const,
  featured: ['campaigns', 'featured'] as const,
};

export const campaignListQueryOptions = (query: CampaignQuery) =>
  queryOptions({ queryKey: campaignKeys.list(query), queryFn: () => listCampaigns(query), networkMode: 'always', placeholderData: keepPreviousData });

export function useCampaigns(query: CampaignQuery) {
  return useQuery(campaignListQueryOptions(query));
}

/** GET /campaigns/:id: anyone for a public campaign; its owner, staff and trustees for the others. */
export function getCampaign(id: string): Promise<One<Campaign>> {
  return api(`/campaigns/${encodeURIComponent(id)}`, { silent: true });
}

export const campaignQueryOptions = (id: string) =>
  queryOptions({ queryKey: campaignKeys.one(id), queryFn: () => getCampaign(id), select: (r) => r.data, networkMode: 'always' });

export function useCampaign(id: string, enabled = true) {
  return useQuery({ ...campaignQueryOptions(id), enabled });
}

/** GET /campaign/mine: the caller's campaigns, every status, with their donations' totals. */
export function useMyCampaigns() {
  return useQuery({ queryKey: campaignKeys.mine, queryFn: () => api<Page<Campaign>>('/campaign/mine', { silent: true }), select: (r) => r.data });
}

/** GET /campaign/queue (trustee): SUBMITTED campaigns, oldest first. */
export function useCampaignQueue() {
  return useQuery({ queryKey: campaignKeys.queue, queryFn: () => api<Page<QueuedCampaign>>('/campaign/queue', { silent: true }), select: (r) => r.data });
}

/** GET /campaign/featured: the card the home page's third slide opens, or null. */
export function useFeaturedCampaign() {
  return useQuery({ queryKey: campaignKeys.featured, queryFn: () => api<{ success: boolean; data: CampaignCard | null }>('/campaign/featured', { silent: true }), select: (r) => r.data });
}

export const createCampaign = (draft: CampaignDraft & { beneficiaryId?: string }) => api<One<Campaign>>('/campaign', { method: 'POST', body: draft });

/** `images`: the campaign's own images to keep, by id, in the order to show them. */
export const updateCampaign = (id: string, draft: Partial<CampaignDraft> & { images?: string[] }) => api<One<Campaign>>(`/campaign/${encodeURIComponent(id)}`, { method: 'PATCH', body: draft });

/**
 * POST /campaign/:id/images: one image, its raw bytes as the body (the server decides its type by
 * them). A draft's image joins the campaign at once; an approved campaign's waits for an update.
 */
export const uploadCampaignImage = (id: string, file: Blob) => api<{ success: boolean } & CampaignImage>(`/campaign/${encodeURIComponent(id)}/images`, { method: 'POST', body: file });

export const submitCampaign = (id: string, note?: string) => api<One<Campaign>>(`/campaign/${encodeURIComponent(id)}/submit`, { method: 'POST', body: note ? { note } : {} });

/** The trustee's moves (docs/charity.md "A campaign": the state diagram). */
export type TrusteeMove = 'approve' | 'refuse' | 'pause' | 'resume' | 'close';

/** A refusal sends its `reason`; a pause or close its public reason as the move's `note`, when given. */
export const moveCampaign = (id: string, move: TrusteeMove, reason?: string) =>
  api<One<Campaign>>(`/campaign/${encodeURIComponent(id)}/${move}`, { method: 'POST', body: move === 'refuse' ? { reason } : reason ? { note: reason } : {} });

export const postCampaignUpdate = (id: string, update: Pick<CampaignUpdate, 'text'> & { images: string[] }) =>
  api<One<CampaignUpdate>>(`/campaign/${encodeURIComponent(id)}/updates`, { method: 'POST', body: update });

export const setFeaturedCampaign = (id: string | null) => api<{ success: boolean }>('/campaign/featured', { method: 'PUT', body: { id } });

/** Why a campaign looks wrong (docs/charity.md "Grievances": reports of campaigns). */
export type ReportReason = 'FRAUD' | 'WRONG_INFO' | 'OFFENSIVE' | 'OTHER';

/** POST /campaign/:id/report: anyone, guests too; the answer is the same whatever the campaign. */
export const reportCampaign = (id: string, report: { reason: ReportReason; text: string; contact?: string }) =>
  api<{ success: boolean; msg: string }>(`/campaign/${encodeURIComponent(id)}/report`, { method: 'POST', body: report });
