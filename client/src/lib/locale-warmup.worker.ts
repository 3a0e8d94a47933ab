/**
 * Loads the browser's locale data for the app's languages, off the main thread (docs/benchmarks.md "bench:lighthouse":
 * total blocking time). The first string comparison and the first number, date and relative-time
 * formatters of a page read ICU's locale data: 10–40 ms each on a desktop at full speed, four
 * times that on a phone, inside whichever task happened to need them first (opening the replica,
 * drawing the exam list). ICU keeps what it has read for the whole renderer process, so once this
 * worker has made the same objects the page's own first ones cost a fraction of a millisecond.
 * It makes them, says so and ends.
 */
const day = Date.UTC(2026, 0, 1);
for (const locale of ['en-IN', 'hi-IN']) {
  new Intl.Collator(locale).compare('a', 'b');
  new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }).format(1.5);
  new Intl.NumberFormat(locale, { style: 'currency', currency: 'INR' }).format(1);
  new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(day);
  new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }).format(-1, 'minute');
  new Intl.PluralRules(locale).select(2);
}
// The default locale's collator too: RxDB sorts its schemas' keys with a bare localeCompare.
'a'.localeCompare('b');
postMessage('ready');
close();
