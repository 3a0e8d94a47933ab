import { MAX_AMOUNT_RUPEES, MIN_AMOUNT_RUPEES } from '@pm/protocol/payment';
import { isEmail, PAN_PATTERN } from './campaign-lib';

/** The donation form's values as typed (the amount in rupees, as text: "51" or "51.50"). */
export type DonationValues = {
  amount: string;
  name: string;
  email: string;
  mobile: string;
  /** '' until the donor answers. */
  indianPassport: '' | 'yes' | 'no';
  pan: string;
  address: string;
  /** A foreign donor's country (ISO 3166-1 alpha-2), asked only when the passport answer is no. */
  country: string;
  anonymous: boolean;
};

/** Error keys of the campaign namespace; the inputs translate them, so they follow a change of language. */
export type DonationErrorKey =
  | 'donate.errors.invalidAmount'
  | 'donate.errors.amountMin'
  | 'donate.errors.amountMax'
  | 'donate.errors.name'
  | 'donate.errors.email'
  | 'donate.errors.mobile'
  | 'donate.errors.passport'
  | 'donate.errors.pan'
  | 'donate.errors.country';

/** Rupees with at most two decimals, as the server takes a donation's amount (sync-protocol payment: AMOUNT_TEXT). */
const AMOUNT_TEXT = /^\d{1,9}(\.\d{1,2})?$/;

/** The typed amount in rupees, or null when it is not one. */
export function parseRupees(text: string): number | null {
  const v = text.trim();
  return AMOUNT_TEXT.test(v) ? Number(v) : null;
}

/**
 * The amount's rule, in the app's words (docs/payments.md): not a number 'Invalid amount!!!', below
 * ₹1 'Amount cannot be less than 1', above one order's largest amount 'Invalid amount!!!' too,
 * said as the limit.
 */
export function amountError(text: string): DonationErrorKey | null {
  const rupees = parseRupees(text);
  if (rupees === null) return 'donate.errors.invalidAmount';
  if (rupees < MIN_AMOUNT_RUPEES) return 'donate.errors.amountMin';
  if (rupees > MAX_AMOUNT_RUPEES) return 'donate.errors.amountMax';
  return null;
}

export const donationRules = {
  amount: amountError,
  name: (v: string): DonationErrorKey | null => (v.trim() ? null : 'donate.errors.name'),
  email: (v: string): DonationErrorKey | null => (isEmail(v) ? null : 'donate.errors.email'),
  mobile: (v: string): DonationErrorKey | null => (/^\d{10}$/.test(v) ? null : 'donate.errors.mobile'),
  indianPassport: (v: string): DonationErrorKey | null => (v === 'yes' || v === 'no' ? null : 'donate.errors.passport'),
  pan: (v: string): DonationErrorKey | null => (!v.trim() || PAN_PATTERN.test(v.trim().toUpperCase()) ? null : 'donate.errors.pan'),
  // Required of a donor without an Indian passport (docs/charity.md "Foreign contributions").
  country: (v: string, values: Pick<DonationValues, 'indianPassport'>): DonationErrorKey | null => (values.indianPassport !== 'no' || v ? null : 'donate.errors.country'),
};

/**
 * The countries a foreign donor chooses from, by their names in the reader's language (the
 * browser's own list of names), alphabetically; India is not one (the donor names where they live).
 */
export function countryOptions(codes: readonly string[], lang: string): { value: string; label: string }[] {
  const names = new Intl.DisplayNames([lang === 'hi' ? 'hi' : 'en'], { type: 'region', fallback: 'code' });
  return codes
    .filter((c) => c !== 'IN')
    .map((c) => ({ value: c, label: names.of(c) ?? c }))
    .sort((a, b) => a.label.localeCompare(b.label, lang));
}

/** What the mobile field keeps: digits only, at most 10; a pasted +91 or trunk 0 is dropped. */
export function mobileDigits(raw: string): string {
  const digits = raw.replace(/\D/g, '');
  if (digits.length === 12 && digits.startsWith('91')) return digits.slice(2);
  if (digits.length === 11 && digits.startsWith('0')) return digits.slice(1);
  return digits.slice(0, 10);
}

/** The trust's share as a percentage for the terms' sentence: the quote's basis points, else its figures. */
export function sharePercent(split: { amount: number; share: number; shareBps?: number }): string {
  const bps = split.shareBps ?? (split.amount > 0 ? Math.round((split.share * 10000) / split.amount) : 0);
  return String(Math.round(bps) / 100);
}
