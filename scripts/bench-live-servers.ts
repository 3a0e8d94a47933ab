/**
 * Child process of bench-live.ts (docs/benchmarks.md "bench:live"): the real app on a temporary
 * data dir, as a serving instance runs it (its jobs, the release job among them), with the bench
 * data (scripts/bench-data.ts: 50 sets, 5,000 learners each holding the yearly plan), `bench-set-0`
 * scheduled as a live test an hour ahead and every learner registered for it; and two floors:
 *   - the key's: a bare node:http server with the same two requests a device makes, the stream
 *     (SSE: RESYNC on connect, then the key's KEY event and one CHANGE broadcast to every connection at the start) and the
 *     pull (the token checked with jose, as the app's; one document, its key once released);
 *   - the storm's: the bare submission of bench:sync (scripts/bench-exam-floor.ts).
 * The parent asks for the start at a moment of its choosing ({ liveAt } / { floorAt }).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import { jwtVerify } from 'jose';
import { createApp } from '../server/src/app';
import { composeDeps, startJobs } from '../server/src/compose';
import type { Deps, Principal } from '../server/src/context';
import { openDatabase } from '../server/src/db/client';
import { attempt, examResult, liveTest } from '../server/src/db/schema';
import { seedDatabase } from '../server/src/db/seed';
import { loadConfig, parseEnv } from '../server/src/env';
import { createEventBus } from '../server/src/lib/events';
import { createLogger } from '../server/src/lib/logger';
import { createLocalOutbox } from '../server/src/lib/outbox';
import { createRateLimits } from '../server/src/lib/rate-limit';
import { openSession } from '../server/src/lib/sessions';
import { register, schedule } from '../server/src/modules/live-tests/live-tests.service';
import { publishDue } from '../server/src/modules/questions/publish';
import { serveApp } from '../server/src/serve';
import { growBenchData } from './bench-data';
import { serveExamFloor } from './bench-exam-floor';

export const LIVE_SET = 'bench-set-0';
const DEVICES = Number(process.env.BENCH_DEVICES ?? 5000);
const MIN = 60_000;

const dir = mkdtempSync(path.join(tmpdir(), 'pm-bench-live-'));
const config = loadConfig(parseEnv({ DATA_DIR: dir, LOG_LEVEL: 'info' }));
// Request logs stay on, as in production; they go to stdout, which the parent discards.
const log = createLogger('info');
// As the server opens it (server/src/index.ts): checkpoints on a worker thread.
const database = openDatabase(config.dataDir, { backgroundCheckpoints: { onError: (message) => log.error({ message }, 'background checkpoint failed') } });
const db = database.db;
await seedDatabase(db);
const deps: Deps = composeDeps({ db, config, outbox: await createLocalOutbox(db, log), rates: createRateLimits(db), log, events: createEventBus() });
await growBenchData(db, { learners: DEVICES });
await publishDue(deps);

// Each learner signed in once (a session and its token, as a login makes them) and registered
// through the service, as POST /api/live/register does.
const people = await Promise.all(
  Array.from({ length: DEVICES }, async (_, p) => {
    const id = `bench-person-${p}`;
    const { token, session } = await openSession(db, config.jwtSecret, { id, tokenVersion: 0 });
    return { id, token, session: session.id };
  }),
);
const editor: Principal = { id: 'demo-editor', name: 'Editor', permissions: new Set(), sessionId: 'bench-editor' };
const later = Date.now() + 60 * MIN;
await schedule(deps, editor, { qsid: LIVE_SET, start: later, winMin: 15, res: later + 3 * 60 * MIN });
for (const p of people) await register(deps, { id: p.id, name: p.id, permissions: new Set(), sessionId: p.session }, { qsid: LIVE_SET, sms: false, lang: 'en' });

// The serving instance's jobs (compose.ts startJobs), the live tests' release job among them.
await startJobs(deps, { publishEveryMs: config.PUBLISH_INTERVAL_S * 1000, scoreDistEveryMs: config.SCORE_DIST_INTERVAL_S * 1000 });

function listen(fetch: Parameters<typeof serveApp>[0]): Promise<number> {
  return new Promise((resolve) => serveApp(fetch, { hostname: '127.0.0.1', port: 0 }, (info) => resolve(info.port)));
}

// ---- the key's floor ----
const floorStreams = new Set<http.ServerResponse>();
let floorReleased = false;
const floorKey = 'floor-key-floor-key-floor-key-floor-key-flo';
async function floorAuthorized(req: http.IncomingMessage): Promise<boolean> {
  try {
    await jwtVerify(req.headers.authorization?.slice('Bearer '.length) ?? '', config.jwtSecret, { algorithms: ['HS256'] });
    return true;
  } catch {
    return false;
  }
}
const floor = http.createServer((req, res) => {
  void floorAuthorized(req).then((ok) => {
    if (!ok) return res.writeHead(401).end();
    if (req.url === '/floor/stream') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.write('data: {"type":"RESYNC"}\n\n');
      floorStreams.add(res);
      res.on('close', () => floorStreams.delete(res));
      return;
    }
    const rev = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('rev') ?? 0);
    // One document: revision 1 before the start, 2 with the key after it.
    const docRev = floorReleased ? 2 : 1;
    const documents = docRev > rev ? [{ id: LIVE_SET, key: floorReleased ? floorKey : null, start: 0, updatedAt: Date.now() }] : [];
    const body = JSON.stringify({ documents, checkpoint: { rev: Math.max(rev, docRev) } });
    res.writeHead(200, { 'content-type': 'application/json', 'x-server-time': String(Date.now()) }).end(body);
  });
});
floor.keepAliveTimeout = 5000;
const floorPort = await new Promise<number>((resolve) => floor.listen({ host: '127.0.0.1', port: 0, backlog: 4096 }, () => resolve((floor.address() as { port: number }).port)));
function floorBroadcast(at: number) {
  setTimeout(() => {
    floorReleased = true;
    // As the app: the key in the stream, then the change to pull.
    const events = `data: ${JSON.stringify({ type: 'KEY', qsid: LIVE_SET, key: floorKey })}\n\ndata: {"type":"CHANGE","collections":["live_key"]}\n\n`;
    for (const res of floorStreams) res.write(events);
  }, at - Date.now());
}

// ---- the storm's floor and the app ----
const submissionFloor = await serveExamFloor({ dir, jwtSecret: config.jwtSecret, db, qsid: LIVE_SET });
const ports = { app: await listen(createApp(deps).fetch), floor: floorPort, stormFloor: submissionFloor.port };
process.send?.({ ready: true, ports, tokens: people.map((p) => p.token) });

/**
 * BENCH_PROFILE=<dir>: a CPU profile of the start minute only (from the start's move to the
 * parent's question for the key, once every device holds it), `live-start.cpuprofile`.
 */
const profileDir = process.env.BENCH_PROFILE;
let profiler: Session | null = null;
async function startProfile() {
  if (!profileDir) return;
  profiler = new Session();
  profiler.connect();
  await profiler.post('Profiler.enable');
  await profiler.post('Profiler.start');
}
async function stopProfile() {
  if (!profiler) return;
  const { profile } = await profiler.post('Profiler.stop');
  mkdirSync(profileDir!, { recursive: true });
  writeFileSync(path.join(profileDir!, 'live-start.cpuprofile'), JSON.stringify(profile));
  profiler.disconnect();
  profiler = null;
}

type Message = 'stop' | 'cpu' | 'key' | 'close-floor' | { liveAt?: number; floorAt?: number; count?: string[] };
process.on('message', async (m: Message) => {
  if (m === 'stop') process.exit(0);
  if (m === 'cpu') {
    const u = process.cpuUsage();
    process.send?.({ cpuUs: u.user + u.system });
  }
  if (m === 'key') {
    await stopProfile();
    const row = (await db.select().from(liveTest).where(eq(liveTest.qsid, LIVE_SET)))[0]!;
    process.send?.({ key: row.key, startAt: row.startAt, released: row.released, floorKey });
  }
  if (m === 'close-floor') {
    for (const res of floorStreams) res.destroy();
    floor.close();
    process.send?.({ floorClosed: true });
  }
  if (typeof m !== 'object') return;
  if (m.floorAt) floorBroadcast(m.floorAt);
  // The start moved to `liveAt`, as if the hour had passed (a direct write: no revision, nobody told).
  if (m.liveAt) {
    await startProfile();
    await db.update(liveTest).set({ startAt: m.liveAt }).where(eq(liveTest.qsid, LIVE_SET));
    process.send?.({ moved: true });
  }
  if (m.count) {
    const rows = await db.select({ id: attempt.id }).from(attempt).where(inArray(attempt.id, m.count));
    const results = await db.select({ attemptId: examResult.attemptId }).from(examResult).where(inArray(examResult.attemptId, m.count));
    process.send?.({ stored: { attempts: rows.length, distinct: new Set(rows.map((r) => r.id)).size, results: results.length, distinctResults: new Set(results.map((r) => r.attemptId)).size } });
  }
});
