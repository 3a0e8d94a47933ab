/*
 * Working time in India (docs/charity.md "Withdrawals", due time): a working day is Monday to
 * Friday, India time (UTC+5:30, no daylight saving), and not one of the configured holidays
 * (WORKING_HOLIDAYS, `YYYY-MM-DD` in India time; docs/configuration.md). Only the hours inside
 * working days count: 48 working hours from a Friday noon end on the Tuesday noon after. Pure:
 * no clock, no configuration read here.
 */

const IST_OFFSET_MS = 5.5 * 3600_000;
const DAY_MS = 24 * 3600_000;
const HOUR_MS = 3600_000;

/** The India-time calendar day of a UTC instant, as `YYYY-MM-DD`. */
export function indianDate(at: number): string {
  return new Date(at + IST_OFFSET_MS).toISOString().slice(0, 10);
}

/** Whether the India-time day holding `at` is a working day. */
export function isWorkingDay(at: number, holidays: ReadonlySet<string>): boolean {
  const weekday = new Date(at + IST_OFFSET_MS).getUTCDay();
  return weekday !== 0 && weekday !== 6 && !holidays.has(indianDate(at));
}

/** The instant `hours` working hours after `from` (a start outside working days counts from the next one's midnight). */
export function addWorkingHours(from: number, hours: number, holidays: ReadonlySet<string>): number {
  let left = hours * HOUR_MS;
  let at = from;
  // A year of holidays at most between two working days: the loop ends.
  for (;;) {
    const dayStart = Math.floor((at + IST_OFFSET_MS) / DAY_MS) * DAY_MS - IST_OFFSET_MS;
    const dayEnd = dayStart + DAY_MS;
    if (isWorkingDay(at, holidays)) {
      if (at + left <= dayEnd) return at + left;
      left -= dayEnd - at;
    }
    at = dayEnd;
  }
}

/** WORKING_HOLIDAYS parsed: a comma list of `YYYY-MM-DD` dates (blanks ignored). */
export function parseHolidays(list: string | undefined): Set<string> {
  return new Set((list ?? '').split(',').map((d) => d.trim()).filter((d) => d.length > 0));
}
