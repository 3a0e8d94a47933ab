import { PAGE_DATA_ELEMENT_ID, type PageData } from '@pm/protocol/page-data';

let parsed: PageData | null | undefined;

/**
 * One field of the data the server drew this page with (server/src/lib/rendered-pages.ts), and
 * when it was read (the server reads it when the page is asked for: the page's navigation start),
 * so that the app's first render draws what the markup shows and hydrates it. Nothing when the
 * page came without data (the shell, the service worker's copy, a test).
 */
export function pageData<K extends keyof PageData>(key: K): { value: NonNullable<PageData[K]>; at: number } | undefined {
  if (parsed === undefined) parsed = readPageData();
  const value = parsed?.[key];
  return value != null ? { value, at: Math.round(performance.timeOrigin) } : undefined;
}

function readPageData(): PageData | null {
  if (typeof document === 'undefined') return null;
  const text = document.getElementById(PAGE_DATA_ELEMENT_ID)?.textContent;
  if (!text) return null;
  try {
    const data = JSON.parse(text) as PageData;
    return typeof data === 'object' && data !== null ? data : null;
  } catch {
    return null;
  }
}
