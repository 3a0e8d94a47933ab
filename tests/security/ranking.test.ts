import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { examResultDocSchema } from '@pm/protocol/sync/exam-result';
import type { TestSummaryDoc } from '@pm/protocol/sync/test-summary';
import { PROTOCOL_VERSION } from '@pm/protocol/version';
import { examResult } from '../../server/src/db/schema';
import { DEMO, type Harness, startHarness } from '../../server/src/test/harness';

/**
 * docs/security.md "Times, ranking and sync quotas": first-attempt ranking. A mock test shows its correct answers once submitted;
 * re-submitting then took a learner from 0/48 to 46/48 and rank 1. Now the rank of a set is
 * decided by each learner's FIRST submitted attempt (the first result the server stores); every
 * later one is practice — replicated and answered with `practice: true`, never ranked. The flag
 * is decided by the insert of the result itself, so submissions arriving together cannot both
 * be first.
 */

let h: Harness;
let learner: string;
/** Two more people taking the test (any signed-in person may). */
let editor: string;
let admin: string;
beforeAll(async () => {
  h = await startHarness();
  [learner, editor, admin] = await Promise.all([h.tokenOf('learner'), h.tokenOf('editor'), h.tokenOf('admin')]);
});
afterAll(() => h.destroy());

const V = { 'x-sync-protocol': PROTOCOL_VERSION };
const push = (token: string, rows: unknown) => h.request('POST', '/sync/v1/test_summary/push', { token, headers: V, body: rows });
const rank = (token: string, qsid: string) => h.request('GET', `/question/getRank?qsid=${qsid}`, { token });
const resultsOf = (personId: string, qsid: string) => h.deps.db.select().from(examResult).where(and(eq(examResult.personId, personId), eq(examResult.qsid, qsid)));

let seq = 0;
function submitted(qsid: string, answers: TestSummaryDoc['answers']): TestSummaryDoc {
  seq++;
  const now = Date.now();
  return {
    id: `ranking-${seq.toString().padStart(4, '0')}`,
    qsid,
    st: now - 30 * 60_000,
    sfs: 0,
    lsq: null,
    index: 0,
    selectedSection: null,
    answers,
    status: 'SUBMITTED',
    submittedAt: now,
    elapsed: 30 * 60_000,
    updatedAt: now,
    _deleted: false,
  };
}

/** Every question of a result answered with its correct answer, as a learner reads them off a result. */
function correctAnswers(questions: { id: string; qt: string; ca: string[] }[]): TestSummaryDoc['answers'] {
  return Object.fromEntries(
    questions.filter((q) => q.qt !== 's').map((q) => [q.id, { ua: q.qt === 'mcq2' ? q.ca : q.ca[0]!, status: 'ANSWERED' as const }]),
  );
}

describe('the rank of a mock test is decided by each learner’s first submitted attempt', () => {
  const MOCK = 'qs-mock-ssc-1';
  let firstMarks: number;

  test('a learner who re-submits with the answers a result showed stays ranked by their first attempt', async () => {
    // Two other learners: 2 and 4 marks (q-gk-002 is c, q-gk-012 is a,c,d on the mock).
    expect((await push(editor, [{ newDocumentState: submitted(MOCK, { 'q-gk-002': { ua: 'c', status: 'ANSWERED' } }), assumedMasterState: null }])).status).toBe(200);
    expect(
      (
        await push(admin, [
          {
            newDocumentState: submitted(MOCK, { 'q-gk-002': { ua: 'c', status: 'ANSWERED' }, 'q-gk-012': { ua: ['a', 'c', 'd'], status: 'ANSWERED' } }),
            assumedMasterState: null,
          },
        ])
      ).status,
    ).toBe(200);

    // The learner submits nothing first: 0 marks, and the result shows every correct answer.
    const first = submitted(MOCK, {});
    expect((await push(learner, [{ newDocumentState: first, assumedMasterState: null }])).status).toBe(200);
    const shown = await h.request('GET', `/question/getExamResult?qsid=${MOCK}`, { token: learner });
    expect(shown.body).toMatchObject({ totalMarks: 0, practice: false });
    firstMarks = shown.body.totalMarks;
    expect(await rank(learner, MOCK).then((r) => r.body)).toEqual({ success: true, rank: 3, of: 3, percentile: 33.33 });

    // Re-submitting with those answers scores (almost) full marks — as practice.
    const again = submitted(MOCK, correctAnswers(shown.body.questions));
    expect((await push(learner, [{ newDocumentState: again, assumedMasterState: null }])).status).toBe(200);
    const latest = await h.request('GET', `/question/getExamResult?qsid=${MOCK}`, { token: learner });
    expect(latest.body.attemptId).toBe(again.id);
    expect(latest.body.totalMarks).toBeGreaterThan(40);
    expect(latest.body.practice).toBe(true);

    expect(await rank(learner, MOCK).then((r) => r.body)).toEqual({ success: true, rank: 3, of: 3, percentile: 33.33 });
    expect(await rank(admin, MOCK).then((r) => r.body)).toEqual({ success: true, rank: 1, of: 3, percentile: 100 });
    expect(await rank(editor, MOCK).then((r) => r.body)).toEqual({ success: true, rank: 2, of: 3, percentile: 66.67 });
  });

  test('later attempts are replicated as practice, the first as ranked', async () => {
    const docs = (await h.request('GET', '/sync/v1/exam_result/pull?rev=0&limit=1000', { token: learner, headers: V })).body.documents.map((d: unknown) =>
      examResultDocSchema.parse(d),
    );
    const mine = docs.filter((d: { qsid: string }) => d.qsid === MOCK);
    expect(mine.map((d: { practice: boolean; totalMarks: number }) => [d.practice, d.totalMarks > firstMarks])).toEqual([
      [false, false],
      [true, true],
    ]);
  });

  test('a third attempt is practice too, and the participant count counts learners, not attempts', async () => {
    const third = submitted(MOCK, { 'q-gk-002': { ua: 'c', status: 'ANSWERED' } });
    expect((await push(learner, [{ newDocumentState: third, assumedMasterState: null }])).status).toBe(200);
    expect((await resultsOf(DEMO.learner.id, MOCK)).map((r) => r.practice)).toEqual([false, true, true]);
    expect(await rank(learner, MOCK).then((r) => r.body)).toMatchObject({ rank: 3, of: 3 });
    expect((await h.request('GET', `/generic/getParticipantsCount?quesSetId=${MOCK}`, { token: learner })).body).toEqual({ success: true, p: 3 });
  });

  test('an online submission after a pushed one is practice too', async () => {
    const r = await h.request('POST', '/question/submitUserResponse', { token: editor, body: { qsid: MOCK, ures: { 'q-gk-002': 'c', 'q-gk-004': 'b' } } });
    expect(r.status).toBe(200);
    expect(r.body.practice).toBe(true);
    expect(await rank(editor, MOCK).then((r) => r.body)).toMatchObject({ rank: 2, of: 3 });
  });
});

describe('two submissions arriving together cannot both be first', () => {
  test('50 parallel pushes of different attempts of one learner at one set: exactly one non-practice result', async () => {
    const SET = 'qs-hindi-sub';
    const token = await h.tokenOf('learner');
    const docs = Array.from({ length: 50 }, () => submitted(SET, {}));
    const answers = await Promise.all(docs.map((d) => push(token, [{ newDocumentState: d, assumedMasterState: null }])));
    expect(answers.map((r) => r.status)).toEqual(docs.map(() => 200));
    const results = await resultsOf(DEMO.learner.id, SET);
    expect(results).toHaveLength(50);
    expect(results.filter((r) => !r.practice)).toHaveLength(1);
    expect(await rank(learner, SET).then((r) => r.body)).toEqual({ success: true, rank: 1, of: 1, percentile: 100 });
  });

  test('50 parallel online submissions of one learner at a set never taken: exactly one non-practice result', async () => {
    const SET = 'qs-practice-gk';
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => h.request('POST', '/question/submitUserResponse', { token: admin, body: { qsid: SET, ures: { 'q-gk-001': i % 2 ? 'b' : 'a' } } })),
    );
    expect(answers.map((r) => r.status)).toEqual(answers.map(() => 200));
    expect(answers.filter((r) => r.body.practice === false)).toHaveLength(1);
    const results = await resultsOf(DEMO.admin.id, SET);
    expect(results).toHaveLength(50);
    expect(results.filter((r) => !r.practice)).toHaveLength(1);
  });
});
