import i18n from 'i18next';
import resourcesToBackend from 'i18next-resources-to-backend';
import { initReactI18next } from 'react-i18next';
import enCommon from '../locales/en/common.json';
import enMessages from '../locales/en/messages.json';
import hiCommon from '../locales/hi/common.json';
import hiMessages from '../locales/hi/messages.json';

/** The app's languages (spec §3); English is the default. */
export const LANGUAGES = [
  { value: 'en', displayName: 'English' },
  { value: 'hi', displayName: 'हिन्दी' },
] as const;
export type AppLanguage = (typeof LANGUAGES)[number]['value'];

const STORAGE_KEY = 'lang';

function storedLanguage(): AppLanguage {
  const v = typeof localStorage === 'undefined' ? null : localStorage.getItem(STORAGE_KEY);
  return v === 'hi' ? 'hi' : 'en';
}

/**
 * English resources are the source of truth and type the keys (lib/i18next.d.ts); Hindi files
 * have every key. `common` and `messages` ship with the first page; the other namespaces are
 * fetched with the page that needs them (and precached by the service worker later).
 */
void i18n
  .use(resourcesToBackend((lng: string, ns: string) => import(`../locales/${lng}/${ns}.json`)))
  .use(initReactI18next)
  .init({
    resources: {
      en: { common: enCommon, messages: enMessages },
      hi: { common: hiCommon, messages: hiMessages },
    },
    partialBundledLanguages: true,
    lng: storedLanguage(),
    fallbackLng: 'en',
    supportedLngs: ['en', 'hi'],
    ns: ['common', 'messages'],
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    react: { useSuspense: true },
  });

function applyLanguage(lng: string) {
  if (typeof document !== 'undefined') document.documentElement.lang = lng;
}
i18n.on('languageChanged', (lng) => {
  localStorage.setItem(STORAGE_KEY, lng);
  applyLanguage(lng);
});
applyLanguage(i18n.language);

export default i18n;
