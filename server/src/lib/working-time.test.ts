import { describe, expect, test } from 'vitest';
import { addWorkingHours, indianDate, isWorkingDay, parseHolidays } from './working-time';

/** An India-time wall clock as a UTC instant. */
const ist = (iso: string) => Date.parse(`${iso}+05:30`);
const none = new Set<string>();

describe('working time (docs/charity.md "Withdrawals": due 48 working hours after the request)', () => {
  test('within the week: Monday 10:00 + 48 h is Wednesday 10:00', () => {
    expect(addWorkingHours(ist('2026-06-01T10:00:00'), 48, none)).toBe(ist('2026-06-03T10:00:00'));
  });

  test('across a weekend: Friday 10:00 + 48 h skips Saturday and Sunday to Tuesday 10:00', () => {
    expect(addWorkingHours(ist('2026-06-05T10:00:00'), 48, none)).toBe(ist('2026-06-09T10:00:00'));
  });

  test('a request made on a Saturday counts from Monday midnight', () => {
    expect(addWorkingHours(ist('2026-06-06T15:30:00'), 48, none)).toBe(ist('2026-06-10T00:00:00'));
  });

  test('across a holiday: a Monday holiday moves a Friday request to Wednesday', () => {
    const holidays = parseHolidays('2026-06-08, 2026-08-15');
    expect(addWorkingHours(ist('2026-06-05T10:00:00'), 48, holidays)).toBe(ist('2026-06-10T10:00:00'));
    expect(isWorkingDay(ist('2026-06-08T12:00:00'), holidays)).toBe(false);
    expect(isWorkingDay(ist('2026-06-09T00:00:00'), holidays)).toBe(true);
  });

  test('days are India time: 23:00 UTC on a Friday is already Saturday in India', () => {
    const at = Date.parse('2026-06-05T23:00:00Z');
    expect(indianDate(at)).toBe('2026-06-06');
    expect(isWorkingDay(at, none)).toBe(false);
    expect(addWorkingHours(at, 1, none)).toBe(ist('2026-06-08T01:00:00'));
  });

  test('an end exactly at midnight of a working day stays in that day', () => {
    expect(addWorkingHours(ist('2026-06-04T00:00:00'), 48, none)).toBe(ist('2026-06-06T00:00:00'));
  });

  test('an empty or blank list is no holidays', () => {
    expect(parseHolidays(undefined).size).toBe(0);
    expect(parseHolidays(' , ').size).toBe(0);
  });
});
