import { useTranslation } from 'react-i18next';
import type { Lang } from '../lib/campaign-lib';

/** The interface language as the campaign texts are picked in. */
export function useLang(): Lang {
  const { i18n } = useTranslation();
  return (i18n.resolvedLanguage ?? i18n.language) === 'hi' ? 'hi' : 'en';
}
