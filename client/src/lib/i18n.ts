import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import enCommon from '../locales/en/common.json';
import hiCommon from '../locales/hi/common.json';

export const LANGUAGES = [
  { value: 'en', displayName: 'English' },
  { value: 'hi', displayName: 'हिन्दी' },
] as const;
export type AppLanguage = (typeof LANGUAGES)[number]['value'];

const STORAGE_KEY = 'lang';

/** English resources are the source of truth; Hindi has every key (CONVENTIONS rule 8). */
export const resources = {
  en: { common: enCommon },
  hi: { common: hiCommon },
} as const;

function storedLanguage(): AppLanguage {
  const v = typeof localStorage === 'undefined' ? null : localStorage.getItem(STORAGE_KEY);
  return v === 'hi' ? 'hi' : 'en';
}

void i18n.use(initReactI18next).init({
  resources,
  lng: storedLanguage(),
  fallbackLng: 'en',
  defaultNS: 'common',
  interpolation: { escapeValue: false },
});

i18n.on('languageChanged', (lng) => {
  localStorage.setItem(STORAGE_KEY, lng);
  document.documentElement.lang = lng;
});
document.documentElement.lang = i18n.language;

export default i18n;
