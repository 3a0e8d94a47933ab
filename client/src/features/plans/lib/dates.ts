import { formatDate as format } from '@/lib/intl-format';

/** A date in the interface language, in the app's style (lib/intl-format): "25 November 2025", "25 नवंबर 2025". */
export function formatDate(ms: number, lang: 'en' | 'hi'): string {
  return format(ms, lang, 'dateLong');
}

/** A date and time in the interface language, in the app's style (a receipt's payment time). */
export function formatDateTime(ms: number, lang: 'en' | 'hi'): string {
  return format(ms, lang, 'dateTime');
}
