import { expect, test } from 'vitest';
import { dateTimeFormat, numberFormat, prepareLocaleData, relativeTimeFormat } from './intl-format';

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

test('prepareLocaleData makes the first screens’ formatters ahead, one idle callback each', () => {
  const pending: (() => void)[] = [];
  const original = globalThis.requestIdleCallback;
  globalThis.requestIdleCallback = ((cb: () => void) => pending.push(cb)) as typeof requestIdleCallback;
  const made: string[] = [];
  const Real = Intl.RelativeTimeFormat;
  try {
    (Intl as { RelativeTimeFormat: typeof Real }).RelativeTimeFormat = class extends Real {
      constructor(...args: ConstructorParameters<typeof Real>) {
        super(...args);
        made.push(String(args[0]));
      }
    } as typeof Real;
    // Hindi: no other test makes a Hindi relative-time formatter.
    prepareLocaleData('hi');
    expect(made).toEqual([]);
    let callbacks = 0;
    while (pending.length > 0) {
      pending.shift()!();
      callbacks += 1;
    }
    // Four steps, each in a callback of its own that asks for the next, and a last one that finds none.
    expect(callbacks).toBe(5);
    expect(made).toEqual(['hi-IN']);
    // Asked for later, the formatter is the one made ahead.
    relativeTimeFormat('hi-IN', { numeric: 'auto' });
    expect(made).toEqual(['hi-IN']);
  } finally {
    (Intl as { RelativeTimeFormat: typeof Real }).RelativeTimeFormat = Real;
    globalThis.requestIdleCallback = original;
  }
});
