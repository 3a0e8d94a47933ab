import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { addMonths } from '@pm/protocol/payment';
import { entitlementDocSchema } from '@pm/protocol/sync/entitlement';
import type { TestSummaryDoc } from '@pm/protocol/sync/test-summary';
import { PROTOCOL_VERSION } from '@pm/protocol/version';
import { activityLog, attempt, entitlement, entitlementState, entitlementUse, examResult, person, questionSet } from '../../db/schema';
import { MSG } from '@pm/protocol/messages';
import { first, transaction } from '../../db/transaction';
import { submittedAttempt } from '../../test/builders';
import { type Harness, startHarness } from '../../test/harness';
import { bumpEndedPlans, countAttempt, entitlementDoc, grantPlan, myPlan } from './entitlements.service';

let h: Harness;
let editor: string;
let admin: string;
/** A published mock test that is not free (made through the editor's API in beforeAll). */
let paidMock: string;
/** The seeded practice set that is not free. */
const PAID_PRACTICE = 'qs-hindi-sub';
const FREE_MOCK = 'qs-mock-ssc-1';
const FREE_PRACTICE = 'qs-practice-gk';

beforeAll(async () => {
  h = await startHarness();
  [editor, admin] = await Promise.all([h.tokenOf('editor'), h.tokenOf('admin')]);
  const src = (await first(h.deps.db.select().from(questionSet).where(eq(questionSet.id, FREE_MOCK))))!;
  const saved = await h.request('PATCH', '/question/updateQuestionSet', {
    token: editor,
    body: { l: 'Paid mock', mpq: src.mpq, tm: src.tm, nm: src.nm, dur: src.dur, isM: true, free: false, inst: '', q: src.q, sections: src.sections, pts: 0, draft: false, langs: [] },
  });
  expect(saved.status, JSON.stringify(saved.body)).toBe(201);
  expect(saved.body.data).toMatchObject({ isM: true, free: false, published: true });
  paidMock = saved.body.id;
});
afterAll(() => h.destroy());

const V = { 'x-sync-protocol': PROTOCOL_VERSION };
const pull = (token: string | undefined, collection: string, rev = 0) =>
  h.request('GET', `/sync/v1/${collection}/pull?rev=${rev}&limit=1000`, { ...(token && { token }), headers: V });
const push = (token: string, rows: unknown) => h.request('POST', '/sync/v1/test_summary/push', { token, headers: V, body: rows });

let mobiles = 0;
/** A new learner through the real signup: `{ id, token }`. */
async function newLearner() {
  const m = `91234${(50_000 + ++mobiles).toString()}`;
  const r = await h.request('POST', '/UserLogin', { body: { n: `Learner ${mobiles}`, m, password: 'plan-tester-2468', confirmPassword: 'plan-tester-2468', p: 'demo-learner', terms: true } });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  const id = (await first(h.deps.db.select({ id: person.id }).from(person).where(eq(person.name, `Learner ${mobiles}`))))!.id;
  return { id, token: r.body.token as string };
}

let orders = 0;
/** A plan paid at `paidAt` (default an hour ago: before the attempts below start), as the payments module grants it when an order becomes PAID. */
const grant = (personId: string, planCode: string, paidAt = Date.now() - 3_600_000) =>
  transaction(h.deps.db, (tx) => grantPlan(tx, { orderId: `test-order-${++orders}`, personId, planCode, paidAt }));

/** A submitted one-minute attempt at `qsid`. */
const attemptDoc = (qsid: string, over: Partial<TestSummaryDoc> = {}) => submittedAttempt('ent', { qsid, st: Date.now() - 60_000, elapsed: 60_000, ...over });
const pushNew = (token: string, doc: TestSummaryDoc) => push(token, [{ newDocumentState: doc, assumedMasterState: null }]);
const useOf = (attemptId: string) => first(h.deps.db.select().from(entitlementUse).where(eq(entitlementUse.attemptId, attemptId)));
/** useOf for each attempt, in turn. */
async function usesOf(docs: { id: string }[]) {
  const out = [];
  for (const d of docs) out.push(await useOf(d.id));
  return out;
}
const revOf = async (personId: string) => (await first(h.deps.db.select().from(entitlementState).where(eq(entitlementState.personId, personId))))?.rev;

describe('granting a plan', () => {
  test('grants the plan’s limits for its period once per order, and gives the document a new revision', async () => {
    const { id } = await newLearner();
    const paidAt = Date.UTC(2026, 0, 31, 10);
    const granted = await transaction(h.deps.db, (tx) => grantPlan(tx, { orderId: 'order-idem', personId: id, planCode: 'ONE_MONTH_PLAN', paidAt }));
    expect(granted).toMatchObject({ personId: id, planCode: 'ONE_MONTH_PLAN', startsAt: paidAt, endsAt: Date.UTC(2026, 1, 28, 10), mockLimit: 10, practiceLimit: 2 });
    const rev = (await revOf(id))!;
    expect(rev).toBeGreaterThan(0);
    const again = await transaction(h.deps.db, (tx) => grantPlan(tx, { orderId: 'order-idem', personId: id, planCode: 'ANNUAL_PLAN', paidAt: paidAt + 5 }));
    expect(again).toBeNull();
    expect(await h.deps.db.select().from(entitlement).where(eq(entitlement.orderId, 'order-idem'))).toEqual([granted]);
    expect(await revOf(id)).toBe(rev);
    const logged = await h.deps.db.select().from(activityLog).where(and(eq(activityLog.entityAffected, 'entitlement'), eq(activityLog.entityId, granted!.id)));
    expect(logged).toHaveLength(1);
  });

  test('plans: yearly unlimited mock and 24 practice for 12 months, quarterly 20 and 6 for 3; plans stack', async () => {
    const { id } = await newLearner();
    const now = Date.now();
    expect(await myPlan(h.deps.db, id, now)).toBeNull();
    const q = (await grant(id, 'QUATERLY_MONTH_PLAN', now - 1000))!;
    expect(q.endsAt).toBe(addMonths(now - 1000, 3));
    expect(await myPlan(h.deps.db, id, now)).toEqual({
      planCode: 'QUATERLY_MONTH_PLAN',
      name: { en: 'Quarterly', hi: 'त्रैमासिक' },
      startsAt: now - 1000,
      endsAt: q.endsAt,
      mock: { limit: 20, used: 0 },
      practice: { limit: 6, used: 0 },
    });
    const m = (await grant(id, 'ONE_MONTH_PLAN', now - 500))!;
    // Stacked: the limits add up; the window runs from the earliest start to the latest end.
    expect(await myPlan(h.deps.db, id, now)).toMatchObject({ planCode: 'QUATERLY_MONTH_PLAN', startsAt: now - 1000, endsAt: q.endsAt, mock: { limit: 30 }, practice: { limit: 8 } });
    expect(m.endsAt).toBeLessThan(q.endsAt);
    const y = (await grant(id, 'ANNUAL_PLAN', now - 200))!;
    expect(y.endsAt).toBe(addMonths(now - 200, 12));
    // An unlimited plan makes the stack unlimited; the latest-ending plan names it.
    expect(await myPlan(h.deps.db, id, now)).toMatchObject({ planCode: 'ANNUAL_PLAN', name: { en: 'Yearly' }, endsAt: y.endsAt, mock: { limit: null }, practice: { limit: 32 } });
    // After the month and the quarter, only the year is left.
    expect(await myPlan(h.deps.db, id, q.endsAt)).toMatchObject({ planCode: 'ANNUAL_PLAN', startsAt: now - 200, mock: { limit: null }, practice: { limit: 24 } });
  });
});

describe('counting attempts', () => {
  test('a monthly plan allows 10 mock tests and 2 practice exams; the 11th mock, made offline, is stored, scored and locked', async () => {
    const { id, token } = await newLearner();
    await grant(id, 'ONE_MONTH_PLAN');
    const mocks = Array.from({ length: 11 }, () => attemptDoc(paidMock, { answers: { 'q-gk-002': { ua: 'c', status: 'ANSWERED' } } }));
    for (const doc of mocks) expect((await pushNew(token, doc)).status).toBe(200);
    const practices = Array.from({ length: 3 }, () => attemptDoc(PAID_PRACTICE));
    for (const doc of practices) expect((await pushNew(token, doc)).status).toBe(200);

    expect((await usesOf(mocks)).map((u) => u?.overLimit)).toEqual([...Array(10).fill(false), true]);
    expect((await usesOf(practices)).map((u) => u?.overLimit)).toEqual([false, false, true]);
    expect((await usesOf(mocks)).map((u) => u?.kind)).toEqual(Array(11).fill('mock'));
    expect((await usesOf(practices)).map((u) => u?.kind)).toEqual(Array(3).fill('practice'));
    // Within the limit charged to the plan; past it charged to nothing.
    const plan = (await first(h.deps.db.select().from(entitlement).where(eq(entitlement.personId, id))))!;
    expect((await useOf(mocks[0]!.id))?.entitlementId).toBe(plan.id);
    expect((await useOf(mocks[10]!.id))?.entitlementId).toBeNull();

    // Stored and scored all the same.
    const over = mocks[10]!;
    expect((await first(h.deps.db.select().from(attempt).where(eq(attempt.id, over.id))))?.status).toBe('SUBMITTED');
    const result = await first(h.deps.db.select().from(examResult).where(eq(examResult.attemptId, over.id)));
    expect(result?.totalMarks).toBe(2);
    // The learner sees that it is locked, and nothing of its result (docs/payments.md)...
    const shown = await h.request('GET', `/question/getExamResult?qsid=${paidMock}`, { token });
    expect(shown.status).toBe(402);
    expect(shown.body).toEqual({ success: false, code: 'PAYMENT_REQUIRED', msg: MSG.resultLocked, link: '/plan' });
    // ...and to admins, in the activity log of the counting.
    const log = await h.request('GET', '/getActivityLog?pageSize=200', { token: admin });
    expect(log.status).toBe(200);
    const entry = log.body.data.find((e: { entityAffected: string; entityId: string }) => e.entityAffected === 'entitlement' && e.entityId === over.id);
    expect(entry).toMatchObject({ actionType: 'CREATE', person: { id }, newValue: { personId: id, qsid: paidMock, kind: 'mock', overLimit: true, entitlementId: null } });

    // The document: what the plan allows, what is used, which attempts were counted and which were over.
    const doc = await entitlementDoc(h.deps.db, id);
    expect(entitlementDocSchema.parse(doc)).toEqual(doc);
    expect(doc).toMatchObject({ id, planCode: 'ONE_MONTH_PLAN', planName: { en: 'Monthly', hi: 'मासिक' }, mock: { limit: 10, used: 10 }, practice: { limit: 2, used: 2 } });
    expect([...doc.counted].sort()).toEqual([...mocks.slice(0, 10), ...practices.slice(0, 2)].map((d) => d.id).sort());
    expect([...doc.overLimit].sort()).toEqual([over.id, practices[2]!.id].sort());
    const practiceResult = await h.request('GET', `/question/getExamResult?qsid=${PAID_PRACTICE}`, { token });
    expect(practiceResult.status).toBe(402);
  });

  test('a learner without a plan may take free sets; any other set made offline is stored, scored and locked', async () => {
    const { id, token } = await newLearner();
    const free = [attemptDoc(FREE_MOCK), attemptDoc(FREE_PRACTICE)];
    const paid = attemptDoc(paidMock);
    for (const d of [...free, paid]) expect((await pushNew(token, d)).status).toBe(200);
    expect(await usesOf(free)).toEqual([undefined, undefined]);
    expect(await useOf(paid.id)).toMatchObject({ personId: id, kind: 'mock', overLimit: true, entitlementId: null });
    expect(await first(h.deps.db.select().from(examResult).where(eq(examResult.attemptId, paid.id)))).toBeDefined();
    const freeResult = await h.request('GET', `/question/getExamResult?qsid=${FREE_MOCK}`, { token });
    expect(freeResult.body.overLimit).toBe(false);
    expect(await entitlementDoc(h.deps.db, id)).toMatchObject({ planCode: null, planName: null, startsAt: null, endsAt: null, mock: { limit: 0, used: 0 }, practice: { limit: 0, used: 0 }, counted: [], overLimit: [paid.id] });
  });

  test('free sets count nothing even with a plan; resuming an attempt counts nothing', async () => {
    const { id, token } = await newLearner();
    await grant(id, 'ONE_MONTH_PLAN');
    const free = attemptDoc(FREE_MOCK, { status: 'IN_PROGRESS', submittedAt: null });
    expect((await pushNew(token, free)).status).toBe(200);
    expect(await useOf(free.id)).toBeUndefined();

    const started = attemptDoc(PAID_PRACTICE, { status: 'IN_PROGRESS', submittedAt: null });
    expect((await pushNew(token, started)).status).toBe(200);
    const counted = await useOf(started.id);
    expect(counted).toMatchObject({ kind: 'practice', overLimit: false });
    const rev = await revOf(id);
    // The same attempt resumed, answered and submitted: nothing more is counted.
    const resumed = { ...started, index: 3, answers: { 'q-hindi-006': { ua: 'c', status: 'ANSWERED' as const } }, updatedAt: started.updatedAt + 1 };
    expect((await push(token, [{ newDocumentState: resumed, assumedMasterState: started }])).body).toEqual([]);
    const submitted = { ...resumed, status: 'SUBMITTED' as const, submittedAt: Date.now(), updatedAt: resumed.updatedAt + 1 };
    expect((await push(token, [{ newDocumentState: submitted, assumedMasterState: resumed }])).body).toEqual([]);
    expect(await useOf(started.id)).toEqual(counted);
    expect(await revOf(id)).toBe(rev);
    // Its result is within the allowance, and says so.
    const result = await h.request('GET', `/question/getExamResult?qsid=${PAID_PRACTICE}`, { token });
    expect(result.body).toMatchObject({ attemptId: started.id, overLimit: false });
    expect(await entitlementDoc(h.deps.db, id)).toMatchObject({ mock: { limit: 10, used: 0 }, practice: { limit: 2, used: 1 }, counted: [started.id], overLimit: [] });
    // Counting the same attempt again directly is a no-op too.
    expect(await countAttempt(h.deps.db, { attemptId: started.id, personId: id, qsid: PAID_PRACTICE, isM: false, free: false, startedAt: Date.now() })).toBeNull();
  });

  test('50 concurrent pushes of new attempts at an allowance of 2: exactly 2 within, the rest stored and over the limit', async () => {
    const { id, token } = await newLearner();
    await grant(id, 'ONE_MONTH_PLAN');
    const docs = Array.from({ length: 50 }, () => attemptDoc(PAID_PRACTICE));
    const answers = await Promise.all(docs.map((d) => pushNew(token, d)));
    expect(answers.map((r) => r.status)).toEqual(Array(50).fill(200));
    const uses = await usesOf(docs);
    expect(uses.every((u) => u !== undefined)).toBe(true);
    expect(uses.filter((u) => !u!.overLimit)).toHaveLength(2);
    expect(uses.filter((u) => u!.overLimit)).toHaveLength(48);
    const stored = await h.deps.db.select({ id: attempt.id }).from(attempt).where(eq(attempt.personId, id));
    expect(stored).toHaveLength(50);
    expect(await h.deps.db.select({ id: examResult.id }).from(examResult).where(eq(examResult.personId, id))).toHaveLength(50);
    expect(await entitlementDoc(h.deps.db, id)).toMatchObject({ practice: { limit: 2, used: 2 } });
    expect((await entitlementDoc(h.deps.db, id)).overLimit).toHaveLength(48);
  });

  test('a push of many new attempts counts them as pushes of one each would: the same within, over and plan charged, in order', async () => {
    // Two stacked plans bought at different times (monthly two hours ago, quarterly one hour
    // ago), so attempts started before the second plan count against the first alone; mock
    // tests (10 + 20) and practice exams (2 + 6), 37 and 9 of them, past both allowances; the
    // monthly plan half used when the quarterly one starts.
    const learners = [await newLearner(), await newLearner()];
    for (const l of learners) {
      await grant(l.id, 'ONE_MONTH_PLAN', Date.now() - 2 * 3_600_000);
      await grant(l.id, 'QUATERLY_MONTH_PLAN', Date.now() - 3_600_000);
    }
    const shape = Array.from({ length: 46 }, (_, i) => ({ qsid: i % 5 === 4 ? PAID_PRACTICE : paidMock, st: Date.now() - (i < 6 ? 90 : 30) * 60_000 }));
    const docsOf = () => shape.map((s) => attemptDoc(s.qsid, { st: s.st, elapsed: 60_000 }));
    const [together, oneByOne] = [docsOf(), docsOf()];
    const pushed = await push(learners[0]!.token, together.map((d) => ({ newDocumentState: d, assumedMasterState: null })));
    expect(pushed.status, JSON.stringify(pushed.body)).toBe(200);
    for (const d of oneByOne) expect((await pushNew(learners[1]!.token, d)).status).toBe(200);
    const planCode = new Map((await h.deps.db.select().from(entitlement)).map((e) => [e.id, e.planCode]));
    const counted = async (docs: TestSummaryDoc[]) => (await usesOf(docs)).map((u) => [u!.kind, u!.overLimit, u!.entitlementId && planCode.get(u!.entitlementId)]);
    const expected = await counted(oneByOne);
    expect(await counted(together)).toEqual(expected);
    // Both plans carried some, and both kinds went past the allowance.
    expect(new Set(expected.map((e) => e[2]))).toEqual(new Set(['ONE_MONTH_PLAN', 'QUATERLY_MONTH_PLAN', null]));
    expect(expected.filter((e) => e[0] === 'mock' && !e[1])).toHaveLength(30);
    expect(expected.filter((e) => e[0] === 'practice' && !e[1])).toHaveLength(8);
    expect(await entitlementDoc(h.deps.db, learners[0]!.id)).toMatchObject({ mock: { limit: 30, used: 30 }, practice: { limit: 8, used: 8 } });
  });

  test('an attempt started offline within the plan counts within it, though it reaches the server after the plan ended', async () => {
    const { id } = await newLearner();
    // Paid a month and a minute ago: the plan has ended.
    const plan = (await grant(id, 'ONE_MONTH_PLAN', addMonths(Date.now(), -1) - 60_000))!;
    expect(plan.endsAt).toBeLessThan(Date.now());
    const use = (attemptId: string, startedAt: number) =>
      transaction(h.deps.db, (tx) => countAttempt(tx, { attemptId, personId: id, qsid: paidMock, isM: true, free: false, startedAt }));
    // Started two hours before the end, synced now.
    expect(await use('offline-1', plan.endsAt - 2 * 3_600_000)).toEqual({ kind: 'mock', overLimit: false, entitlementId: plan.id });
    // Started at the end: over the limit.
    expect(await use('offline-2', plan.endsAt)).toEqual({ kind: 'mock', overLimit: true, entitlementId: null });
  });
});

describe('plan periods', () => {
  test('an expired plan allows nothing: limits 0 and no plan', async () => {
    const { id } = await newLearner();
    const paidAt = addMonths(Date.now(), -2);
    await grant(id, 'QUATERLY_MONTH_PLAN', addMonths(Date.now(), -4));
    await grant(id, 'ONE_MONTH_PLAN', paidAt);
    expect(await entitlementDoc(h.deps.db, id)).toMatchObject({ planCode: null, startsAt: null, endsAt: null, mock: { limit: 0, used: 0 }, practice: { limit: 0, used: 0 } });
    expect(await myPlan(h.deps.db, id)).toBeNull();
    // While it ran, it allowed its limits.
    expect(await entitlementDoc(h.deps.db, id, paidAt + 1000)).toMatchObject({ mock: { limit: 30 }, practice: { limit: 8 } });
  });

  test('the end of a period gives the document a new revision once (the periodic job), and devices are told', async () => {
    const { id, token } = await newLearner();
    const paidAt = Date.now() - 1000;
    const plan = (await grant(id, 'ONE_MONTH_PLAN', paidAt))!;
    const before = (await revOf(id))!;
    const told: string[][] = [];
    const unsubscribe = h.deps.events.subscribe(id, (c) => told.push(c));
    // Nothing has ended yet.
    await bumpEndedPlans(h.deps, plan.endsAt - 1);
    expect(await revOf(id)).toBe(before);
    // The month passes.
    expect(await bumpEndedPlans(h.deps, plan.endsAt)).toBeGreaterThanOrEqual(1);
    const after = (await revOf(id))!;
    expect(after).toBeGreaterThan(before);
    expect(told).toEqual([['entitlement']]);
    // A second run changes nothing for this learner.
    await bumpEndedPlans(h.deps, plan.endsAt + 60_000);
    expect(await revOf(id)).toBe(after);
    unsubscribe();
    // The pulled document says the plan has ended only once it has (it is built at pull time).
    const doc = (await pull(token, 'entitlement', before)).body;
    expect(doc.checkpoint.rev).toBe(after);
    expect(doc.documents).toEqual([expect.objectContaining({ id, planCode: 'ONE_MONTH_PLAN', mock: { limit: 10, used: 0 } })]);
  });

  test('people with plans but no document yet (plans granted before this revision existed) get one', async () => {
    const { id } = await newLearner();
    await h.deps.db
      .insert(entitlement)
      .values({ personId: id, orderId: 'legacy-order', planCode: 'ONE_MONTH_PLAN', startsAt: Date.now() - 1000, endsAt: addMonths(Date.now(), 1), mockLimit: 10, practiceLimit: 2 });
    expect(await revOf(id)).toBeUndefined();
    expect(await bumpEndedPlans(h.deps)).toBeGreaterThanOrEqual(1);
    expect(await revOf(id)).toBeGreaterThan(0);
  });
});

describe('replication of the entitlement document', () => {
  test('a pull returns only the caller’s own document, once per revision, and again after a change', async () => {
    const a = await newLearner();
    const b = await newLearner();
    await grant(b.id, 'ANNUAL_PLAN');
    const pulled = (await pull(a.token, 'entitlement')).body;
    // A learner without any plan gets a document too, with limits 0.
    expect(pulled.documents).toEqual([
      expect.objectContaining({ id: a.id, planCode: null, mock: { limit: 0, used: 0 }, practice: { limit: 0, used: 0 }, _deleted: false }),
    ]);
    expect(entitlementDocSchema.parse(pulled.documents[0])).toEqual(pulled.documents[0]);
    const cp = pulled.checkpoint.rev;
    expect(cp).toBe(await revOf(a.id));
    expect((await pull(a.token, 'entitlement', cp)).body).toEqual({ documents: [], checkpoint: { rev: cp } });
    const theirs = (await pull(b.token, 'entitlement')).body.documents;
    expect(theirs).toEqual([expect.objectContaining({ id: b.id, planCode: 'ANNUAL_PLAN', mock: { limit: null, used: 0 }, practice: { limit: 24, used: 0 } })]);

    // A counted attempt: the push tells the learner's devices, and the next pull brings the document.
    const told: string[][] = [];
    const unsubscribe = h.deps.events.subscribe(a.id, (c) => told.push(c));
    const doc = attemptDoc(paidMock);
    await pushNew(a.token, doc);
    unsubscribe();
    expect(told).toEqual([['test_summary', 'exam_result', 'entitlement']]);
    const next = (await pull(a.token, 'entitlement', cp)).body;
    expect(next.documents).toEqual([expect.objectContaining({ id: a.id, overLimit: [doc.id], counted: [] })]);
    expect(next.checkpoint.rev).toBeGreaterThan(cp);
    // A free set's attempt names no entitlement change.
    const told2: string[][] = [];
    const unsubscribe2 = h.deps.events.subscribe(a.id, (c) => told2.push(c));
    await pushNew(a.token, attemptDoc(FREE_PRACTICE));
    unsubscribe2();
    expect(told2).toEqual([['test_summary', 'exam_result']]);
  });

  test('role matrix: a guest is refused; learner, editor and admin each get their own document only; nobody can push it', async () => {
    expect((await pull(undefined, 'entitlement')).status).toBe(401);
    const learner = await h.tokenOf('learner');
    for (const [token, id] of [
      [learner, 'demo-learner'],
      [editor, 'demo-editor'],
      [admin, 'demo-admin'],
    ] as const) {
      const r = await pull(token, 'entitlement');
      expect(r.status).toBe(200);
      expect(r.body.documents.map((d: { id: string }) => d.id)).toEqual([id]);
      const pushed = await h.request('POST', '/sync/v1/entitlement/push', { token, headers: V, body: [{ newDocumentState: r.body.documents[0], assumedMasterState: null }] });
      expect(pushed.status).toBe(403);
    }
  });

  test('question sets carry `free`, as the editor saved it', async () => {
    const learner = await h.tokenOf('learner');
    const before = (await pull(learner, 'question_set')).body;
    const byId = (docs: { id: string; free: boolean }[]) => new Map(docs.map((d) => [d.id, d.free]));
    expect(byId(before.documents).get(FREE_MOCK)).toBe(true);
    expect(byId(before.documents).get(FREE_PRACTICE)).toBe(true);
    expect(byId(before.documents).get(PAID_PRACTICE)).toBe(false);
    expect(byId(before.documents).get(paidMock)).toBe(false);
    const src = (await first(h.deps.db.select().from(questionSet).where(eq(questionSet.id, paidMock))))!;
    const saved = await h.request('PATCH', '/question/updateQuestionSet', {
      token: editor,
      body: { id: paidMock, l: src.l, mpq: src.mpq, tm: src.tm, nm: src.nm, dur: src.dur, isM: true, free: true, inst: '', q: src.q, sections: src.sections, pts: 0, draft: false, langs: [] },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.data.free).toBe(true);
    const after = (await pull(learner, 'question_set', before.checkpoint.rev)).body.documents;
    expect(after).toEqual([expect.objectContaining({ id: paidMock, free: true })]);
    // Free from now on: a new attempt at it counts nothing.
    const { token } = await newLearner();
    const doc = attemptDoc(paidMock);
    await pushNew(token, doc);
    expect(await useOf(doc.id)).toBeUndefined();
  });
});
