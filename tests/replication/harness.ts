import { rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { isDeepStrictEqual } from 'node:util';
import { serve, type ServerType } from '@hono/node-server';
import { eq } from 'drizzle-orm';
import { IDBKeyRange, indexedDB } from 'fake-indexeddb';
import { SignJWT } from 'jose';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { wrappedValidateAjvStorage } from 'rxdb/plugins/validate-ajv';
import { expect } from 'vitest';
import { openReplicaDatabase, type ReplicaDatabase } from '../../client/src/db/core/database';
import { startReplication, type Replication, type ReplicationOptions } from '../../client/src/db/learner/replication';
import type { SyncStatus } from '../../client/src/db/sync/sync-status';
import { attempt as attemptTable, examResult, person } from '../../server/src/db/schema';
import { first } from '../../server/src/db/transaction';
import { JWT_AUDIENCE, JWT_ISSUER } from '../../server/src/lib/jwt';
import { type Harness, startHarness } from '../../server/src/test/harness';
import { COLLECTIONS, type CollectionName } from '@pm/protocol/sync/envelopes';
import type { TestSummaryDoc } from '@pm/protocol/sync/test-summary';
import { attemptDoc } from '../attempt-doc';
import { PROTOCOL_VERSION } from '@pm/protocol/version';

/**
 * The real server (Hono app, SQLite file in a temporary directory, seeded from fixtures/)
 * listening on a real port, so that clients talk HTTP to it and it can be stopped and started
 * again on the same data and port mid-replication.
 */
export async function startServer(opts: { dataDir?: string; port?: number } = {}) {
  const harness: Harness = await startHarness({ dataDir: opts.dataDir, seed: opts.dataDir === undefined });
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: harness.app.fetch, hostname: '127.0.0.1', port: opts.port ?? 0 }, () => resolve(s));
  });
  const port = (server.address() as AddressInfo).port;
  let stopped: Promise<void> | null = null;
  const stop = () =>
    (stopped ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
    }).then(() => harness.close()));
  return {
    harness,
    port,
    url: `http://127.0.0.1:${port}`,
    /** Closes connections (streams included) and the database; the data directory stays. */
    stop,
    /** The same server again, on the same data directory and port (a restart). */
    async restart() {
      await stop();
      return startServer({ dataDir: harness.dataDir, port });
    },
    /** Stops and deletes the data directory. */
    async destroy() {
      await stop();
      rmSync(harness.dataDir, { recursive: true, force: true });
    },
  };
}
export type TestServer = Awaited<ReturnType<typeof startServer>>;

export type SyncRequest = { kind: 'pull' | 'push' | 'stream' | 'other'; collection: string | null; url: string };
/**
 * What happens to one request:
 * - `drop`: it never reaches the server (fetch rejects with a TypeError, as on a network error);
 * - `lose`: it reaches the server, which handles (and commits) it, but the answer is lost;
 * - `5xx`: a proxy or an overloaded server answers 500/502/503 without handling it;
 * - null: it goes through.
 */
export type Fault = 'drop' | 'lose' | '5xx' | null;

/**
 * The device's network, as the `fetch` of its replication: it can go offline (in-flight requests
 * and open streams break) and a rule can inject faults into chosen requests. The server is real.
 */
export class Network {
  offline = false;
  rule: ((req: SyncRequest) => Fault) | null = null;
  readonly stats = { requests: 0, offline: 0, drop: 0, lose: 0, '5xx': 0, passed: 0 };
  /** Requests whose answer (or stream) is still open: going offline breaks them. */
  private readonly open = new Set<AbortController>();
  /** Called after each request that reached the server and got its answer through. */
  onDelivered: ((req: SyncRequest, status: number) => void) | null = null;

  static describe(url: string): SyncRequest {
    const path = new URL(url).pathname;
    if (path.endsWith('/sync/v1/stream')) return { kind: 'stream', collection: null, url };
    const m = /\/sync\/v1\/([a-z_]+)\/(pull|push)$/.exec(path);
    return m ? { kind: m[2] as 'pull' | 'push', collection: m[1]!, url } : { kind: 'other', collection: null, url };
  }

  goOffline(): void {
    this.offline = true;
    for (const c of this.open) c.abort(new TypeError('fetch failed: the network went away'));
    this.open.clear();
  }

  goOnline(): void {
    this.offline = false;
  }

  readonly fetch: typeof fetch = async (input, init = {}) => {
    const url = input instanceof Request ? input.url : String(input);
    const req = Network.describe(url);
    this.stats.requests++;
    if (this.offline) {
      this.stats.offline++;
      throw new TypeError('fetch failed: offline');
    }
    const fault = this.rule?.(req) ?? null;
    if (fault === 'drop') {
      this.stats.drop++;
      throw new TypeError('fetch failed: injected, the request never reached the server');
    }
    if (fault === '5xx') {
      this.stats['5xx']++;
      const status = [500, 502, 503][this.stats['5xx'] % 3]!;
      return new Response(JSON.stringify({ success: false, msg: 'injected server error' }), { status, headers: { 'content-type': 'application/json' } });
    }
    const ac = new AbortController();
    const signal = init.signal ? AbortSignal.any([init.signal, ac.signal]) : ac.signal;
    this.open.add(ac);
    const forget = () => this.open.delete(ac);
    signal.addEventListener('abort', forget, { once: true });
    try {
      const res = await globalThis.fetch(input, { ...init, signal });
      if (fault === 'lose') {
        this.stats.lose++;
        // The server has handled it; the device never learns the answer.
        await res.body?.cancel().catch(() => undefined);
        throw new TypeError('fetch failed: injected, the answer was lost');
      }
      if (req.kind === 'stream') {
        // Open until the device aborts it or the network goes away.
        this.stats.passed++;
        return res;
      }
      // Read the whole answer while going offline can still break it.
      const body = await res.arrayBuffer();
      this.stats.passed++;
      this.onDelivered?.(req, res.status);
      return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
    } finally {
      if (req.kind !== 'stream') forget();
    }
  };
}

let seq = 0;

export type DeviceOptions = Partial<ReplicationOptions> & {
  token: () => string | null;
  net?: Network;
  /** The collections the device opens; by default all but the ones only their own tests use (see EXAM_CORE). */
  collections?: readonly CollectionName[];
};

/**
 * What a test device opens unless it asks for more: the exam's own collections. RxDB's
 * open-source core allows 13 open collections in one JavaScript context, and these tests run two
 * or three devices in one; live_key and score_dist have tests of their own that open them.
 */
export const EXAM_CORE: readonly CollectionName[] = COLLECTIONS.filter((n) => n !== 'live_key' && n !== 'score_dist');

/** One device: its own IndexedDB database (fake-indexeddb), validated against the schemas. */
export async function openDevice(personId: string, server: { url: string }, opts: DeviceOptions) {
  const storage = wrappedValidateAjvStorage({ storage: getRxStorageDexie({ indexedDB, IDBKeyRange }) });
  const db: ReplicaDatabase = await openReplicaDatabase(personId, { storage, multiInstance: false, name: `device-${++seq}-${Date.now()}`, collections: opts.collections ?? EXAM_CORE });
  let status: SyncStatus = { phase: 'idle', online: true, pending: 0, editorPending: 0, lastSync: null };
  /** Every error the replication reported (RxDB's error$ of each collection). */
  const errors: unknown[] = [];
  const { net, collections: _collections, ...rest } = opts;
  const start = (): Replication => {
    const r = startReplication(db, {
      baseUrl: server.url,
      getToken: opts.token,
      waitForLeadership: false,
      retryBaseMs: 50,
      retryMaxMs: 400,
      ...(net && { fetch: net.fetch }),
      ...rest,
      onStatus: (p) => {
        status = { ...status, ...p };
        opts.onStatus?.(p);
      },
    });
    for (const name of COLLECTIONS) r.states[name]?.error$.subscribe((e) => errors.push(e));
    return r;
  };
  let replication = start();
  let running = true;
  return {
    db,
    net,
    errors,
    get replication() {
      return replication;
    },
    status: () => status,
    /** Stops the replication; the database stays (the app was closed, or the person signed out). */
    async stop() {
      running = false;
      await replication.stop();
    },
    /** Starts the replication again on the same database. */
    start() {
      if (!running) replication = start();
      running = true;
    },
    /** Stops the replication and starts it again on the same database (client/src/db/learner/replica.ts syncNow). */
    async restart() {
      await replication.stop();
      replication = start();
      running = true;
    },
    async close() {
      await replication.stop();
      await db.remove();
    },
  };
}
export type Device = Awaited<ReturnType<typeof openDevice>>;

/** Polls until `check` holds (replication is asynchronous), failing after `ms`. */
export async function eventually(check: () => Promise<boolean> | boolean, ms = 15_000, label = 'condition'): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    if (await check()) return;
    if (Date.now() > until) throw new Error(`timed out waiting for ${label}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * The questions of the practice set newAttempt uses (fixtures/question-sets.json): the server
 * refuses answers to questions that are not in the attempt's set (docs/security.md "Times, ranking and sync quotas").
 */
export const PRACTICE_QUESTIONS = ['q-gk-001', 'q-gk-003', 'q-gk-005', 'q-gk-008', 'q-gk-011', 'q-gk-014', 'q-arithmetic-001', 'q-arithmetic-003', 'q-arithmetic-005', 'q-arithmetic-014'] as const;

/** A new attempt at a published practice set, as the test page writes it. */
export function newAttempt(id: string, patch: Partial<Omit<TestSummaryDoc, '_deleted'>> = {}): Omit<TestSummaryDoc, '_deleted'> {
  const { _deleted: _, ...doc } = attemptDoc(id, patch);
  return doc;
}

/** Answers one question of an attempt on a device, as the test page does (a new updatedAt). */
export async function answer(device: Device, id: string, question: string, ua: string): Promise<void> {
  const doc = await device.db.test_summary.findOne(id).exec();
  if (!doc) throw new Error(`no attempt ${id} on this device`);
  await doc.incrementalModify((d) => ({
    ...d,
    lsq: question,
    index: d.index + 1,
    answers: { ...d.answers, [question]: { ua, status: 'ANSWERED' } },
    updatedAt: Math.max(Date.now(), d.updatedAt + 1),
  }));
}

type Doc = Record<string, unknown> & { id: string };
export type Snapshot = Record<CollectionName, Record<string, Doc>>;

/**
 * What a replica holds, per collection and id, without RxDB's own fields. `sfs` (the server's
 * first sighting of an attempt) is left out: the server sets it, and a device that pushed the
 * attempt keeps its own copy because the conflict handler does not count it as a difference.
 */
export async function deviceSnapshot(device: Device): Promise<Snapshot> {
  const out = {} as Snapshot;
  for (const name of COLLECTIONS.filter((n) => n in device.db.collections)) {
    const docs = await (device.db[name] as unknown as { find(): { exec(): Promise<{ toMutableJSON(): Doc }[]> } }).find().exec();
    out[name] = Object.fromEntries(docs.map((d) => [d.toMutableJSON().id, comparable(name, d.toMutableJSON())]));
  }
  return out;
}

/** Every document of a collection the server gives this person (all pages from revision 0). */
export async function pullAll(server: TestServer, token: string, collection: CollectionName): Promise<(Doc & { _deleted: boolean })[]> {
  const docs: (Doc & { _deleted: boolean })[] = [];
  let rev = 0;
  for (;;) {
    const r = await server.harness.request('GET', `/sync/v1/${collection}/pull?rev=${rev}&limit=1000`, { token, headers: { 'X-Sync-Protocol': PROTOCOL_VERSION } });
    if (r.status !== 200) throw new Error(`pull ${collection}: ${r.status} ${JSON.stringify(r.body)}`);
    docs.push(...r.body.documents);
    if (r.body.documents.length < 1000) return docs;
    rev = r.body.checkpoint.rev;
  }
}

/** What the server holds for this person, in the shape of deviceSnapshot (deleted documents left out). */
export async function serverSnapshot(server: TestServer, token: string, names: readonly CollectionName[] = EXAM_CORE): Promise<Snapshot> {
  const out = {} as Snapshot;
  for (const name of names) {
    const docs = await pullAll(server, token, name);
    out[name] = Object.fromEntries(docs.filter((d) => !d._deleted).map((d) => [d.id, comparable(name, d)]));
  }
  return out;
}

function comparable(name: CollectionName, doc: Doc): Doc {
  const { _deleted, _meta, _rev, _attachments, ...rest } = doc;
  if (name === 'test_summary') delete rest.sfs;
  return rest as Doc;
}

/** The person's rows of the server's `attempt` table (SQLite, read with Drizzle). */
export async function attemptRows(server: TestServer, personId: string) {
  return await server.harness.deps.db.select().from(attemptTable).where(eq(attemptTable.personId, personId));
}

/** The person's rows of the server's `exam_result` table: one per scored submission. */
export async function resultRows(server: TestServer, personId: string) {
  return await server.harness.deps.db.select().from(examResult).where(eq(examResult.personId, personId));
}

/**
 * Waits until every device holds exactly what the server holds (every collection, whole
 * documents, `sfs` aside), then asserts it, so that a failure shows the difference.
 */
export async function expectConverged(server: TestServer, token: string, devices: Device[], ms = 30_000): Promise<Snapshot> {
  let srv: Snapshot | null = null;
  let local: Snapshot[] = [];
  try {
    await eventually(
      async () => {
        srv = await serverSnapshot(server, token, COLLECTIONS.filter((n) => devices.length > 0 && n in devices[0]!.db.collections));
        local = await Promise.all(devices.map((d) => deviceSnapshot(d)));
        return local.every((x) => isDeepStrictEqual(x, srv));
      },
      ms,
      'devices equal to the server',
    );
  } catch (err) {
    if (!srv) throw err;
  }
  for (const x of local) expect(x).toEqual(srv);
  return srv!;
}

/**
 * A token of this person that the server refuses because it has expired (signed with the
 * server's own secret, so only the expiry is wrong).
 */
export async function expiredTokenOf(server: TestServer, personId: string): Promise<string> {
  const row = await first(server.harness.deps.db.select({ tv: person.tokenVersion }).from(person).where(eq(person.id, personId)));
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ tv: row?.tv ?? 0 })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(personId)
    .setIssuer(JWT_ISSUER)
    .setAudience(JWT_AUDIENCE)
    .setIssuedAt(now - 7 * 24 * 3600)
    .setExpirationTime(now - 60)
    .sign(server.harness.deps.config.jwtSecret);
}
