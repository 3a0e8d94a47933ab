import { addMonths, type MyPlan, planRuleOf } from '@pm/protocol/payment';

/**
 * What buying `planCode` now does next to the plan in force, as the server's grantPlan does it
 * (docs/payments.md, "Buying while a plan is in force"): the new plan starts on the day it is
 * paid and runs its own months; while both are in force their limits add up (either unlimited
 * makes it unlimited) and the later end date applies; when the earlier one ends, its limits end
 * with it. `null` limits are unlimited.
 */
export type StackPreview = {
  /** The new plan's own end, counted from today. */
  newEndsAt: number;
  /** Access lasts until this date: the later of the two ends. */
  endsAt: number;
  /** The two together hold until this date: the earlier of the two ends. */
  togetherUntil: number;
  mock: { now: number | null; added: number | null; together: number | null };
  practice: { now: number | null; added: number | null; together: number | null };
};

const sum = (a: number | null, b: number | null) => (a === null || b === null ? null : a + b);

export function stackPreview(current: Pick<MyPlan, 'endsAt' | 'mock' | 'practice'>, planCode: string, now = Date.now()): StackPreview {
  const rule = planRuleOf(planCode);
  const newEndsAt = addMonths(now, rule.months);
  return {
    newEndsAt,
    endsAt: Math.max(current.endsAt, newEndsAt),
    togetherUntil: Math.min(current.endsAt, newEndsAt),
    mock: { now: current.mock.limit, added: rule.mock, together: sum(current.mock.limit, rule.mock) },
    practice: { now: current.practice.limit, added: rule.practice, together: sum(current.practice.limit, rule.practice) },
  };
}
