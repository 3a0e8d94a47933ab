import { getRxStorageMemory } from 'rxdb/plugins/storage-memory';
import { afterEach, expect, test } from 'vitest';
import { openReplicaDatabase, type ReplicaDatabase } from '../core/database';
import { type Replication, startReplication } from './replication';
import type { SyncStatus } from '../sync/sync-status';

/*
 * The replication's side of paid content (docs/payments.md "Without a plan"): the qs_detail
 * checkpoint's `g` goes back with every pull, a checkpoint of a page without documents is not
 * lost, an entitlement that changes pulls qs_detail again, and an attempt refused with 402 stays
 * on the device and is pushed again. The server is a fake here: tests/replication run the real one.
 */

const PERSON = 'learner-1';

/** A set's questions as the server sends them. */
const detail = (id: string, isM: boolean) => ({
  id,
  isM,
  main: { q: ['q1'], mpq: 1, tm: 1, nm: 0, o: 0 },
  sections: {},
  questions: [{ id: 'q1', q: '<p>2 + 2 = ?</p>', ops: { a: '<p>3</p>', b: '<p>4</p>' }, qt: 'mcq1', d: '1', trans: {} }],
  v: 1,
  _deleted: false,
});

const entitlement = () => ({
  id: PERSON,
  planCode: 'MONTHLY',
  planName: { en: 'Monthly', hi: 'मासिक' },
  startsAt: Date.now() - 1000,
  endsAt: Date.UTC(2099, 0, 15),
  mock: { limit: 10, used: 0 },
  practice: { limit: 2, used: 0 },
  counted: [],
  overLimit: [],
  updatedAt: Date.now(),
  _deleted: false,
});

const submitted = (qsid: string, id: string) => {
  const now = Date.now();
  return { id, qsid, st: now - 60_000, sfs: 0, lsq: null, index: 0, selectedSection: null, answers: {}, status: 'SUBMITTED' as const, submittedAt: now - 1000, elapsed: 1000, updatedAt: now };
};

let db: ReplicaDatabase | null = null;
let replication: Replication | null = null;
let n = 0;
afterEach(async () => {
  await replication?.stop();
  await db?.remove();
  replication = null;
  db = null;
});

type Page = { documents: unknown[]; checkpoint: { rev: number; g?: string } };
type Route = (url: URL, init: RequestInit | undefined) => { status: number; body: unknown } | Promise<{ status: number; body: unknown }>;

/** A fake server: each collection's pulls answered in turn by `pages` (the last one repeated), pushes by `push`. */
function fakeServer(pages: Partial<Record<string, Page[]>>, push?: Route) {
  const urls: string[] = [];
  let streamController: ReadableStreamDefaultController<Uint8Array> | null = null;
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input));
    urls.push(url.pathname + url.search);
    const [, collection, op] = /\/api\/sync\/v1\/([^/]+)\/?(\w+)?$/.exec(url.pathname) ?? [];
    if (collection === 'stream') {
      const body = new ReadableStream<Uint8Array>({ start: (c) => void (streamController = c) });
      return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
    }
    if (op === 'push') {
      const answer = push ? await push(url, init) : { status: 200, body: [] };
      return new Response(JSON.stringify(answer.body), { status: answer.status, headers: { 'content-type': 'application/json' } });
    }
    const queue = pages[collection ?? ''] ?? [];
    const rev = Number(url.searchParams.get('rev'));
    const page = (queue.length > 1 ? queue.shift() : queue[0]) ?? { documents: [], checkpoint: { rev } };
    return new Response(JSON.stringify(page), { status: 200, headers: { 'content-type': 'application/json' } });
  }) as typeof globalThis.fetch;
  return {
    fetch,
    urls,
    pulls: (collection: string) => urls.filter((u) => u.startsWith(`/api/sync/v1/${collection}/pull`)),
    /** A server-sent event on the stream. */
    announce(collections: string[]) {
      streamController?.enqueue(new TextEncoder().encode(`data: ${JSON.stringify({ type: 'CHANGE', collections })}\n\n`));
    },
  };
}

async function open() {
  db = await openReplicaDatabase(PERSON, { storage: getRxStorageMemory(), multiInstance: false, name: `replication-test-${++n}-${Date.now()}` });
  return db;
}

function start(server: ReturnType<typeof fakeServer>, onStatus?: (s: Partial<SyncStatus>) => void, stream = false) {
  replication = startReplication(db!, {
    baseUrl: 'http://sync.test',
    getToken: () => 'token',
    fetch: server.fetch,
    live: true,
    stream,
    waitForLeadership: false,
    retryBaseMs: 20,
    retryMaxMs: 100,
    onStatus,
  });
  return replication;
}

const until = async (check: () => boolean, ms = 15_000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
};


test("qs_detail: the server's checkpoint {rev, g} is kept and sent back, also from a page without documents", async () => {
  await open();
  const server = fakeServer({
    qs_detail: [
      { documents: [detail('mock-1', true)], checkpoint: { rev: 7, g: 'm' } },
      // A new g and nothing to send (RxDB keeps no checkpoint of such a page by itself).
      { documents: [], checkpoint: { rev: 7, g: 'mp' } },
      { documents: [], checkpoint: { rev: 7, g: 'mp' } },
    ],
  });
  const r = start(server);
  await r.awaitInSync();
  expect(await db!.qs_detail.findOne('mock-1').exec()).not.toBeNull();
  expect(server.pulls('qs_detail')).toEqual(['/api/sync/v1/qs_detail/pull?rev=0&limit=200']);

  r.reSync();
  await until(() => server.pulls('qs_detail').length >= 2);
  await r.awaitInSync();
  expect(server.pulls('qs_detail')[1]).toBe('/api/sync/v1/qs_detail/pull?rev=7&limit=200&g=m');

  r.reSync();
  await until(() => server.pulls('qs_detail').length >= 3);
  await r.awaitInSync();
  expect(server.pulls('qs_detail')[2]).toBe('/api/sync/v1/qs_detail/pull?rev=7&limit=200&g=mp');
  // Other collections' checkpoints have no g.
  expect(server.pulls('tag').every((u) => !u.includes('&g='))).toBe(true);
});

test('a page of held-back questions (no documents, the revision moved on): the next page is asked for at once', async () => {
  await open();
  const server = fakeServer({
    qs_detail: [
      { documents: [], checkpoint: { rev: 200, g: '' } },
      { documents: [detail('free-1', false)], checkpoint: { rev: 230, g: '' } },
      { documents: [], checkpoint: { rev: 230, g: '' } },
    ],
  });
  await start(server).awaitInSync();
  expect(server.pulls('qs_detail').slice(0, 2)).toEqual(['/api/sync/v1/qs_detail/pull?rev=0&limit=200', '/api/sync/v1/qs_detail/pull?rev=200&limit=200&g=']);
  expect(await db!.qs_detail.findOne('free-1').exec()).not.toBeNull();
});

test('an entitlement that changes after the first pulls pulls qs_detail again', async () => {
  await open();
  const server = fakeServer({
    entitlement: [
      { documents: [], checkpoint: { rev: 0 } },
      { documents: [entitlement()], checkpoint: { rev: 3 } },
      { documents: [], checkpoint: { rev: 3 } },
    ],
    qs_detail: [
      { documents: [], checkpoint: { rev: 0, g: '' } },
      { documents: [detail('mock-1', true)], checkpoint: { rev: 9, g: 'mp' } },
      { documents: [], checkpoint: { rev: 9, g: 'mp' } },
    ],
  });
  const r = start(server, undefined, true);
  await r.awaitInSync();
  const before = server.pulls('qs_detail').length;
  // The stream announces the entitlement only: qs_detail follows from the device's side.
  await until(() => server.urls.some((u) => u.startsWith('/api/sync/v1/stream')));
  server.announce(['entitlement']);
  await until(() => server.pulls('qs_detail').length > before);
  expect(server.pulls('qs_detail')[before]).toBe('/api/sync/v1/qs_detail/pull?rev=0&limit=200&g=');
  await r.awaitInSync();
  expect(await db!.qs_detail.findOne('mock-1').exec()).not.toBeNull();
});

test('a push refused with 402 keeps the attempt, retries with the backoff, and names it until it goes through', async () => {
  await open();
  let refuse = true;
  const pushes: number[] = [];
  const statuses: Partial<SyncStatus>[] = [];
  const server = fakeServer({}, () => {
    pushes.push(Date.now());
    return refuse
      ? { status: 402, body: { success: false, code: 'PAYMENT_REQUIRED', msg: 'This test needs a plan. Buy a plan to take it.', link: '/plan' } }
      : { status: 200, body: [] };
  });
  const r = start(server, (s) => statuses.push(s));
  await r.awaitInSync();
  await db!.test_summary.insert(submitted('mock-1', 'attempt-paid-1'));
  await until(() => pushes.length >= 3);
  expect(statuses.some((s) => s.planRequired?.includes('attempt-paid-1'))).toBe(true);
  expect(statuses.some((s) => s.phase === 'error')).toBe(true);
  // Not hot: each wait is at least a quarter of the base (20 ms here; full jitter, backoff.ts), so
  // two waits take at least 10 ms (less 1 ms for the millisecond clock's rounding).
  expect(pushes[2]! - pushes[0]!).toBeGreaterThanOrEqual(9);
  expect(await db!.test_summary.findOne('attempt-paid-1').exec()).not.toBeNull();

  refuse = false;
  await until(() => statuses.some((s) => Array.isArray(s.planRequired) && s.planRequired.length === 0));
  await r.awaitInSync();
  const last = [...statuses].reverse().find((s) => s.pending !== undefined);
  expect(last?.pending).toBe(0);
});
