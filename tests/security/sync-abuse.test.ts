import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MSG } from '@pm/protocol/messages';
import type { TestSummaryDoc } from '@pm/protocol/sync/test-summary';
import { attemptDoc } from '../attempt-doc';
import { PROTOCOL_VERSION } from '@pm/protocol/version';
import { attempt, person, questionSet } from '../../server/src/db/schema';
import { nextRev } from '../../server/src/lib/revision';
import { MAX_STREAMS_PER_PERSON } from '../../server/src/modules/sync/sync.routes';
import { STORAGE_QUOTA_BYTES } from '../../server/src/modules/sync/sync.service';
import { DEMO, type Harness, startHarness } from '../../server/src/test/harness';
import { first, transaction } from '../../server/src/db/transaction';

/**
 * docs/security.md "Times, ranking and sync quotas": one learner held 200 live sync streams and grew the database by 10 MB
 * in 10 pushes of answers to questions that are not in the set. Now: at most
 * MAX_STREAMS_PER_PERSON live streams per person on an instance (the oldest is closed); answers
 * only to questions of the attempt's set (400, nothing stored); and a per-person quota on stored
 * answers (`person.storage_bytes`), charged by one conditional write per push (413 when full).
 */

let h: Harness;
let learner: string;
let editor: string;
beforeAll(async () => {
  h = await startHarness();
  [learner, editor] = await Promise.all([h.tokenOf('learner'), h.tokenOf('editor')]);
});
afterAll(() => h.destroy());

const V = { 'x-sync-protocol': PROTOCOL_VERSION };
const push = (token: string, rows: unknown) => h.request('POST', '/sync/v1/test_summary/push', { token, headers: V, body: rows });
const attemptRow = (id: string) => first(h.deps.db.select().from(attempt).where(eq(attempt.id, id)));
const storageOf = async (id: string) => (await first(h.deps.db.select({ b: person.storageBytes }).from(person).where(eq(person.id, id))))!.b;
const setStorage = async (id: string, b: number) => {
  await h.deps.db.update(person).set({ storageBytes: b }).where(eq(person.id, id));
};
const bytes = (answers: unknown) => Buffer.byteLength(JSON.stringify(answers));

let seq = 0;
function doc(over: Partial<TestSummaryDoc> = {}): TestSummaryDoc {
  seq++;
  return attemptDoc(`sync-abuse-${seq.toString().padStart(4, '0')}`, { elapsed: 0, ...over });
}

/** A live stream read event by event: the next data event, or 'ended' when the server closed it. */
async function openStream(token: string) {
  const ac = new AbortController();
  const res = await h.app.request('/api/sync/v1/stream', { headers: { authorization: `Bearer ${token}`, ...V }, signal: ac.signal });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let ended = false;
  const next = async (): Promise<{ type: string } | 'ended'> => {
    for (;;) {
      const i = buffer.indexOf('\n\n');
      if (i >= 0) {
        const chunk = buffer.slice(0, i);
        buffer = buffer.slice(i + 2);
        const data = chunk.split('\n').find((l) => l.startsWith('data:'));
        if (data) return JSON.parse(data.slice(5).trim());
        continue;
      }
      if (ended) return 'ended';
      const { value, done } = await reader.read();
      if (done) {
        ended = true;
        continue;
      }
      buffer += decoder.decode(value, { stream: true });
    }
  };
  const close = async () => {
    ac.abort();
    await reader.cancel().catch(() => undefined);
  };
  return { next, close };
}

describe('live sync streams are capped per person', () => {
  test(`a burst of 50 streams of one person leaves exactly ${MAX_STREAMS_PER_PERSON} open; another person's stream is untouched`, async () => {
    const theirs = await openStream(editor);
    expect(await theirs.next()).toEqual({ type: 'RESYNC' });

    const streams = await Promise.all(Array.from({ length: 50 }, () => openStream(learner)));
    // Each stream starts with RESYNC, unless it was closed before it could be sent.
    const first = await Promise.all(streams.map((s) => s.next()));
    expect(first.every((e) => e === 'ended' || (typeof e === 'object' && e.type === 'RESYNC'))).toBe(true);

    // A change of the learner's data reaches the open ones; the closed ones have ended.
    expect((await push(learner, [{ newDocumentState: doc(), assumedMasterState: null }])).status).toBe(200);
    const afterPush = await Promise.all(streams.map((s, i) => (first[i] === 'ended' ? 'ended' : s.next())));
    const open = afterPush.filter((e) => e !== 'ended');
    expect(open).toHaveLength(MAX_STREAMS_PER_PERSON);
    expect(open).toEqual(open.map(() => ({ type: 'CHANGE', collections: ['test_summary'] })));

    expect((await push(editor, [{ newDocumentState: doc(), assumedMasterState: null }])).status).toBe(200);
    expect(await theirs.next()).toEqual({ type: 'CHANGE', collections: ['test_summary'] });
    await Promise.all([...streams, theirs].map((s) => s.close()));
  });

  test('the oldest stream is the one closed, and a stream that ends frees its place', async () => {
    const streams = [];
    for (let i = 0; i < MAX_STREAMS_PER_PERSON; i++) {
      const s = await openStream(learner);
      expect(await s.next()).toEqual({ type: 'RESYNC' });
      streams.push(s);
    }
    // One more: the oldest ends.
    const newest = await openStream(learner);
    expect(await newest.next()).toEqual({ type: 'RESYNC' });
    expect(await streams[0]!.next()).toBe('ended');
    // A device that disconnects frees its place: the next one closes nobody.
    await streams[1]!.close();
    await new Promise((r) => setTimeout(r, 20));
    const another = await openStream(learner);
    expect(await another.next()).toEqual({ type: 'RESYNC' });
    expect((await push(learner, [{ newDocumentState: doc(), assumedMasterState: null }])).status).toBe(200);
    for (const s of [...streams.slice(2), newest, another]) expect(await s.next()).toEqual({ type: 'CHANGE', collections: ['test_summary'] });
    await Promise.all([...streams, newest, another].map((s) => s.close()));
  });
});

describe('answers only to questions of the set', () => {
  test('a push with an answer to a question that is not in the set is refused with 400 and nothing is stored', async () => {
    const before = await storageOf(DEMO.learner.id);
    const junk = 'x'.repeat(5000);
    const d = doc({ answers: { 'q-gk-001': { ua: 'a', status: 'ANSWERED' }, 'made-up-question': { ua: junk, status: 'ANSWERED' } } });
    const ok = doc({ answers: { 'q-gk-003': { ua: 'b', status: 'ANSWERED' } } });
    const r = await push(learner, [
      { newDocumentState: ok, assumedMasterState: null },
      { newDocumentState: d, assumedMasterState: null },
    ]);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ success: false, code: 'BAD_REQUEST', msg: `${MSG.questionNotInSet} made-up-question` });
    expect(await attemptRow(d.id)).toBeUndefined();
    expect(await attemptRow(ok.id)).toBeUndefined();
    expect(await storageOf(DEMO.learner.id)).toBe(before);
  });

  test('a question of another set is refused too, on a new attempt and on an update', async () => {
    // q-gk-002 is a question of the mock test, not of the practice set.
    const fresh = doc({ answers: { 'q-gk-002': { ua: 'c', status: 'ANSWERED' } } });
    expect((await push(learner, [{ newDocumentState: fresh, assumedMasterState: null }])).status).toBe(400);
    const running = doc({ answers: { 'q-gk-001': { ua: 'a', status: 'ANSWERED' } } });
    expect((await push(learner, [{ newDocumentState: running, assumedMasterState: null }])).status).toBe(200);
    const grown = { ...running, answers: { ...running.answers, 'q-gk-002': { ua: 'c', status: 'ANSWERED' as const } }, updatedAt: running.updatedAt + 1 };
    const r = await push(learner, [{ newDocumentState: grown, assumedMasterState: running }]);
    expect(r.status).toBe(400);
    expect(r.body.msg).toBe(`${MSG.questionNotInSet} q-gk-002`);
    expect((await attemptRow(running.id))!.answers).toEqual(running.answers);
  });

  test('an answer the server already holds stays allowed after an editor takes its question out of the set', async () => {
    const running = doc({ answers: { 'q-gk-005': { ua: 'a', status: 'ANSWERED' } } });
    expect((await push(learner, [{ newDocumentState: running, assumedMasterState: null }])).status).toBe(200);
    const set = (await first(h.deps.db.select().from(questionSet).where(eq(questionSet.id, 'qs-practice-gk'))))!;
    try {
      await transaction(h.deps.db, async (tx) => {
        await tx
          .update(questionSet)
          .set({ q: set.q.filter((id) => id !== 'q-gk-005'), detailRev: await nextRev(tx) })
          .where(eq(questionSet.id, set.id));
      });
      // The device that answered it before the edit keeps syncing that attempt.
      const next = { ...running, answers: { ...running.answers, 'q-gk-001': { ua: 'b', status: 'ANSWERED' as const } }, updatedAt: running.updatedAt + 1 };
      expect((await push(learner, [{ newDocumentState: next, assumedMasterState: running }])).status).toBe(200);
      // A new answer to it is refused.
      const other = doc({ answers: { 'q-gk-005': { ua: 'a', status: 'ANSWERED' } } });
      expect((await push(learner, [{ newDocumentState: other, assumedMasterState: null }])).status).toBe(400);
    } finally {
      await transaction(h.deps.db, async (tx) => {
        await tx
          .update(questionSet)
          .set({ q: set.q, detailRev: await nextRev(tx) })
          .where(eq(questionSet.id, set.id));
      });
    }
  });
});

describe('a per-person storage quota on pushed answers', () => {
  test('each push charges the growth of the answers it stores, and a shrink gives it back', async () => {
    await setStorage(DEMO.learner.id, 0);
    const d = doc({ answers: { 'q-gk-001': { ua: 'a'.repeat(1000), status: 'ANSWERED' } } });
    expect((await push(learner, [{ newDocumentState: d, assumedMasterState: null }])).status).toBe(200);
    expect(await storageOf(DEMO.learner.id)).toBe(bytes(d.answers));
    const smaller = { ...d, answers: { 'q-gk-001': { ua: 'a', status: 'ANSWERED' as const } }, updatedAt: d.updatedAt + 1 };
    expect((await push(learner, [{ newDocumentState: smaller, assumedMasterState: d }])).status).toBe(200);
    expect(await storageOf(DEMO.learner.id)).toBe(bytes(smaller.answers));
    // The same state again stores nothing and charges nothing.
    expect((await push(learner, [{ newDocumentState: smaller, assumedMasterState: d }])).status).toBe(200);
    expect(await storageOf(DEMO.learner.id)).toBe(bytes(smaller.answers));
  });

  test('a push that would pass the quota is refused with 413 and a clear message; nothing is stored', async () => {
    const d = doc({ answers: { 'q-gk-001': { ua: 'a'.repeat(2000), status: 'ANSWERED' } } });
    const full = STORAGE_QUOTA_BYTES - bytes(d.answers) + 1;
    await setStorage(DEMO.learner.id, full);
    const r = await push(learner, [{ newDocumentState: d, assumedMasterState: null }]);
    expect(r.status).toBe(413);
    expect(r.body).toEqual({ success: false, code: 'PAYLOAD_TOO_LARGE', msg: MSG.storageFull });
    expect(await attemptRow(d.id)).toBeUndefined();
    expect(await storageOf(DEMO.learner.id)).toBe(full);
    // Another person is not affected by the learner's quota.
    expect((await push(editor, [{ newDocumentState: d, assumedMasterState: null }])).status).toBe(200);
  });

  test('50 parallel pushes against a nearly full quota: exactly as many as fit get through', async () => {
    const FIT = 7;
    const docs = Array.from({ length: 50 }, () => doc({ answers: { 'q-gk-001': { ua: 'b'.repeat(3000), status: 'ANSWERED' } } }));
    const size = bytes(docs[0]!.answers);
    const start = STORAGE_QUOTA_BYTES - FIT * size - (size - 1);
    await setStorage(DEMO.learner.id, start);
    const answers = await Promise.all(docs.map((d) => push(learner, [{ newDocumentState: d, assumedMasterState: null }])));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(FIT);
    expect(answers.filter((r) => r.status === 413)).toHaveLength(50 - FIT);
    const rows = await Promise.all(docs.map((d) => attemptRow(d.id)));
    const stored = rows.filter((row) => row !== undefined);
    expect(stored).toHaveLength(FIT);
    expect(await storageOf(DEMO.learner.id)).toBe(start + FIT * size);
  });
});
