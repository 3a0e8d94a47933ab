/**
 * `npm run bench:sync` (docs/benchmarks.md "bench:sync"): replication throughput of the real server, each figure side by
 * side with a bare baseline built from the same dependencies (Hono + better-sqlite3), on
 * 127.0.0.1 only. The servers run in a child process (scripts/bench-sync-servers.ts) so that the
 * load generator does not share their event loop.
 *   pull:  documents/s for a learner data set of 50 sets and 5,000 questions (en + hi), pages of 200
 *   push:  test_summary documents/s at 20 per request vs a bare 20-row insert transaction (target ≥ 50 %),
 *          in rounds that alternate which server goes first; medians, and server CPU per document
 *   storm: 1,000 concurrent clients each pushing one submitted attempt: each stored exactly once,
 *          p99 ≤ 250 ms per HTTP request, no timeouts or dropped connections; an overloaded server
 *          answers 503 with Retry-After and the client sends again after it (plus up to 1 s of
 *          jitter); reported per request and per client until its attempt was stored
 *   faults: the storm again through the fault proxy (10 % of connections reset, 0–2 s delays;
 *          FAULT_SEED replays it, BENCH_FAULT_STORM=0 skips it): every attempt stored and scored
 *          exactly once, and the time until the server stored the last one
 * The in-browser initial replication figure needs the client replica (scripts/bench-replica.ts).
 */
import { fork } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_NODE_FLAGS } from './server-flags.mjs';
import http from 'node:http';
import { childCpu } from './bench-lib';
import { buildRequest, RawConnection } from './raw-http';
import { benchAttempt, PUSH_PATH as pushPath, quantile, runStorm } from './bench-storm';
import { backoffDelay } from '../client/src/db/sync/backoff';
import { seedFromEnv } from './fault-proxy';

const here = path.dirname(fileURLToPath(import.meta.url));
// The servers' V8 flags as npm start gives them.
const child = fork(path.join(here, 'bench-sync-servers.ts'), [], { execArgv: [...SERVER_NODE_FLAGS, '--import', 'tsx', ...(process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [])], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
type Ready = { ports: { app: number; bare: number; floor: number }; tokens: string[]; learnerToken: string };
const ready = await new Promise<Ready>((resolve, reject) => {
  child.on('message', (m: { ready?: boolean } & Partial<Ready>) => {
    if (m.ready && m.ports && m.tokens && m.learnerToken) resolve(m as Ready);
  });
  child.on('exit', (code) => reject(new Error(`bench servers exited with ${code}`)));
});
const stats = (child as unknown as { send: (m: unknown) => void });
/** CPU time (µs) the server process has used so far. */
const serverCpu = () => childCpu(child);
/** Connections the kernel dropped because the listen queue was full (Linux; null elsewhere). */
async function listenOverflows(): Promise<number | null> {
  try {
    const { readFile } = await import('node:fs/promises');
    const lines = (await readFile('/proc/net/netstat', 'utf8')).split('\n').filter((l) => l.startsWith('TcpExt:'));
    const names = lines[0]!.split(/\s+/);
    const values = lines[1]!.split(/\s+/);
    return Number(values[names.indexOf('ListenOverflows')]);
  } catch {
    return null;
  }
}

const H = { 'x-sync-protocol': '1.0.0', 'content-type': 'application/json' };
const app = `http://127.0.0.1:${ready.ports.app}`;
const bare = `http://127.0.0.1:${ready.ports.bare}`;
const agent = new http.Agent({ keepAlive: true, maxSockets: 2000 });

/**
 * A plain node:http request (no extra dependency), with a timeout. `written` is when the request
 * had been handed to the kernel (connection made, bytes written): one process playing 1,000
 * devices needs a while to get to each of them, and that delay is the load generator's, not the
 * server's.
 */
function send(url: string, opts: { method?: string; headers?: Record<string, string>; body?: string; timeoutMs?: number } = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string; written: number }>((resolve, reject) => {
    let written = NaN;
    const req = http.request(url, { method: opts.method ?? 'GET', headers: opts.headers, agent }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text, written }));
      res.on('error', reject);
    });
    req.on('finish', () => (written = performance.now()));
    req.setTimeout(opts.timeoutMs ?? 30_000, () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(opts.body);
  });
}

async function get(url: string, headers: Record<string, string>) {
  const r = await send(url, { headers });
  return { status: r.status, body: JSON.parse(r.text) as { documents: unknown[]; checkpoint: { rev: number } } };
}

/** Pulls a whole collection in pages of 200; returns documents and seconds. */
async function pullAll(base: string, collection: string, headers: Record<string, string>) {
  let rev = 0;
  let docs = 0;
  const t = performance.now();
  for (;;) {
    const r = await get(`${base}/${collection}/pull?rev=${rev}&limit=200`, headers);
    if (r.status !== 200) throw new Error(`pull ${collection}: ${r.status}`);
    docs += r.body.documents.length;
    if (r.body.documents.length === 0) break;
    rev = r.body.checkpoint.rev;
  }
  return { docs, s: (performance.now() - t) / 1000 };
}

function median(xs: number[]) {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
}

try {
  const auth = { ...H, authorization: `Bearer ${ready.learnerToken}` };
  // ---- pull ----
  const pullRounds: { app: number; appQ: number; bare: number }[] = [];
  for (let i = 0; i < 3; i++) {
    const sets = await pullAll(`${app}/api/sync/v1`, 'question_set', auth);
    const detail = await pullAll(`${app}/api/sync/v1`, 'qs_detail', auth);
    const bareQ = await pullAll(`${bare}/bare`, 'question', {});
    pullRounds.push({
      app: (sets.docs + detail.docs) / (sets.s + detail.s),
      appQ: 5000 / detail.s,
      bare: bareQ.docs / bareQ.s,
    });
  }
  // ---- push ----
  const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
  const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
  async function pushRate(url: string, headersOf: (i: number) => Record<string, string>, makeBody: (i: number) => unknown, seconds: number) {
    let n = 0;
    let errors = 0;
    const end = performance.now() + seconds * 1000;
    let i = 0;
    const worker = async (_: unknown, w: number) => {
      const headers = headersOf(w);
      while (performance.now() < end) {
        const r = await send(url, { method: 'POST', headers, body: JSON.stringify(makeBody(i++)) });
        if (r.status === 200) n += 20;
        else errors++;
      }
    };
    const cpu0 = await serverCpu();
    const t = performance.now();
    await Promise.all(Array.from({ length: 10 }, worker));
    const s = (performance.now() - t) / 1000;
    const cpu = (await serverCpu()) - cpu0;
    return { rate: n / s, cpuPerDoc: cpu / Math.max(1, n), errors };
  }
  const attempt = benchAttempt;
  const batch = () => Array.from({ length: 20 }, () => ({ newDocumentState: attempt('IN_PROGRESS'), assumedMasterState: null }));
  // Each of the 10 connections pushes as a learner of its own: one learner pushing for a minute
  // would pass the per-person storage quota (docs/security.md "Times, ranking and sync quotas"), which no real learner meets.
  const learnerAuth = ready.tokens.map((token) => ({ ...H, authorization: `Bearer ${token}` }));
  const runApp = () => pushRate(`${app}/api/sync/v1/test_summary/push`, (w) => learnerAuth[w % learnerAuth.length]!, batch, SECONDS);
  const runBare = () => pushRate(`${bare}/bare/push`, () => H, batch, SECONDS);
  // One short warm-up each (JIT, SQLite caches), then rounds that alternate which server goes
  // first, so that a drift of the machine's speed does not favour one side.
  await runApp();
  await runBare();
  const pushRounds: { app: number; bare: number; appCpu: number; bareCpu: number; errors: number }[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    let a: Awaited<ReturnType<typeof runApp>>;
    let b: Awaited<ReturnType<typeof runBare>>;
    if (i % 2 === 0) {
      a = await runApp();
      b = await runBare();
    } else {
      b = await runBare();
      a = await runApp();
    }
    pushRounds.push({ app: a.rate, bare: b.rate, appCpu: a.cpuPerDoc, bareCpu: b.cpuPerDoc, errors: a.errors + b.errors });
  }
  // ---- storm ---- (scripts/bench-storm.ts)
  // First against the bare floor (one row inserted per device, no token, no scoring): what the
  // machine and the generator allow in this run; the app's p99 is printed as a multiple of it.
  const bareStorm = await runStorm(ready.ports.bare, ready.tokens, '/bare/push');
  const floorStorm = await runStorm(ready.ports.floor, ready.tokens, '/floor/push');
  const overflows0 = await listenOverflows();
  const storm = await runStorm(ready.ports.app, ready.tokens);
  const { requestLatencies, okLatencies, busyLatencies, fromCall, firstWritten, untilStored, statuses, triesPerClient, failures, retried, gaveUp } = storm;
  const stormSeconds = storm.seconds;
  const overflows1 = await listenOverflows();
  const stored = await new Promise<{ attempts: number; distinct: number }>((resolve) => {
    child.on('message', (m: { stored?: { attempts: number; distinct: number } }) => m.stored && resolve(m.stored));
    stats.send({ count: storm.ids });
  });

  const p = quantile;
  const ms = (x: number) => `${x.toFixed(0)} ms`;
  const pullApp = median(pullRounds.map((r) => r.app));
  const pullQ = median(pullRounds.map((r) => r.appQ));
  const pullBare = median(pullRounds.map((r) => r.bare));
  const pushApp = median(pushRounds.map((r) => r.app));
  const pushBare = median(pushRounds.map((r) => r.bare));
  const roundRatio = median(pushRounds.map((r) => r.app / r.bare));
  const appCpu = median(pushRounds.map((r) => r.appCpu));
  const bareCpu = median(pushRounds.map((r) => r.bareCpu));
  console.log(`\nbench:sync — 127.0.0.1; pull: medians of 3 rounds; push: medians of ${ROUNDS} rounds of ${SECONDS} s per side, alternating which goes first\n`);
  console.log(`pull   app: ${pullApp.toFixed(0)} documents/s (question_set + qs_detail, 50 sets), ${pullQ.toFixed(0)} questions/s inside qs_detail`);
  console.log(`       bare: ${pullBare.toFixed(0)} rows/s (200-row pages of a 5,000-row table, JSON out)`);
  console.log(`push   app: ${pushApp.toFixed(0)} test_summary documents/s at 20 per request (server CPU ${appCpu.toFixed(1)} µs/document)`);
  console.log(`       bare: ${pushBare.toFixed(0)} rows/s, 20-row insert transaction per request (server CPU ${bareCpu.toFixed(1)} µs/row)`);
  console.log(`       ratio ${((pushApp / pushBare) * 100).toFixed(1)} % of medians, ${(roundRatio * 100).toFixed(1)} % median of rounds, ${((bareCpu / appCpu) * 100).toFixed(1)} % by CPU (target ≥ 50 %: ${pushApp / pushBare >= 0.5 ? 'met' : 'NOT met'})`);
  console.log(`       rounds (app/bare docs/s): ${pushRounds.map((r) => `${r.app.toFixed(0)}/${r.bare.toFixed(0)}`).join(', ')}${pushRounds.some((r) => r.errors) ? `; errors ${pushRounds.reduce((a, r) => a + r.errors, 0)}` : ''}`);
  const p99 = p(requestLatencies, 0.99);
  const dropped = overflows0 === null || overflows1 === null ? 'n/a' : String(overflows1 - overflows0);
  console.log(`storm  1,000 clients, one submitted attempt each, all stored after ${stormSeconds.toFixed(2)} s`);
  const floorRequestP99 = p(floorStorm.requestLatencies, 0.99);
  const requestRatio = p99 / floorRequestP99;
  console.log(`       per HTTP request (${requestLatencies.length}), from the request on the wire to the whole answer: p50 ${ms(p(requestLatencies, 0.5))}, p99 ${ms(p99)}, max ${ms(p(requestLatencies, 1))}; ${requestRatio.toFixed(2)}× the bare submission's p99 (${ms(floorRequestP99)}; target ≤ 1.5×: ${requestRatio <= 1.5 ? 'met' : 'NOT met'})`);
  console.log(`         the generator had every device's first request on the wire ${ms(p(firstWritten, 1))} after the storm's start (p50 ${ms(p(firstWritten, 0.5))})`);
  console.log(`         from the load generator's call (its own delay to reach 1,000 devices included): p50 ${ms(p(fromCall, 0.5))}, p99 ${ms(p(fromCall, 0.99))}`);
  console.log(`         of which 200: p50 ${ms(p(okLatencies, 0.5))}, p99 ${ms(p(okLatencies, 0.99))}; 503: p50 ${ms(p(busyLatencies, 0.5))}, p99 ${ms(p(busyLatencies, 0.99))}`);
  console.log(`       per client until its attempt was stored (retries included): p50 ${ms(p(untilStored, 0.5))}, p99 ${ms(p(untilStored, 0.99))}, max ${ms(p(untilStored, 1))}`);
  const bareP99 = p(bareStorm.untilStored, 0.99);
  const stormRatio = p(untilStored, 0.99) / bareP99;
  console.log(`       the bare floor's storm (same devices, one row each): p50 ${ms(p(bareStorm.untilStored, 0.5))}, p99 ${ms(bareP99)}; the app's p99 per device is ${stormRatio.toFixed(2)}× it (target ≤ 1.5×: ${stormRatio <= 1.5 ? 'met' : 'NOT met'})`);
  const floorP99 = p(floorStorm.untilStored, 0.99);
  const floorRatio = p(untilStored, 0.99) / floorP99;
  console.log(`       the bare submission's storm (token checked with jose, scored, attempt and result rows; scripts/bench-exam-floor.ts): p50 ${ms(p(floorStorm.untilStored, 0.5))}, p99 ${ms(floorP99)}; the app's p99 per device is ${floorRatio.toFixed(2)}× it (target ≤ 1.5×: ${floorRatio <= 1.5 ? 'met' : 'NOT met'})`);
  console.log(`       statuses ${JSON.stringify(Object.fromEntries(statuses))}; retries after 503/429: ${retried}; clients by requests needed ${JSON.stringify(Object.fromEntries([...triesPerClient].sort((a, b) => a[0] - b[0])))}`);
  console.log(`       timeouts/connection errors: ${failures}; listen-queue overflows (kernel drops): ${dropped}; gave up: ${gaveUp}`);
  console.log(`       stored ${stored.attempts} rows for ${stored.distinct} distinct attempts of ${storm.ids.length} (exactly once: ${stored.attempts === storm.ids.length && stored.distinct === storm.ids.length ? 'yes' : 'NO'})`);

  // ---- storm through random partitions (docs/offline-integrity.md "The network") ----
  // The same 1,000 devices, each with a new submitted attempt, through the fault proxy
  // (scripts/fault-proxy.ts, in a process of its own): 10 % of connections reset (half of them
  // before the server sees the request, half once it has answered, so the device never hears of
  // it), every connection delayed 0–2 s. A device whose request fails opens a new connection and
  // tries again after the product's own backoff (client/src/db/sync/backoff.ts: 1 s doubling, full
  // jitter); after 503 it waits Retry-After plus up to 1 s, as above.
  if (process.env.BENCH_FAULT_STORM !== '0') {
    const seed = seedFromEnv();
    const proxyChild = fork(path.join(here, 'fault-proxy-cli.ts'), ['--target', String(ready.ports.app), '--seed', String(seed), '--reset', '0.1', '--delay-max-ms', '2000', '--quiet'], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    try {
      const proxyPort = await new Promise<number>((resolve, reject) => {
        proxyChild.on('message', (m: { ready?: boolean; port?: number }) => m.ready && m.port && resolve(m.port));
        proxyChild.on('exit', (code) => reject(new Error(`fault proxy exited with ${code}`)));
      });
      const devices = ready.tokens.map((token) => {
        const doc = attempt('SUBMITTED');
        const body = JSON.stringify([{ newDocumentState: doc, assumedMasterState: null }]);
        return { doc, request: buildRequest('POST', `127.0.0.1:${proxyPort}`, pushPath, { ...H, authorization: `Bearer ${token}` }, body) };
      });
      const known: number[] = [];
      const errors = new Map<string, number>();
      const fstatuses = new Map<number, number>();
      let fgaveUp = 0;
      const wall0 = Date.now();
      const f0 = performance.now();
      await Promise.all(
        devices.map(async ({ request }) => {
          let conn = new RawConnection(proxyPort);
          try {
            for (let tries = 1; ; tries++) {
              if (tries > 30) {
                fgaveUp++;
                return;
              }
              let r: Awaited<ReturnType<typeof conn.send>>;
              try {
                r = await conn.send(request, 10_000);
              } catch (e) {
                const kind = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
                errors.set(kind, (errors.get(kind) ?? 0) + 1);
                conn.destroy();
                conn = new RawConnection(proxyPort);
                await new Promise((res) => setTimeout(res, backoffDelay(tries, 1000, 60_000)));
                continue;
              }
              fstatuses.set(r.status, (fstatuses.get(r.status) ?? 0) + 1);
              if (r.status === 429 || r.status === 503) {
                await new Promise((res) => setTimeout(res, (Number(r.headers['retry-after'] ?? 1) + Math.random()) * 1000));
                continue;
              }
              known.push(performance.now() - f0);
              return;
            }
          } finally {
            conn.destroy();
          }
        }),
      );
      const fSeconds = (performance.now() - f0) / 1000;
      const counts = await new Promise<Record<string, number>>((resolve) => {
        proxyChild.on('message', (m: { counts?: Record<string, number> }) => m.counts && resolve(m.counts));
        proxyChild.send('counts');
      });
      const fstored = await new Promise<{ attempts: number; distinct: number; results: number; lastStoredAt: number }>((resolve) => {
        child.on('message', (m: { stored?: { attempts: number; distinct: number; results: number; lastStoredAt: number } }) => m.stored && resolve(m.stored));
        stats.send({ count: devices.map((d) => d.doc.id) });
      });
      const once = fstored.attempts === devices.length && fstored.distinct === devices.length && fstored.results === devices.length;
      console.log(`faults 1,000 clients through the fault proxy (FAULT_SEED=${seed}: 10 % of connections reset, 0–2 s delays), one submitted attempt each`);
      console.log(`       the last attempt stored by the server ${((fstored.lastStoredAt - wall0) / 1000).toFixed(2)} s after the storm's start; every device knew its attempt was stored after ${fSeconds.toFixed(2)} s`);
      console.log(`       per client until it knew (retries and backoff included): p50 ${ms(p(known, 0.5))}, p99 ${ms(p(known, 0.99))}, max ${ms(p(known, 1))}`);
      console.log(`       connections by fate and answers lost after the server answered ${JSON.stringify(counts)}; failed requests ${JSON.stringify(Object.fromEntries(errors))}; statuses ${JSON.stringify(Object.fromEntries(fstatuses))}; gave up: ${fgaveUp}`);
      console.log(`       stored ${fstored.attempts} rows for ${fstored.distinct} distinct attempts of ${devices.length}, ${fstored.results} scored results (exactly once: ${once ? 'yes' : 'NO'})`);
    } finally {
      proxyChild.send('stop');
    }
  }
} finally {
  child.send('stop');
  agent.destroy();
}
