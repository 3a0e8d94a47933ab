import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { GRACE_MS } from '@pm/protocol/scoring';
import type { TestSummaryDoc } from '@pm/protocol/sync/test-summary';
import { PROTOCOL_VERSION } from '@pm/protocol/version';
import { attempt, examResult } from '../../server/src/db/schema';
import { type Harness, startHarness } from '../../server/src/test/harness';
import { first } from '../../server/src/db/transaction';

/**
 * docs/security.md "Times, ranking and sync quotas": device time. Every time that decides something — which result is the latest,
 * whether a submission is late — is bounded by the server's own times (ARCHITECTURE decision 5):
 * its first sighting of the attempt (`server_first_seen`), the arrival of the submission and the
 * set's duration. The rules are sync-protocol/src/scoring.ts's boundedSubmittedAt and isLate;
 * these cases push like a device, through /api/sync/v1/test_summary/push.
 *
 * The seeded mock test `qs-mock-ssc-1` lasts 60 minutes: late is more than 60 min + GRACE_MS.
 */

let h: Harness;
let learner: string;
beforeAll(async () => {
  h = await startHarness();
  learner = await h.tokenOf('learner');
});
afterAll(() => h.destroy());

const V = { 'x-sync-protocol': PROTOCOL_VERSION };
const LIMIT = 60 * 60_000 + GRACE_MS;
const YEAR_2100 = 4_102_444_800_000;
const push = (rows: unknown) => h.request('POST', '/sync/v1/test_summary/push', { token: learner, headers: V, body: rows });
const attemptRow = (id: string) => first(h.deps.db.select().from(attempt).where(eq(attempt.id, id)));
const resultOf = (id: string) => first(h.deps.db.select().from(examResult).where(eq(examResult.attemptId, id)));

let seq = 0;
function doc(over: Partial<TestSummaryDoc> = {}): TestSummaryDoc {
  seq++;
  const now = Date.now();
  return {
    id: `device-time-${seq.toString().padStart(4, '0')}`,
    qsid: 'qs-mock-ssc-1',
    st: now - 20 * 60_000,
    sfs: 0,
    lsq: null,
    index: 0,
    selectedSection: null,
    answers: { 'q-gk-002': { ua: 'c', status: 'ANSWERED' } },
    status: 'SUBMITTED',
    submittedAt: now,
    elapsed: 20 * 60_000,
    updatedAt: now,
    _deleted: false,
    ...over,
  };
}

/** Pushes an attempt in progress, then makes the server's first sighting of it `ago` ms old. */
async function seenInProgress(d: TestSummaryDoc, ago: number): Promise<TestSummaryDoc> {
  const running = { ...d, status: 'IN_PROGRESS' as const, submittedAt: null };
  expect((await push([{ newDocumentState: running, assumedMasterState: null }])).status).toBe(200);
  await h.deps.db.update(attempt).set({ serverFirstSeen: Date.now() - ago }).where(eq(attempt.id, d.id));
  return running;
}

describe('the submission time is bounded by the server', () => {
  test('a submission time in the future is stored as its arrival, not as sent', async () => {
    const d = doc({ submittedAt: YEAR_2100, updatedAt: YEAR_2100 });
    const before = Date.now();
    expect((await push([{ newDocumentState: d, assumedMasterState: null }])).status).toBe(200);
    const after = Date.now();
    for (const stored of [(await attemptRow(d.id))!.submittedAt!, (await resultOf(d.id))!.submittedAt]) {
      expect(stored).toBeGreaterThanOrEqual(before);
      expect(stored).toBeLessThanOrEqual(after);
    }
    expect((await resultOf(d.id))!.et).toBeLessThanOrEqual(Math.floor(after / 1000));
  });

  test('a device clock in the year 2100 cannot make a result the latest', async () => {
    const future = doc({ submittedAt: YEAR_2100, answers: { 'q-gk-002': { ua: 'a', status: 'ANSWERED' } } });
    expect((await push([{ newDocumentState: future, assumedMasterState: null }])).status).toBe(200);
    await new Promise((r) => setTimeout(r, 5));
    const honest = doc();
    expect((await push([{ newDocumentState: honest, assumedMasterState: null }])).status).toBe(200);
    const latest = await h.request('GET', '/question/getExamResult?qsid=qs-mock-ssc-1', { token: learner });
    expect(latest.status).toBe(200);
    expect(latest.body.attemptId).toBe(honest.id);
    expect(latest.body.submittedAt).toBeLessThan(YEAR_2100);
  });

  test('a submission claimed before the server saw the attempt in progress is stored at that first sighting', async () => {
    const d = doc();
    const running = await seenInProgress(d, 10 * 60_000);
    const firstSeen = (await attemptRow(d.id))!.serverFirstSeen;
    const claimed = { ...d, submittedAt: firstSeen - 5 * 60_000, st: firstSeen - 6 * 60_000, elapsed: 60_000, updatedAt: d.updatedAt + 1 };
    expect((await push([{ newDocumentState: claimed, assumedMasterState: { ...running, sfs: firstSeen } }])).status).toBe(200);
    expect((await attemptRow(d.id))!.submittedAt).toBe(firstSeen);
    expect((await resultOf(d.id))!.submittedAt).toBe(firstSeen);
  });
});

describe('lateness is decided with server-bounded times', () => {
  test('an attempt pushed already submitted with st 0 and elapsed 0 is late', async () => {
    const d = doc({ st: 0, elapsed: 0 });
    expect((await push([{ newDocumentState: d, assumedMasterState: null }])).status).toBe(200);
    expect(await resultOf(d.id)).toMatchObject({ late: true, totalMarks: 2 });
  });

  test('an attempt submitted more than duration + grace after its own start is late whatever elapsed it claims', async () => {
    const now = Date.now();
    const d = doc({ st: now - LIMIT - 60_000, submittedAt: now, elapsed: 30 * 60_000 });
    expect((await push([{ newDocumentState: d, assumedMasterState: null }])).status).toBe(200);
    expect((await resultOf(d.id))!.late).toBe(true);
  });

  test('a start moved after the server’s first sighting does not shorten the test', async () => {
    const d = doc();
    const running = await seenInProgress(d, 2 * 3600_000);
    const firstSeen = (await attemptRow(d.id))!.serverFirstSeen;
    // The device now claims it started 21 minutes ago and used 21 (elapsed still grows: only the
    // start disagrees with what the server saw two hours ago).
    const now = Date.now();
    const moved = { ...d, st: now - 21 * 60_000, submittedAt: now, elapsed: 21 * 60_000, updatedAt: d.updatedAt + 1 };
    expect((await push([{ newDocumentState: moved, assumedMasterState: { ...running, sfs: firstSeen } }])).status).toBe(200);
    expect((await resultOf(d.id))!.late).toBe(true);
  });

  test('elapsed that runs backwards after the server saw more is not believed: the arrival decides', async () => {
    const d = doc({ st: Date.now() - 2 * 3600_000 - 60_000, elapsed: 40 * 60_000 });
    const running = await seenInProgress(d, 2 * 3600_000);
    const firstSeen = (await attemptRow(d.id))!.serverFirstSeen;
    // It claims to have been submitted a minute after the first sighting, with 1 s used.
    const done = { ...d, submittedAt: firstSeen + 60_000, elapsed: 1_000, updatedAt: Date.now() };
    expect((await push([{ newDocumentState: done, assumedMasterState: { ...running, sfs: firstSeen } }])).status).toBe(200);
    expect((await resultOf(d.id))!.late).toBe(true);
  });
});

describe('offline-first still works', () => {
  test('a learner who took the whole test offline and pushes once on reconnect gets an honest, on-time result', async () => {
    const now = Date.now();
    const st = now - 86_400_000;
    const d = doc({ st, submittedAt: st + 50 * 60_000, elapsed: 49 * 60_000, updatedAt: st + 50 * 60_000 });
    expect((await push([{ newDocumentState: d, assumedMasterState: null }])).status).toBe(200);
    expect((await attemptRow(d.id))!.submittedAt).toBe(d.submittedAt);
    expect(await resultOf(d.id)).toMatchObject({ late: false, submittedAt: d.submittedAt, elapsed: 49 * 60_000 });
  });

  test('a learner seen in progress, then offline, who submitted in time and syncs hours later is on time', async () => {
    // Started 10 minutes before the server first saw it, submitted 40 minutes after that.
    const d = doc({ st: Date.now() - 3 * 3600_000 - 10 * 60_000, elapsed: 10 * 60_000 });
    const running = await seenInProgress(d, 3 * 3600_000);
    const firstSeen = (await attemptRow(d.id))!.serverFirstSeen;
    const done = { ...d, submittedAt: firstSeen + 40 * 60_000, elapsed: 50 * 60_000, updatedAt: firstSeen + 40 * 60_000 };
    expect((await push([{ newDocumentState: done, assumedMasterState: { ...running, sfs: firstSeen } }])).status).toBe(200);
    expect(await resultOf(d.id)).toMatchObject({ late: false, submittedAt: done.submittedAt });
  });
});
