import dayjs from 'dayjs';
import 'dayjs/locale/hi';

/** A date in the interface language: "25 November 2025", "25 नवंबर 2025". */
export function formatDate(ms: number, lang: 'en' | 'hi'): string {
  return dayjs(ms).locale(lang).format('D MMMM YYYY');
}

/** A date and time in the interface language (a receipt's payment time). */
export function formatDateTime(ms: number, lang: 'en' | 'hi'): string {
  return dayjs(ms).locale(lang).format('D MMMM YYYY, HH:mm');
}
