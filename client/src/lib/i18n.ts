import i18n from 'i18next';
import resourcesToBackend from 'i18next-resources-to-backend';
import { initReactI18next } from 'react-i18next';
import { loadDevanagariFonts } from './fonts';
import { trustName } from '../config/site';
import { LANGUAGE_COOKIE } from '@pm/protocol/language-cookie';
import enCommon from '../locales/en/common.json';

/** The app's languages (docs/glossary.md "Languages"); English is the default. */
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
 * have every key. Only English `common` ships with the first page (bundle budget); Hindi
 * `common` is fetched before the first render when Hindi is the stored choice (see
 * `languageReady`), `messages` on the first server message, and every other namespace with the
 * page that needs it (and precached by the service worker later).
 */
const initialLanguage = storedLanguage();

/**
 * `<html lang>` names the language on screen (docs/exams.md "Accessibility"): screen readers pick their voice by
 * it, and browsers their hyphenation and fonts. index.html says `en`; it is set from the stored
 * choice here, when this module is first evaluated, before React renders anything (main.tsx
 * waits for `languageReady`), and again on every change below. (An inline script in index.html
 * would run even earlier, but the site's Content-Security-Policy allows no inline script, and
 * until React renders the page shows nothing to read.)
 */
function applyLanguage(lng: string) {
  if (typeof document === 'undefined') return;
  document.documentElement.lang = lng;
  // The server answers `/` with the home page drawn in English at build time, except to a reader
  // who chose Hindi: it learns the choice from this cookie (server/src/lib/client-files.ts).
  document.cookie = `${LANGUAGE_COOKIE}=${lng}; path=/; max-age=31536000; SameSite=Lax${location.protocol === 'https:' ? '; Secure' : ''}`;
}
applyLanguage(initialLanguage);

const i18nReady: Promise<unknown> = i18n
  .use(resourcesToBackend((lng: string, ns: string) => import(`../locales/${lng}/${ns}.json`)))
  .use(initReactI18next)
  .init({
    resources: { en: { common: enCommon } },
    partialBundledLanguages: true,
    lng: initialLanguage,
    fallbackLng: 'en',
    supportedLngs: ['en', 'hi'],
    ns: ['common'],
    defaultNS: 'common',
    interpolation: {
      escapeValue: false,
      // {{trust}} in any string is the installation's trust, in the language being drawn
      // (config/site; docs/configuration.md: TRUST_NAME). A getter, so it follows a switch.
      defaultVariables: {
        get trust() {
          return trustName(i18n.resolvedLanguage ?? i18n.language ?? 'en');
        },
      },
    },
    react: { useSuspense: true },
  });

/**
 * Changes the language once its strings and fonts are there, so that the page switches in one
 * step (the choice persists, see below).
 */
export async function switchLanguage(lng: AppLanguage): Promise<void> {
  if (lng === 'hi') await Promise.all([loadDevanagariFonts(), i18n.loadLanguages(lng)]);
  await i18n.changeLanguage(lng);
}

/** Resolves when the stored language's strings (and, for Hindi, fonts) are ready for a first render. */
export function languageReady(): Promise<unknown> {
  return Promise.all([i18nReady, initialLanguage === 'hi' ? loadDevanagariFonts() : undefined]);
}

i18n.on('languageChanged', (lng) => {
  localStorage.setItem(STORAGE_KEY, lng);
  applyLanguage(lng);
});

export default i18n;
