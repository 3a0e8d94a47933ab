import { expect, test } from 'vitest';
import { stackPreview } from './stacking';

const NOW = Date.UTC(2026, 10, 28, 12);
const monthly = { endsAt: Date.UTC(2026, 11, 20), mock: { limit: 10, used: 4 }, practice: { limit: 2, used: 1 } };

test('limits add up while both are in force, the later end applies, the earlier end bounds the sum', () => {
  expect(stackPreview(monthly, 'QUATERLY_MONTH_PLAN', NOW)).toEqual({
    newEndsAt: Date.UTC(2027, 1, 28, 12),
    endsAt: Date.UTC(2027, 1, 28, 12),
    togetherUntil: Date.UTC(2026, 11, 20),
    mock: { now: 10, added: 20, together: 30 },
    practice: { now: 2, added: 6, together: 8 },
  });
});

test('an unlimited side makes the sum unlimited; a plan ending later than the new one keeps its end', () => {
  const yearly = { endsAt: Date.UTC(2027, 9, 1), mock: { limit: null, used: 0 }, practice: { limit: 24, used: 0 } };
  const p = stackPreview(yearly, 'ONE_MONTH_PLAN', NOW);
  expect(p.mock).toEqual({ now: null, added: 10, together: null });
  expect(p.practice.together).toBe(26);
  expect(p.endsAt).toBe(yearly.endsAt);
  expect(p.togetherUntil).toBe(Date.UTC(2026, 11, 28, 12));
});
