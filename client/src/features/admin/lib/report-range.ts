import dayjs from 'dayjs';
import { numberFormat } from '../../../lib/intl-format';

/** The value of a Mantine range picker: [start, end] as 'YYYY-MM-DD' strings or null. */
export type DayRange = [string | null, string | null];

export type RangeCheck = { ok: true; startDate: number; endDate: number } | { ok: false; error: 'start' | 'end' };

/**
 * A report's date range as epoch ms, from the start of the first local day to the last
 * millisecond of the last (spec §7 getOrdersByDate: startDate, endDate in epoch ms). Spec §2:
 * 'Invalid start date' without a valid start, 'Invalid end date' without a valid end or when
 * the end precedes the start.
 */
export function checkRange([start, end]: DayRange): RangeCheck {
  const s = start ? dayjs(start) : null;
  if (!s?.isValid()) return { ok: false, error: 'start' };
  const e = end ? dayjs(end) : null;
  if (!e?.isValid() || e.isBefore(s, 'day')) return { ok: false, error: 'end' };
  return { ok: true, startDate: s.startOf('day').valueOf(), endDate: e.endOf('day').valueOf() };
}

/** The last `days` days up to today. */
export function lastDays(days: number): DayRange {
  return [dayjs().subtract(days - 1, 'day').format('YYYY-MM-DD'), dayjs().format('YYYY-MM-DD')];
}

/** Rupees in the UI language's digits and grouping (₹1,23,456.50). */
export function rupees(n: number, lang: string): string {
  return numberFormat(lang === 'hi' ? 'hi-IN' : 'en-IN', { style: 'currency', currency: 'INR', maximumFractionDigits: 2 }).format(n);
}
