import { expect, test } from 'vitest';
import { dateTimeFormat, formatDate, localeOf, numberFormat, prepareLocaleData, relativeTimeFormat } from './intl-format';

test('one formatter per locale and options, shared, formatting as a new one would', () => {
  const a = numberFormat('en-IN', { maximumFractionDigits: 2 });
  expect(numberFormat('en-IN', { maximumFractionDigits: 2 })).toBe(a);
  expect(numberFormat('hi-IN', { maximumFractionDigits: 2 })).not.toBe(a);
  expect(numberFormat('en-IN', { maximumFractionDigits: 1 })).not.toBe(a);
  expect(a.format(1234567.891)).toBe(new Intl.NumberFormat('en-IN', { maximumFractionDigits: 2 }).format(1234567.891));
  const d = dateTimeFormat('hi-IN', { dateStyle: 'medium' });
  expect(dateTimeFormat('hi-IN', { dateStyle: 'medium' })).toBe(d);
  expect(d.format(Date.UTC(2026, 10, 27))).toBe(new Intl.DateTimeFormat('hi-IN', { dateStyle: 'medium' }).format(Date.UTC(2026, 10, 27)));
  // A number and a date formatter with the same locale and no options are different things.
  expect(numberFormat('en-IN')).not.toBe(dateTimeFormat('en-IN') as unknown);
  expect(relativeTimeFormat('en-IN', { numeric: 'auto' }).format(0, 'second')).toBe('now');
});

test('prepareLocaleData starts the locale worker and resolves when it has made its formatters', async () => {
  // What a worker that has finished looks like to the page: it posts once, then ends.
  const finished = () => {
    const worker = new EventTarget();
    queueMicrotask(() => worker.dispatchEvent(new MessageEvent('message', { data: 'ready' })));
    return worker as Worker;
  };
  const failed = () => {
    const worker = new EventTarget();
    queueMicrotask(() => worker.dispatchEvent(new Event('error')));
    return worker as Worker;
  };
  const refused = (): Worker => {
    throw new DOMException('blocked', 'SecurityError');
  };
  const original = globalThis.Worker;
  try {
    (globalThis as { Worker?: unknown }).Worker = function Worker() {};
    await expect(prepareLocaleData(finished)).resolves.toBe(true);
    await expect(prepareLocaleData(failed)).resolves.toBe(false);
    await expect(prepareLocaleData(refused)).resolves.toBe(false);
    // A browser without workers: nothing is started, and formatters load their data when asked.
    delete (globalThis as { Worker?: unknown }).Worker;
    let started = false;
    await expect(
      prepareLocaleData(() => {
        started = true;
        return finished();
      }),
    ).resolves.toBe(false);
    expect(started).toBe(false);
  } finally {
    (globalThis as { Worker?: unknown }).Worker = original;
  }
});

test('formatDate: one style per language (hi-IN for Hindi, en-IN otherwise), whatever the input form', () => {
  const at = Date.UTC(2026, 10, 28, 16, 18);
  expect(localeOf('hi')).toBe('hi-IN');
  expect(localeOf('en')).toBe('en-IN');
  const hi = formatDate(at, 'hi', 'dateLong', 'UTC');
  expect(hi).toBe('28 नवंबर 2026');
  expect(formatDate(at, 'en', 'dateLong', 'UTC')).toBe('28 November 2026');
  expect(formatDate(new Date(at), 'hi', 'dateLong', 'UTC')).toBe(hi);
  expect(formatDate(new Date(at).toISOString(), 'hi', 'dateLong', 'UTC')).toBe(hi);
  expect(formatDate(at, 'hi', 'dateTime', 'UTC')).toBe(new Intl.DateTimeFormat('hi-IN', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(at));
  expect(formatDate('not a date', 'en')).toBe('');
});
