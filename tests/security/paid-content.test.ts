import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MSG } from '@pm/protocol/messages';
import { setQuestionIds } from '@pm/protocol/question-set';
import type { TestSummaryDoc } from '@pm/protocol/sync/test-summary';
import { PROTOCOL_VERSION } from '@pm/protocol/version';
import { attempt, entitlementUse, examResult, person, questionSet } from '../../server/src/db/schema';
import { first } from '../../server/src/db/transaction';
import { grantTestPlan, submittedAttempt } from '../../server/src/test/builders';
import { type Harness, startHarness } from '../../server/src/test/harness';

/**
 * Paid content stays paid (docs/payments.md "Without a plan", docs/security.md). A plan is what
 * unlocks a set that is not free: an attempt started online past the allowance is refused (402,
 * nothing stored); one made offline is stored, never dropped, but locked (no result, no answer
 * key, no rank) until a plan opens it, oldest first; a device is not sent a paid set's
 * questions without an allowance for it; a refunded plan ends at the refund.
 */

let h: Harness;
let admin: string;

const V = { 'x-sync-protocol': PROTOCOL_VERSION };
/** A published mock that is not free, made in beforeAll; seeded sets (fixtures/question-sets.json). */
let PAID_MOCK: string;
const PAID_PRACTICE = 'qs-hindi-sub';
const FREE_MOCK = 'qs-mock-ssc-1';
const PAYMENT_REQUIRED = { success: false, code: 'PAYMENT_REQUIRED', link: '/plan' };

let mobiles = 0;
async function newLearner() {
  const n = `Paid content ${++mobiles}`;
  const m = `91235${(60_000 + mobiles).toString()}`;
  const r = await h.request('POST', '/UserLogin', { body: { n, m, password: 'paid-content-8642', confirmPassword: 'paid-content-8642', p: 'demo-learner', terms: true } });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  const id = (await first(h.deps.db.select({ id: person.id }).from(person).where(eq(person.name, n))))!.id;
  return { id, token: r.body.token as string };
}

const submit = (token: string, qsid: string) => h.request('POST', '/question/submitUserResponse', { token, body: { qsid, ures: {} } });
const push = (token: string, docs: TestSummaryDoc[]) =>
  h.request('POST', '/sync/v1/test_summary/push', { token, headers: V, body: docs.map((d) => ({ newDocumentState: d, assumedMasterState: null })) });
const pull = (token: string, collection: string, query = 'rev=0') => h.request('GET', `/sync/v1/${collection}/pull?${query}&limit=1000`, { token, headers: V });
/** An attempt made offline: started `hoursAgo`, ten minutes long, submitted, reaching the server now. */
const offline = (qsid: string, hoursAgo: number) =>
  submittedAttempt('paid', { qsid, st: Date.now() - hoursAgo * 3_600_000, submittedAt: Date.now() - hoursAgo * 3_600_000 + 600_000, elapsed: 600_000 });

const storedOf = async (personId: string) => ({
  attempts: (await h.deps.db.select({ id: attempt.id }).from(attempt).where(eq(attempt.personId, personId))).length,
  results: (await h.deps.db.select({ id: examResult.id }).from(examResult).where(eq(examResult.personId, personId))).length,
  uses: (await h.deps.db.select({ id: entitlementUse.attemptId }).from(entitlementUse).where(eq(entitlementUse.personId, personId))).length,
});

beforeAll(async () => {
  h = await startHarness();
  admin = await h.tokenOf('admin');
  const editor = await h.tokenOf('editor');
  const src = (await first(h.deps.db.select().from(questionSet).where(eq(questionSet.id, FREE_MOCK))))!;
  const saved = await h.request('PATCH', '/question/updateQuestionSet', {
    token: editor,
    body: { l: 'Paid mock', mpq: src.mpq, tm: src.tm, nm: src.nm, dur: src.dur, isM: true, free: false, inst: '', q: src.q, sections: src.sections, pts: 0, draft: false, langs: [] },
  });
  expect(saved.status, JSON.stringify(saved.body)).toBe(201);
  PAID_MOCK = saved.body.id;
});
afterAll(() => h.destroy());

describe('an online start needs the plan', () => {
  test('submitUserResponse at a paid mock without a plan: 402 with the message and /plan, nothing stored or counted, no rank', async () => {
    const { id, token } = await newLearner();
    const r = await submit(token, PAID_MOCK);
    expect(r.status).toBe(402);
    expect(r.body).toEqual({ ...PAYMENT_REQUIRED, msg: MSG.planRequired });
    expect(JSON.stringify(r.body)).not.toContain('"ca"');
    expect(await storedOf(id)).toEqual({ attempts: 0, results: 0, uses: 0 });
    expect((await h.request('GET', `/question/getRank?qsid=${PAID_MOCK}`, { token })).status).toBe(404);
    // A free set works as before.
    expect((await submit(token, FREE_MOCK)).status).toBe(200);
  });

  test('a sync push of an attempt as it starts, without a plan: 402, nothing stored', async () => {
    const { id, token } = await newLearner();
    const now = Date.now();
    const started = submittedAttempt('paid', { qsid: PAID_MOCK, st: now - 2_000, status: 'IN_PROGRESS', submittedAt: null, elapsed: 2_000 });
    const r = await push(token, [started]);
    expect(r.status).toBe(402);
    expect(r.body).toEqual({ ...PAYMENT_REQUIRED, msg: MSG.planRequired });
    expect(await storedOf(id)).toEqual({ attempts: 0, results: 0, uses: 0 });
  });

  test('50 parallel online submissions at an allowance of 2 practice exams: exactly 2 stored, 48 refused', async () => {
    const { id, token } = await newLearner();
    await grantTestPlan(h.deps.db, id, 'ONE_MONTH_PLAN');
    const answers = await Promise.all(Array.from({ length: 50 }, () => submit(token, PAID_PRACTICE)));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(2);
    expect(answers.filter((r) => r.status === 402)).toHaveLength(48);
    expect(await storedOf(id)).toEqual({ attempts: 2, results: 2, uses: 2 });
  });
});

describe('offline attempts past the allowance are kept, locked', () => {
  test('stored and never dropped, but no result, answer key or rank reaches the learner; others do not rank below it', async () => {
    const honest = await newLearner();
    await grantTestPlan(h.deps.db, honest.id, 'ANNUAL_PLAN');
    expect((await submit(honest.token, PAID_MOCK)).status).toBe(200);

    const { id, token } = await newLearner();
    const doc = offline(PAID_MOCK, 2);
    // Every answer right would be the attacker's best case; an empty one is enough to be first.
    expect((await push(token, [doc])).status).toBe(200);
    expect(await storedOf(id)).toEqual({ attempts: 1, results: 1, uses: 1 });
    expect((await first(h.deps.db.select().from(entitlementUse).where(eq(entitlementUse.attemptId, doc.id))))?.overLimit).toBe(true);

    const result = await h.request('GET', `/question/getExamResult?qsid=${PAID_MOCK}`, { token });
    expect(result.status).toBe(402);
    expect(result.body).toEqual({ ...PAYMENT_REQUIRED, msg: MSG.resultLocked });
    const rank = await h.request('GET', `/question/getRank?qsid=${PAID_MOCK}`, { token });
    expect(rank.status).toBe(402);
    const pulled = await pull(token, 'exam_result');
    expect(pulled.status).toBe(200);
    expect(pulled.body.documents).toEqual([]);
    // The learner's own device holds the attempt and the entitlement document says it is locked.
    expect((await pull(token, 'entitlement')).body.documents[0].overLimit).toEqual([doc.id]);
    // The honest learner's rank does not count it.
    expect((await h.request('GET', `/question/getRank?qsid=${PAID_MOCK}`, { token: honest.token })).body).toMatchObject({ rank: 1, of: 1 });
  });

  test('a plan bought later opens them oldest first, within its allowance: result, answer key and rank among first attempts', async () => {
    const { id, token } = await newLearner();
    const docs = [offline(PAID_PRACTICE, 5), offline(PAID_PRACTICE, 4), offline(PAID_PRACTICE, 3)];
    // Pushed newest first: the order of arrival does not decide which opens.
    expect((await push(token, [...docs].reverse())).status).toBe(200);
    const before = await pull(token, 'exam_result');
    expect(before.body.documents).toEqual([]);

    // A monthly plan allows 2 practice exams: the two oldest open.
    await grantTestPlan(h.deps.db, id, 'ONE_MONTH_PLAN', Date.now() - 1000);
    const ent = (await pull(token, 'entitlement')).body.documents[0];
    expect(ent.overLimit).toEqual([docs[2]!.id]);
    expect([...ent.counted].sort()).toEqual([docs[0]!.id, docs[1]!.id].sort());
    expect(ent.practice).toEqual({ limit: 2, used: 2 });
    const after = await pull(token, 'exam_result', `rev=${before.body.checkpoint.rev}`);
    expect(after.body.documents.map((d: { attemptId: string }) => d.attemptId).sort()).toEqual([docs[0]!.id, docs[1]!.id].sort());
    // Opened results carry their questions with the correct answers.
    expect(after.body.documents[0].questions.length).toBeGreaterThan(0);
    expect(after.body.documents[0].questions.some((q: { ca: string[] }) => q.ca.length > 0)).toBe(true);
    // The rank is of the learner's first attempt, now open.
    const rank = await h.request('GET', `/question/getRank?qsid=${PAID_PRACTICE}`, { token });
    expect(rank.status).toBe(200);
    const ranked = await first(h.deps.db.select().from(examResult).where(and(eq(examResult.personId, id), eq(examResult.practice, false))));
    expect(ranked?.attemptId).toBe(docs[0]!.id);
    // The newest stays locked, and the allowance is used up: an online start is refused.
    expect((await submit(token, PAID_PRACTICE)).status).toBe(402);
  });
});

describe("a paid set's questions reach only a device that may start it", () => {
  test('without a plan the exam list has the set but not its questions; a plan brings them, on the same checkpoint', async () => {
    const { id, token } = await newLearner();
    const sets = (await pull(token, 'question_set')).body.documents.map((d: { id: string }) => d.id);
    expect(sets).toEqual(expect.arrayContaining([PAID_MOCK, PAID_PRACTICE, FREE_MOCK]));
    const first = await pull(token, 'qs_detail');
    const ids = first.body.documents.map((d: { id: string }) => d.id);
    expect(ids).toContain(FREE_MOCK);
    expect(ids).not.toContain(PAID_MOCK);
    expect(ids).not.toContain(PAID_PRACTICE);
    expect(first.body.checkpoint).toMatchObject({ g: '' });
    const cp = first.body.checkpoint;
    // Nothing new without a plan.
    expect((await pull(token, 'qs_detail', `rev=${cp.rev}&g=${cp.g}`)).body.documents).toEqual([]);

    // A monthly plan: both kinds may be started, and the pull from the old checkpoint brings them.
    await grantTestPlan(h.deps.db, id, 'ONE_MONTH_PLAN');
    const next = await pull(token, 'qs_detail', `rev=${cp.rev}&g=${cp.g}`);
    const nextIds = next.body.documents.map((d: { id: string }) => d.id);
    expect(nextIds).toEqual(expect.arrayContaining([PAID_MOCK, PAID_PRACTICE]));
    expect(next.body.checkpoint.g).toBe('mp');
    // And from the new checkpoint, nothing again.
    expect((await pull(token, 'qs_detail', `rev=${next.body.checkpoint.rev}&g=mp`)).body.documents).toEqual([]);
  });

  test("the question API gives a paid set's questions only to those whose plan lets them start it", async () => {
    const set = (await first(h.deps.db.select().from(questionSet).where(eq(questionSet.id, PAID_PRACTICE))))!;
    const qid = setQuestionIds(set)[0]!;
    const { id, token } = await newLearner();
    for (const who of [undefined, token]) {
      expect((await h.request('GET', `/question/${qid}`, { token: who })).status).toBe(404);
      expect((await h.request('GET', `/question?qids=${qid}`, { token: who })).body).toEqual({ success: true, data: [] });
    }
    await grantTestPlan(h.deps.db, id, 'ONE_MONTH_PLAN');
    expect((await h.request('GET', `/question/${qid}`, { token })).status).toBe(200);
    expect((await h.request('GET', `/question?qids=${qid}`, { token })).body.data.map((q: { id: string }) => q.id)).toEqual([qid]);
  });

  test('guests pull free sets as before', async () => {
    const r = await h.request('GET', '/sync/v1/qs_detail/pull?rev=0&limit=1000', { headers: V });
    expect(r.status).toBe(200);
    expect(r.body.documents.map((d: { id: string }) => d.id)).toContain(FREE_MOCK);
  });
});

describe('a refunded plan', () => {
  test('ends from the refund: counted attempts stay, My plan and the entitlement document show no plan, a new start is refused', async () => {
    const { id, token } = await newLearner();
    const order = await h.request('POST', '/payment', { token, body: { prodid: 'ONE_MONTH_PLAN', product: 'ONE_MONTH_PLAN' } });
    expect(order.status, JSON.stringify(order.body)).toBeLessThan(300);
    const paid = await h.request('PATCH', '/order/status', { token: admin, body: { id: order.body.id, status: 'PAID' } });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect((await h.request('GET', '/payment/my', { token })).body.data.plan).toMatchObject({ planCode: 'ONE_MONTH_PLAN' });
    expect((await submit(token, PAID_PRACTICE)).status).toBe(200);

    const refunded = await h.request('PATCH', '/order/status', { token: admin, body: { id: order.body.id, status: 'REFUNDED' } });
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);
    expect((await h.request('GET', '/payment/my', { token })).body.data.plan).toBeNull();
    expect((await pull(token, 'entitlement')).body.documents[0]).toMatchObject({ planCode: null, practice: { limit: 0 } });
    expect((await submit(token, PAID_PRACTICE)).status).toBe(402);
    // What was counted stays: the attempt and its result are there.
    expect(await storedOf(id)).toEqual({ attempts: 1, results: 1, uses: 1 });
    expect((await h.request('GET', `/question/getExamResult?qsid=${PAID_PRACTICE}`, { token })).status).toBe(200);
  });
});
