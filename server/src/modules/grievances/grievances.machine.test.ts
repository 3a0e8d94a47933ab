import { describe, expect, test } from 'vitest';
import { GRIEVANCE_STATUSES, type GrievanceStatus } from '@pm/protocol/grievance';
import { decideMove, GRIEVANCE_MOVES, type GrievanceMove, oneMonthAfter, REOPEN_WINDOW_MS, reopenUntil } from './grievances.machine';

/* The grievance's state machine and its due date, as docs/charity.md "Grievances" states them. */

const NOW = Date.UTC(2026, 5, 15, 6, 0);
const MOVES = Object.keys(GRIEVANCE_MOVES) as GrievanceMove[];

describe('every move from every status', () => {
  const expected: Record<GrievanceMove, Partial<Record<GrievanceStatus, GrievanceStatus>>> = {
    reply: { OPEN: 'ANSWERED', ANSWERED: 'ANSWERED' },
    write: { OPEN: 'OPEN', ANSWERED: 'OPEN' },
    resolve: { OPEN: 'RESOLVED', ANSWERED: 'RESOLVED' },
    reopen: { RESOLVED: 'OPEN' },
  };
  for (const move of MOVES) {
    for (const from of GRIEVANCE_STATUSES) {
      const to = expected[move][from];
      test(`${move} from ${from} → ${to ?? 'refused'}`, () => {
        expect(decideMove(from, move, NOW - 1000, NOW)).toEqual(to ? { to } : { refused: 'status' });
      });
    }
  }
  test('who makes each move', () => {
    expect(Object.fromEntries(MOVES.map((m) => [m, GRIEVANCE_MOVES[m].by]))).toEqual({ reply: 'staff', write: 'raiser', resolve: 'staff', reopen: 'raiser' });
  });
});

describe('the reopen window', () => {
  test('30 days to the millisecond, then refused', () => {
    expect(decideMove('RESOLVED', 'reopen', NOW - REOPEN_WINDOW_MS, NOW)).toEqual({ to: 'OPEN' });
    expect(decideMove('RESOLVED', 'reopen', NOW - REOPEN_WINDOW_MS - 1, NOW)).toEqual({ refused: 'reopen-expired' });
    expect(REOPEN_WINDOW_MS).toBe(30 * 86_400_000);
  });
  test('until when, for resolved ones only', () => {
    expect(reopenUntil('RESOLVED', NOW)).toBe(NOW + REOPEN_WINDOW_MS);
    expect(reopenUntil('OPEN', null)).toBeNull();
  });
});

describe('one calendar month after, in India', () => {
  const ist = (y: number, m: number, d: number, h = 10, min = 0) => Date.UTC(y, m - 1, d, h, min) - 5.5 * 3_600_000;
  test.each([
    [ist(2026, 6, 15), ist(2026, 7, 15)],
    [ist(2026, 1, 31), ist(2026, 2, 28)],
    [ist(2028, 1, 31), ist(2028, 2, 29)],
    [ist(2026, 12, 20), ist(2027, 1, 20)],
    [ist(2026, 3, 31), ist(2026, 4, 30)],
    // Just after midnight in India is still the evening before in UTC: the day is India's.
    [ist(2026, 5, 31, 0, 30), ist(2026, 6, 30, 0, 30)],
  ])('%i → %i', (from, to) => {
    expect(oneMonthAfter(from)).toBe(to);
  });
});
