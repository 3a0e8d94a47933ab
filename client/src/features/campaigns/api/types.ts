/**
 * The charity half's wire as docs/charity.md describes it ("A campaign", "API"). Every amount is
 * integer paise, every time milliseconds; texts are `{ en, hi }`.
 */
export const CAUSES = ['EDUCATION', 'BOOKS', 'FEES', 'DEVICES', 'HEALTH', 'OTHER'] as const;
export type Cause = (typeof CAUSES)[number];

export const CAMPAIGN_STATUSES = ['DRAFT', 'SUBMITTED', 'APPROVED', 'REFUSED', 'PAUSED', 'CLOSED'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/** `GET /campaigns` sorts (docs/charity.md "API"); `newest` is the server's default. */
export const CAMPAIGN_SORTS = ['newest', 'nearly-funded', 'ending-soon'] as const;
export type CampaignSort = (typeof CAMPAIGN_SORTS)[number];

export type Bilingual = { en: string; hi: string };

/** One thing the trust will buy; `from` is the shop or supplier when known. */
export type NeedItem = { what: Bilingual; from?: string; amount: number };

/** A card of `GET /campaigns` and `GET /campaign/featured`. */
export type CampaignCard = {
  id: string;
  title: Bilingual;
  cause: Cause;
  goal: number;
  raised: number;
  donors: number;
  endsAt: number;
  status: CampaignStatus;
  /** The first image's id (docs/charity.md: "first image"), when the campaign has one. */
  image?: string | null;
  images?: string[];
};

export type CampaignUpdate = { id: string; campaignId: string; authorId: string; text: Bilingual; images: string[]; createdAt: number };

/** A recent donation as the public sees it: the name, or "Anonymous" where the donor chose it. */
export type RecentDonation = { name: string; anonymous?: boolean; amount: number; at: number };

/** One donation's line of the campaign's public ledger: gross, the trust's share, what reached the campaign. */
export type LedgerLine = { at: number; amount: number; share: number; net: number; name?: string };

/** A step of the campaign's history (docs/charity.md: who, when, from, to, reason or note). */
export type HistoryStep = { at: number; by?: string; byName?: string; from: CampaignStatus | null; to: CampaignStatus; reason?: string; note?: string };

export type Campaign = CampaignCard & {
  beneficiaryId: string;
  trustId?: string;
  story: Bilingual;
  need: NeedItem[];
  images: string[];
  reason?: string | null;
  createdAt: number;
  updatedAt?: number;
  approvedAt?: number | null;
  updates?: CampaignUpdate[];
  recentDonations?: RecentDonation[];
  ledger?: LedgerLine[];
  history?: HistoryStep[];
  /** Net of the trust's share (docs/charity.md "The ledger"). */
  net?: number;
};

/** A campaign of `GET /campaign/mine`: every status, with its donations' totals. */
export type MyCampaign = Campaign;

/** A campaign of the trustee's queue, with the beneficiary's other campaigns. */
export type QueuedCampaign = Campaign & { beneficiary?: { id: string; name: string; mobile?: string }; others?: CampaignCard[] };

/** What a draft editor sends (`POST /campaign`, `PATCH /campaign/:id`); the goal is the server's sum of `need`. */
export type CampaignDraft = {
  title: Bilingual;
  story: Bilingual;
  cause: Cause;
  need: NeedItem[];
  endsAt: number;
  images: string[];
};

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
