import { fork, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { first, transaction } from '../server/src/db/transaction';
import type { LoadMonitor } from '../server/src/lib/overload';
import { openBenchApp } from './bench-app';
import { SERVER_NODE_FLAGS } from './server-flags.mjs';

/*
 * What the order benches (docs/benchmarks.md "bench:payments", "bench:donations") share: a bench
 * script's child process in a role with its IPC; the app's side of that IPC (the real app with
 * its PhonePe sandbox, signed-in learners, orders settled without their webhooks, the webhook
 * inbox drained); and a client that sends many requests at once as a provider's dispatcher, or
 * many browsers, would.
 */

/** A request as the bench sends it; a webhook delivery is one (POST, the sandbox's exact body and headers). */
export type BenchRequest = { method?: 'GET' | 'POST'; url: string; headers: Record<string, string>; body?: string };

/** Each request's time (ms) and answer status, the answers' bodies when asked for, and the whole storm's wall time. */
export type Storm = { times: number[]; statuses: Map<number, number>; bodies: string[]; wall: number };

/** One request over `agent`: its status and Retry-After (s), and its body when `keep` (else the body is read and dropped). */
function send(port: number, agent: Agent, r: BenchRequest, keep: boolean) {
  return new Promise<{ status: number; retryAfter: number; body: string }>((resolve, reject) => {
    const headers = r.body === undefined ? r.headers : { ...r.headers, 'content-length': String(Buffer.byteLength(r.body)) };
    const req = request({ host: '127.0.0.1', port, path: r.url, method: r.method ?? 'POST', agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      if (keep) res.on('data', (c: Buffer) => chunks.push(c));
      else res.resume();
      const retryAfter = Number(res.headers['retry-after'] ?? 0);
      res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter, body: keep ? Buffer.concat(chunks).toString('utf8') : '' }));
    });
    req.on('error', reject);
    req.end(r.body);
  });
}

/**
 * Sends every request, `concurrency` in flight at once (default: all of them), through node:http
 * with keep-alive and no limit on sockets (so 1,000 in flight are 1,000 connections).
 */
export async function storm(port: number, requests: BenchRequest[], opts: { concurrency?: number; bodies?: boolean } = {}): Promise<Storm> {
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
  const times: number[] = [];
  const statuses = new Map<number, number>();
  const bodies: string[] = [];
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(opts.concurrency ?? requests.length, requests.length) }, async () => {
      while (next < requests.length) {
        const r = requests[next++]!;
        const t0 = performance.now();
        const { status, body } = await send(port, agent, r, opts.bodies === true);
        times.push(performance.now() - t0);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        if (opts.bodies) bodies.push(body);
      }
    }),
  );
  const wall = performance.now() - started;
  agent.destroy();
  return { times, statuses, bodies, wall };
}

/**
 * Per asker: the time until answered (its first request to its answer, waits included), the time
 * of the request that was answered, and the requests it took. `bodies` are the answers' bodies.
 */
export type Asked = Storm & { untilAnswered: number[]; answered: number[]; attempts: number[] };

/** How long a client refused with 503 waits: Retry-After, plus up to 1 s of jitter (the clients of docs/benchmarks.md "bench:sync"). */
const backOff = (retryAfter: number) => new Promise((r) => setTimeout(r, Math.max(1, retryAfter) * 1000 + Math.random() * 1000));

/**
 * Every request at once, each asker trying again while refused with 503 (the load shedder, lib/overload.ts),
 * as a client honouring Retry-After does: every request's time and status (refusals included),
 * and per asker the time until its answer and the body of that answer.
 */
export async function askUntilAnswered(port: number, requests: BenchRequest[]): Promise<Asked> {
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
  const times: number[] = [];
  const statuses = new Map<number, number>();
  const bodies: string[] = [];
  const untilAnswered: number[] = [];
  const answered: number[] = [];
  const attempts: number[] = [];
  const started = performance.now();
  const ask = async (r: BenchRequest) => {
    const t0 = performance.now();
    for (let attempt = 1; ; attempt++) {
      const t1 = performance.now();
      const answer = await send(port, agent, r, true);
      const took = performance.now() - t1;
      times.push(took);
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      if (answer.status !== 503) {
        untilAnswered.push(performance.now() - t0);
        answered.push(took);
        attempts.push(attempt);
        bodies.push(answer.body);
        return;
      }
      await backOff(answer.retryAfter);
    }
  };
  await Promise.all(requests.map(ask));
  const wall = performance.now() - started;
  agent.destroy();
  return { times, statuses, bodies, wall, untilAnswered, answered, attempts };
}

/** The answers that are not 2xx. */
export const errorsOf = (statuses: Map<number, number>) => [...statuses].filter(([s]) => s < 200 || s >= 300).reduce((n, [, c]) => n + c, 0);

/** `120× 200, 3× 503` */
export const statusesText = (statuses: Map<number, number>) => [...statuses].map(([s, c]) => `${c}× ${s}`).join(', ');

/**
 * A child process of the bench script `script` (its import.meta.url) with `env` saying its role,
 * and its IPC: `ask` sends a message and resolves with the answer's `key`. The child says
 * `{ ready, port, tokens }` once it listens. The server's V8 flags as `npm start` gives them;
 * `profile` writes a CPU profile of the child into that directory.
 */
export async function forkBench(script: string, env: Record<string, string>, opts: { profile?: string } = {}) {
  const file = fileURLToPath(script);
  const proc: ChildProcess = fork(file, [], {
    execArgv: [...SERVER_NODE_FLAGS, '--import', 'tsx', ...(opts.profile ? ['--cpu-prof', `--cpu-prof-dir=${opts.profile}`] : [])],
    env: { ...process.env, ...env, NODE_ENV: 'development' },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    cwd: path.dirname(path.dirname(file)),
  });
  const ask = <T>(message: unknown, key: string) =>
    new Promise<T>((resolve) => {
      const on = (m: Record<string, unknown>) => {
        if (m[key] === undefined) return;
        proc.off('message', on);
        resolve(m[key] as T);
      };
      proc.on('message', on);
      proc.send(message as string);
    });
  const ready = await new Promise<{ port: number; tokens: string[] }>((resolve, reject) => {
    proc.on('message', (m: { ready?: boolean; port: number; tokens: string[] }) => m.ready && resolve(m));
    proc.on('exit', (code) => reject(new Error(`bench child ${JSON.stringify(env)} exited with ${code}`)));
  });
  return { proc, ask, ...ready };
}

/** The learners a bench server signs in: `bench-buyer-<n>`. */
export const BENCH_BUYER = 'bench-buyer-';

export type SandboxBenchApp = Awaited<ReturnType<typeof openBenchApp>>;

/**
 * The app's own load shedder (lib/overload.ts), which a bench may switch off between rounds,
 * when nothing is in flight: off, it admits every request and counts nothing, so that many
 * requests at once are all answered rather than mostly refused with 503.
 */
async function switchableShedder() {
  const { createLoadMonitor } = await import('../server/src/lib/overload');
  const real = createLoadMonitor();
  let on = true;
  const monitor: LoadMonitor = {
    admit: (fromSocket, arrival) => (on ? real.admit(fromSocket, arrival) : null),
    finished: (arrival) => {
      if (on) real.finished(arrival);
    },
    connected: (peer) => {
      if (on) real.connected(peer);
    },
    inFlight: () => real.inFlight(),
  };
  return { monitor, set: (value: boolean) => (on = value) };
}

/**
 * The server child of an order bench: the real app with its sandbox on a fresh data directory
 * with the demo data, `learners` bench learners signed in (their tokens in the ready message),
 * listening on a free 127.0.0.1 port. It answers `'stop'`, `{ settle: [order ids] }` (each
 * order paid at the sandbox, its webhooks handed back as `deliveries` instead of sent),
 * `{ drain: true }` (`drained` once every stored webhook is applied), `{ shed: boolean }` (the
 * load shedder on or off, `shedding`); any other message goes to `onMessage`, with the app.
 */
export async function serveSandboxApp(opts: { prefix: string; learners: number; onMessage: (m: Record<string, unknown>, app: SandboxBenchApp) => Promise<void> }) {
  const { serveApp: listen } = await import('../server/src/serve');
  const { openSession } = await import('../server/src/lib/sessions');
  const { sandboxControl } = await import('../server/src/modules/payments/providers/sandbox-phonepe');
  const { person } = await import('../server/src/db/schema');
  const shedder = await switchableShedder();
  const opened = await openBenchApp({ prefix: opts.prefix, env: { PAYMENT_PROVIDER: 'sandbox' }, load: shedder.monitor });
  const { dir, config, database, db, deps, app } = opened;
  await transaction(db, async (tx) => {
    for (let p = 0; p < opts.learners; p++) {
      await tx.insert(person).values({ id: `${BENCH_BUYER}${p}`, name: `Bench Buyer ${p}`, mobile: `+9181000${String(p).padStart(5, '0')}`, passwordHash: 'x' });
    }
  });
  const tokens = await Promise.all(Array.from({ length: opts.learners }, async (_, p) => (await openSession(db, config.jwtSecret, { id: `${BENCH_BUYER}${p}`, tokenVersion: 0 })).token));
  const sandbox = sandboxControl(deps.payments.sandbox);

  const server = listen(app.fetch, { hostname: '127.0.0.1', port: 0 }, (info) => process.send?.({ ready: true, port: info.port, tokens }));
  process.on('message', async (m: Record<string, unknown> | string) => {
    if (m === 'stop') {
      server.close();
      database.close();
      rmSync(dir, { recursive: true, force: true });
      process.exit(0);
    }
    if (typeof m !== 'object') return;
    if (m.drain) {
      const t0 = performance.now();
      void deps.webhooks.drain().then(() => process.send?.({ drained: { waitedMs: performance.now() - t0 } }));
    } else if (typeof m.shed === 'boolean') {
      process.send?.({ shedding: shedder.set(m.shed) });
    } else if (Array.isArray(m.settle)) {
      // The buyer pressed Pay on each order's hosted page; the webhooks are handed to the parent.
      void Promise.all((m.settle as string[]).map((id) => sandbox.complete(id, 'PAY', { deliverWebhook: false }))).then((all) =>
        process.send?.({ deliveries: all.flat().map(({ url, headers, body }) => ({ url, headers, body })) }),
      );
    } else {
      await opts.onMessage(m, opened);
    }
  });
}

/** A JSON body POSTed to the app through Node's fetch (undici: keep-alive connections, as many as the requests in flight). */
export async function postJson(base: string, url: string, headers: Record<string, string>, body: unknown) {
  const res = await fetch(`${base}${url}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: res.status, text: await res.text() };
}

/** Runs `make(i)` for i below `n`, `width` at a time, in order: the results. */
export async function inBatches<T>(n: number, width: number, make: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < n; i += width) out.push(...(await Promise.all(Array.from({ length: Math.min(width, n - i) }, (_, k) => make(i + k)))));
  return out;
}

/**
 * `n` monthly-plan orders through the API, made by the signed-in learners of `tokens` in turn,
 * each started at the sandbox as the plan page starts it (10 at a time): their ids.
 */
export function planOrders(base: string, tokens: string[], n: number): Promise<string[]> {
  return inBatches(n, 10, async (i) => {
    const auth = { authorization: `Bearer ${tokens[i % tokens.length]}` };
    const order = await postJson(base, '/api/payment', auth, { prodid: 'ONE_MONTH_PLAN', product: 'ONE_MONTH_PLAN' });
    if (order.status !== 200) throw new Error(`POST /api/payment: ${order.status} ${order.text}`);
    const { id, payment } = JSON.parse(order.text) as { id: string; payment: { amount: number } };
    const started = await postJson(base, '/api/phonepe/initiatePayment', auth, { merchantTransactionId: id, amount: payment.amount, redirectMode: 'REDIRECT' });
    if (started.status !== 200) throw new Error(`initiatePayment: ${started.status} ${started.text}`);
    return id;
  });
}

/** Every webhook twice, in an interleaved order (a duplicate is not next to its first), as a provider retrying would send them. */
export const eachTwice = <T>(deliveries: T[]): T[] => [...deliveries, ...deliveries.slice().reverse()];

/** A count of one query's rows (`select({ n: count() })…`). */
export const countOf = async (q: PromiseLike<{ n: number }[]>) => Number((await first(q))?.n ?? 0);
