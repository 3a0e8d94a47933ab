import { useTranslation } from 'react-i18next';
import { type DateStyle, formatDate } from '../lib/intl-format';

/** `formatDate` in the reader's language (lib/intl-format): the one way screens show a date. */
export function useFormatDate(): (value: number | Date | string, style?: DateStyle, timeZone?: string) => string {
  const { i18n } = useTranslation();
  const lang = i18n.resolvedLanguage ?? i18n.language;
  return (value, style = 'dateTime', timeZone) => formatDate(value, lang, style, timeZone);
}
