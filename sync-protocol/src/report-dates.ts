import { z } from 'zod';
import { MSG } from './messages';

/** Reports cover at most this many days (a year and a bit). */
export const MAX_REPORT_DAYS = 400;
const DAY_MS = 86_400_000;
/** 2000-01-01 … 2100-01-01: anything outside is a typo, not a date range. */
const MIN_MS = 946_684_800_000;
const MAX_MS = 4_102_444_800_000;

/** An epoch-ms date of a report query (getOrdersByDate: startDate, endDate in epoch ms; docs/admin.md "Back office API"). */
export const reportDateSchema = (which: 'start' | 'end') => {
  const msg = which === 'start' ? MSG.invalidStartDate : MSG.invalidEndDate;
  return z
    .string({ error: msg })
    .regex(/^\d{1,15}$/, { error: msg })
    .transform(Number)
    .pipe(z.number({ error: msg }).int({ error: msg }).min(MIN_MS, { error: msg }).max(MAX_MS, { error: msg }));
};

/** A range check shared by every report: the end may not precede the start, nor be too far from it. */
export function checkRange(v: { startDate?: number | undefined; endDate?: number | undefined }, ctx: z.RefinementCtx): void {
  if (v.startDate === undefined || v.endDate === undefined) return;
  if (v.endDate < v.startDate || v.endDate - v.startDate > MAX_REPORT_DAYS * DAY_MS) {
    ctx.addIssue({ code: 'custom', message: MSG.invalidEndDate, path: ['endDate'] });
  }
}

/** India Standard Time, UTC+5:30 (no daylight saving): report days are Indian calendar days. */
export const IST_OFFSET_MS = 19_800_000;
