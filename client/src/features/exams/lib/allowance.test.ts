import { expect, test } from 'vitest';
import { allowanceOf, type Entitlement, type GateAttempt, gateOf, type GateSet, isLocked, isLockedSet } from './allowance';

const DAY = 86_400_000;
const START = 1_750_000_000_000;
const END = START + 30 * DAY;
const NOW = START + 10 * DAY;

const monthly = (over: Partial<Entitlement> = {}): Entitlement => ({
  id: 'learner-1',
  planCode: 'MONTHLY',
  planName: { en: 'Monthly', hi: 'मासिक' },
  startsAt: START,
  endsAt: END,
  mock: { limit: 10, used: 0 },
  practice: { limit: 2, used: 0 },
  counted: [],
  overLimit: [],
  updatedAt: START,
  ...over,
});
const noPlan = (over: Partial<Entitlement> = {}): Entitlement =>
  monthly({ planCode: null, planName: null, startsAt: null, endsAt: null, mock: { limit: 0, used: 0 }, practice: { limit: 0, used: 0 }, ...over });

const sets: GateSet[] = [
  { id: 'mock-1', isM: true, free: false },
  { id: 'mock-free', isM: true, free: true },
  { id: 'prac-1', isM: false, free: false },
  { id: 'prac-free', isM: false, free: true },
];
const mock = sets[0]!;
const mockFree = sets[1]!;
const practice = sets[2]!;
const practiceFree = sets[3]!;
let n = 0;
const attempt = (qsid: string, st = NOW - DAY, id = `attempt-${++n}`): GateAttempt => ({ id, qsid, st });

test('server counts plus the device\'s own uncounted attempts at non-free sets of each kind', () => {
  const mine = [attempt('mock-1'), attempt('mock-1'), attempt('prac-1'), attempt('mock-free'), attempt('prac-free')];
  const a = allowanceOf(monthly({ mock: { limit: 10, used: 3 }, practice: { limit: 2, used: 0 } }), sets, mine, NOW);
  expect(a.plan).toEqual({ code: 'MONTHLY', name: { en: 'Monthly', hi: 'मासिक' }, startsAt: START, endsAt: END });
  // 10 − 3 counted − 2 local; 2 − 0 − 1 local; the free sets' attempts use nothing.
  expect(a.mock).toEqual({ limit: 10, left: 5 });
  expect(a.practice).toEqual({ limit: 2, left: 1 });
});

test('an attempt the server has counted (or found over the limit) is not counted twice', () => {
  const counted = attempt('mock-1', NOW - DAY, 'counted-1');
  const over = attempt('prac-1', NOW - DAY, 'over-1');
  const local = attempt('mock-1', NOW - DAY, 'local-1');
  const a = allowanceOf(
    monthly({ mock: { limit: 10, used: 1 }, practice: { limit: 2, used: 2 }, counted: ['counted-1'], overLimit: ['over-1'] }),
    sets,
    [counted, over, local],
    NOW,
  );
  expect(a.mock.left).toBe(8);
  expect(a.practice.left).toBe(0);
});

test('only attempts started within the plan period [startsAt, endsAt) count', () => {
  const mine = [attempt('mock-1', START - 1), attempt('mock-1', START), attempt('mock-1', END - 1), attempt('mock-1', END)];
  // END − 1 is "in the future" of NOW on this device's clock, but it is inside the period.
  expect(allowanceOf(monthly(), sets, mine, NOW).mock.left).toBe(8);
});

test('left never goes below 0, and a set of that kind is then refused with its own reason', () => {
  const mine = [attempt('prac-1'), attempt('prac-1'), attempt('prac-1')];
  const a = allowanceOf(monthly({ mock: { limit: 10, used: 10 } }), sets, mine, NOW);
  expect(a.mock.left).toBe(0);
  expect(a.practice.left).toBe(0);
  expect(gateOf(mock, a)).toEqual({ ok: false, reason: 'noMock' });
  expect(gateOf(practice, a)).toEqual({ ok: false, reason: 'noPractice' });
  // The free sets of both kinds still start.
  expect(gateOf(mockFree, a)).toEqual({ ok: true });
  expect(gateOf(practiceFree, a)).toEqual({ ok: true });
});

test('the last one left can be started; once started on the device it is used, offline too', () => {
  const ent = monthly({ practice: { limit: 2, used: 1 } });
  const before = allowanceOf(ent, sets, [], NOW);
  expect(before.practice.left).toBe(1);
  expect(gateOf(practice, before)).toEqual({ ok: true });
  const after = allowanceOf(ent, sets, [attempt('prac-1', NOW)], NOW + 1);
  expect(after.practice.left).toBe(0);
  expect(gateOf(practice, after)).toEqual({ ok: false, reason: 'noPractice' });
});

test('a null limit is unlimited, whatever has been used', () => {
  const yearly = monthly({ planCode: 'YEARLY', mock: { limit: null, used: 500 }, practice: { limit: 24, used: 0 } });
  const a = allowanceOf(yearly, sets, [attempt('mock-1'), attempt('mock-1')], NOW);
  expect(a.mock).toEqual({ limit: null, left: null });
  expect(a.practice.left).toBe(24);
  expect(gateOf(mock, a)).toEqual({ ok: true });
});

test('no plan: no entitlement document, one without a plan, or a plan that has ended', () => {
  for (const ent of [null, noPlan(), monthly({ endsAt: NOW }), monthly({ endsAt: NOW - 1 })]) {
    const a = allowanceOf(ent, sets, [], NOW);
    expect(a.plan).toBeNull();
    expect(a.mock.left).toBe(0);
    expect(gateOf(mock, a)).toEqual({ ok: false, reason: 'noPlan' });
    expect(gateOf(practice, a)).toEqual({ ok: false, reason: 'noPlan' });
    expect(gateOf(mockFree, a)).toEqual({ ok: true });
    expect(gateOf(practiceFree, a)).toEqual({ ok: true });
  }
  // One millisecond before its end the plan is still in force.
  expect(allowanceOf(monthly(), sets, [], END - 1).plan).not.toBeNull();
});

test('resuming an attempt on the device is never blocked, plan or not', () => {
  const none = allowanceOf(null, sets, [], NOW);
  expect(gateOf(mock, none, true)).toEqual({ ok: true });
  const spent = allowanceOf(monthly({ mock: { limit: 10, used: 10 } }), sets, [], NOW);
  expect(gateOf(mock, spent, true)).toEqual({ ok: true });
  expect(gateOf(mock, spent, false)).toEqual({ ok: false, reason: 'noMock' });
});

test('an attempt at a set that is no longer on the device is left to the server', () => {
  expect(allowanceOf(monthly(), sets, [attempt('gone-set')], NOW).mock.left).toBe(10);
});

test('locked: only the attempts the server listed', () => {
  const ent = monthly({ overLimit: ['over-1'] });
  expect(isLocked(ent, 'over-1')).toBe(true);
  expect(isLocked(ent, 'other')).toBe(false);
  expect(isLocked(null, 'over-1')).toBe(false);
});

test('a set is locked when its questions are not here and the plan does not let it start', () => {
  expect(isLockedSet(false, { ok: false, reason: 'noPlan' })).toBe(true);
  expect(isLockedSet(true, { ok: false, reason: 'noMock' })).toBe(false);
  expect(isLockedSet(false, { ok: true })).toBe(false);
});
