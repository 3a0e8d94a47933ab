import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { receiptHash } from '@pm/protocol/receipt';
import { examResultDocSchema } from '@pm/protocol/sync/exam-result';
import type { TestSummaryDoc } from '@pm/protocol/sync/test-summary';
import { PROTOCOL_VERSION } from '@pm/protocol/version';
import { attempt, examResult, questionSet } from '../../db/schema';
import { exec, first, transaction } from '../../db/transaction';
import { nextRev } from '../../lib/revision';
import { type Harness, startHarness } from '../../test/harness';
import { scoreUnscored } from './results.service';

/*
 * docs/exams.md "Submission receipt": the server computes the receipt of a submission as it arrives, with the function
 * the device uses (sync-protocol/src/receipt.ts), and the learner's result carries it.
 */

let h: Harness;
let learner: string;
beforeAll(async () => {
  h = await startHarness();
  learner = await h.tokenOf('learner');
});
afterAll(() => h.destroy());

const V = { 'x-sync-protocol': PROTOCOL_VERSION };
const pull = (collection: string, rev = 0) => h.request('GET', `/sync/v1/${collection}/pull?rev=${rev}&limit=1000`, { token: learner, headers: V });
const push = (rows: unknown) => h.request('POST', '/sync/v1/test_summary/push', { token: learner, headers: V, body: rows });
const attemptRow = (id: string) => first(h.deps.db.select().from(attempt).where(eq(attempt.id, id)));
const resultRow = (id: string) => first(h.deps.db.select().from(examResult).where(eq(examResult.attemptId, id)));

let seq = 0;
function attemptDoc(over: Partial<TestSummaryDoc> = {}): TestSummaryDoc {
  seq++;
  const now = Date.now();
  return {
    id: `receipt-test-${seq.toString().padStart(4, '0')}`,
    qsid: 'qs-mock-ssc-1',
    st: now - 600_000,
    sfs: 0,
    lsq: 'q-gk-004',
    index: 1,
    selectedSection: 'General Knowledge',
    answers: {
      'q-gk-004': { ua: 'a', status: 'ANSWERED', t: 9_000 },
      'q-gk-002': { ua: 'c', status: 'ANSWERED_MARKED', t: 20_000 },
      'q-gk-012': { ua: ['d', 'a', 'c'], status: 'ANSWERED' },
      'q-gk-017': { ua: 'प्रकाश संश्लेषण', status: 'ANSWERED' },
      'q-gk-006': { ua: null, status: 'MARKED' },
    },
    status: 'SUBMITTED',
    submittedAt: now - 1_000,
    elapsed: 599_000,
    updatedAt: now - 1_000,
    _deleted: false,
    ...over,
  };
}

describe('the receipt of a pushed submission', () => {
  test('the replicated result carries the receipt the shared function gives for the pushed document', async () => {
    const doc = attemptDoc();
    const cp = (await pull('exam_result')).body.checkpoint.rev;
    expect((await push([{ newDocumentState: doc, assumedMasterState: null }])).body).toEqual([]);
    const [result] = (await pull('exam_result', cp)).body.documents;
    const parsed = examResultDocSchema.parse(result);
    expect(parsed.attemptId).toBe(doc.id);
    expect(parsed.receipt).toBe(await receiptHash(doc));
    // The device's own document, whatever order its answers are in, gives the same.
    const reordered = { ...doc, answers: Object.fromEntries(Object.entries(doc.answers).reverse()) };
    expect(await receiptHash(reordered)).toBe(parsed.receipt);
    expect((await attemptRow(doc.id))?.receipt).toBe(parsed.receipt);
  });

  test('a device clock ahead of the server: the stored time is bounded, the receipt is of what was sent', async () => {
    const doc = attemptDoc({ submittedAt: Date.now() + 3 * 86_400_000 });
    expect((await push([{ newDocumentState: doc, assumedMasterState: null }])).body).toEqual([]);
    const stored = (await attemptRow(doc.id))!;
    expect(stored.submittedAt).toBeLessThan(doc.submittedAt!);
    expect((await resultRow(doc.id))?.receipt).toBe(await receiptHash(doc));
    // What the server would compute over the time it stored differs: the receipt proves the claim.
    expect(await receiptHash({ ...doc, submittedAt: stored.submittedAt })).not.toBe((await resultRow(doc.id))?.receipt);
  });

  test('an attempt in progress has none; the push that submits it sets it, and nothing changes it after', async () => {
    const running = attemptDoc({ status: 'IN_PROGRESS', submittedAt: null });
    expect((await push([{ newDocumentState: running, assumedMasterState: null }])).body).toEqual([]);
    expect((await attemptRow(running.id))?.receipt).toBeNull();
    const done: TestSummaryDoc = { ...running, status: 'SUBMITTED', submittedAt: Date.now(), updatedAt: running.updatedAt + 1 };
    const master = (await pull('test_summary')).body.documents.find((d: { id: string }) => d.id === running.id);
    expect((await push([{ newDocumentState: done, assumedMasterState: master }])).body).toEqual([]);
    const receipt = await receiptHash(done);
    expect((await attemptRow(running.id))?.receipt).toBe(receipt);
    expect((await resultRow(running.id))?.receipt).toBe(receipt);

    // The same submission again, and a changed one claiming to be it: the receipt stays.
    expect((await push([{ newDocumentState: done, assumedMasterState: null }])).body).toEqual([]);
    const changed = { ...done, answers: { ...done.answers, 'q-gk-004': { ua: 'b', status: 'ANSWERED' as const } }, updatedAt: done.updatedAt + 1 };
    expect(await receiptHash(changed)).not.toBe(receipt);
    const c = await push([{ newDocumentState: changed, assumedMasterState: done }]);
    expect(c.body).toEqual([expect.objectContaining({ id: done.id, status: 'SUBMITTED' })]);
    expect((await attemptRow(running.id))?.receipt).toBe(receipt);
    expect((await resultRow(running.id))?.receipt).toBe(receipt);
  });

  test('one batch that submits an attempt and then tries to change it keeps the first submission’s receipt', async () => {
    const first = attemptDoc();
    const second = { ...first, answers: { 'q-gk-004': { ua: 'd', status: 'ANSWERED' as const } }, updatedAt: first.updatedAt + 1 };
    const r = await push([
      { newDocumentState: first, assumedMasterState: null },
      { newDocumentState: second, assumedMasterState: first },
    ]);
    expect(r.body).toEqual([expect.objectContaining({ id: first.id, answers: first.answers })]);
    expect((await resultRow(first.id))?.receipt).toBe(await receiptHash(first));
  });

  test('a result scored later (after a scoring failure) keeps the receipt of the submission', async () => {
    const before = (await first(h.deps.db.select().from(questionSet).where(eq(questionSet.id, 'qs-practice-gk'))))!;
    await exec(h.deps.db, sql`update question_set set sections = 'null', detail_rev = detail_rev + 100000 where id = 'qs-practice-gk'`);
    const doc = attemptDoc({ qsid: 'qs-practice-gk', answers: { 'q-gk-001': { ua: 'b', status: 'ANSWERED' } } });
    expect((await push([{ newDocumentState: doc, assumedMasterState: null }])).status).toBe(200);
    expect(await resultRow(doc.id)).toBeUndefined();
    await transaction(h.deps.db, async (tx) => {
      await tx.update(questionSet).set({ sections: before.sections, detailRev: await nextRev(tx) }).where(eq(questionSet.id, 'qs-practice-gk'));
    });
    expect(await scoreUnscored(h.deps)).toBe(1);
    expect((await resultRow(doc.id))?.receipt).toBe(await receiptHash(doc));
  });
});

describe('the receipt through the result API', () => {
  test('submitUserResponse and getExamResult answer with the receipt of the stored submission', async () => {
    const cp = (await pull('test_summary')).body.checkpoint.rev;
    const r = await h.request('POST', '/question/submitUserResponse', { token: learner, body: { qsid: 'qs-hindi-sub', ures: { 'q-hindi-006': 'c', 'q-hindi-014': 'रात्रि' } } });
    expect(r.status).toBe(200);
    const [stored] = (await pull('test_summary', cp)).body.documents as TestSummaryDoc[];
    expect(stored?.id).toBe(r.body.attemptId);
    expect(r.body.receipt).toBe(await receiptHash(stored!));
    const latest = await h.request('GET', '/question/getExamResult?qsid=qs-hindi-sub', { token: learner });
    expect(latest.body).toMatchObject({ attemptId: stored!.id, receipt: r.body.receipt });
  });
});
