import type { Campaign as CampaignView, CampaignCard, CampaignCause, CampaignEvent, CampaignUpdate, NeedItem } from '@pm/protocol/campaign';

/**
 * The charity half's wire (docs/charity.md "A campaign", "API"; the shapes are sync-protocol's
 * campaign.ts). Every amount is integer paise, every time milliseconds; texts are `{ en, hi }`.
 */
export { CAMPAIGN_CAUSES as CAUSES, CAMPAIGN_SORTS, CAMPAIGN_STATUSES } from '@pm/protocol/campaign';
export type { Bilingual, CampaignCard, CampaignEvent, CampaignImage, CampaignSort, CampaignStatus, CampaignUpdate, NeedItem } from '@pm/protocol/campaign';
export type Cause = CampaignCause;

/** A recent donation as the public sees it (paise): the donor's name, or "Anonymous" where they chose it. */
export type RecentDonation = { name: string; amount: number; at: number };

/**
 * A row of the campaign's public ledger (docs/charity.md "The ledger"), paise: one DONATION or
 * REFUND movement, `gross` what the donor paid (negative for a refund; `amount` is the same),
 * the trust's `share` of it, the `net` that reached the campaign, and the donor's name or
 * "Anonymous"; `foreign` marks a foreign contribution (docs/charity.md "Foreign contributions").
 */
export type LedgerLine = { kind: string; amount: number; gross: number; share: number; net: number; donor: string; at: number; foreign?: boolean };

/** GET /campaigns/:id: the campaign with its updates, recent donations and public ledger; its history for those who see inside. */
export type Campaign = CampaignView & {
  updates?: CampaignUpdate[];
  recentDonations?: RecentDonation[];
  ledger?: LedgerLine[];
  history?: CampaignEvent[];
  /** Whether it takes donations now (approved, not ended, its beneficiary not suspended). */
  takingDonations?: boolean;
  /** A paused or closed campaign: the trustee's note of that move, shown as the public reason. */
  publicReason?: string | null;
};

/** A campaign of the trustee's queue, with the beneficiary's other campaigns. */
export type QueuedCampaign = CampaignView & { others?: CampaignCard[] };

/** What the draft editor sends (POST /campaign; PATCH /campaign/:id adds the images to keep, by id). */
export type CampaignDraft = { title: { en: string; hi: string }; story: { en: string; hi: string }; cause: Cause; need: NeedItem[]; endsAt: number };
