import { numberFormat } from '@/lib/intl-format';

/** Marks as learners read them: whole numbers plain, fractions with up to two decimals. */
export function formatMarks(n: number, lang: string): string {
  return numberFormat(lang === 'hi' ? 'hi-IN' : 'en-IN', { maximumFractionDigits: 2 }).format(n);
}
