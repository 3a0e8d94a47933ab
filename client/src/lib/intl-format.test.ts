import { expect, test } from 'vitest';
import { dateTimeFormat, numberFormat, relativeTimeFormat } from './intl-format';

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
