/**
 * `npm run bench:payments` (docs/benchmarks.md "bench:payments"): 1,000 concurrent webhook deliveries for 500 orders (each
 * delivered twice) on the local PhonePe sandbox, through the real started server over HTTP on
 * 127.0.0.1. Target: every order paid exactly once (one payment, one receipt number, one plan
 * granted, one stored event each), no error, p99 ≤ 1.3× the bare floor's in the same run.
 *
 * The server runs in a child process (the app as `npm start` serves it, with the sandbox inside
 * it, as in development); the parent creates the orders through the API, asks the child's
 * sandbox to settle them without sending their webhooks (IPC), then sends every webhook twice,
 * all at once, exactly as the sandbox would (same body, same Authorization header).
 * BENCH_ORDERS (default 500).
 */
import { first, transaction } from '../server/src/db/transaction';
import { fork } from 'node:child_process';
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openBenchApp } from './bench-app';
import { percentile } from './bench-lib';
import { SERVER_NODE_FLAGS } from './server-flags.mjs';

const ORDERS = Number(process.env.BENCH_ORDERS ?? 500);
const LEARNERS = 50;
/** Deliveries in flight at once (default: all of them). */
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 2 * ORDERS);

type Delivery = { url: string; headers: Record<string, string>; body: string };
type Counted = { paid: number; payments: number; receipts: number; entitlements: number; events: number; flagged: number; other: number };

if (process.env.BENCH_PAYMENTS_ROLE === 'server') {
  await serveApp();
} else if (process.env.BENCH_PAYMENTS_ROLE === 'floor') {
  serveFloor();
} else {
  await drive();
}

/**
 * The floor: a bare node:http server in its own process that reads each body and answers 200 at
 * once. The same storm against it shows what this machine, its TCP stack and Node's HTTP
 * server cost before any of our code runs.
 */
function serveFloor() {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"success":true,"duplicate":false}');
    });
  });
  server.listen({ host: '127.0.0.1', port: 0, backlog: 4096 }, () => process.send?.({ ready: true, port: (server.address() as AddressInfo).port, tokens: [] }));
  process.on('message', (m) => m === 'stop' && server.close(() => process.exit(0)));
}

type Storm = { times: number[]; statuses: Map<number, number>; wall: number };

/**
 * Sends every delivery, CONCURRENCY in flight at once, as a provider's dispatcher would: node:http
 * with keep-alive and no limit on sockets (so 1,000 in flight are 1,000 connections).
 */
async function storm(port: number, deliveries: Delivery[]): Promise<Storm> {
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
  const send = (d: Delivery) =>
    new Promise<number>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port, path: d.url, method: 'POST', agent, headers: { ...d.headers, 'content-length': Buffer.byteLength(d.body) } },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end(d.body);
    });
  const times: number[] = [];
  const statuses = new Map<number, number>();
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(CONCURRENCY, deliveries.length) }, async () => {
      while (next < deliveries.length) {
        const d = deliveries[next++]!;
        const t0 = performance.now();
        const status = await send(d);
        times.push(performance.now() - t0);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    }),
  );
  const wall = performance.now() - started;
  agent.destroy();
  return { times, statuses, wall };
}

/** A child process of this script in the given role, and its IPC. */
async function child(role: 'server' | 'floor') {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const proc = fork(fileURLToPath(import.meta.url), [], {
    execArgv: [...SERVER_NODE_FLAGS, '--import', 'tsx', ...(process.env.BENCH_PROFILE && role === 'server' ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [])],
    env: { ...process.env, BENCH_PAYMENTS_ROLE: role, NODE_ENV: 'development' },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    cwd: path.dirname(here),
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
    proc.on('exit', (code) => reject(new Error(`bench ${role} exited with ${code}`)));
  });
  return { proc, ask, ...ready };
}

/** The child: the real app with its sandbox, seeded, with bench learners signed in. */
async function serveApp() {
  const { serveApp: listen } = await import('../server/src/serve');
  const { openSession } = await import('../server/src/lib/sessions');
  const { sandboxControl } = await import('../server/src/modules/payments/providers/sandbox-phonepe');
  const { entitlement, payment, paymentEvent, person, purchaseOrder } = await import('../server/src/db/schema');
  const { count, countDistinct, eq, isNotNull, like, and, ne } = await import('drizzle-orm');
  const { dir, config, database, db, deps, app } = await openBenchApp({ prefix: 'pm-bench-payments-', env: { PAYMENT_PROVIDER: 'sandbox' } });
  await transaction(db, async (tx) => {
    for (let p = 0; p < LEARNERS; p++) {
      await tx.insert(person).values({ id: `bench-buyer-${p}`, name: `Bench Buyer ${p}`, mobile: `+9181000${String(p).padStart(5, '0')}`, passwordHash: 'x' });
    }
  });
  const tokens = await Promise.all(Array.from({ length: LEARNERS }, async (_, p) => (await openSession(db, config.jwtSecret, { id: `bench-buyer-${p}`, tokenVersion: 0 })).token));
  const sandbox = sandboxControl(deps.payments.sandbox);

  const server = listen(app.fetch, { hostname: '127.0.0.1', port: 0 }, (info) => process.send?.({ ready: true, port: info.port, tokens }));
  process.on('message', async (m: { settle?: string[]; count?: boolean; drain?: boolean } | string) => {
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
    }
    if (m.settle) {
      // The buyer pressed Pay on each order's hosted page; the webhooks are handed to the parent.
      void Promise.all(m.settle.map((id) => sandbox.complete(id, 'PAY', { deliverWebhook: false }))).then((all) =>
        process.send?.({ deliveries: all.flat().map(({ url, headers, body }) => ({ url, headers, body })) }),
      );
    }
    if (m.count) {
      const bench = like(purchaseOrder.personId, 'bench-buyer-%');
      const paid = (await first(db.select({ n: count() }).from(purchaseOrder).where(and(bench, eq(purchaseOrder.status, 'PAID')))))!.n;
      const other = (await first(db.select({ n: count() }).from(purchaseOrder).where(and(bench, ne(purchaseOrder.status, 'PAID')))))!.n;
      const receipts = (await first(db.select({ n: countDistinct(purchaseOrder.receiptNo) }).from(purchaseOrder).where(and(bench, isNotNull(purchaseOrder.receiptNo)))))!.n;
      const payments = (await first(db.select({ n: count() }).from(payment).where(like(payment.personId, 'bench-buyer-%'))))!.n;
      const flagged = (await first(db.select({ n: count() }).from(payment).where(and(like(payment.personId, 'bench-buyer-%'), isNotNull(payment.flag)))))!.n;
      const entitlements = (await first(db.select({ n: count() }).from(entitlement).where(like(entitlement.personId, 'bench-buyer-%'))))!.n;
      const events = (await first(db.select({ n: count() }).from(paymentEvent)))!.n;
      process.send?.({ counted: { paid, payments, receipts, entitlements, events, flagged, other } satisfies Counted });
    }
  });
}

/** The parent: orders through the API, then the webhook storm (against the floor, then the app). */
async function drive() {
  const server = await child('server');
  const { ask } = server;
  const ready = server;
  const base = `http://127.0.0.1:${ready.port}`;
  // Node's fetch (undici): keep-alive connections, as many as the requests in flight.
  const post = async (url: string, headers: Record<string, string>, body: string) => {
    const res = await fetch(`${base}${url}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
    return { status: res.status, text: await res.text() };
  };
  try {
    // 500 orders for the monthly plan, each started at the sandbox (10 at a time).
    const ids: string[] = [];
    for (let i = 0; i < ORDERS; i += 10) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(10, ORDERS - i) }, async (_, k) => {
          const auth = { authorization: `Bearer ${ready.tokens[(i + k) % LEARNERS]}` };
          const order = await post('/api/payment', auth, JSON.stringify({ prodid: 'ONE_MONTH_PLAN', product: 'ONE_MONTH_PLAN' }));
          if (order.status !== 200) throw new Error(`POST /api/payment: ${order.status} ${order.text}`);
          const { id, payment } = JSON.parse(order.text) as { id: string; payment: { amount: number } };
          const started = await post('/api/phonepe/initiatePayment', auth, JSON.stringify({ merchantTransactionId: id, amount: payment.amount, redirectMode: 'REDIRECT' }));
          if (started.status !== 200) throw new Error(`initiatePayment: ${started.status} ${started.text}`);
          return id;
        }),
      );
      ids.push(...batch);
    }
    const deliveries = await ask<Delivery[]>({ settle: ids }, 'deliveries');
    if (deliveries.length !== ORDERS) throw new Error(`expected ${ORDERS} webhooks, the sandbox gave ${deliveries.length}`);

    // Every webhook twice, all 1,000 at once, in an interleaved order (a duplicate is not next to its first).
    const all = [...deliveries, ...deliveries.slice().reverse()];
    const floorServer = await child('floor');
    const floor = await storm(floorServer.port, all);
    floorServer.proc.send('stop');
    const started = performance.now();
    const { times, statuses, wall } = await storm(ready.port, all);
    // The answers come before the work (the webhook inbox): wait until every stored event is applied.
    const applied = await ask<{ waitedMs: number }>({ drain: true }, 'drained');
    const appliedAfter = performance.now() - started;
    const counted = await ask<Counted>({ count: true }, 'counted');
    const errors = [...statuses].filter(([s]) => s < 200 || s >= 300).reduce((n, [, c]) => n + c, 0);
    const exactlyOnce = counted.paid === ORDERS && counted.payments === ORDERS && counted.receipts === ORDERS && counted.entitlements === ORDERS && counted.events === ORDERS && counted.flagged === 0 && counted.other === 0;
    const fmt = (p: number, xs = times) => `${percentile(xs, p).toFixed(1)} ms`;
    console.log(`floor (a bare node:http server answering 200 at once, same deliveries and client): p50 ${fmt(50, floor.times)}, p95 ${fmt(95, floor.times)}, p99 ${fmt(99, floor.times)}, all answered in ${floor.wall.toFixed(0)} ms`);
    console.log(`webhook deliveries: ${all.length} for ${ORDERS} orders (each twice), ${CONCURRENCY >= all.length ? 'all at once' : `${CONCURRENCY} in flight`}, answered in ${wall.toFixed(0)} ms`);
    console.log(`answers: ${[...statuses].map(([s, c]) => `${c}× ${s}`).join(', ')}; errors ${errors}`);
    console.log(`latency: p50 ${fmt(50)}, p95 ${fmt(95)}, p99 ${fmt(99)}, max ${Math.max(...times).toFixed(1)} ms`);
    console.log(`every event applied ${appliedAfter.toFixed(0)} ms after the first delivery (the inbox drained ${applied.waitedMs.toFixed(0)} ms after the last answer)`);
    console.log(
      `orders paid ${counted.paid}/${ORDERS}, other states ${counted.other}; payments ${counted.payments}, receipt numbers ${counted.receipts}, plans granted ${counted.entitlements}, events stored ${counted.events}, flagged ${counted.flagged}`,
    );
    const ratio = percentile(times, 99) / percentile(floor.times, 99);
    console.log(`p99 against the floor's in this run: ${ratio.toFixed(2)}× (target ≤ 1.3×: ${ratio <= 1.3 ? 'met' : 'NOT met'})`);
    console.log(`every order paid exactly once: ${exactlyOnce ? 'yes' : 'NO'}; no error: ${errors === 0 ? 'yes' : 'NO'}; p99 ≤ 1.3× the floor's: ${ratio <= 1.3 ? 'met' : 'NOT met'}`);
    if (!exactlyOnce || errors > 0) process.exitCode = 1;
  } finally {
    server.proc.send('stop');
  }
}
