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
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { percentile } from './bench-lib';
import { BENCH_BUYER, countOf, eachTwice, errorsOf, forkBench, planOrders, serveSandboxApp, statusesText, storm, type BenchRequest, type SandboxBenchApp } from './bench-orders';

const ORDERS = Number(process.env.BENCH_ORDERS ?? 500);
const LEARNERS = 50;
/** Deliveries in flight at once (default: all of them). */
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 2 * ORDERS);

type Counted = { paid: number; payments: number; receipts: number; entitlements: number; events: number; flagged: number; other: number };

if (process.env.BENCH_PAYMENTS_ROLE === 'server') {
  await serveSandboxApp({ prefix: 'pm-bench-payments-', learners: LEARNERS, onMessage: answerCount });
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

/** A child process of this script in the given role (the server with a CPU profile when BENCH_PROFILE names a directory). */
function child(role: 'server' | 'floor') {
  return forkBench(import.meta.url, { BENCH_PAYMENTS_ROLE: role }, { profile: role === 'server' ? process.env.BENCH_PROFILE : undefined });
}

/** The server's answer to `{ count: true }`: what the bench learners' orders became. */
async function answerCount(m: Record<string, unknown>, { db }: SandboxBenchApp) {
  if (!m.count) return;
  const { entitlement, payment, paymentEvent, purchaseOrder } = await import('../server/src/db/schema');
  const { count, countDistinct, eq, isNotNull, like, and, ne } = await import('drizzle-orm');
  const bench = like(purchaseOrder.personId, `${BENCH_BUYER}%`);
  const paid = await countOf(db.select({ n: count() }).from(purchaseOrder).where(and(bench, eq(purchaseOrder.status, 'PAID'))));
  const other = await countOf(db.select({ n: count() }).from(purchaseOrder).where(and(bench, ne(purchaseOrder.status, 'PAID'))));
  const receipts = await countOf(db.select({ n: countDistinct(purchaseOrder.receiptNo) }).from(purchaseOrder).where(and(bench, isNotNull(purchaseOrder.receiptNo))));
  const payments = await countOf(db.select({ n: count() }).from(payment).where(like(payment.personId, `${BENCH_BUYER}%`)));
  const flagged = await countOf(db.select({ n: count() }).from(payment).where(and(like(payment.personId, `${BENCH_BUYER}%`), isNotNull(payment.flag))));
  const entitlements = await countOf(db.select({ n: count() }).from(entitlement).where(like(entitlement.personId, `${BENCH_BUYER}%`)));
  const events = await countOf(db.select({ n: count() }).from(paymentEvent));
  process.send?.({ counted: { paid, payments, receipts, entitlements, events, flagged, other } satisfies Counted });
}

/** The parent: orders through the API, then the webhook storm (against the floor, then the app). */
async function drive() {
  const server = await child('server');
  const { ask } = server;
  const ready = server;
  try {
    // 500 orders for the monthly plan, each started at the sandbox (10 at a time).
    const ids = await planOrders(`http://127.0.0.1:${ready.port}`, ready.tokens, ORDERS);
    const deliveries = await ask<BenchRequest[]>({ settle: ids }, 'deliveries');
    if (deliveries.length !== ORDERS) throw new Error(`expected ${ORDERS} webhooks, the sandbox gave ${deliveries.length}`);

    // Every webhook twice, all 1,000 at once, in an interleaved order (a duplicate is not next to its first).
    const all = eachTwice(deliveries);
    // The floor runs just before and just after the app's storm (the machine is shared: its speed
    // drifts), and the app's p99 is compared with the mean of the two.
    const floorServer = await child('floor');
    const floorBefore = await storm(floorServer.port, all, { concurrency: CONCURRENCY });
    const started = performance.now();
    const { times, statuses, wall } = await storm(ready.port, all, { concurrency: CONCURRENCY });
    const floorAfter = await storm(floorServer.port, all, { concurrency: CONCURRENCY });
    floorServer.proc.send('stop');
    const floor = { times: [...floorBefore.times, ...floorAfter.times], wall: (floorBefore.wall + floorAfter.wall) / 2 };
    const floorP99 = (percentile(floorBefore.times, 99) + percentile(floorAfter.times, 99)) / 2;
    // The answers come before the work (the webhook inbox): wait until every stored event is applied.
    const applied = await ask<{ waitedMs: number }>({ drain: true }, 'drained');
    const appliedAfter = performance.now() - started;
    const counted = await ask<Counted>({ count: true }, 'counted');
    const errors = errorsOf(statuses);
    const exactlyOnce = counted.paid === ORDERS && counted.payments === ORDERS && counted.receipts === ORDERS && counted.entitlements === ORDERS && counted.events === ORDERS && counted.flagged === 0 && counted.other === 0;
    const fmt = (p: number, xs = times) => `${percentile(xs, p).toFixed(1)} ms`;
    console.log(`floor (a bare node:http server answering 200 at once, same deliveries and client; before and after the app): p50 ${fmt(50, floor.times)}, p99 ${fmt(99, floorBefore.times)} and ${fmt(99, floorAfter.times)}, all answered in ${floor.wall.toFixed(0)} ms on average`);
    console.log(`webhook deliveries: ${all.length} for ${ORDERS} orders (each twice), ${CONCURRENCY >= all.length ? 'all at once' : `${CONCURRENCY} in flight`}, answered in ${wall.toFixed(0)} ms`);
    console.log(`answers: ${statusesText(statuses)}; errors ${errors}`);
    console.log(`latency: p50 ${fmt(50)}, p95 ${fmt(95)}, p99 ${fmt(99)}, max ${Math.max(...times).toFixed(1)} ms`);
    console.log(`every event applied ${appliedAfter.toFixed(0)} ms after the first delivery (the inbox drained ${applied.waitedMs.toFixed(0)} ms after the last answer)`);
    console.log(
      `orders paid ${counted.paid}/${ORDERS}, other states ${counted.other}; payments ${counted.payments}, receipt numbers ${counted.receipts}, plans granted ${counted.entitlements}, events stored ${counted.events}, flagged ${counted.flagged}`,
    );
    const ratio = percentile(times, 99) / floorP99;
    console.log(`p99 against the mean of the floor's two p99s in this run: ${ratio.toFixed(2)}× (target ≤ 1.3×: ${ratio <= 1.3 ? 'met' : 'NOT met'})`);
    console.log(`every order paid exactly once: ${exactlyOnce ? 'yes' : 'NO'}; no error: ${errors === 0 ? 'yes' : 'NO'}; p99 ≤ 1.3× the floor's: ${ratio <= 1.3 ? 'met' : 'NOT met'}`);
    if (!exactlyOnce || errors > 0) process.exitCode = 1;
  } finally {
    server.proc.send('stop');
  }
}
