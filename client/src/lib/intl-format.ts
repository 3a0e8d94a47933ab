/**
 * Number, date and relative-time formatters, made once per locale and options and then shared.
 * Making one (`new Intl.NumberFormat(…)`) loads the locale's data and costs milliseconds on a
 * phone; the exam list made several on each of its many renders while the replica opened
 * (docs/benchmarks.md "bench:lighthouse": total blocking time). A formatter holds no state, so sharing one is safe.
 */
const cache = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat | Intl.RelativeTimeFormat>();

function cached<T extends Intl.NumberFormat | Intl.DateTimeFormat | Intl.RelativeTimeFormat>(kind: string, locale: string, options: object | undefined, make: () => T): T {
  const key = `${kind}|${locale}|${options ? JSON.stringify(options) : ''}`;
  let format = cache.get(key) as T | undefined;
  if (!format) {
    format = make();
    cache.set(key, format);
  }
  return format;
}

export function numberFormat(locale: string, options?: Intl.NumberFormatOptions): Intl.NumberFormat {
  return cached('n', locale, options, () => new Intl.NumberFormat(locale, options));
}

export function dateTimeFormat(locale: string, options?: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  return cached('d', locale, options, () => new Intl.DateTimeFormat(locale, options));
}

export function relativeTimeFormat(locale: string, options?: Intl.RelativeTimeFormatOptions): Intl.RelativeTimeFormat {
  return cached('r', locale, options, () => new Intl.RelativeTimeFormat(locale, options));
}

const startLocaleWorker = () => new Worker(new URL('./locale-warmup.worker.ts', import.meta.url), { name: 'locale-warmup' });

/**
 * Loads the browser's locale data ahead, off the main thread: a worker of its own makes the
 * collator and the formatters the first screens use (lib/locale-warmup.worker.ts). Left to the
 * moment they are first needed, each lengthened a main-thread task that was already long: the
 * first `localeCompare` (RxDB's schema normalising) set up ICU's collator inside the task that
 * opens the replica, and the first date formatter loaded the locale's data inside a slice of the
 * exam list's render, 10–40 ms each here, four times that on a phone (docs/benchmarks.md "bench:lighthouse": total blocking
 * time). ICU keeps that data for the whole renderer process, so the page's own formatters then
 * cost a fraction of a millisecond. Without workers (or if it cannot start) nothing is made
 * ahead, and each formatter loads its data when first asked for. Resolves when the worker is done
 * (true) or did not run (false).
 */
export function prepareLocaleData(start: () => Worker = startLocaleWorker): Promise<boolean> {
  if (typeof Worker !== 'function') return Promise.resolve(false);
  return new Promise((resolve) => {
    let worker: Worker;
    try {
      worker = start();
    } catch {
      resolve(false);
      return;
    }
    worker.addEventListener('message', () => resolve(true), { once: true });
    worker.addEventListener('error', () => resolve(false), { once: true });
  });
}

/**
 * The app's date and time styles: every date a reader sees goes through `formatDate`, so that a
 * Hindi reader gets one Hindi style everywhere (hi-IN: "28 नव॰ 2026, 9:48 pm") and an English
 * reader one English style (en-IN: "28 Nov 2026, 9:48 pm").
 */
export const DATE_STYLES = {
  /** 28 Nov 2026 */
  date: { dateStyle: 'medium' },
  /** 28 Nov 2026, 9:48 pm */
  dateTime: { dateStyle: 'medium', timeStyle: 'short' },
  /** 28 Nov 2026, 9:48:07 pm (a submission receipt: its times to the second) */
  dateTimeSeconds: { dateStyle: 'medium', timeStyle: 'medium' },
  /** 28 November 2026 */
  dateLong: { dateStyle: 'long' },
  /** 9:48 pm */
  time: { timeStyle: 'short' },
  /** 28 Nov (a chart's axis) */
  dayMonth: { day: 'numeric', month: 'short' },
  /** Nov 2026 */
  month: { month: 'short', year: 'numeric' },
} as const satisfies Record<string, Intl.DateTimeFormatOptions>;
export type DateStyle = keyof typeof DATE_STYLES;

/** The locale of the app's language ('hi' → hi-IN, anything else → en-IN). */
export const localeOf = (lang: string): string => (lang.startsWith('hi') ? 'hi-IN' : 'en-IN');

/** A date (epoch ms, Date or ISO text) in the app's style for `style`, in the reader's language. */
export function formatDate(value: number | Date | string, lang: string, style: DateStyle = 'dateTime', timeZone?: string): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return dateTimeFormat(localeOf(lang), timeZone ? { ...DATE_STYLES[style], timeZone } : DATE_STYLES[style]).format(date);
}
