/**
 * `npm run bench:cluster` (docs/benchmarks.md "bench:cluster"): bench:sync's submission storm — 1,000 devices each pushing
 * one submitted attempt at the same moment (scripts/bench-storm.ts) — against the real started
 * server in three set-ups on this machine, printed side by side:
 *   SQLite, 1 instance      (npm start: the embedded default)
 *   PostgreSQL, 1 instance  (npm run start:cluster with CLUSTER_SIZE=1)
 *   PostgreSQL, 2 instances (npm run start:cluster: Node's cluster module, one port)
 * For each: every attempt stored exactly once and scored once, the p99 per request, the 503s
 * (and how many carried Retry-After), and which instance answered (X-Instance). PostgreSQL is a
 * local server of its own (server/src/db/postgres-server.ts, default durability: fsync and
 * synchronous commit on) in a temporary directory; BENCH_DATABASE_URL points at another one
 * instead (its database is used as it is: give an empty one).
 * Each set-up gets a fresh data directory and database, prepared by scripts/bench-cluster-data.ts.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDatabase, type LocalPostgres, startLocalPostgres } from '../server/src/db/postgres-server';
import { quantile, runStorm, type StormResult } from './bench-storm';
import { SERVER_NODE_FLAGS } from './server-flags.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tsx = ['--import', 'tsx'];

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

type Setup = { name: string; engine: 'sqlite' | 'postgres'; instances: number };
const SETUPS: Setup[] = [
  { name: 'SQLite, 1 instance', engine: 'sqlite', instances: 1 },
  { name: 'PostgreSQL, 1 instance', engine: 'postgres', instances: 1 },
  { name: 'PostgreSQL, 2 instances', engine: 'postgres', instances: 2 },
];

function dataScript(env: NodeJS.ProcessEnv, args: string[]): string {
  return execFileSync(process.execPath, [...tsx, 'scripts/bench-cluster-data.ts', ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'] }).toString();
}

async function startServers(setup: Setup, env: NodeJS.ProcessEnv): Promise<{ port: number; proc: ChildProcess }> {
  const port = await freePort();
  const script = setup.engine === 'sqlite' ? 'server/src/index.ts' : 'scripts/start-cluster.ts';
  const proc = spawn(process.execPath, [...SERVER_NODE_FLAGS, ...tsx, script], {
    cwd: root,
    env: { ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', CLUSTER_SIZE: String(setup.instances) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  // Ready when every instance has answered the health check: a new connection each time (the
  // cluster hands connections, not requests, to its instances).
  const seen = new Set<string>();
  const health = () =>
    new Promise<string | null>((resolve) => {
      const req = http.get({ host: '127.0.0.1', port, path: '/api/health', agent: false }, (res) => {
        res.resume();
        resolve(res.statusCode === 200 ? String(res.headers['x-instance'] ?? 'one') : null);
      });
      req.on('error', () => resolve(null));
    });
  for (let i = 0; seen.size < setup.instances; i++) {
    const instance = await health();
    if (instance) seen.add(instance);
    if (i > 2400) {
      await stopServers(proc);
      throw new Error(`${setup.name}: the servers did not start`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { port, proc };
}

async function stopServers(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null) return;
  const exited = new Promise((r) => proc.once('exit', r));
  proc.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
  if (proc.exitCode === null) proc.kill('SIGKILL');
}

type Row = { setup: Setup; storm: StormResult; stored: { attempts: number; distinct: number; results: number } };

async function runSetup(setup: Setup, pg: LocalPostgres | null, n: number): Promise<Row> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pm-bench-cluster-'));
  try {
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dir, NODE_ENV: 'development' };
    delete env.DATABASE_URL;
    if (setup.engine === 'postgres') {
      env.DATABASE_URL = process.env.BENCH_DATABASE_URL ?? (await createDatabase(pg!.url, `bench_cluster_${n}`));
    }
    const tokensFile = path.join(dir, 'tokens.json');
    dataScript(env, ['prepare', tokensFile]);
    const tokens = JSON.parse((await import('node:fs')).readFileSync(tokensFile, 'utf8')) as string[];
    const { port, proc } = await startServers(setup, env);
    let storm: StormResult;
    try {
      storm = await runStorm(port, tokens);
    } finally {
      await stopServers(proc);
    }
    const idsFile = path.join(dir, 'ids.json');
    writeFileSync(idsFile, JSON.stringify(storm.ids));
    const stored = JSON.parse(dataScript(env, ['count', idsFile]).trim().split('\n').at(-1)!) as Row['stored'];
    return { setup, storm, stored };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const wanted = process.env.BENCH_SETUPS?.split(',').map(Number) ?? [0, 1, 2];
const needsPg = wanted.some((i) => SETUPS[i]!.engine === 'postgres') && !process.env.BENCH_DATABASE_URL;
const pg = needsPg ? await startLocalPostgres() : null;
const rows: Row[] = [];
try {
  for (const i of wanted) {
    const setup = SETUPS[i]!;
    process.stderr.write(`${setup.name}: preparing 1,000 learners and the storm…\n`);
    rows.push(await runSetup(setup, pg, i));
  }
} finally {
  await pg?.stop();
}

const ms = (x: number) => `${x.toFixed(0)} ms`;
const cell = (r: Row, f: (r: Row) => string) => f(r);
const lines: [string, (r: Row) => string][] = [
  ['all stored after', (r) => `${r.storm.seconds.toFixed(2)} s`],
  ['requests', (r) => String(r.storm.requestLatencies.length)],
  ['per request p50', (r) => ms(quantile(r.storm.requestLatencies, 0.5))],
  ['per request p99', (r) => ms(quantile(r.storm.requestLatencies, 0.99))],
  ['200 p99', (r) => ms(quantile(r.storm.okLatencies, 0.99))],
  ['503/429 answers', (r) => `${r.storm.retried} (${r.storm.busyWithRetryAfter} with Retry-After)`],
  ['per device until stored p99', (r) => ms(quantile(r.storm.untilStored, 0.99))],
  ['errors / gave up', (r) => `${r.storm.failures} / ${r.storm.gaveUp}`],
  ['answered by', (r) => [...r.storm.instances.values()].join(' + ') || '—'],
  ['stored (rows / distinct / scored)', (r) => `${r.stored.attempts} / ${r.stored.distinct} / ${r.stored.results}`],
  ['exactly once', (r) => (r.stored.attempts === r.storm.ids.length && r.stored.distinct === r.storm.ids.length && r.stored.results === r.storm.ids.length ? 'yes' : 'NO')],
];
const width = 34;
console.log(`\nbench:cluster — 1,000 devices, one submitted attempt each, at once; 127.0.0.1${needsPg ? ', a local PostgreSQL (durable)' : process.env.BENCH_DATABASE_URL ? ', the given PostgreSQL' : ''}\n`);
console.log(''.padEnd(width) + rows.map((r) => r.setup.name.padEnd(26)).join(''));
for (const [label, f] of lines) console.log(label.padEnd(width) + rows.map((r) => cell(r, f).padEnd(26)).join(''));
if (rows.some((r) => r.stored.attempts !== r.storm.ids.length || r.stored.distinct !== r.storm.ids.length)) process.exitCode = 1;
