import { z } from 'zod';
import { MSG } from './messages';
import { MAX_AMOUNT_RUPEES, MIN_AMOUNT_RUPEES, providerSchema } from './payment';

/*
 * Donations to a campaign (docs/charity.md "Donations", "The split", "Receipts"): what the donor
 * sends, the split the donor sees before paying (computed here, the same on both sides), and the
 * financial year receipts are numbered in.
 */

/** The most a trust may keep of a donation: the FAQ's "never above 10 percent", in basis points. */
export const MAX_SHARE_BPS = 1000;

/**
 * A donation of `amount` paise to a trust keeping `shareBps` basis points: the trust's share is
 * rounded half up to the paisa once, and the campaign gets the exact rest.
 */
export function splitDonation(amount: number, shareBps: number): { amount: number; share: number; toCampaign: number } {
  const share = Math.floor((amount * shareBps + 5000) / 10000);
  return { amount, share, toCampaign: amount - share };
}

/**
 * The split of a foreign contribution (docs/charity.md "Foreign contributions"): the trust keeps
 * min(shareBps, fcShareCapBps), rounded down to the paisa, so that no donation and no year's sum
 * of them is ever above the cap the law sets on administrative use.
 */
export function splitForeignDonation(amount: number, shareBps: number, fcShareCapBps: number): { amount: number; share: number; toCampaign: number; shareBps: number } {
  const bps = Math.min(shareBps, fcShareCapBps);
  const share = Math.floor((amount * bps) / 10000);
  return { amount, share, toCampaign: amount - share, shareBps: bps };
}

/**
 * The countries a foreign donor may name: ISO 3166-1 alpha-2 codes (the client shows each by
 * its name in the reader's language, Intl.DisplayNames). India is refused separately: a donor
 * without an Indian passport names where they live.
 */
export const COUNTRY_CODES: readonly string[] = (
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV ' +
  'CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM ' +
  'IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW ' +
  'MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ' +
  'ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'
).split(' ');
const COUNTRIES = new Set(COUNTRY_CODES);

/** A country code as typed: spaces and lower case forgiven, then one of COUNTRY_CODES. */
export const countrySchema = z
  .string()
  .trim()
  .transform((v) => v.toUpperCase())
  .pipe(z.string().refine((v) => COUNTRIES.has(v), { error: MSG.donationCountryFormat }));

/** India's financial year of a time (April to March, India time): '2026-27'. */
export function financialYearOf(ms: number): string {
  const ist = new Date(ms + 5.5 * 3600_000);
  const y = ist.getUTCFullYear();
  const start = ist.getUTCMonth() >= 3 ? y : y - 1;
  return `${start}-${String((start + 1) % 100).padStart(2, '0')}`;
}

/** A PAN: five letters, four digits, one letter (upper case; spaces and lower case are forgiven). */
export const PAN_PATTERN = /^[A-Z]{5}[0-9]{4}[A-Z]$/;

const AMOUNT_TEXT = /^\d{1,9}(\.\d{1,2})?$/;
/** Rupees, as a number or a text of digits with at most two decimals (as createDummyOrder takes it). */
export const donationRupees = z
  .union([z.number(), z.string().regex(AMOUNT_TEXT, { error: MSG.invalidAmount }).transform(Number)])
  .pipe(z.number().finite({ error: MSG.invalidAmount }).min(MIN_AMOUNT_RUPEES, { error: MSG.amountMin }).max(MAX_AMOUNT_RUPEES, { error: MSG.invalidAmount }));

/** POST /api/donation: who gives what to which campaign. */
export const donationStartSchema = z.strictObject({
  campaignId: z.string().trim().min(1).max(64),
  amount: donationRupees,
  name: z.string().trim().min(1, { error: MSG.fullName }).max(100),
  email: z.email({ error: MSG.validEmail }).max(200),
  mobile: z.string().trim().regex(/^(\+91)?[6-9]\d{9}$/, { error: MSG.validMobile }),
  /** Whether the donor holds an Indian passport (docs/charity.md: the foreign-contribution rule). */
  indianPassport: z.boolean({ error: MSG.donationPassportRequired }),
  pan: z
    .string()
    .trim()
    .transform((v) => v.replace(/\s+/g, '').toUpperCase())
    .pipe(z.string().regex(PAN_PATTERN, { error: MSG.donationPanFormat }))
    .optional(),
  address: z.string().trim().max(500).optional(),
  /** Where a donor without an Indian passport lives (ISO 3166-1 alpha-2): required of them, not kept for anyone else. */
  country: countrySchema.optional(),
  anonymous: z.boolean().default(false),
  redirection_url: z.string().max(500).optional(),
}).superRefine((d, ctx) => {
  // A foreign donor names their country, and it is not India (docs/charity.md "Foreign contributions").
  if (d.indianPassport === false && d.country === undefined) ctx.addIssue({ code: 'custom', path: ['country'], message: MSG.donationCountryRequired });
  if (d.indianPassport === false && d.country === 'IN') ctx.addIssue({ code: 'custom', path: ['country'], message: MSG.donationCountryIndia });
});
export type DonationStart = z.output<typeof donationStartSchema>;

/** A yes-or-no in a query string: `true`/`1` or `false`/`0`. */
const queryFlag = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/** GET /api/donation/quote?campaignId&amount&indianPassport (absent: an Indian passport, the domestic split). */
export const donationQuoteSchema = z.strictObject({ campaignId: z.string().trim().min(1).max(64), amount: donationRupees, indianPassport: queryFlag.default(true) });

/** POST /api/donation/:orderId/pay */
export const donationPaySchema = z.strictObject({
  token: z.string().max(200).optional(),
  provider: providerSchema.optional(),
  redirectUrl: z.string().max(500).optional(),
});

/** GET /api/donation/list?campaignId&q&page&size (staff): newest first. */
export const donationListSchema = z.strictObject({
  campaignId: z.string().trim().min(1).max(64).optional(),
  /** Found in the donor's name, e-mail or mobile, or the receipt number. */
  q: z.string().trim().max(100).optional(),
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(100).default(20),
});

/** A donation in the staff's list (paise). */
/**
 * A donation as staff list it: the donor's contact, and `refundDue`, paise captured for it that
 * paid nothing and are owed back (a double debit, flagged REFUND_DUE; docs/charity.md "Moderation").
 */
export type DonationListRow = DonationView & { email: string; mobile: string; refundDue: number };

const financialYear = z.string().regex(/^\d{4}-\d{2}$/, { error: MSG.donationFinancialYear });

/** GET /api/donation/export?fy=2026-27&foreign=1: the domestic (Form 10BD) or the foreign contributions' export. */
export const donationExportSchema = z.strictObject({ fy: financialYear, foreign: queryFlag.default(false) });

/** GET /api/donation/foreign-summary?fy=2026-27 */
export const foreignSummarySchema = z.strictObject({ fy: financialYear });

/** A trust's foreign contributions of a financial year (paise): what it received, the share it kept, its cap. */
export type ForeignSummaryRow = {
  trust: { id: string; code: string; name: { en: string; hi: string }; fcraRegistered: boolean };
  /** Paid foreign contributions of the year, refunds taken off. */
  received: number;
  donations: number;
  /** The trust's share of them (fc-share and fc-running). */
  shareKept: number;
  capBps: number;
  /** share kept ≤ received × cap. */
  withinCap: boolean;
};

/** The split as the donor sees it before paying (paise); `foreign` when it is a foreign contribution's (the capped share). */
export type DonationQuote = {
  amount: number;
  share: number;
  toCampaign: number;
  shareBps: number;
  foreign: boolean;
  trust: { name: { en: string; hi: string }; fcraRegistered: boolean; fcShareCapBps: number };
};

/** A donation as its donor sees it (GET /api/donation/:orderId, /donation/mine). Paise. */
export type DonationView = {
  orderId: string;
  status: string;
  campaign: { id: string; title: { en: string; hi: string } };
  amount: number;
  share: number;
  toCampaign: number;
  name: string;
  anonymous: boolean;
  /** A foreign contribution: the donor holds no Indian passport (docs/charity.md "Foreign contributions"). */
  foreign: boolean;
  /** The foreign donor's country (ISO 3166-1 alpha-2); null for the others. */
  country: string | null;
  createdAt: number;
  paidAt: number | null;
  receiptNo: string | null;
};

/** A donation's tax receipt (docs/charity.md "Receipts"). Paise. */
export type DonationReceipt = {
  receiptNo: string;
  financialYear: string;
  trust: { name: { en: string; hi: string }; address: string; registrationNo: string; pan: string; approval80g: string };
  donor: { name: string; address: string | null; pan: string | null; email: string; mobile: string };
  campaign: { id: string; title: { en: string; hi: string } };
  amount: number;
  amountInWords: { en: string; hi: string };
  mode: string;
  paidAt: number;
  sandbox: boolean;
};
