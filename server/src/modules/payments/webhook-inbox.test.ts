import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../../app';
import type { LoadMonitor } from '../../lib/overload';
import { entitlement, paymentEvent, purchaseOrder } from '../../db/schema';
import { first as firstRow } from '../../db/transaction';
import { type Harness, openTestDatabase, startHarness } from '../../test/harness';
import { type SandboxControl, type SandboxDelivery, sandboxControl } from './providers/sandbox-phonepe';
import { createWebhookInbox, MAX_ATTEMPTS, processEvent, retryDelayMs } from './webhook-inbox';

/*
 * The webhook inbox (webhook-inbox.ts) through the real app, the real PhonePe adapter and the
 * in-process PhonePe sandbox: a verified delivery is stored and answered before anything is
 * applied; the worker applies it once; a failed status check leaves the event waiting and it is
 * tried again; an event stored by a server that stopped before applying it is applied by the next.
 */

let h: Harness;
let sb: SandboxControl;
let learner: string;

beforeAll(async () => {
  h = await startHarness();
  sb = sandboxControl(h.deps.payments.sandbox);
  learner = await h.tokenOf('learner');
});
afterAll(async () => {
  await sb.idle();
  await h.deps.webhooks.drain();
  h.destroy();
});

const db = () => h.deps.db;
const orderOf = (id: string) => firstRow(db().select().from(purchaseOrder).where(eq(purchaseOrder.id, id)));
const eventsNaming = async (merchantOrderId: string) => await db().select().from(paymentEvent).where(eq(paymentEvent.merchantOrderId, merchantOrderId));
const grantsOf = async (orderId: string) => await db().select().from(entitlement).where(eq(entitlement.orderId, orderId));

async function buy(token = learner) {
  const r = await h.request('POST', '/payment', { token, body: { prodid: 'ONE_MONTH_PLAN', product: 'ONE_MONTH_PLAN' } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.id as string;
}

async function initiate(id: string, token = learner) {
  const r = await h.request('POST', '/phonepe/initiatePayment', { token, body: { merchantTransactionId: id, amount: 150, redirectMode: 'REDIRECT' } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
}

/** A genuine delivery of the sandbox, re-addressed to another order (PhonePe's Authorization does not cover the body). */
function readdressed(d: SandboxDelivery, merchantOrderId: string, pgOrderId: string): SandboxDelivery {
  const body = JSON.parse(d.body) as { event: string; payload: Record<string, unknown> };
  return { ...d, body: JSON.stringify({ ...body, payload: { ...body.payload, merchantOrderId, orderId: pgOrderId } }) };
}

describe('the webhook inbox', () => {
  test('a delivery is stored and answered first, then applied once by the worker', async () => {
    const id = await buy();
    await initiate(id);
    const [d] = await sb.complete(id, 'PAY', { deliverWebhook: false });
    if (!d) throw new Error('no webhook');
    const first = await sb.deliver(d);
    expect(first.status).toBe(200);
    expect(JSON.parse(first.body)).toEqual({ success: true, duplicate: false });
    // On disk when answered (the body as received); applied by the worker after the answer.
    const [stored] = await eventsNaming(id);
    expect(stored).toMatchObject({ provider: 'phonepe', type: 'checkout.order.completed', merchantOrderId: id });
    expect(stored?.payload).toEqual(JSON.parse(d.body));
    // A repeat is a duplicate at once.
    expect(JSON.parse((await sb.deliver(d)).body)).toEqual({ success: true, duplicate: true });

    await h.deps.webhooks.drain();
    expect((await orderOf(id))?.status).toBe('PAID');
    const [done] = await eventsNaming(id);
    expect(done?.processedAt).not.toBeNull();
    expect(done?.orderId).toBe(id);
    expect(await grantsOf(id)).toHaveLength(1);

    // Processing the same event again (a second worker, a restart) changes nothing.
    expect(await processEvent(h.deps, { id: done!.id, provider: 'phonepe', merchantOrderId: id, pgOrderId: done!.pgOrderId, attempts: 0 })).toBeNull();
    expect(await grantsOf(id)).toHaveLength(1);
  });

  test('a failed status check leaves the event waiting with a delay; a later try applies it', async () => {
    // An order PhonePe does not know yet: its status API answers 404.
    const unknown = await buy();
    const paid = await buy();
    await initiate(paid);
    const [d] = await sb.complete(paid, 'PAY', { deliverWebhook: false });
    if (!d) throw new Error('no webhook');
    const early = readdressed(d, unknown, `OMO-not-yet-${unknown}`);
    expect((await sb.deliver(early)).status).toBe(200);
    const before = Date.now();
    await h.deps.webhooks.drain();
    const [waiting] = await eventsNaming(unknown);
    expect(waiting).toMatchObject({ processedAt: null, attempts: 1 });
    expect(waiting?.lastError).toBeTruthy();
    expect(waiting?.nextAttemptAt).toBeGreaterThanOrEqual(before + retryDelayMs(1));
    expect((await orderOf(unknown))?.status).toBe('CREATED');

    // The order reaches PhonePe and is paid; the retry (run now rather than in 5 s) applies it.
    await initiate(unknown);
    await sb.complete(unknown, 'PAY', { deliverWebhook: false });
    await db().update(paymentEvent).set({ nextAttemptAt: 0 }).where(eq(paymentEvent.id, waiting!.id));
    h.deps.webhooks.kick();
    await h.deps.webhooks.drain();
    expect((await eventsNaming(unknown))[0]).toMatchObject({ attempts: 2, orderId: unknown });
    expect((await eventsNaming(unknown))[0]?.processedAt).not.toBeNull();
    expect((await orderOf(unknown))?.status).toBe('PAID');
  });

  test('an event that keeps failing is set aside after the last try, with its error', async () => {
    const id = await buy();
    const other = await buy();
    await initiate(other);
    const [d] = await sb.complete(other, 'PAY', { deliverWebhook: false });
    if (!d) throw new Error('no webhook');
    expect((await sb.deliver(readdressed(d, id, `OMO-never-${id}`))).status).toBe(200);
    const [ev] = await eventsNaming(id);
    await db().update(paymentEvent).set({ attempts: MAX_ATTEMPTS - 1 }).where(eq(paymentEvent.id, ev!.id));
    await h.deps.webhooks.drain();
    const [after] = await eventsNaming(id);
    expect(after?.attempts).toBe(MAX_ATTEMPTS);
    expect(after?.processedAt).not.toBeNull();
    expect(after?.lastError).toBeTruthy();
    expect((await orderOf(id))?.status).toBe('CREATED');
  });

  test('50 deliveries of one event at once: one stored, 49 duplicates, one activation', async () => {
    const id = await buy();
    await initiate(id);
    const [d] = await sb.complete(id, 'PAY', { deliverWebhook: false });
    if (!d) throw new Error('no webhook');
    const answers = await Promise.all(Array.from({ length: 50 }, () => sb.deliver(d)));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(answers.filter((a) => JSON.parse(a.body).duplicate === false)).toHaveLength(1);
    await h.deps.webhooks.drain();
    expect(await eventsNaming(id)).toHaveLength(1);
    expect((await orderOf(id))?.status).toBe('PAID');
    expect(await grantsOf(id)).toHaveLength(1);
  });
});

describe('the overload guard', () => {
  test('never refuses a webhook: it is answered and stored while every other API request is refused', async () => {
    // A load monitor that says "overloaded" to everything it is asked about.
    let asked = 0;
    const load: LoadMonitor = { admit: () => (asked++, 'connection-storm'), finished: () => {}, connected: () => {}, inFlight: () => 0 };
    const app = createApp(h.deps, { load });
    const id = await buy();
    await initiate(id);
    const [d] = await sb.complete(id, 'PAY', { deliverWebhook: false });
    if (!d) throw new Error('no webhook');
    expect((await app.request('/api/health')).status).toBe(503);
    expect(asked).toBe(1);
    const r = await app.request(d.url, { method: 'POST', headers: d.headers, body: d.body });
    expect(r.status).toBe(200);
    expect(asked).toBe(1);
    const forged = await app.request(d.url, { method: 'POST', headers: { ...d.headers, authorization: 'f'.repeat(64) }, body: d.body });
    expect(forged.status).toBe(401);
    await h.deps.webhooks.drain();
    expect((await orderOf(id))?.status).toBe('PAID');
  });
});

describe('a server that stopped after answering', () => {
  test('the next start applies the events it stored', async () => {
    const first = await startHarness();
    const control = sandboxControl(first.deps.payments.sandbox);
    const token = await first.tokenOf('learner');
    const r = await first.request('POST', '/payment', { token, body: { prodid: 'ONE_MONTH_PLAN' } });
    const id = r.body.id as string;
    expect((await first.request('POST', '/phonepe/initiatePayment', { token, body: { merchantTransactionId: id, amount: 150 } })).status).toBe(200);
    const [d] = await control.complete(id, 'PAY', { deliverWebhook: false });
    if (!d) throw new Error('no webhook');
    // The worker of this server never runs: as if it stopped right after the answer.
    first.deps.webhooks.stop();
    expect((await control.deliver(d)).status).toBe(200);
    expect((await firstRow(first.deps.db.select().from(purchaseOrder).where(eq(purchaseOrder.id, id))))?.status).toBe('PENDING');
    await first.close();

    // The next process on the same data directory (the sandbox, PhonePe's stand-in, is the same).
    const database = await openTestDatabase(first.deps.config.dataDir);
    const next = { ...first.deps, db: database.db };
    next.webhooks = createWebhookInbox(next);
    try {
      expect((await firstRow(database.db.select().from(paymentEvent).where(eq(paymentEvent.merchantOrderId, id))))?.processedAt).toBeNull();
      await next.webhooks.drain();
      expect((await firstRow(database.db.select().from(purchaseOrder).where(eq(purchaseOrder.id, id))))?.status).toBe('PAID');
      expect((await firstRow(database.db.select().from(paymentEvent).where(eq(paymentEvent.merchantOrderId, id))))?.processedAt).not.toBeNull();
      expect(await database.db.select().from(entitlement).where(eq(entitlement.orderId, id))).toHaveLength(1);
    } finally {
      await database.close();
      // Its database too (PostgreSQL), and the directory.
      await first.destroy();
    }
  });
});
