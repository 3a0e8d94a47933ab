import path from 'node:path';
import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openPaper, unwrapLiveKey } from '@pm/protocol/live-test';
import { MSG } from '@pm/protocol/messages';
import { MIN_RANKED, rankIn } from '@pm/protocol/score-dist';
import { decodeHistogram } from '@pm/protocol/score-dist-code';
import type { ScoreDistDoc } from '@pm/protocol/sync/score-dist';
import type { QsDetailDoc, TestQuestion } from '@pm/protocol/sync/qs-detail';
import type { LiveKeyDoc } from '@pm/protocol/sync/live-key';
import { PROTOCOL_VERSION } from '@pm/protocol/version';
import { attempt, examResult, liveTest, person, scoreDist } from '../../db/schema';
import { readLocalInbox } from '../../lib/outbox';
import { submittedAttempt } from '../../test/builders';
import { DEMO, type Harness, startHarness } from '../../test/harness';
import { refreshDistributions } from '../results/score-dist';
import { liveStartRefusal, releaseDue, startLiveRelease } from './live-tests.service';

/*
 * Live tests through the API (docs/live-tests.md): schedule, register, the sealed paper, the key
 * held back until the start, the unlock code by SMS, starts outside the window refused, ranks and
 * answers withheld until the result time. Time passes by moving the test's times in the database.
 */

let h: Harness;
let learner: string;
let other: string;
let otherId: string;
const learnerId = DEMO.learner.id;
let editor: string;
const QSID = 'qs-mock-ssc-1';
const V = { 'x-sync-protocol': PROTOCOL_VERSION };
const MIN = 60_000;

beforeAll(async () => {
  h = await startHarness();
  [learner, editor] = await Promise.all([h.tokenOf('learner'), h.tokenOf('editor')]);
  const signup = await h.request('POST', '/UserLogin', {
    body: { n: 'Second Learner', m: '9123456781', password: 'second1234', confirmPassword: 'second1234', p: 'demo-learner', terms: true },
  });
  expect(signup.status).toBe(201);
  other = signup.body.token;
  otherId = (await h.deps.db.select({ id: person.id }).from(person).where(like(person.mobile, '%9123456781')))[0]!.id;
});
afterAll(() => h.destroy());

const pull = (token: string, collection: string, rev = 0) => h.request('GET', `/sync/v1/${collection}/pull?rev=${rev}&limit=1000`, { token, headers: V });
const push = (token: string, rows: unknown) => h.request('POST', '/sync/v1/test_summary/push', { token, headers: V, body: rows });
const schedule = (body: unknown, token = editor) => h.request('PUT', '/live/schedule', { token, body });
/** Moves the test's times (ms from now) as if the clock had moved on. */
const moveTimes = (t: { start?: number; res?: number; winMin?: number }) =>
  h.deps.db
    .update(liveTest)
    .set({
      ...(t.start !== undefined && { startAt: Date.now() + t.start }),
      ...(t.res !== undefined && { resultAt: Date.now() + t.res }),
      ...(t.winMin !== undefined && { windowMs: t.winMin * MIN }),
    })
    .where(eq(liveTest.qsid, QSID));
const detailOf = async (token: string) => ((await pull(token, 'qs_detail')).body.documents as QsDetailDoc[]).find((d) => d.id === QSID)!;

describe('scheduling (PUT /live/schedule)', () => {
  test('editors only; every field checked and named', async () => {
    const start = Date.now() + 10 * MIN;
    expect((await schedule({ qsid: QSID, start, winMin: 15, res: start + 3 * 60 * MIN }, learner)).status).toBe(403);
    const past = await schedule({ qsid: QSID, start: Date.now() - MIN, winMin: 15, res: start + 3 * 60 * MIN });
    expect(past.status).toBe(400);
    expect(past.body.msg).toBe(MSG.liveStartPast);
    // The result time must come after the window (15 min) and the set's 60 minutes.
    const early = await schedule({ qsid: QSID, start, winMin: 15, res: start + 70 * MIN });
    expect(early.status).toBe(400);
    expect(early.body.msg).toMatch(/^res: /);
    expect((await schedule({ qsid: QSID, start, winMin: 15, res: start + 3 * 60 * MIN, extra: 1 })).status).toBe(400);
    expect((await schedule({ qsid: QSID, start, winMin: 0, res: start + 3 * 60 * MIN })).status).toBe(400);
    const ok = await schedule({ qsid: QSID, start, winMin: 15, res: start + 3 * 60 * MIN });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ qsid: QSID, start, win: 15 * MIN, registered: false });
  });

  test('the paper replicates sealed: no question in the clear, the times and the wrapped key with it', async () => {
    const d = await detailOf(learner);
    expect(d.questions).toEqual([]);
    expect(d.live).toBeDefined();
    expect(d.live!.win).toBe(15 * MIN);
    // The parts still list question ids (they say nothing); no question's text is in the clear.
    expect(JSON.stringify(d)).not.toContain('<p>');
    // The editor's preview is plain, as always.
    const preview = await h.request('GET', `/question/previewQuestionSet/${QSID}`, { token: editor });
    expect(preview.status).toBe(200);
  });
});

describe('registration and the key', () => {
  let checkpoint = 0;
  let key = '';

  test('a learner registers (a free set needs no plan) and sees it listed', async () => {
    const r = await h.request('POST', '/live/register', { token: learner, body: { qsid: QSID, sms: true, lang: 'en' } });
    expect(r.status).toBe(200);
    const listed = await h.request('GET', '/live/tests', { token: learner });
    expect(listed.body.data.find((t: { qsid: string }) => t.qsid === QSID)).toMatchObject({ registered: true });
    expect((await h.request('POST', '/live/register', { token: learner, body: { qsid: 'qs-practice-gk' } })).status).toBe(404);
  });

  test('the key is not served before the start (server time)', async () => {
    const r = await pull(learner, 'live_key');
    expect(r.status).toBe(200);
    const doc = (r.body.documents as LiveKeyDoc[]).find((d) => d.id === QSID)!;
    expect(doc).toMatchObject({ key: null, sms: true });
    checkpoint = r.body.checkpoint.rev;
    // Nothing was released: the job finds nothing due.
    expect(await releaseDue(h.deps)).toEqual({ released: 0, opened: 0 });
    // Someone who did not register holds no document.
    expect((await pull(other, 'live_key')).body.documents).toEqual([]);
  });

  test('at the start the key reaches the registered learner, and opens the paper (no answers in it)', async () => {
    await moveTimes({ start: -1000 });
    // Connected devices get the key in the stream's event itself (docs/live-tests.md "The key at scale").
    const told: { c: string[]; keys: unknown }[] = [];
    const off = h.deps.events.subscribe(learnerId, (c, keys) => c.includes('live_key') && told.push({ c, keys }));
    const toldOther: unknown[] = [];
    const offOther = h.deps.events.subscribe(otherId, (c, keys) => keys && toldOther.push(keys));
    expect((await releaseDue(h.deps)).released).toBe(1);
    off();
    offOther();
    // A second run (another instance) releases nothing again.
    expect((await releaseDue(h.deps)).released).toBe(0);
    const r = await pull(learner, 'live_key', checkpoint);
    const doc = (r.body.documents as LiveKeyDoc[])[0]!;
    expect(doc.id).toBe(QSID);
    expect(doc.key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    key = doc.key!;
    expect(told).toEqual([{ c: ['live_key'], keys: [{ qsid: QSID, key }] }]);
    expect(toldOther).toEqual([]);
    const d = await detailOf(learner);
    const questions = await openPaper<TestQuestion[]>(key, QSID, d.live!.paper);
    expect(questions!.map((q) => q.id)).toContain('q-gk-002');
    expect(questions!.every((q) => q.ca === undefined && Object.values(q.trans).every((t) => t.ca === undefined))).toBe(true);
  });

  test('the unlock code went by SMS, and it unwraps the same key', async () => {
    const sms = readLocalInbox(path.join(h.dataDir, 'local-inbox.jsonl')).filter((m) => m.channel === 'sms' && m.to.endsWith('9000000003'));
    const text = sms.at(-1)!.body;
    const code = /unlock code ([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4})/.exec(text)![1]!;
    const d = await detailOf(learner);
    expect(await unwrapLiveKey(code, QSID, d.live!.wk)).toEqual({ key });
  });
});

describe('attempts, results and ranks', () => {
  const inWindow = () => submittedAttempt('live', { qsid: QSID, st: Date.now() - 1000, submittedAt: Date.now(), elapsed: 1000, answers: { 'q-gk-002': { ua: 'c', status: 'ANSWERED' } } });
  let mine = '';
  let mineStarted = 0;

  test("an attempt by someone who did not register is refused (not stored), without failing the device's batch", async () => {
    const doc = inWindow();
    const r = await push(other, [{ newDocumentState: doc, assumedMasterState: null }]);
    expect(r.status).toBe(200);
    expect(await h.deps.db.select().from(attempt).where(eq(attempt.id, doc.id))).toEqual([]);
  });

  test('a registered start inside the window is stored and scored, its result held back until the result time', async () => {
    const doc = inWindow();
    mine = doc.id;
    mineStarted = doc.st;
    const cp = (await pull(learner, 'exam_result')).body.checkpoint.rev;
    expect((await push(learner, [{ newDocumentState: doc, assumedMasterState: null }])).status).toBe(200);
    expect(await h.deps.db.select().from(examResult).where(eq(examResult.attemptId, doc.id))).toHaveLength(1);
    expect((await pull(learner, 'exam_result', cp)).body.documents).toEqual([]);
    const result = await h.request('GET', `/question/getExamResult?qsid=${QSID}`, { token: learner });
    expect(result.status).toBe(403);
    expect(result.body.msg).toBe(MSG.liveResultsLater);
    expect((await h.request('GET', `/question/getRank?qsid=${QSID}`, { token: learner })).status).toBe(403);
    // The online way of submitting does not take a live test.
    expect((await h.request('POST', '/question/submitUserResponse', { token: learner, body: { qsid: QSID, ures: {} } })).status).toBe(400);
  });

  test('a start after the window closed is refused', async () => {
    // The window closed half a second after the attempt above started.
    await h.deps.db.update(liveTest).set({ startAt: mineStarted - 1000, windowMs: 1500 }).where(eq(liveTest.qsid, QSID));
    const doc = submittedAttempt('live-late', { qsid: QSID, st: Date.now() + 1000, submittedAt: Date.now() + 1000, elapsed: 0 });
    expect((await push(learner, [{ newDocumentState: doc, assumedMasterState: null }])).status).toBe(200);
    expect(await h.deps.db.select().from(attempt).where(eq(attempt.id, doc.id))).toEqual([]);
    // Registration has closed too.
    expect((await h.request('POST', '/live/register', { token: other, body: { qsid: QSID } })).body.msg).toBe(MSG.liveRegistrationClosed);
  });

  test('at the result time the results replicate with the answer key, and ranks open for everyone at once', async () => {
    const cp = (await pull(learner, 'exam_result')).body.checkpoint.rev;
    await moveTimes({ res: -1000 });
    expect((await releaseDue(h.deps)).opened).toBe(1);
    const docs = (await pull(learner, 'exam_result', cp)).body.documents as { attemptId: string; questions: { ca: string[] }[] }[];
    const doc = docs.find((d) => d.attemptId === mine)!;
    expect(doc.questions.length).toBeGreaterThan(0);
    expect(doc.questions.every((q) => q.ca.length > 0)).toBe(true);
    const rank = await h.request('GET', `/question/getRank?qsid=${QSID}`, { token: learner });
    expect(rank.status).toBe(200);
    expect(rank.body).toMatchObject({ rank: 1, of: 1 });
    expect((await h.request('GET', `/question/getExamResult?qsid=${QSID}`, { token: learner })).status).toBe(200);
  });
});

describe('paid sets and the rule itself', () => {
  test('registering for a paid set needs a plan that could start it', async () => {
    const start = Date.now() + 10 * MIN;
    expect((await schedule({ qsid: 'qs-hindi-sub', start, winMin: 15, res: start + 2 * 60 * MIN })).status).toBe(200);
    const r = await h.request('POST', '/live/register', { token: other, body: { qsid: 'qs-hindi-sub' } });
    expect(r.status).toBe(402);
  });

  test('liveStartRefusal: registered, early, in the window, closed, after the result time', () => {
    const live = { startAt: 1_000_000_000, windowMs: 15 * MIN, resultAt: 1_000_000_000 + 5 * 60 * MIN };
    const during = live.startAt + MIN;
    expect(liveStartRefusal(live, false, during, during)).toBe('unregistered');
    expect(liveStartRefusal(live, true, live.startAt - 5 * MIN, during)).toBe('early');
    expect(liveStartRefusal(live, true, during, during)).toBeNull();
    expect(liveStartRefusal(live, true, live.startAt + 16 * MIN, live.startAt + 16 * MIN)).toBe('closed');
    expect(liveStartRefusal(live, false, live.resultAt + 1, live.resultAt + 1)).toBeNull();
  });
});

describe('the release job', () => {
  test('releases a key at its start itself, not at its next poll (docs/live-tests.md "The key at scale")', async () => {
    const qsid = 'qs-practice-numerical';
    const start = Date.now() + 600;
    expect((await schedule({ qsid, start, winMin: 15, res: start + 3 * 60 * MIN })).status).toBe(200);
    // Polling once a minute: only the timer a run aims at the start releases it within the second.
    const stop = startLiveRelease(h.deps, 60_000);
    try {
      const released = async () => (await h.deps.db.select({ released: liveTest.released }).from(liveTest).where(eq(liveTest.qsid, qsid)))[0]!.released;
      for (;;) {
        const now = Date.now();
        const done = await released();
        // Never before the start...
        if (done) expect(now).toBeGreaterThanOrEqual(start - 50);
        if (done) break;
        // ...and not a poll later.
        expect(now).toBeLessThan(start + 1500);
        await new Promise((r) => setTimeout(r, 20));
      }
    } finally {
      stop();
    }
  });
});

describe('the score distribution at the result time', () => {
  const SET = 'qs-practice-gk';
  /** What each of ten learners answers to q-gk-001 (right: b) and q-gk-003 (right: d); one mark each, none off. */
  const ANSWERS: [string | null, string | null][] = [
    ['b', 'd'],
    ['b', 'a'],
    ['a', 'd'],
    ['a', 'a'],
    [null, null],
    ['b', 'd'],
    ['b', null],
    ['c', 'c'],
    ['b', 'd'],
    [null, 'd'],
  ];
  const tokens: string[] = [];
  const moveSet = (t: { start?: number; res?: number }) =>
    h.deps.db
      .update(liveTest)
      .set({ ...(t.start !== undefined && { startAt: Date.now() + t.start }), ...(t.res !== undefined && { resultAt: Date.now() + t.res }) })
      .where(eq(liveTest.qsid, SET));
  const distOf = async () => (await h.deps.db.select().from(scoreDist).where(eq(scoreDist.qsid, SET)))[0];

  test('ten registered learners take it inside the window; before the result time nothing is published', async () => {
    expect(ANSWERS).toHaveLength(MIN_RANKED);
    const start = Date.now() + 10 * MIN;
    expect((await schedule({ qsid: SET, start, winMin: 15, res: start + 2 * 60 * MIN })).status).toBe(200);
    for (const i of ANSWERS.keys()) {
      const signup = await h.request('POST', '/UserLogin', {
        body: { n: `Live Ranked ${i}`, m: `91234568${String(i).padStart(2, '0')}`, password: 'ranked1234', confirmPassword: 'ranked1234', p: 'demo-learner', terms: true },
      });
      expect(signup.status).toBe(201);
      tokens.push(signup.body.token);
      expect((await h.request('POST', '/live/register', { token: signup.body.token, body: { qsid: SET } })).status).toBe(200);
    }
    await moveSet({ start: -1000 });
    expect((await releaseDue(h.deps)).released).toBe(1);
    for (const [i, [first, second]] of ANSWERS.entries()) {
      const answers = {
        ...(first && { 'q-gk-001': { ua: first, status: 'ANSWERED' as const } }),
        ...(second && { 'q-gk-003': { ua: second, status: 'ANSWERED' as const } }),
      };
      const doc = submittedAttempt(`live-ranked-${i}`, { qsid: SET, st: Date.now() - 500, submittedAt: Date.now(), elapsed: 500, answers });
      expect((await push(tokens[i]!, [{ newDocumentState: doc, assumedMasterState: null }])).status).toBe(200);
    }
    // The distribution job finds the new results and publishes nothing: a live test's ranks wait for the result time.
    await refreshDistributions(h.deps);
    expect(await distOf()).toBeUndefined();
  });

  test('as the results open, the distribution is published at once (not at the job’s next run), and it ranks as the server does', async () => {
    const cp = (await pull(tokens[0]!, 'score_dist')).body.checkpoint.rev;
    await moveSet({ res: -1000 });
    expect((await releaseDue(h.deps)).opened).toBe(1);
    expect(await distOf()).toMatchObject({ n: MIN_RANKED, deleted: false });
    const docs = (await pull(tokens[0]!, 'score_dist', cp)).body.documents as ScoreDistDoc[];
    const dist = docs.find((d) => d.id === SET)!;
    expect(dist.n).toBe(MIN_RANKED);
    // This protocol's compact form (docs/live-tests.md "The compact form"), decoded.
    expect(typeof dist.t === 'string' ? decodeHistogram(dist.t) : dist.t).toEqual({ m: [0, 1, 2], c: [3, 4, 3] });
    for (const [i, [first, second]] of ANSWERS.entries()) {
      const server = await h.request('GET', `/question/getRank?qsid=${SET}`, { token: tokens[i] });
      expect(server.status).toBe(200);
      const total = Number(first === 'b') + Number(second === 'd');
      const { rank, of, percentile } = server.body as { rank: number; of: number; percentile: number };
      expect(rankIn(dist.t, total, true)).toEqual({ rank, of, percentile });
    }
  });
});
