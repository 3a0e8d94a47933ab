/**
 * `npm run bench:live` (docs/benchmarks.md "bench:live"): a live test's start minute with 5,000
 * devices on the sync stream, then the submission storm, against the real app on 127.0.0.1 only.
 * The servers run in a child process (scripts/bench-live-servers.ts); this process plays the
 * devices (scripts/live-stream-clients.ts: the stream on a raw socket, the `live_key` pull from
 * the checkpoint on RESYNC and on each CHANGE naming it).
 *   key:   every device connected, the start comes, the release job sends the key through the
 *          stream (a KEY event) and then the CHANGE on which each device pulls its document: count
 *          received / 5,000, and per device the time from the start to the key's arrival (p50/p95/
 *          p99/max; target p99 ≤ 2 s), and to the end of the pull of the document, beside the same
 *          devices on a bare floor in the same run (a node:http SSE server broadcasting the same
 *          events, and a bare pull with the token checked by jose)
 *   storm: right after, every device pushes its submitted attempt at the live test (the bench:sync
 *          storm, scripts/bench-storm.ts): every attempt stored and scored exactly once; p99 per
 *          device until stored, and its ratio to the bare submission's storm (as bench:sync prints it)
 * BENCH_DEVICES sets the number of devices (default 5,000); BENCH_PROFILE=<dir> writes a CPU
 * profile of the app's start minute there (scripts/bench-live-servers.ts).
 */
import { fork } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { childCpu } from './bench-lib';
import { quantile, runStorm } from './bench-storm';
import { APP_PATHS, connectAll, LiveDevice, type LivePaths, loopbackSource } from './live-stream-clients';
import { SERVER_NODE_FLAGS } from './server-flags.mjs';

const DEVICES = Number(process.env.BENCH_DEVICES ?? 5000);
/** New stream connections per second while the devices come online (lib/overload.ts refuses a faster burst from one address). */
const CONNECT_PER_S = 200;
/** Devices per source address (scripts/live-stream-clients.ts loopbackSource): 5,000 devices from 250 addresses. */
const PER_ADDRESS = 20;
const FLOOR_PATHS: LivePaths = { stream: '/floor/stream', pull: (rev) => `/floor/live_key/pull?rev=${rev}` };

const here = path.dirname(fileURLToPath(import.meta.url));
const child = fork(path.join(here, 'bench-live-servers.ts'), [], {
  env: { ...process.env, BENCH_DEVICES: String(DEVICES) },
  execArgv: [...SERVER_NODE_FLAGS, '--import', 'tsx'],
  stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
});
type Ready = { ports: { app: number; floor: number; stormFloor: number }; tokens: string[] };
const ready = await new Promise<Ready>((resolve, reject) => {
  child.on('message', (m: { ready?: boolean } & Partial<Ready>) => m.ready && resolve(m as Ready));
  child.on('exit', (code) => reject(new Error(`bench servers exited with ${code}`)));
});

/** Sends `message` to the servers and resolves with the first answer that has `field`. */
function ask<T>(message: unknown, field: string): Promise<T> {
  return new Promise((resolve) => {
    const on = (m: Record<string, unknown>) => {
      if (!(field in m)) return;
      child.off('message', on);
      resolve(m as T);
    };
    child.on('message', on);
    child.send(message as never);
  });
}

const ms = (x: number) => `${x.toFixed(0)} ms`;
const p = quantile;
const sum = (devices: LiveDevice[], f: (d: LiveDevice) => number) => devices.reduce((a, d) => a + f(d), 0);

/** Connects the devices, has the start come `leadMs` later, and waits (at most 30 s) until every device holds a key and has pulled its document. */
async function startMinute(port: number, paths: LivePaths, startAt: (at: number) => Promise<void>, leadMs = 2000) {
  const devices = ready.tokens.map((t, i) => new LiveDevice(port, t, paths, loopbackSource(i, PER_ADDRESS)));
  await connectAll(devices, { perSecond: CONNECT_PER_S });
  const start = Date.now() + leadMs;
  await startAt(start);
  const cpu0 = await childCpu(child);
  const until = start + 30_000;
  while (Date.now() < until && devices.some((d) => d.keys.size === 0)) await new Promise((r) => setTimeout(r, 50));
  const cpu = (await childCpu(child)) - cpu0;
  while (Date.now() < until && devices.some((d) => d.pulled.size === 0)) await new Promise((r) => setTimeout(r, 50));
  const arrivals = devices.filter((d) => d.keys.size > 0).map((d) => [...d.keyAt.values()][0]! - start);
  const pulls = devices.filter((d) => d.pulled.size > 0).map((d) => [...d.pulledAt.values()][0]! - start);
  const events = devices.map((d) => d.changes.find((t) => t >= start - 1000)).filter((t): t is number => t !== undefined).map((t) => t - start);
  const early = devices.filter((d) => [...d.keyServerTime.values()].some((t) => t < start)).length;
  return { devices, start, arrivals, pulls, events, early, cpuMs: cpu / 1000 };
}

function describe(name: string, r: Awaited<ReturnType<typeof startMinute>>) {
  const a = r.arrivals;
  console.log(`${name} received ${a.length} / ${DEVICES}; key's arrival after the start: p50 ${ms(p(a, 0.5))}, p95 ${ms(p(a, 0.95))}, p99 ${ms(p(a, 0.99))}, max ${ms(p(a, 1))}`);
  console.log(`       the document's pull ended after the start (${r.pulls.length} devices): p50 ${ms(p(r.pulls, 0.5))}, p99 ${ms(p(r.pulls, 0.99))}, max ${ms(p(r.pulls, 1))}`);
  console.log(`       the stream's CHANGE after the start: p50 ${ms(p(r.events, 0.5))}, p99 ${ms(p(r.events, 0.99))}, max ${ms(p(r.events, 1))}; pulls refused (503) ${sum(r.devices, (d) => d.stats.pullRefused)}, failed ${sum(r.devices, (d) => d.stats.pullFailed)}; streams refused while connecting ${sum(r.devices, (d) => d.stats.streamRefused)}; server CPU ${r.cpuMs.toFixed(0)} ms until the last key`);
}

try {
  console.log(`\nbench:live — 127.0.0.1; ${DEVICES.toLocaleString('en')} devices on the sync stream, connected at ${CONNECT_PER_S}/s from ${Math.ceil(DEVICES / PER_ADDRESS)} loopback addresses\n`);
  // ---- the floor first: the same devices, a bare SSE broadcast and a bare pull ----
  const floorRun = await startMinute(ready.ports.floor, FLOOR_PATHS, async (at) => void child.send({ floorAt: at }));
  for (const d of floorRun.devices) d.close();
  await ask('close-floor', 'floorClosed');

  // ---- the app ----
  const appRun = await startMinute(ready.ports.app, APP_PATHS, async (at) => void (await ask({ liveAt: at }, 'moved')));
  const server = await ask<{ key: string; startAt: number; released: boolean }>('key', 'key');
  const wrong = appRun.devices.filter((d) => [...d.keys.values(), ...d.pulled.values()].some((k) => k !== server.key)).length;
  describe('floor ', floorRun);
  describe('key   ', appRun);
  const ratio = p(appRun.arrivals, 0.99) / p(floorRun.arrivals, 0.99);
  const met = appRun.arrivals.length === DEVICES && p(appRun.arrivals, 0.99) <= 2000;
  console.log(`       p99 ${ratio.toFixed(2)}× the floor's; every key the server's: ${wrong === 0 ? 'yes' : `NO (${wrong} differ)`}; a key served before the start: ${appRun.early === 0 ? 'none' : `${appRun.early} devices`} (target: all ${DEVICES} within 2 s at p99: ${met ? 'met' : 'NOT met'})`);
  for (const d of appRun.devices) d.close();

  // ---- the submission storm (bench:sync's), at the live test, right after the start ----
  const floorStorm = await runStorm(ready.ports.stormFloor, ready.tokens, '/floor/push');
  const storm = await runStorm(ready.ports.app, ready.tokens);
  const stored = await ask<{ stored: { attempts: number; distinct: number; results: number; distinctResults: number } }>({ count: storm.ids }, 'stored');
  const s = stored.stored;
  const once = s.attempts === storm.ids.length && s.distinct === s.attempts && s.results === s.attempts && s.distinctResults === s.results;
  const stormRatio = p(storm.untilStored, 0.99) / p(floorStorm.untilStored, 0.99);
  console.log(`storm  ${DEVICES.toLocaleString('en')} devices, one submitted attempt each at the live test, all answered after ${storm.seconds.toFixed(2)} s`);
  console.log(`       per client until its attempt was stored (retries included): p50 ${ms(p(storm.untilStored, 0.5))}, p99 ${ms(p(storm.untilStored, 0.99))}, max ${ms(p(storm.untilStored, 1))}`);
  console.log(`       the bare submission's storm (scripts/bench-exam-floor.ts): p50 ${ms(p(floorStorm.untilStored, 0.5))}, p99 ${ms(p(floorStorm.untilStored, 0.99))}; the app's p99 per device is ${stormRatio.toFixed(2)}× it`);
  console.log(`       statuses ${JSON.stringify(Object.fromEntries(storm.statuses))}; retries after 503/429: ${storm.retried}; timeouts/connection errors: ${storm.failures}; gave up: ${storm.gaveUp}`);
  console.log(`       stored ${s.attempts} rows for ${s.distinct} distinct attempts of ${storm.ids.length}, ${s.results} scored results (exactly once: ${once ? 'yes' : 'NO'})`);
} finally {
  child.send('stop');
}
