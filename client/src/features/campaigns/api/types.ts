import type { Campaign as CampaignView, CampaignCard, CampaignCause, CampaignEvent, CampaignUpdate, NeedItem } from '@pm/protocol/campaign';

/**
 * The charity half's wire (docs/charity.md "A campaign", "API"; the shapes are sync-protocol's
 * campaign.ts). Every amount is integer paise, every time milliseconds; texts are `{ en, hi }`.
 */
export { CAMPAIGN_CAUSES as CAUSES, CAMPAIGN_SORTS, CAMPAIGN_STATUSES } from '@pm/protocol/campaign';
export type { Bilingual, CampaignCard, CampaignEvent, CampaignImage, CampaignSort, CampaignStatus, CampaignUpdate, NeedItem } from '@pm/protocol/campaign';
export type Cause = CampaignCause;

/** A recent donation as the public sees it: the donor's name, or "Anonymous" where they chose it. */
export type RecentDonation = { name: string; amount: number; at: number; anonymous?: boolean };

/**
 * A row of the campaign's public ledger (docs/charity.md "The split"): a donation's gross
 * `amount`, the trust's `share` and the `net` that reached the campaign. Rows without `share` and
 * `net` are shown by their kind and amount.
 */
export type LedgerLine = { at: number; amount: number; share?: number; net?: number; kind?: string };

/** GET /campaigns/:id: the campaign with its updates, recent donations and public ledger; its history for those who see inside. */
export type Campaign = CampaignView & {
  updates?: CampaignUpdate[];
  recentDonations?: RecentDonation[];
  ledger?: LedgerLine[];
  history?: CampaignEvent[];
};

/** A campaign of the trustee's queue, with the beneficiary's other campaigns. */
export type QueuedCampaign = CampaignView & { others?: CampaignCard[] };

/** What the draft editor sends (POST /campaign; PATCH /campaign/:id adds the images to keep, by id). */
export type CampaignDraft = { title: { en: string; hi: string }; story: { en: string; hi: string }; cause: Cause; need: NeedItem[]; endsAt: number };

/** The split of a donation (docs/charity.md "The split"), in paise. */
export type DonationSplit = { amount: number; share: number; toCampaign: number; shareBps?: number };

export type DonationForm = {
  campaignId: string;
  /** Rupees, as the payment step takes them. */
  amount: number;
  name: string;
  email: string;
  mobile: string;
  indianPassport: boolean;
  pan?: string;
  address?: string;
  anonymous?: boolean;
};
