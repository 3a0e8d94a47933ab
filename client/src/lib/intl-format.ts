/**
 * Number, date and relative-time formatters, made once per locale and options and then shared.
 * Making one (`new Intl.NumberFormat(…)`) loads the locale's data and costs milliseconds on a
 * phone; the exam list made several on each of its many renders while the replica opened (issue
 * 20 §2: total blocking time). A formatter holds no state, so sharing one is safe.
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

/**
 * Loads the browser's locale data ahead, each piece in an idle moment of its own: the first
 * string comparison (`localeCompare`, which RxDB's schema normalising and the tag filter's sorting
 * use) sets up the collator, and the first date, relative-time and number formatters load their
 * locale's data: ~5–15 ms each on a desktop at full speed, four times that on a phone. Left to the
 * moment they are first needed, each lengthened a task that was already long — opening the
 * replica, drawing the exam list (issue 20 §2: total blocking time).
 */
export function prepareLocaleData(lang: string): void {
  if (typeof requestIdleCallback !== 'function') return;
  const locale = lang === 'hi' ? 'hi-IN' : 'en-IN';
  const steps = [
    () => 'a'.localeCompare('b'),
    () => dateTimeFormat(locale, { dateStyle: 'medium' }),
    () => relativeTimeFormat(locale, { numeric: 'auto' }),
    () => numberFormat(locale, { maximumFractionDigits: 2 }),
  ];
  const next = () => {
    const step = steps.shift();
    if (!step) return;
    step();
    requestIdleCallback(next, { timeout: 2000 });
  };
  requestIdleCallback(next, { timeout: 2000 });
}
