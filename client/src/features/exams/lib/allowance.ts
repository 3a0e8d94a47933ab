import type { EntitlementDoc } from '@pm/protocol/sync/entitlement';

/*
 * What a learner's plan lets them start now, worked out on the device from replicated documents
 * only (docs/payments.md "Without a plan"), so that the exam list shows what is left and a test starts offline within
 * it. The server counts the same attempts when they arrive and is the judge: an attempt the
 * device let through but the server finds past the allowance is kept, locked, and listed in
 * `overLimit` until a plan covers it (docs/payments.md "Without a plan").
 *
 * The rules (decided with the server's counting, sync-protocol/src/sync/entitlement.ts):
 * - a free set can always be started;
 * - any other set needs a plan in force (now < endsAt) with room for its kind (mock = isM,
 *   practice = !isM): left = limit − used − the device's own attempts at non-free sets of that
 *   kind that the server has not judged yet (id in neither `counted` nor `overLimit`) and that
 *   were started within [startsAt, endsAt); a null limit is unlimited;
 * - resuming an attempt that is on the device is always allowed (it was counted when it started).
 */

export type Entitlement = Omit<EntitlementDoc, '_deleted'>;
export type AllowanceKind = 'mock' | 'practice';
/** What the gate needs of a set. */
export type GateSet = { id: string; isM: boolean; free: boolean };
/** What the count needs of an attempt. */
export type GateAttempt = { id: string; qsid: string; st: number };

export type KindAllowance = {
  /** null: unlimited. */
  limit: number | null;
  /** How many more can be started now (null: unlimited; never below 0). */
  left: number | null;
};

export type Allowance = {
  /** The plan in force, or null (none, or it has ended). */
  plan: { code: string | null; name: { en: string; hi: string } | null; startsAt: number; endsAt: number } | null;
  mock: KindAllowance;
  practice: KindAllowance;
};

export type GateReason = 'noPlan' | 'noMock' | 'noPractice';
export type Gate = { ok: true } | { ok: false; reason: GateReason };

export const kindOf = (set: Pick<GateSet, 'isM'>): AllowanceKind => (set.isM ? 'mock' : 'practice');

const NONE: KindAllowance = { limit: 0, left: 0 };

/**
 * The allowance now: the entitlement document (null before the first pull, or for a learner who
 * never bought a plan), the sets on the device (to know an attempt's kind and whether its set is
 * free) and the learner's attempts on the device.
 */
export function allowanceOf(ent: Entitlement | null, sets: readonly GateSet[], attempts: readonly GateAttempt[], now: number): Allowance {
  if (!ent || ent.endsAt === null || now >= ent.endsAt) return { plan: null, mock: NONE, practice: NONE };
  const startsAt = ent.startsAt ?? 0;
  const endsAt = ent.endsAt;
  const judged = new Set([...ent.counted, ...ent.overLimit]);
  const byId = new Map(sets.map((s) => [s.id, s]));
  const local: Record<AllowanceKind, number> = { mock: 0, practice: 0 };
  for (const a of attempts) {
    if (judged.has(a.id) || a.st < startsAt || a.st >= endsAt) continue;
    const set = byId.get(a.qsid);
    // An attempt at a set no longer on the device: its kind is unknown here; the server counts it.
    if (!set || set.free) continue;
    local[kindOf(set)] += 1;
  }
  const kind = (k: AllowanceKind): KindAllowance => {
    const { limit, used } = ent[k];
    return { limit, left: limit === null ? null : Math.max(0, limit - used - local[k]) };
  };
  return { plan: { code: ent.planCode, name: ent.planName, startsAt, endsAt }, mock: kind('mock'), practice: kind('practice') };
}

/**
 * Whether a new attempt at `set` may start (`resuming`: the learner has an unfinished attempt at
 * it on this device, which is never blocked).
 */
export function gateOf(set: Pick<GateSet, 'isM' | 'free'>, allowance: Allowance, resuming = false): Gate {
  if (resuming || set.free) return { ok: true };
  if (!allowance.plan) return { ok: false, reason: 'noPlan' };
  const left = allowance[kindOf(set)].left;
  if (left === null || left > 0) return { ok: true };
  return { ok: false, reason: set.isM ? 'noMock' : 'noPractice' };
}

/**
 * Whether this attempt is locked (docs/payments.md "Without a plan"): the server stored it past
 * the allowance, and its result, answers and rank open only when a plan covers it (its
 * exam_result is not sent to the device until then, and the device shows no score of its own).
 */
export function isLocked(ent: Entitlement | null, attemptId: string): boolean {
  return !!ent && ent.overLimit.includes(attemptId);
}

/**
 * A set whose questions are not on the device and that the plan does not let the learner start:
 * the server sends a paid set's questions only with an allowance for its kind, so they are not
 * on their way (docs/payments.md "Without a plan"); they arrive when a plan covers the set.
 */
export function isLockedSet(questionsOnDevice: boolean, gate: Gate): boolean {
  return !questionsOnDevice && !gate.ok;
}
