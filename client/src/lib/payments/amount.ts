import { numberFormat } from '@/lib/intl-format';

/** docs/glossary.md "Fixed values": minimum payment amount 1 (rupee). */
export const MIN_PAYMENT_AMOUNT = 1;

/** The amount must be a number of at least 1, else 'Invalid amount!!!'. */
export function isPayableAmount(amount: unknown): boolean {
  const n = typeof amount === 'number' ? amount : typeof amount === 'string' && amount.trim() ? Number(amount) : Number.NaN;
  return Number.isFinite(n) && n >= MIN_PAYMENT_AMOUNT;
}

/** Whole rupees with the Indian grouping: ₹720, ₹1,00,000. */
export function formatRupees(amount: number, lang: 'en' | 'hi'): string {
  return numberFormat(lang === 'hi' ? 'hi-IN' : 'en-IN', { style: 'currency', currency: 'INR', maximumFractionDigits: 0 }).format(amount);
}

/** Paise as rupees with the Indian grouping: 15000 → ₹150, 123456 → ₹1,234.56. */
export function formatPaise(paise: number, lang: 'en' | 'hi'): string {
  const whole = paise % 100 === 0;
  return numberFormat(lang === 'hi' ? 'hi-IN' : 'en-IN', {
    style: 'currency',
    currency: 'INR',
    minimumFractionDigits: whole ? 0 : 2,
    maximumFractionDigits: whole ? 0 : 2,
  }).format(paise / 100);
}
