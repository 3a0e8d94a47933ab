import { IST_OFFSET_MS } from '@pm/protocol/report-dates';
import { numberFormat } from '@/lib/intl-format';

/** The value of a Mantine range picker: [start, end] as 'YYYY-MM-DD' strings or null. */
export type DayRange = [string | null, string | null];

const DAY_MS = 86_400_000;

export type RangeCheck = { ok: true; startDate: number; endDate: number } | { ok: false; error: 'start' | 'end' };

/** A 'YYYY-MM-DD' calendar date, or null. */
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
function dayStart(day: string | null): number | null {
  const m = day ? DAY.exec(day) : null;
  if (!m) return null;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  // Not a real date (2026-02-30 rolls over): refused.
  return new Date(ms).toISOString().slice(0, 10) === day ? ms - IST_OFFSET_MS : null;
}

/**
 * A report's date range as epoch ms, from the start of the first India-time day to the last
 * millisecond of the last (docs/admin.md "Back office API": getOrdersByDate's startDate, endDate in epoch ms). Every report
 * counts its days in India time, whatever the browser's own time zone (docs/admin.md, "What the
 * reports count"). 'Invalid start date' without a valid start, 'Invalid end date'
 * without a valid end or when the end precedes the start.
 */
export function checkRange([start, end]: DayRange): RangeCheck {
  const s = dayStart(start);
  if (s === null) return { ok: false, error: 'start' };
  const e = dayStart(end);
  if (e === null || e < s) return { ok: false, error: 'end' };
  return { ok: true, startDate: s, endDate: e + DAY_MS - 1 };
}

/** Today's date in India time ('YYYY-MM-DD'), `back` days earlier. */
const istDay = (now: number, back = 0) => new Date(now + IST_OFFSET_MS - back * DAY_MS).toISOString().slice(0, 10);

/** The last `days` India-time days up to today. */
export function lastDays(days: number, now = Date.now()): DayRange {
  return [istDay(now, days - 1), istDay(now)];
}

/** Report times are shown in India time, as the reports count them. */
export const REPORT_TIME_ZONE = 'Asia/Kolkata';

/** Rupees in the UI language's digits and grouping (₹1,23,456.50). */
export function rupees(n: number, lang: string): string {
  return numberFormat(lang === 'hi' ? 'hi-IN' : 'en-IN', { style: 'currency', currency: 'INR', maximumFractionDigits: 2 }).format(n);
}
