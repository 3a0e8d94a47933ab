/**
 * Child process of bench-sync.ts: the real app on a temporary data dir, seeded and then grown to
 * 50 published sets of 100 questions (5,000 questions, English and Hindi) and 1,000 learners; and
 * a bare Hono + better-sqlite3 server with the same kind of data for the baselines. The bare
 * server talks to SQLite directly on purpose: it is the floor our layers are compared against.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { inArray } from 'drizzle-orm';
import { Hono } from 'hono';
import { createApp } from '../server/src/app';
import { composeDeps } from '../server/src/compose';
import type { Deps } from '../server/src/context';
import { openDatabase } from '../server/src/db/client';
import { attempt, examResult, question } from '../server/src/db/schema';
import { seedDatabase } from '../server/src/db/seed';
import { loadConfig, parseEnv } from '../server/src/env';
import { createEventBus } from '../server/src/lib/events';
import { createLogger } from '../server/src/lib/logger';
import { createLoadMonitor, OVERLOAD } from '../server/src/lib/overload';
import { createLocalOutbox } from '../server/src/lib/outbox';
import { createRateLimits } from '../server/src/lib/rate-limit';
import { openSession } from '../server/src/lib/sessions';
import { publishDue } from '../server/src/modules/questions/publish';
import { benchQuestionIds, growBenchData } from './bench-data';
import { serveApp } from '../server/src/serve';

const dir = mkdtempSync(path.join(tmpdir(), 'pm-bench-sync-'));
const config = loadConfig(parseEnv({ DATA_DIR: dir, LOG_LEVEL: 'info' }));
const log = createLogger('info');
// As the server opens it (server/src/index.ts): checkpoints on a worker thread.
const database = openDatabase(config.dataDir, { backgroundCheckpoints: { onError: (message) => log.error({ message }, 'background checkpoint failed') } });
await seedDatabase(database.db);
const deps: Deps = composeDeps({ db: database.db, config, outbox: await createLocalOutbox(database.db, log), rates: createRateLimits(database.db), log, events: createEventBus() });
const db = database.db;

// 5,000 questions in English and Hindi, 50 published sets of 100, 1,000 learners.
await growBenchData(db, { learners: 1000 });
await publishDue(deps);
// Each person signed in once: a session row and its token, as a login makes them.
const tokens = await Promise.all(Array.from({ length: 1000 }, async (_, p) => (await openSession(db, config.jwtSecret, { id: `bench-person-${p}`, tokenVersion: 0 })).token));
const learnerToken = (await openSession(db, config.jwtSecret, { id: 'demo-learner', tokenVersion: 0 })).token;

// The bare baseline: the same 5,000 question rows, paged by an integer key; a 20-row insert.
const raw = new Database(path.join(dir, 'bare.db'));
raw.pragma('journal_mode = WAL');
raw.pragma('synchronous = NORMAL');
raw.exec('create table q (rev integer primary key, id text not null, body text not null)');
raw.exec('create table a (id text primary key, doc text not null)');
const insertQ = raw.prepare('insert into q (rev, id, body) values (?, ?, ?)');
const benchQuestions = await db.select().from(question).where(inArray(question.id, benchQuestionIds()));
raw.transaction(() => {
  for (const q of benchQuestions) {
    insertQ.run(q.rev, q.id, JSON.stringify({ id: q.id, q: q.q, ops: q.ops, qt: q.qt, d: q.d, trans: q.trans }));
  }
})();
const page = raw.prepare('select rev, body from q where rev > ? order by rev limit ?');
const insertA = raw.prepare('insert into a (id, doc) values (?, ?)');
const insertMany = raw.transaction((rows: { newDocumentState: { id: string } }[]) => {
  for (const r of rows) insertA.run(r.newDocumentState.id, JSON.stringify(r.newDocumentState));
});
const bare = new Hono()
  .get('/bare/question/pull', (c) => {
    const rev = Number(c.req.query('rev') ?? 0);
    const limit = Number(c.req.query('limit') ?? 200);
    const rows = page.all(rev, limit) as { rev: number; body: string }[];
    return c.json({ documents: rows.map((r) => JSON.parse(r.body)), checkpoint: { rev: rows.at(-1)?.rev ?? rev } });
  })
  .post('/bare/push', async (c) => {
    insertMany(await c.req.json());
    return c.json([]);
  });

function listen(fetch: (req: Request) => Response | Promise<Response>): Promise<number> {
  // As the real server listens (server/src/index.ts), both of them.
  return new Promise((resolve) => serveApp(fetch, { hostname: '127.0.0.1', port: 0 }, (info) => resolve(info.port)));
}
// The bare submission (scripts/bench-exam-floor.ts): a token checked with jose, the answers scored,
// an attempt row and a result row in one transaction: the storm's floor for the same work.
const { serveExamFloor } = await import('./bench-exam-floor');
const submissionFloor = await serveExamFloor({ dir, jwtSecret: config.jwtSecret, db, qsid: 'bench-set-0' });
const noShed = process.env.BENCH_NO_SHED === '1' ? { load: createLoadMonitor(undefined, { ...OVERLOAD, MAX_IN_FLIGHT: 1e6, HARD_MAX_IN_FLIGHT: 1e6, TURN_MIN_REQUESTS: 1e6, CONN_WINDOW_MS: -1 }) } : {};
const ports = { app: await listen(createApp(deps, noShed).fetch), bare: await listen(bare.fetch), floor: submissionFloor.port };
process.send?.({ ready: true, ports, tokens, learnerToken });

process.on('message', async (m: { count?: string[] } | string) => {
  if (m === 'stop') process.exit(0);
  // CPU time of this process (both servers; the benchmark measures one at a time): a figure that
  // the load generator and other processes on the machine disturb less than wall-clock rates.
  if (m === 'cpu') {
    const u = process.cpuUsage();
    process.send?.({ cpuUs: u.user + u.system });
  }
  if (typeof m === 'object' && m.count) {
    const rows = await db.select({ id: attempt.id, seen: attempt.serverFirstSeen }).from(attempt).where(inArray(attempt.id, m.count));
    const results = await db.select({ attemptId: examResult.attemptId }).from(examResult).where(inArray(examResult.attemptId, m.count));
    // When the server stored the last of them (its clock: the same machine's as the generator's).
    const lastStoredAt = Math.max(...rows.map((r) => r.seen));
    process.send?.({ stored: { attempts: rows.length, distinct: new Set(rows.map((r) => r.id)).size, results: results.length, lastStoredAt } });
  }
});
