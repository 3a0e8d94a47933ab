import { z } from 'zod';
import { idSchema } from './common';
import { MSG } from './messages';
import { hasUnsafeChars } from './text-rules';

/*
 * Campaigns of the charity half (docs/charity.md "A campaign" and "API"): the request schemas the
 * server parses and the client's forms share, and the shapes of the answers. Every amount is
 * integer paise.
 */

/** What a campaign raises money for. */
export const CAMPAIGN_CAUSES = ['EDUCATION', 'BOOKS', 'FEES', 'DEVICES', 'HEALTH', 'OTHER'] as const;
export type CampaignCause = (typeof CAMPAIGN_CAUSES)[number];

/** A campaign's states (docs/charity.md: the diagram; the moves are in the server's campaigns.machine.ts). */
export const CAMPAIGN_STATUSES = ['DRAFT', 'SUBMITTED', 'APPROVED', 'REFUSED', 'PAUSED', 'CLOSED'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];
/** The states anyone may read; the others are seen only by the owner, staff and trustees. */
export const PUBLIC_CAMPAIGN_STATUSES: readonly CampaignStatus[] = ['APPROVED', 'PAUSED', 'CLOSED'];

/** The spec's limit for a campaign image (docs/charity.md "A campaign"): PNG or JPEG, at most 5 MB (5 × 2²⁰ bytes). */
export const CAMPAIGN_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
/** Images a campaign shows, and images one update shows. */
export const CAMPAIGN_MAX_IMAGES = 10;
/** Things a need breakdown lists. */
export const CAMPAIGN_MAX_NEED_ITEMS = 20;
/**
 * The largest amount of one need item, in paise (₹1,000 crore). The FAQ puts no limit on a goal;
 * this bound only keeps the sum of twenty items an exact integer (below 2⁵³) on every engine.
 */
export const CAMPAIGN_MAX_ITEM_PAISE = 10_000_000_000_00;
/** Page size of the public list: 12 by default, at most 50. */
export const CAMPAIGN_PAGE_SIZE = 12;
export const CAMPAIGN_MAX_PAGE_SIZE = 50;

const singleLine = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .refine((v) => !hasUnsafeChars(v), { error: MSG.unsafeCharacters });

/** A short text in English (required) and Hindi (optional: '' when not given; shown when given). */
const shortText = (max: number) => z.strictObject({ en: singleLine(max).pipe(z.string().min(1)), hi: singleLine(max).default('') });
/** Rich text (sanitised on the server as a question's text is) in English (required) and Hindi. */
const richText = (max: number) => z.strictObject({ en: z.string().trim().min(1).max(max), hi: z.string().trim().max(max).default('') });

export const campaignTitleSchema = shortText(120);
export const campaignStorySchema = richText(20_000);

/** One thing the trust will buy: what, from whom (a shop, a school; optional), and its price in paise. */
export const needItemSchema = z.strictObject({
  what: shortText(200),
  from: singleLine(200).optional(),
  amount: z.int().min(1).max(CAMPAIGN_MAX_ITEM_PAISE),
});
export type NeedItem = z.output<typeof needItemSchema>;
export const needSchema = z.array(needItemSchema).min(1).max(CAMPAIGN_MAX_NEED_ITEMS);

/** A campaign's goal: the sum of its need (docs/charity.md: a goal must say what it pays for). */
export const goalOf = (need: readonly { amount: number }[]): number => need.reduce((sum, item) => sum + item.amount, 0);

/** A time in epoch milliseconds (whole, positive, within what a Date holds). */
const epochMs = z.int().min(1).max(8_640_000_000_000_000);

/**
 * POST /api/campaign: a new DRAFT. `beneficiaryId` (whose campaign it is) may be named by staff
 * (CREATE_CAMPAIGN) only; anyone else drafts their own. `endsAt` must be in the future when the
 * campaign is submitted, not before.
 */
export const campaignCreateSchema = z.strictObject({
  beneficiaryId: idSchema.optional(),
  title: campaignTitleSchema,
  story: campaignStorySchema,
  cause: z.enum(CAMPAIGN_CAUSES),
  need: needSchema,
  endsAt: epochMs,
});
export type CampaignCreate = z.output<typeof campaignCreateSchema>;

/**
 * PATCH /api/campaign/:id: the fields given replace the stored ones (a DRAFT or REFUSED campaign).
 * `images`: the campaign's own images to keep, in the order to show them (ids of its uploads).
 */
export const campaignEditSchema = z.strictObject({
  beneficiaryId: idSchema.optional(),
  title: campaignTitleSchema.optional(),
  story: campaignStorySchema.optional(),
  cause: z.enum(CAMPAIGN_CAUSES).optional(),
  need: needSchema.optional(),
  endsAt: epochMs.optional(),
  images: z.array(idSchema).max(CAMPAIGN_MAX_IMAGES).optional(),
});
export type CampaignEdit = z.output<typeof campaignEditSchema>;

/** A note with a move (submit's answer to a refusal; a trustee's note on approve, pause, resume, close). */
const noteSchema = z
  .string()
  .trim()
  .max(2000)
  .refine((v) => !hasUnsafeChars(v, { multiline: true }), { error: MSG.unsafeCharacters });

/** POST /api/campaign/:id/submit, /approve, /pause, /resume, /close: an optional note. */
export const campaignMoveSchema = z.strictObject({ note: noteSchema.optional() });
/** POST /api/campaign/:id/refuse: the reason is required; the owner sees it. */
export const campaignRefuseSchema = z.strictObject({ reason: noteSchema.pipe(z.string().min(1)) });

/** POST /api/campaign/:id/updates: what the money bought, with images uploaded to the campaign for it. */
export const campaignUpdatePostSchema = z.strictObject({
  text: campaignStorySchema,
  images: z.array(idSchema).max(CAMPAIGN_MAX_IMAGES).default([]),
});

/** PUT /api/campaign/featured: the campaign the home page's third slide opens, or null for none. */
export const campaignFeaturedSchema = z.strictObject({ id: idSchema.nullable() });

export const CAMPAIGN_SORTS = ['newest', 'nearly-funded', 'ending-soon'] as const;
export type CampaignSort = (typeof CAMPAIGN_SORTS)[number];

/** GET /api/campaigns?q&cause&sort&page&size: `q` searches the titles in both languages. */
export const campaignListQuerySchema = z.strictObject({
  q: z.string().trim().max(100).optional(),
  cause: z.enum(CAMPAIGN_CAUSES).optional(),
  sort: z.enum(CAMPAIGN_SORTS).default('newest'),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  size: z.coerce.number().int().min(1).max(CAMPAIGN_MAX_PAGE_SIZE).default(CAMPAIGN_PAGE_SIZE),
});

export type Bilingual = { en: string; hi: string };
export type CampaignImage = { id: string; url: string };

/** A campaign in a list (the public list, the featured slide). */
export type CampaignCard = {
  id: string;
  title: Bilingual;
  cause: CampaignCause;
  goal: number;
  /** Paise received, the trust's share included (docs/charity.md "The ledger"). */
  raised: number;
  donors: number;
  endsAt: number;
  status: CampaignStatus;
  /** The address of the first image, or null. */
  image: string | null;
};

/** One step of a campaign's history (docs/charity.md "A campaign"). */
export type CampaignEvent = {
  id: string;
  /** create, edit, submit, approve, refuse, pause, resume, close */
  action: string;
  from: CampaignStatus | null;
  to: CampaignStatus;
  /** The refusal's reason, or the note given with the move. */
  note: string | null;
  actor: { id: string; name: string } | null;
  at: number;
};

export type CampaignUpdate = { id: string; campaignId: string; authorId: string | null; authorName: string | null; text: Bilingual; images: CampaignImage[]; createdAt: number };

/** A campaign as its owner, staff and trustees (and, when public, anyone) read it. */
export type Campaign = {
  id: string;
  beneficiaryId: string | null;
  beneficiaryName: string | null;
  trustId: string;
  title: Bilingual;
  story: Bilingual;
  cause: CampaignCause;
  need: NeedItem[];
  goal: number;
  endsAt: number;
  images: CampaignImage[];
  status: CampaignStatus;
  /** The last refusal's reason (null until refused). */
  reason: string | null;
  createdBy: string | null;
  createdAt: number;
  updatedAt: number;
  submittedAt: number | null;
  approvedAt: number | null;
  approvedBy: string | null;
  raised: number;
  donors: number;
};

/** The most a trust may keep of a donation: the FAQ's 10 % (docs/charity.md "The split"). */
export const TRUST_MAX_SHARE_BPS = 1000;
/** The most a trust may keep of foreign contributions: the law's 20 % cap on their administrative use (docs/charity.md "Foreign contributions"). */
export const TRUST_MAX_FC_SHARE_CAP_BPS = 2000;

/** A trust as its settings hold it (docs/charity.md "Receipts"): what receipts print and the share it keeps. */
export const trustSchema = z.strictObject({
  /** Starts its receipt numbers: 2 to 10 capital letters or digits. */
  code: z.string().regex(/^[A-Z0-9]{2,10}$/, { error: MSG.trustCode }),
  name: z.strictObject({ en: singleLine(200).pipe(z.string().min(1)), hi: singleLine(200).pipe(z.string().min(1)) }),
  address: singleLine(300).pipe(z.string().min(1)),
  registrationNo: singleLine(100).pipe(z.string().min(1)),
  /** The Permanent Account Number: five letters, four digits, a letter. */
  pan: z.string().regex(/^[A-Z]{5}[0-9]{4}[A-Z]$/, { error: MSG.trustPan }),
  approval80g: singleLine(100).pipe(z.string().min(1)),
  fcraRegistered: z.boolean().default(false),
  shareBps: z.int({ error: MSG.trustShareMax }).min(0, { error: MSG.trustShareMax }).max(TRUST_MAX_SHARE_BPS, { error: MSG.trustShareMax }).default(600),
  /** The cap of its share of a foreign contribution, basis points: the share is min(shareBps, fcShareCapBps). */
  fcShareCapBps: z.int({ error: MSG.trustFcShareCap }).min(0, { error: MSG.trustFcShareCap }).max(TRUST_MAX_FC_SHARE_CAP_BPS, { error: MSG.trustFcShareCap }).default(TRUST_MAX_FC_SHARE_CAP_BPS),
});
