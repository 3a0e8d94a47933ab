import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq, inArray } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { TestSummaryDoc } from '@pm/protocol/sync/test-summary';
import { PROTOCOL_VERSION } from '@pm/protocol/version';
import { createApp } from './app';
import { composeDeps } from './compose';
import type { Deps } from './context';
import { type Database_, openPostgres } from './db/client';
import { createDatabase, hasLocalPostgres, type LocalPostgres, startLocalPostgres } from './db/postgres-server';
import { attempt, examResult } from './db/schema';
import { seedDatabase } from './db/seed';
import { loadConfig, parseEnv } from './env';
import { serveClientFiles } from './lib/client-files';
import { connectEventBus, LISTENER_NAME, type SharedEventBus } from './lib/events';
import { runExclusive } from './lib/exclusive';
import { INSTANCE_HEADER } from './lib/instance';
import { createLogger } from './lib/logger';
import { createLocalOutbox } from './lib/outbox';
import { createRateLimits } from './lib/rate-limit';
import { publishDue } from './modules/questions/publish';
import { serveApp } from './serve';
import { submittedAttempt } from './test/builders';
import { DEMO } from './test/harness';

/*
 * docs/cluster.md: several instances of the server on one PostgreSQL. Two instances run in this
 * process, each as the server runs them (its own pool, its own event bus with its own LISTEN
 * connection, its own HTTP server on a port of its own), and a third as a child process running
 * server/src/index.ts, killed with SIGKILL. Every request goes over real HTTP. The file starts a
 * PostgreSQL server of its own, so it runs in every run of the suites; without PostgreSQL
 * installed it is skipped.
 */

const skip = !hasLocalPostgres();
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const V = { 'x-sync-protocol': PROTOCOL_VERSION };

type Instance = { name: string; base: string; database: Database_; events: SharedEventBus; deps: Deps; http: Server };

let server: LocalPostgres;
let url: string;
let dataDir: string;
let clientDir: string;
let A: Instance;
let B: Instance;

async function startInstance(name: string): Promise<Instance> {
  const config = loadConfig(parseEnv({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', INSTANCE_ID: name, DATABASE_URL: url }));
  const log = createLogger(process.env.PM_TEST_LOG === '1' ? 'error' : 'silent');
  const database = await openPostgres(url, { poolMax: 6 });
  // As index.ts does: instances starting together seed once.
  await runExclusive(database.db, 'seed', () => seedDatabase(database.db), { wait: true });
  const events = connectEventBus(database.db, { log, checkEveryMs: 1000 });
  await events.ready;
  const deps: Deps = composeDeps({
    db: database.db,
    config,
    outbox: await createLocalOutbox(database.db, log, { inboxFile: path.join(dataDir, `inbox-${name}.jsonl`) }),
    rates: createRateLimits(database.db),
    log,
    events,
  });
  await runExclusive(database.db, 'publish', () => publishDue(deps));
  const app = createApp(deps);
  serveClientFiles(app, clientDir);
  const { http, port } = await new Promise<{ http: Server; port: number }>((resolve) => {
    const s = serveApp(app.fetch, { hostname: '127.0.0.1', port: 0 }, (info) => resolve({ http: s, port: info.port }));
  });
  return { name, base: `http://127.0.0.1:${port}`, database, events, deps, http };
}

async function stopInstance(i: Instance | undefined) {
  if (!i) return;
  i.http.closeAllConnections();
  await new Promise((r) => i.http.close(r));
  await i.events.close();
  await i.database.close();
}

beforeAll(async () => {
  if (skip) return;
  server = await startLocalPostgres({ durable: false });
  url = await createDatabase(server.url, 'cluster');
  dataDir = mkdtempSync(path.join(tmpdir(), 'pm-cluster-'));
  clientDir = path.join(dataDir, 'client');
  mkdirSync(clientDir);
  writeFileSync(path.join(clientDir, 'index.html'), '<!doctype html><title>test</title>');
  [A, B] = await Promise.all([startInstance('instance-a'), startInstance('instance-b')]);
});

afterAll(async () => {
  await stopInstance(A);
  await stopInstance(B);
  await server?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function call(i: { base: string }, method: string, p: string, init: { token?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { ...init.headers };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${i.base}${p}`, { method, headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON (a page)
  }
  return { status: res.status, body, headers: res.headers };
}

async function tokenOf(i: { base: string }, who: keyof typeof DEMO): Promise<string> {
  const basic = `Basic ${Buffer.from(`${DEMO[who].username}:${DEMO[who].password}`).toString('base64')}`;
  const r = await call(i, 'POST', '/api/UserLogin/login', { headers: { authorization: basic } });
  if (r.status !== 200) throw new Error(`login ${who} on ${i.base} failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.token as string;
}

/** A device's live stream (GET /api/sync/v1/stream): its events as they arrive. */
async function openStream(i: Instance, token: string) {
  const abort = new AbortController();
  const res = await fetch(`${i.base}/api/sync/v1/stream`, { headers: { authorization: `Bearer ${token}`, ...V }, signal: abort.signal });
  expect(res.status).toBe(200);
  expect(res.headers.get(INSTANCE_HEADER)).toBe(i.name);
  const events: { type: string; collections?: string[] }[] = [];
  const waiting = new Set<() => void>();
  void (async () => {
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = block
            .split('\n')
            .filter((l) => l.startsWith('data:'))
            .map((l) => l.slice(5).trim())
            .join('\n');
          if (data) events.push(JSON.parse(data));
          for (const w of waiting) w();
        }
      }
    } catch {
      // aborted
    }
  })();
  /** The first event from index `from` on that matches; fails after `ms`. */
  const next = (match: (e: { type: string; collections?: string[] }) => boolean, from = 0, ms = 5000) =>
    new Promise<{ type: string; collections?: string[] }>((resolve, reject) => {
      const look = () => {
        const found = events.slice(from).find(match);
        if (found) {
          waiting.delete(look);
          clearTimeout(timer);
          resolve(found);
        }
      };
      const timer = setTimeout(() => {
        waiting.delete(look);
        reject(new Error(`no matching event in ${ms} ms; got ${JSON.stringify(events)}`));
      }, ms);
      waiting.add(look);
      look();
    });
  return { events, next, close: () => abort.abort() };
}

const submission = (over: Partial<TestSummaryDoc> = {}) =>
  submittedAttempt('cluster', { answers: { 'q-gk-002': { ua: 'c', status: 'ANSWERED' }, 'q-gk-004': { ua: 'a', status: 'ANSWERED' } }, ...over });
const push = (i: { base: string }, token: string, docs: TestSummaryDoc[]) =>
  call(i, 'POST', '/api/sync/v1/test_summary/push', { token, headers: V, body: docs.map((d) => ({ newDocumentState: d, assumedMasterState: null })) });

async function until(check: () => boolean, ms = 5000) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe.skipIf(skip)('the event bus across instances (LISTEN/NOTIFY)', () => {
  test('a shared change emitted on B reaches the listeners on A once, and B\'s own listeners once (not again through PostgreSQL)', async () => {
    // Collections the instances' own start-up work never announces (that could interleave here).
    const ours = (c: string[]) => c.some((x) => x.startsWith('ed_'));
    const onA: string[][] = [];
    const onB: string[][] = [];
    const offA = A.events.subscribe('bus-p1', (c) => ours(c) && onA.push(c));
    const offB = B.events.subscribe('bus-p2', (c) => ours(c) && onB.push(c));
    try {
      // Two changes in one turn go out as one notification, merged.
      B.events.emit({ collections: ['ed_question'] });
      B.events.emit({ collections: ['ed_question_set', 'question_set'] });
      expect(onB).toEqual([['ed_question'], ['ed_question_set', 'question_set']]);
      await until(() => onA.length > 0);
      await new Promise((r) => setTimeout(r, 200));
      expect(onA).toEqual([['ed_question', 'ed_question_set', 'question_set']]);
      expect(onB).toHaveLength(2);
    } finally {
      offA();
      offB();
    }
  });

  test("a person's change reaches only that person's listeners on the other instance, however many change in one turn", async () => {
    const got = new Map<string, string[][]>();
    const people = Array.from({ length: 600 }, (_, i) => `bus-person-${i.toString().padStart(4, '0')}`);
    const offs = [...people, 'bus-bystander'].map((p) => A.events.subscribe(p, (c) => got.set(p, [...(got.get(p) ?? []), c])));
    try {
      // 600 people: more than one NOTIFY payload (PostgreSQL takes under 8000 bytes each).
      for (const p of people) B.events.emit({ collections: ['test_summary', 'exam_result'], personId: p });
      await until(() => people.every((p) => got.has(p)));
      await new Promise((r) => setTimeout(r, 200));
      for (const p of people) expect(got.get(p)).toEqual([['test_summary', 'exam_result']]);
      expect(got.has('bus-bystander')).toBe(false);
    } finally {
      for (const off of offs) off();
    }
  });

  test("a live test's key released on B reaches its learner's listeners on A with the change, and nobody else's", async () => {
    const got: { c: string[]; keys: unknown }[] = [];
    const bystander: unknown[] = [];
    const offs = [A.events.subscribe('bus-key-learner', (c, keys) => got.push({ c, keys })), A.events.subscribe('bus-key-bystander', (c, keys) => bystander.push({ c, keys }))];
    try {
      const keys = [{ qsid: 'qs-bus-live', key: 'k'.repeat(43) }];
      B.events.emit({ collections: ['live_key'], personId: 'bus-key-learner', keys });
      await until(() => got.length > 0);
      await new Promise((r) => setTimeout(r, 200));
      expect(got).toEqual([{ c: ['live_key'], keys }]);
      expect(bystander).toEqual([]);
    } finally {
      for (const off of offs) off();
    }
  });
});

describe.skipIf(skip)('two instances on one PostgreSQL', () => {
  test('every response names the instance that answered: API, errors and the site\'s files', async () => {
    for (const i of [A, B]) {
      for (const p of ['/api/health', '/api/no-such-route', '/', '/some/app/route']) {
        const r = await call(i, 'GET', p);
        expect(r.headers.get(INSTANCE_HEADER), `${i.name} ${p}`).toBe(i.name);
      }
      expect((await call(i, 'GET', '/api/no-such-route')).status).toBe(404);
    }
    // Signed in on one, known to the other: the session is in the database, not in A's memory.
    const token = await tokenOf(A, 'learner');
    const r = await call(B, 'GET', '/api/sync/v1/tag/pull?rev=0&limit=5', { token, headers: V });
    expect(r.status).toBe(200);
    expect(r.headers.get(INSTANCE_HEADER)).toBe('instance-b');
  });

  test('a device connected to instance A is told to pull when instance B accepts a write', async () => {
    const [learner, editor] = await Promise.all([tokenOf(A, 'learner'), tokenOf(B, 'editor')]);
    const device = await openStream(A, learner);
    try {
      await device.next((e) => e.type === 'RESYNC');
      const from = device.events.length;
      const r = await call(B, 'PATCH', '/api/tag', { token: editor, body: { key: 't', newTag: `Cluster Topic ${Date.now()}`, lang: 'en' } });
      expect(r.status).toBe(200);
      expect(r.headers.get(INSTANCE_HEADER)).toBe('instance-b');
      expect(await device.next((e) => e.type === 'CHANGE' && (e.collections ?? []).includes('tag'), from)).toEqual({ type: 'CHANGE', collections: ['tag'] });
      // What B's device was told of the change, A's device pulls from A.
      const pulled = await call(A, 'GET', '/api/sync/v1/tag/pull?rev=0&limit=1000', { token: learner, headers: V });
      expect(pulled.body.documents.some((d: { tags: { en?: string } }) => d.tags.en === r.body.data.tags.en)).toBe(true);
    } finally {
      device.close();
    }
  });

  test("a person's own change reaches that person's devices on the other instance, and nobody else's", async () => {
    const [learner, admin] = await Promise.all([tokenOf(B, 'learner'), tokenOf(A, 'admin')]);
    const mine = await openStream(A, learner);
    const theirs = await openStream(A, admin);
    try {
      await Promise.all([mine.next((e) => e.type === 'RESYNC'), theirs.next((e) => e.type === 'RESYNC')]);
      const [fromMine, fromTheirs] = [mine.events.length, theirs.events.length];
      const doc = submission();
      const r = await push(B, learner, [doc]);
      expect(r.status).toBe(200);
      const change = await mine.next((e) => e.type === 'CHANGE' && (e.collections ?? []).includes('test_summary'), fromMine);
      expect(change.collections).toEqual(expect.arrayContaining(['test_summary', 'exam_result']));
      // A shared change afterwards reaches the admin, and nothing of the learner's came before it.
      const editor = await tokenOf(B, 'editor');
      await call(B, 'PATCH', '/api/tag', { token: editor, body: { key: 't', newTag: `After ${Date.now()}`, lang: 'en' } });
      await theirs.next((e) => e.type === 'CHANGE' && (e.collections ?? []).includes('tag'), fromTheirs);
      expect(theirs.events.slice(fromTheirs).filter((e) => (e.collections ?? []).some((c) => c === 'test_summary' || c === 'exam_result'))).toEqual([]);
    } finally {
      mine.close();
      theirs.close();
    }
  });

  test('the same submission pushed to A and B at once is stored and scored once', async () => {
    const learner = await tokenOf(A, 'learner');
    for (let round = 0; round < 5; round++) {
      const doc = submission();
      const [a, b] = await Promise.all([push(A, learner, [doc]), push(B, learner, [doc])]);
      expect([a.status, b.status]).toEqual([200, 200]);
      // One of them stored it; the other stored it too or answered with the master (the same document).
      for (const conflicts of [a.body, b.body] as TestSummaryDoc[][]) {
        for (const c of conflicts) expect(c).toMatchObject({ id: doc.id, status: 'SUBMITTED', answers: doc.answers });
      }
      expect(await A.database.db.select({ id: attempt.id }).from(attempt).where(eq(attempt.id, doc.id))).toHaveLength(1);
      const results = await A.database.db.select({ id: examResult.id, totalMarks: examResult.totalMarks }).from(examResult).where(eq(examResult.attemptId, doc.id));
      expect(results).toEqual([{ id: expect.any(String), totalMarks: 1.5 }]);
    }
  });

  test('a scheduled job runs on one instance at a time: the other skips its tick, and a job that ran is not run again within half its period', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const ran: string[] = [];
    const onA = runExclusive(A.database.db, 'test-job', async () => {
      ran.push('A');
      await gate;
      return 'A';
    });
    while (ran.length === 0) await new Promise((r) => setTimeout(r, 5));
    expect(await runExclusive(B.database.db, 'test-job', () => ran.push('B'))).toBeUndefined();
    release();
    expect(await onA).toBe('A');
    expect(await runExclusive(B.database.db, 'test-job', () => (ran.push('B'), 'B'))).toBe('B');
    expect(ran).toEqual(['A', 'B']);
    // A failing job lets go of its lock.
    await expect(runExclusive(A.database.db, 'test-job', () => Promise.reject(new Error('job failed')))).rejects.toThrow('job failed');
    expect(await runExclusive(B.database.db, 'test-job', () => 'again')).toBe('again');
    // With its period: once per period across instances, whichever ticks first.
    expect(await runExclusive(A.database.db, 'periodic', () => 'A', { everyMs: 60_000 })).toBe('A');
    expect(await runExclusive(B.database.db, 'periodic', () => 'B', { everyMs: 60_000 })).toBeUndefined();
    expect(await runExclusive(A.database.db, 'periodic', () => 'A', { everyMs: 60_000 })).toBeUndefined();
    await new Promise((r) => setTimeout(r, 60));
    expect(await runExclusive(B.database.db, 'periodic', () => 'B', { everyMs: 100 })).toBe('B');
  });

  test('a lost LISTEN connection comes back, and the devices connected meanwhile are told to pull everything', async () => {
    const learner = await tokenOf(A, 'learner');
    const editor = await tokenOf(B, 'editor');
    const device = await openStream(A, learner);
    try {
      await device.next((e) => e.type === 'RESYNC');
      const from = device.events.length;
      // An administrator (or a failover) ends every listening connection.
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      try {
        const killed = await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [LISTENER_NAME]);
        expect(killed.rowCount).toBe(2);
      } finally {
        await admin.end();
      }
      const resync = await device.next((e) => e.type === 'CHANGE', from, 10_000);
      expect(resync.collections).toEqual(expect.arrayContaining(['tag', 'question_set', 'test_summary', 'exam_result', 'entitlement']));
      // And B's changes reach A's devices again.
      const after = device.events.length;
      await call(B, 'PATCH', '/api/tag', { token: editor, body: { key: 't', newTag: `Back ${Date.now()}`, lang: 'en' } });
      expect(await device.next((e) => e.type === 'CHANGE' && (e.collections ?? []).includes('tag') && e.collections!.length === 1, after)).toEqual({ type: 'CHANGE', collections: ['tag'] });
    } finally {
      device.close();
    }
  });

  test('an instance killed (SIGKILL) right after answering loses no accepted submission', { timeout: 120_000 }, async () => {
    const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'server', 'src', 'index.ts')], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        DATABASE_URL: url,
        DATA_DIR: dataDir,
        CLIENT_DIR: clientDir,
        HOST: '127.0.0.1',
        PORT: '0',
        INSTANCE_ID: 'instance-c',
        LOG_LEVEL: 'info',
        NODE_ENV: 'development',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    try {
      const C = await new Promise<{ base: string }>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`instance C did not start: ${output}`)), 90_000);
        child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
        child.stdout!.on('data', (d: Buffer) => {
          output += d.toString();
          const m = /"url":"(http:\/\/127\.0\.0\.1:\d+)"[^\n]*"msg":"listening"/.exec(output);
          if (m) {
            clearTimeout(timer);
            resolve({ base: m[1]! });
          }
        });
        child.on('exit', (code) => reject(new Error(`instance C exited (${code}): ${output}`)));
      });
      expect((await call(C, 'GET', '/api/health')).headers.get(INSTANCE_HEADER)).toBe('instance-c');
      const learner = await tokenOf(C, 'learner');
      const docs = Array.from({ length: 8 }, () => submission());
      // Accepted: each push answered 200 with no conflict. Then the instance dies at once.
      const answers = await Promise.all(docs.map((d) => push(C, learner, [d])));
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
      for (const a of answers) expect([a.status, a.body]).toEqual([200, []]);
      // Every one of them is there, scored once, seen through the instance still running.
      const ids = docs.map((d) => d.id);
      expect(await B.database.db.select({ id: attempt.id }).from(attempt).where(inArray(attempt.id, ids))).toHaveLength(docs.length);
      expect(await B.database.db.select({ id: examResult.id }).from(examResult).where(inArray(examResult.attemptId, ids))).toHaveLength(docs.length);
      const token = await tokenOf(B, 'learner');
      const pulled = await call(B, 'GET', '/api/sync/v1/exam_result/pull?rev=0&limit=1000', { token, headers: V });
      expect(pulled.status).toBe(200);
      const got = new Set(pulled.body.documents.map((d: { attemptId: string }) => d.attemptId));
      for (const id of ids) expect(got.has(id)).toBe(true);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });
});
