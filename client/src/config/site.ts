import { DEFAULT_TRUST_NAME, TRUST_NAME_META } from '@pm/protocol/site';

const STORAGE_KEY = 'pm-trust-name';
type Names = { en: string; hi: string };

/**
 * The trust's name as this installation configures it (docs/configuration.md: TRUST_NAME). The
 * server writes it into every page it sends as `<meta name="pm-trust-name" content="…"
 * data-hi="…">` when it differs from the demo's; the app keeps the last one it saw for the pages
 * the service worker serves offline, and uses the demo's name otherwise (and at build time).
 */
function readNames(): Names {
  if (typeof document === 'undefined') return DEFAULT_TRUST_NAME;
  const meta = document.querySelector<HTMLMetaElement>(`meta[name="${TRUST_NAME_META}"]`);
  try {
    if (meta?.content && meta.dataset.hi) {
      const names = { en: meta.content, hi: meta.dataset.hi };
      localStorage.setItem(STORAGE_KEY, JSON.stringify(names));
      return names;
    }
    const kept = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null') as Partial<Names> | null;
    if (kept && typeof kept.en === 'string' && typeof kept.hi === 'string') return { en: kept.en, hi: kept.hi };
  } catch {
    // Storage refused or unreadable: the page's own or the demo's name.
    if (meta?.content && meta.dataset.hi) return { en: meta.content, hi: meta.dataset.hi };
  }
  return DEFAULT_TRUST_NAME;
}

const names = readNames();

/** The trust's name in `lang` (the locale files write it as {{trust}}, lib/i18n). */
export function trustName(lang: string): string {
  return lang.startsWith('hi') ? names.hi : names.en;
}
