import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { examResultDocSchema } from '@pm/protocol/sync/exam-result';
import type { TestSummaryDoc } from '@pm/protocol/sync/test-summary';
import { PROTOCOL_VERSION } from '@pm/protocol/version';
import { activityLog, attempt, examResult, meta, questionSet } from '../../db/schema';
import { exec, first, transaction } from '../../db/transaction';
import { nextRev } from '../../lib/revision';
import { submittedAttempt } from '../../test/builders';
import { type Harness, startHarness } from '../../test/harness';
import { replicatePracticeFlags, scoreUnscored } from './results.service';

let h: Harness;
let learner: string;
let other: string;
let editor: string;
beforeAll(async () => {
  h = await startHarness();
  [learner, editor] = await Promise.all([h.tokenOf('learner'), h.tokenOf('editor')]);
  const signup = await h.request('POST', '/UserLogin', {
    body: { n: 'Second Learner', m: '9123456780', password: 'second1234', confirmPassword: 'second1234', p: 'demo-learner', terms: true },
  });
  expect(signup.status).toBe(201);
  other = signup.body.token;
});
afterAll(() => h.destroy());

const V = { 'x-sync-protocol': PROTOCOL_VERSION };
const pull = (token: string, collection: string, rev = 0) => h.request('GET', `/sync/v1/${collection}/pull?rev=${rev}&limit=1000`, { token, headers: V });
const push = (token: string, rows: unknown) => h.request('POST', '/sync/v1/test_summary/push', { token, headers: V, body: rows });
const resultsOf = async (attemptId: string) => await h.deps.db.select().from(examResult).where(eq(examResult.attemptId, attemptId));

const attemptDoc = (over: Partial<TestSummaryDoc> = {}) => submittedAttempt('result-test', over);

/**
 * Answers on the seeded mock (mpq 2, nm 0.5 in every section), with what each must score:
 * General Knowledge +2 −0.5 +2 +2 (pending) 0 = 5.5; Quantitative Aptitude +2 −0.5 = 1.5;
 * Reasoning −0.5; total 6.5 of 48, one answer awaiting evaluation.
 */
const MOCK_ANSWERS: TestSummaryDoc['answers'] = {
  'q-gk-002': { ua: 'c', status: 'ANSWERED', t: 20_000 },
  'q-gk-004': { ua: 'a', status: 'ANSWERED' },
  'q-gk-012': { ua: ['d', 'a', 'c'], status: 'ANSWERED_MARKED' },
  'q-gk-015': { ua: ' १९५० ', status: 'ANSWERED' },
  'q-gk-017': { ua: 'Photosynthesis makes food from light.', status: 'ANSWERED' },
  'q-gk-006': { ua: 'c', status: 'MARKED' },
  'q-arithmetic-015': { ua: 'Four  HUNDRED', status: 'ANSWERED' },
  'q-arithmetic-011': { ua: ['a'], status: 'ANSWERED' },
  'q-reasoning-014': { ua: '113', status: 'ANSWERED' },
  'q-reasoning-001': { ua: null, status: 'VISITED' },
};

describe('a pushed submission is scored once, in the push', () => {
  let doc: TestSummaryDoc;
  test('the result holds marks per part, out-of, totals and every question with its correct answers', async () => {
    doc = attemptDoc({ answers: MOCK_ANSWERS });
    const cp = (await pull(learner, 'exam_result')).body.checkpoint.rev;
    const r = await push(learner, [{ newDocumentState: doc, assumedMasterState: null }]);
    expect(r.status).toBe(200);
    expect(r.body).toEqual([]);
    const docs = (await pull(learner, 'exam_result', cp)).body.documents;
    expect(docs).toHaveLength(1);
    const res = examResultDocSchema.parse(docs[0]);
    expect(res).toMatchObject({
      qsid: 'qs-mock-ssc-1',
      attemptId: doc.id,
      marks: { wos: 0, 'General Knowledge': 5.5, 'Quantitative Aptitude': 1.5, Reasoning: -0.5 },
      outOf: { wos: 0, 'General Knowledge': 16, 'Quantitative Aptitude': 16, Reasoning: 16 },
      totalMarks: 6.5,
      total: 48,
      pending: 1,
      late: false,
      practice: false,
      submittedAt: doc.submittedAt,
      elapsed: 600_000,
      et: Math.floor(doc.submittedAt! / 1000),
      _deleted: false,
    });
    expect(res.userRes['General Knowledge']).toMatchObject({
      'q-gk-002': { ua: 'c', mg: 2 },
      'q-gk-004': { ua: 'a', mg: -0.5 },
      'q-gk-012': { ua: ['d', 'a', 'c'], mg: 2 },
      'q-gk-015': { ua: ' १९५० ', mg: 2 },
      'q-gk-017': { ua: 'Photosynthesis makes food from light.', mg: null },
      'q-gk-006': { ua: null, mg: 0 },
      'q-gk-007': { ua: null, mg: 0 },
    });
    expect(res.userRes.Reasoning!['q-reasoning-001']).toEqual({ ua: null, mg: 0 });
    expect(res.questions).toHaveLength(24);
    expect(res.questions[0]!.id).toBe('q-gk-002');
    expect(res.questions.find((q) => q.id === 'q-gk-015')).toMatchObject({ qt: 'f', ca: ['1950'], trans: { hi: { ca: ['1950', '१९५०'] } } });
    expect(res.questions.every((q) => q.ca.length > 0)).toBe(true);
  });

  test('the same submission pushed again, or changed, neither rescores nor duplicates', async () => {
    const row = await resultsOf(doc.id);
    expect(row).toHaveLength(1);
    for (let i = 0; i < 3; i++) expect((await push(learner, [{ newDocumentState: doc, assumedMasterState: null }])).body).toEqual([]);
    const changed = { ...doc, answers: { 'q-gk-004': { ua: 'b', status: 'ANSWERED' as const } }, updatedAt: doc.updatedAt + 1 };
    const c = await push(learner, [{ newDocumentState: changed, assumedMasterState: doc }]);
    expect(c.body).toEqual([expect.objectContaining({ id: doc.id, answers: doc.answers })]);
    expect(await resultsOf(doc.id)).toEqual(row);
  });

  test('an attempt pushed in progress and later submitted is scored when it is submitted', async () => {
    const running = attemptDoc({ status: 'IN_PROGRESS', submittedAt: null, answers: { 'q-gk-002': { ua: 'c', status: 'ANSWERED' } } });
    await push(learner, [{ newDocumentState: running, assumedMasterState: null }]);
    expect(await resultsOf(running.id)).toHaveLength(0);
    const done = { ...running, status: 'SUBMITTED' as const, submittedAt: Date.now(), elapsed: 700_000, updatedAt: running.updatedAt + 1 };
    expect((await push(learner, [{ newDocumentState: done, assumedMasterState: running }])).body).toEqual([]);
    expect(await resultsOf(done.id)).toEqual([expect.objectContaining({ totalMarks: 2, late: false })]);
  });

  test('a practice set with sub-sections is scored under its section names', async () => {
    const d = attemptDoc({
      qsid: 'qs-hindi-sub',
      answers: {
        'q-hindi-006': { ua: 'c', status: 'ANSWERED' }, // Grammar +1
        'q-hindi-014': { ua: 'रात्रि', status: 'ANSWERED' }, // Vocabulary +1
        'q-hindi-016': { ua: 'घबरा जाना', status: 'ANSWERED' }, // Vocabulary, subjective: pending
        'q-reasoning-003': { ua: 'a', status: 'ANSWERED' }, // Reasoning −0.5
      },
    });
    await push(learner, [{ newDocumentState: d, assumedMasterState: null }]);
    expect((await resultsOf(d.id))[0]).toMatchObject({
      marks: { wos: 0, Hindi: 2, Reasoning: -0.5 },
      outOf: { wos: 0, Hindi: 18, Reasoning: 12 },
      totalMarks: 1.5,
      total: 30,
      pending: 1,
    });
  });
});

describe('lateness', () => {
  test('a device elapsed beyond duration + grace is late, kept and scored', async () => {
    const d = attemptDoc({ elapsed: 60 * 60_000 + 120_001, answers: { 'q-gk-002': { ua: 'c', status: 'ANSWERED' } } });
    await push(learner, [{ newDocumentState: d, assumedMasterState: null }]);
    expect(await resultsOf(d.id)).toEqual([expect.objectContaining({ late: true, totalMarks: 2 })]);
  });

  test('the server’s own sightings: elapsed running backwards, arriving past first sighting + duration + grace', async () => {
    const running = attemptDoc({ status: 'IN_PROGRESS', submittedAt: null, elapsed: 1_800_000 });
    await push(learner, [{ newDocumentState: running, assumedMasterState: null }]);
    // The server first saw it two hours ago.
    await h.deps.db.update(attempt).set({ serverFirstSeen: Date.now() - 2 * 3600_000 }).where(eq(attempt.id, running.id));
    const master = (await pull(learner, 'test_summary')).body.documents.find((x: { id: string }) => x.id === running.id);
    const done = { ...running, status: 'SUBMITTED' as const, submittedAt: Date.now(), elapsed: 1_000, updatedAt: running.updatedAt + 1 };
    expect((await push(learner, [{ newDocumentState: done, assumedMasterState: master }])).body).toEqual([]);
    expect(await resultsOf(done.id)).toEqual([expect.objectContaining({ late: true })]);
  });

  test('an attempt taken offline and synced a day later is on time', async () => {
    const d = attemptDoc({ st: Date.now() - 86_400_000, submittedAt: Date.now() - 86_000_000, elapsed: 1_000_000 });
    await push(learner, [{ newDocumentState: d, assumedMasterState: null }]);
    expect(await resultsOf(d.id)).toEqual([expect.objectContaining({ late: false })]);
  });
});

describe('elapsed round-trips exactly', () => {
  test('sent: stored and returned; not sent: returned without it; re-pushing either is a no-op', async () => {
    const withIt = attemptDoc({ status: 'IN_PROGRESS', submittedAt: null, elapsed: 12_345, answers: { 'q-gk-002': { ua: 'c', status: 'ANSWERED', t: 5_000 } } });
    const { elapsed: _e, ...withoutIt } = attemptDoc({ status: 'IN_PROGRESS', submittedAt: null });
    await push(learner, [
      { newDocumentState: withIt, assumedMasterState: null },
      { newDocumentState: withoutIt, assumedMasterState: null },
    ]);
    const docs = (await pull(learner, 'test_summary')).body.documents;
    const a = docs.find((x: { id: string }) => x.id === withIt.id);
    const b = docs.find((x: { id: string }) => x.id === withoutIt.id);
    expect(a).toMatchObject({ elapsed: 12_345, answers: { 'q-gk-002': { t: 5_000 } } });
    expect('elapsed' in b).toBe(false);
    const revs = await h.deps.db.select({ rev: attempt.rev }).from(attempt);
    expect((await push(learner, [{ newDocumentState: a, assumedMasterState: a }, { newDocumentState: b, assumedMasterState: b }])).body).toEqual([]);
    expect((await push(learner, [{ newDocumentState: withIt, assumedMasterState: null }])).body).toEqual([]);
    expect(await h.deps.db.select({ rev: attempt.rev }).from(attempt)).toEqual(revs);
    // A device that moves on from the master it holds (sfs filled in) is not a conflict.
    const next = { ...a, elapsed: 20_000, updatedAt: a.updatedAt + 1 };
    expect((await push(learner, [{ newDocumentState: next, assumedMasterState: a }])).body).toEqual([]);
  });
});

describe('sets a device may still hold', () => {
  test('an unknown set or one never published is skipped, not refused: the rest of the batch is stored', async () => {
    const good = attemptDoc({ qsid: 'qs-practice-gk' });
    const unknown = attemptDoc({ qsid: 'no-such-set' });
    const future = attemptDoc({ qsid: 'qs-future-mock' });
    const r = await push(learner, [
      { newDocumentState: unknown, assumedMasterState: null },
      { newDocumentState: good, assumedMasterState: null },
      { newDocumentState: future, assumedMasterState: null },
    ]);
    expect(r.status).toBe(200);
    expect(r.body).toEqual([]);
    const ids = (await h.deps.db.select({ id: attempt.id }).from(attempt)).map((x) => x.id);
    expect(ids).toContain(good.id);
    expect(ids).not.toContain(unknown.id);
    expect(ids).not.toContain(future.id);
    // The correct answers of an unreleased mock never come back.
    expect(await resultsOf(future.id)).toEqual([]);
  });

  test('a set deleted after it was published still takes (and scores) a submission', async () => {
    await transaction(h.deps.db, async (tx) => {
      await tx.update(questionSet).set({ deleted: true, rev: await nextRev(tx), detailRev: await nextRev(tx) }).where(eq(questionSet.id, 'qs-hindi-sub'));
    });
    const d = attemptDoc({ qsid: 'qs-hindi-sub', answers: { 'q-hindi-006': { ua: 'c', status: 'ANSWERED' } } });
    expect((await push(learner, [{ newDocumentState: d, assumedMasterState: null }])).body).toEqual([]);
    expect(await resultsOf(d.id)).toEqual([expect.objectContaining({ totalMarks: 1 })]);
    await transaction(h.deps.db, async (tx) => {
      await tx.update(questionSet).set({ deleted: false, rev: await nextRev(tx), detailRev: await nextRev(tx) }).where(eq(questionSet.id, 'qs-hindi-sub'));
    });
  });
});

describe('submitUserResponse and getExamResult', () => {
  test('submitUserResponse stores a submitted attempt with a server id and answers with the scored result', async () => {
    const cp = (await pull(learner, 'test_summary')).body.checkpoint.rev;
    const r = await h.request('POST', '/question/submitUserResponse', {
      token: learner,
      body: { qsid: 'qs-practice-gk', ures: { 'q-gk-001': 'b', 'q-gk-011': ['c', 'a'], 'q-gk-014': 'amritsar', 'q-gk-003': '', 'q-arithmetic-014': 'Fifty Four' } },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      success: true,
      msg: 'Test submitted successfully',
      qs: { id: 'qs-practice-gk', l: expect.any(String), q: expect.any(Array) },
      marks: { wos: 4 },
      outOf: { wos: 10 },
      totalMarks: 4,
      total: 10,
      et: expect.any(Number),
      pending: 0,
      late: false,
    });
    expect(r.body.userRes.wos['q-gk-003']).toEqual({ ua: null, mg: 0 });
    expect(r.body.questions).toHaveLength(10);
    const attempts = (await pull(learner, 'test_summary', cp)).body.documents;
    expect(attempts).toEqual([expect.objectContaining({ id: r.body.attemptId, qsid: 'qs-practice-gk', status: 'SUBMITTED' })]);
  });

  test.each([
    ['an unpublished set', { qsid: 'qs-future-mock', ures: {} }, 400, 'Question set not configured'],
    ['an unknown set', { qsid: 'no-such-set', ures: {} }, 400, 'Question set not configured'],
    ['a question outside the set', { qsid: 'qs-practice-gk', ures: { 'q-hindi-001': 'a' } }, 400, 'Question is not part of this question set: q-hindi-001'],
    ['an unknown field', { qsid: 'qs-practice-gk', ures: {}, score: 100 }, 400, 'Unknown field: score'],
    ['a wrongly typed answer', { qsid: 'qs-practice-gk', ures: { 'q-gk-001': 5 } }, 400, /.+/],
    ['no qsid', { ures: {} }, 400, 'qsid is required'],
  ])('submitUserResponse refuses %s and writes nothing', async (_n, body, status, msg) => {
    const counts = async () => [(await h.deps.db.select().from(attempt)).length, (await h.deps.db.select().from(examResult)).length];
    const before = await counts();
    const r = await h.request('POST', '/question/submitUserResponse', { token: learner, body });
    expect(r.status).toBe(status);
    if (typeof msg === 'string') expect(r.body.msg).toBe(msg);
    else expect(r.body.msg).toMatch(msg);
    expect(await counts()).toEqual(before);
  });

  test('getExamResult answers the caller’s latest result with questions and correct answers', async () => {
    const r = await h.request('GET', '/question/getExamResult?qsid=qs-mock-ssc-1', { token: learner });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, qs: { id: 'qs-mock-ssc-1', isM: true }, marks: expect.any(Object), userRes: expect.any(Object), totalMarks: expect.any(Number), et: expect.any(Number) });
    const latest = (await h.deps.db.select().from(examResult).where(eq(examResult.personId, 'demo-learner')))
      .filter((x) => x.qsid === 'qs-mock-ssc-1')
      .sort((a, b) => b.submittedAt - a.submittedAt || b.rev - a.rev)[0]!;
    expect(r.body.id).toBe(latest.id);
    expect(r.body.questions.every((q: { ca: string[] }) => q.ca.length > 0)).toBe(true);
  });

  test('login is needed; another learner sees no result of the first, through no route', async () => {
    expect((await h.request('GET', '/question/getExamResult?qsid=qs-mock-ssc-1')).status).toBe(401);
    expect((await h.request('POST', '/question/submitUserResponse', { body: { qsid: 'qs-practice-gk', ures: {} } })).status).toBe(401);
    const r = await h.request('GET', '/question/getExamResult?qsid=qs-mock-ssc-1', { token: other });
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ success: false, msg: 'No result found for this question set' });
    expect((await pull(other, 'exam_result')).body.documents).toEqual([]);
    expect((await pull(other, 'test_summary')).body.documents).toEqual([]);
    expect((await h.request('GET', '/question/getRank?qsid=qs-mock-ssc-1', { token: other })).status).toBe(404);
    expect((await h.request('GET', '/question/getExamResult?qsid=qs-mock-ssc-1&personId=demo-learner', { token: other })).status).toBe(400);
  });
});

describe('rank, participants and evaluation', () => {
  test('getRank ranks the first result of each learner; a later attempt is practice and ranks nothing', async () => {
    // The second learner scores 8 on the practice set; the learner's first there is 4.
    const s = await h.request('POST', '/question/submitUserResponse', {
      token: other,
      body: { qsid: 'qs-practice-gk', ures: { 'q-gk-001': 'b', 'q-gk-003': 'd', 'q-gk-005': 'b', 'q-gk-008': 'a', 'q-gk-011': ['a', 'c'], 'q-gk-014': 'Amritsar', 'q-arithmetic-001': 'c', 'q-arithmetic-003': 'c' } },
    });
    expect(s.body.totalMarks).toBe(8);
    const mine = await h.request('GET', '/question/getRank?qsid=qs-practice-gk', { token: learner });
    const theirs = await h.request('GET', '/question/getRank?qsid=qs-practice-gk', { token: other });
    expect(mine.body).toEqual({ success: true, rank: 2, of: 2, percentile: 50 });
    expect(theirs.body).toEqual({ success: true, rank: 1, of: 2, percentile: 100 });
    // The learner tries again and scores 8 too: a practice attempt, shown as such, ranking nothing.
    const again = await h.request('POST', '/question/submitUserResponse', {
      token: learner,
      body: { qsid: 'qs-practice-gk', ures: { 'q-gk-001': 'b', 'q-gk-003': 'd', 'q-gk-005': 'b', 'q-gk-008': 'a', 'q-gk-011': ['a', 'c'], 'q-gk-014': 'Amritsar', 'q-arithmetic-001': 'c', 'q-arithmetic-003': 'c' } },
    });
    expect(again.body).toMatchObject({ totalMarks: 8, practice: true });
    expect((await h.request('GET', '/question/getExamResult?qsid=qs-practice-gk', { token: learner })).body).toMatchObject({ totalMarks: 8, practice: true });
    expect((await h.request('GET', '/question/getRank?qsid=qs-practice-gk', { token: learner })).body).toEqual({ success: true, rank: 2, of: 2, percentile: 50 });
  });

  test('getParticipantsCount counts distinct learners with an attempt', async () => {
    expect((await h.request('GET', '/generic/getParticipantsCount?quesSetId=qs-practice-gk', { token: learner })).body).toEqual({ success: true, p: 2 });
    expect((await h.request('GET', '/generic/getParticipantsCount?quesSetId=qs-future-mock', { token: learner })).body).toEqual({ success: true, p: 0 });
    expect((await h.request('GET', '/generic/getParticipantsCount?quesSetId=qs-practice-gk')).status).toBe(401);
    expect((await h.request('GET', '/generic/getParticipantsCount', { token: learner })).status).toBe(400);
  });

  test('an editor evaluates a subjective answer: totals follow, the learner pulls the change, the log keeps both values', async () => {
    const result = (await h.deps.db.select().from(examResult)).find((x) => x.pending > 0 && x.qsid === 'qs-mock-ssc-1')!;
    const qid = 'q-gk-017';
    const listed = await h.request('GET', '/question/getPendingEvaluations?qsid=qs-mock-ssc-1', { token: editor });
    expect(listed.status).toBe(200);
    expect(listed.body.data).toContainEqual({
      resultId: result.id,
      qsid: 'qs-mock-ssc-1',
      person: { id: 'demo-learner', name: expect.any(String) },
      qid,
      ua: 'Photosynthesis makes food from light.',
      max: 2,
      submittedAt: result.submittedAt,
    });
    expect(listed.body.count).toBeGreaterThan(0);
    expect((await h.request('GET', '/question/getPendingEvaluations', { token: learner })).status).toBe(403);
    const cp = (await pull(learner, 'exam_result')).body.checkpoint.rev;
    for (const [mg, msg] of [
      [2.5, 'Marks must be between 0 and 2'],
      [-1, 'Marks must be between 0 and 2'],
    ] as const) {
      const bad = await h.request('PATCH', '/question/evaluate', { token: editor, body: { resultId: result.id, qid, mg } });
      expect(bad.status).toBe(400);
      expect(bad.body.msg).toBe(msg);
    }
    const mcq = await h.request('PATCH', '/question/evaluate', { token: editor, body: { resultId: result.id, qid: 'q-gk-002', mg: 1 } });
    expect(mcq.body.msg).toBe('Only answered subjective questions are evaluated by an editor');
    expect((await h.request('PATCH', '/question/evaluate', { token: learner, body: { resultId: result.id, qid, mg: 2 } })).status).toBe(403);
    expect((await h.request('PATCH', '/question/evaluate', { token: editor, body: { resultId: 'nope', qid, mg: 1 } })).status).toBe(404);
    expect((await h.request('PATCH', '/question/evaluate', { token: editor, body: { resultId: result.id, qid, mg: 1, extra: 1 } })).status).toBe(400);

    const r = await h.request('PATCH', '/question/evaluate', { token: editor, body: { resultId: result.id, qid, mg: 1.5 } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, msg: 'Answer evaluated successfully' });
    const pulled = (await pull(learner, 'exam_result', cp)).body.documents;
    expect(pulled).toEqual([expect.objectContaining({ id: result.id, pending: 0, totalMarks: result.totalMarks + 1.5 })]);
    expect(pulled[0].marks['General Knowledge']).toBe(result.marks['General Knowledge']! + 1.5);
    expect(pulled[0].userRes['General Knowledge'][qid].mg).toBe(1.5);
    // Evaluated again: the difference is applied, nothing is counted twice.
    await h.request('PATCH', '/question/evaluate', { token: editor, body: { resultId: result.id, qid, mg: 0.5 } });
    const row = (await first(h.deps.db.select().from(examResult).where(eq(examResult.id, result.id))))!;
    expect(row).toMatchObject({ totalMarks: result.totalMarks + 0.5, pending: 0 });
    const still = (await h.request('GET', '/question/getPendingEvaluations?qsid=qs-mock-ssc-1', { token: editor })).body.data;
    expect(still.map((x: { resultId: string }) => x.resultId)).not.toContain(result.id);
    const log = await h.deps.db.select().from(activityLog).where(eq(activityLog.entityId, result.id));
    expect(log.map((l) => [l.oldValue, l.newValue])).toEqual([
      [expect.objectContaining({ qid, mg: null }), expect.objectContaining({ qid, mg: 1.5 })],
      [expect.objectContaining({ qid, mg: 1.5 }), expect.objectContaining({ qid, mg: 0.5 })],
    ]);
  });
});

describe('a scoring failure never fails the push', () => {
  test('the attempt is stored without a result, and scored when the app starts again', async () => {
    const before = (await first(h.deps.db.select().from(questionSet).where(eq(questionSet.id, 'qs-practice-gk'))))!;
    // A set row that scoring cannot read (as a bug would): the push must still succeed.
    await exec(h.deps.db, sql`update question_set set sections = 'null', detail_rev = detail_rev + 100000 where id = 'qs-practice-gk'`);
    const d = attemptDoc({ qsid: 'qs-practice-gk', answers: { 'q-gk-001': { ua: 'b', status: 'ANSWERED' } } });
    const r = await push(learner, [{ newDocumentState: d, assumedMasterState: null }]);
    expect(r.status).toBe(200);
    expect(r.body).toEqual([]);
    expect(await first(h.deps.db.select().from(attempt).where(eq(attempt.id, d.id)))).toMatchObject({ status: 'SUBMITTED' });
    expect(await resultsOf(d.id)).toEqual([]);

    await transaction(h.deps.db, async (tx) => {
      await tx.update(questionSet).set({ sections: before.sections, detailRev: await nextRev(tx) }).where(eq(questionSet.id, 'qs-practice-gk'));
    });
    expect(await scoreUnscored(h.deps)).toBe(1);
    expect(await resultsOf(d.id)).toEqual([expect.objectContaining({ totalMarks: 1 })]);
    expect(await scoreUnscored(h.deps)).toBe(0);
  });
});

describe('results marked practice by migration 0006 replicate again, once', () => {
  test('each practice result gets a new revision at the first start, and none at the next', async () => {
    // As after migration 0006 on an existing database: flags set, revisions unchanged, no marker.
    await h.deps.db.delete(meta).where(eq(meta.key, 'exam_result.practice.replicated'));
    const practice = await h.deps.db.select().from(examResult).where(eq(examResult.practice, true));
    expect(practice.length).toBeGreaterThan(0);
    const cp = (await pull(learner, 'exam_result')).body.checkpoint.rev;
    expect(await replicatePracticeFlags(h.deps)).toBe(practice.length);
    const mine = practice.filter((r) => r.personId === 'demo-learner').map((r) => r.id).sort();
    const pulled = (await pull(learner, 'exam_result', cp)).body.documents;
    expect(pulled.map((d: { id: string }) => d.id).sort()).toEqual(mine);
    expect(pulled.every((d: { practice: boolean }) => d.practice)).toBe(true);
    expect(await replicatePracticeFlags(h.deps)).toBe(0);
  });
});
