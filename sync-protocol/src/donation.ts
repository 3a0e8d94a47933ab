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
  anonymous: z.boolean().default(false),
  redirection_url: z.string().max(500).optional(),
});
export type DonationStart = z.output<typeof donationStartSchema>;

/** GET /api/donation/quote?campaignId&amount */
export const donationQuoteSchema = z.strictObject({ campaignId: z.string().trim().min(1).max(64), amount: donationRupees });

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

/** GET /api/donation/export?fy=2026-27 */
export const donationExportSchema = z.strictObject({ fy: z.string().regex(/^\d{4}-\d{2}$/, { error: MSG.donationFinancialYear }) });

/** The split as the donor sees it before paying (paise). */
export type DonationQuote = { amount: number; share: number; toCampaign: number; shareBps: number; trust: { name: { en: string; hi: string }; fcraRegistered: boolean } };

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
