import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { serveApp } from '../../serve';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ORDER_TTL_MS } from '@pm/protocol/payment';
import { activityLog, entitlement, ledgerEntry, payment, paymentEvent, purchaseOrder } from '../../db/schema';
import { ACCOUNTS, unbalanced } from '../../lib/ledger';
import { insertionOrder } from '../../db/dialect';
import { first } from '../../db/transaction';
import { type Harness, startHarness } from '../../test/harness';
import { type SandboxControl, sandboxControl } from './providers/sandbox-phonepe';
import { reconcilePending } from './reconcile';
import { DEFAULT_TRUST_NAME } from '@pm/protocol/site';

/*
 * The whole flow through the real app and the real PhonePe adapter against the in-process
 * PhonePe sandbox (providers/sandbox-phonepe.ts): nothing of ours is mocked. sandboxControl plays
 * the buyer on the hosted page (Pay, Fail, Cancel) and hands us the webhooks it sends.
 */

let h: Harness;
let sb: SandboxControl;
let learner: string;
let other: string;
let admin: string;

beforeAll(async () => {
  h = await startHarness();
  sb = sandboxControl(h.deps.payments.sandbox);
  learner = await h.tokenOf('learner');
  // Another signed-in person without order permissions: "another learner".
  other = await h.tokenOf('editor');
  admin = await h.tokenOf('admin');
});
afterAll(async () => {
  await sb.idle();
  h.destroy();
});

const MONTHLY_PAISE = 15_000;
/** The webhook inbox has applied every stored event (webhook-inbox.ts: the answer comes first). */
const settled = () => h.deps.webhooks.drain();
const db = () => h.deps.db;
const orderOf = (id: string) => first(db().select().from(purchaseOrder).where(eq(purchaseOrder.id, id)));
const grants = async (orderId: string) => await db().select().from(entitlement).where(eq(entitlement.orderId, orderId));
const paymentsOf = async (orderId: string) => await db().select().from(payment).where(eq(payment.orderId, orderId));
/** The order's money between payers and us: the gateway's legs (docs/charity.md "The ledger"). */
const ledgerOf = async (orderId: string) => await db().select().from(ledgerEntry).where(and(eq(ledgerEntry.orderId, orderId), eq(ledgerEntry.account, ACCOUNTS.gateway)));
/** Every leg of the order, as [kind, account, amount], sorted. */
const legsOf = async (orderId: string) =>
  (await db().select().from(ledgerEntry).where(eq(ledgerEntry.orderId, orderId))).map((l) => [l.kind, l.account, l.amount]).sort();
const eventsOf = async (orderId: string) => await db().select().from(paymentEvent).where(eq(paymentEvent.orderId, orderId));
const orderCount = async () => (await db().select().from(purchaseOrder)).length;
/** The order's status changes in the activity log, oldest first. */
const transitions = async (orderId: string) =>
  (
    await db()
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.entityAffected, 'order'), eq(activityLog.entityId, orderId), eq(activityLog.actionType, 'UPDATE')))
      .orderBy(activityLog.createdAt, insertionOrder(db(), activityLog))
  ).map((a) => (a.newValue as { status: string }).status);

async function buy(token = learner, body: Record<string, unknown> = { prodid: 'ONE_MONTH_PLAN', product: 'ONE_MONTH_PLAN' }) {
  const r = await h.request('POST', '/payment', { token, body });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body as { id: string; amt: number; payment: { provider: string; merchantTransactionId: string; amount: number } };
}

function initiate(id: string, token = learner, extra: Record<string, unknown> = {}) {
  return h.request('POST', '/phonepe/initiatePayment', {
    token,
    body: {
      merchantTransactionId: id,
      amount: 150,
      merchantUserId: 'demo-learner',
      redirectUrl: `http://localhost/payment-confirmation?merchantTransactionId=${id}&amount=150&redirection_url=/`,
      redirectMode: 'REDIRECT',
      callbackUrl: 'http://localhost/api/phonepe/webhook',
      ...extra,
    },
  });
}

/** An order sent to the sandbox (PENDING), ready for the buyer's button. */
async function pendingOrder(token = learner, body?: Record<string, unknown>) {
  const order = await buy(token, body);
  const r = await initiate(order.id, token);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return order;
}

const check = (id: string, token = learner) => h.request('POST', '/phonepe/checkPaymentStatus', { token, body: { merchantTransactionId: id } });

describe('buying a plan through the sandbox', () => {
  test('success: redirect first, then the webhook; a receipt and exactly one entitlement', async () => {
    const order = await buy();
    expect(order).toMatchObject({ success: true, amt: MONTHLY_PAISE, payment: { provider: 'phonepe', merchantTransactionId: order.id, amount: 150 } });
    expect(await orderOf(order.id)).toMatchObject({ status: 'CREATED', amount: MONTHLY_PAISE, kind: 'PLAN', provider: 'phonepe', redirectUrl: '/' });
    expect((await orderOf(order.id))?.expiresAt).toBeGreaterThan(Date.now() + ORDER_TTL_MS - 60_000);

    const started = await initiate(order.id);
    expect(started.status).toBe(200);
    expect(started.body.success).toBe(true);
    expect(started.body.data.instrumentResponse.redirectInfo.url).toMatch(/^\/sandbox\/phonepe\/pay\/OMO/);
    expect(await orderOf(order.id)).toMatchObject({ status: 'PENDING' });
    expect((await orderOf(order.id))?.pgOrderId).toMatch(/^OMO/);

    const [webhook] = await sb.complete(order.id, 'PAY', { deliverWebhook: false });
    const r = await check(order.id);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, msg: 'Payment successfull', data: { status: 'PAID' } });
    const paid = await orderOf(order.id);
    expect(paid?.receiptNo).toBeGreaterThan(0);
    expect(r.body.data.receiptNo).toBe(paid?.receiptNo);
    expect(await grants(order.id)).toHaveLength(1);
    expect((await grants(order.id))[0]).toMatchObject({ personId: 'demo-learner', planCode: 'ONE_MONTH_PLAN', mockLimit: 10, practiceLimit: 2 });
    const pays = await paymentsOf(order.id);
    expect(pays).toHaveLength(1);
    expect(pays[0]).toMatchObject({ status: 'SUCCESS', amount: MONTHLY_PAISE, flag: null, provider: 'phonepe', channel: 'UPI' });
    expect((await ledgerOf(order.id)).map((l) => [l.kind, l.amount])).toEqual([['CAPTURE', MONTHLY_PAISE]]);
    expect(await transitions(order.id)).toEqual(['PENDING', 'PAID']);

    // The webhook comes after the redirect: stored, verified, and nothing changes.
    if (!webhook) throw new Error('no webhook');
    const late = await sb.deliver(webhook);
    await settled();
    expect(late.status).toBe(200);
    expect(await eventsOf(order.id)).toHaveLength(1);
    expect((await orderOf(order.id))?.receiptNo).toBe(paid?.receiptNo);
    expect(await grants(order.id)).toHaveLength(1);
    expect(await paymentsOf(order.id)).toHaveLength(1);
    expect(await transitions(order.id)).toEqual(['PENDING', 'PAID']);

    // My plan and the receipt.
    const my = await h.request('GET', '/payment/my', { token: learner });
    expect(my.status).toBe(200);
    // The demo learner also holds a seeded plan; My plan shows the one in force.
    expect(my.body.data.plan).not.toBeNull();
    expect(my.body.data.orders[0]).toMatchObject({ id: order.id, amount: MONTHLY_PAISE, status: 'PAID', receiptNo: paid?.receiptNo, plan: { code: 'ONE_MONTH_PLAN' } });
    const receipt = await h.request('GET', `/payment/receipt/${order.id}`, { token: learner });
    expect(receipt.status).toBe(200);
    expect(receipt.body.data).toMatchObject({
      receiptNo: paid?.receiptNo,
      orderId: order.id,
      amount: MONTHLY_PAISE,
      provider: 'phonepe',
      trust: { name: DEFAULT_TRUST_NAME.en, nameHi: DEFAULT_TRUST_NAME.hi },
      buyer: { name: 'Lata Learner', mobile: '+919000000003' },
      plan: { code: 'ONE_MONTH_PLAN', name: { en: 'Monthly' } },
      transactionId: pays[0]?.transactionId,
    });
    // An order admin may read it; another learner may not, and learns nothing.
    expect((await h.request('GET', `/payment/receipt/${order.id}`, { token: admin })).status).toBe(200);
    const foreign = await h.request('GET', `/payment/receipt/${order.id}`, { token: other });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ success: false, msg: 'Receipt not found' });
    // A paid order is not paid again.
    const retry = await h.request('POST', '/payment/retryPayment', { token: learner, body: { id: order.id } });
    expect(retry.status).toBe(409);
    expect(retry.body.msg).toBe('This order is already paid');
    expect((await initiate(order.id)).status).toBe(409);
  });

  test('webhook before the redirect: the order is PAID before the confirmation page asks', async () => {
    const order = await pendingOrder();
    const [d] = await sb.complete(order.id, 'PAY');
    await settled();
    expect(d?.result?.status).toBe(200);
    expect((await orderOf(order.id))?.status).toBe('PAID');
    expect(await grants(order.id)).toHaveLength(1);
    const r = await check(order.id);
    expect(r.body).toMatchObject({ success: true, data: { status: 'PAID' } });
    expect(await transitions(order.id)).toEqual(['PENDING', 'PAID']);
  });

  test('receipt numbers are sequential', async () => {
    const a = await pendingOrder();
    await sb.complete(a.id, 'PAY');
    await settled();
    const b = await pendingOrder();
    await sb.complete(b.id, 'PAY');
    await settled();
    expect(((await orderOf(b.id))?.receiptNo ?? 0) - ((await orderOf(a.id))?.receiptNo ?? 0)).toBe(1);
  });

  test('failure: FAILED, the failed attempt recorded, nothing granted; retry makes a new order', async () => {
    const order = await pendingOrder();
    await sb.complete(order.id, 'FAIL', { deliverWebhook: false });
    const r = await check(order.id);
    expect(r.body).toMatchObject({ success: false, msg: 'Payment failed', data: { status: 'FAILED', receiptNo: null } });
    expect((await paymentsOf(order.id)).map((p) => p.status)).toEqual(['FAILED']);
    expect(await ledgerOf(order.id)).toEqual([]);
    expect(await grants(order.id)).toEqual([]);

    const retry = await h.request('POST', '/payment/retryPayment', { token: learner, body: { id: order.id, amount: 1 } });
    expect(retry.status).toBe(200);
    expect(retry.body.id).not.toBe(order.id);
    expect(retry.body.amt).toBe(MONTHLY_PAISE);
    expect(await orderOf(retry.body.id)).toMatchObject({ status: 'CREATED', retryOf: order.id, amount: MONTHLY_PAISE });
    // The retry is payable like any order.
    expect((await initiate(retry.body.id)).status).toBe(200);
    await sb.complete(retry.body.id, 'PAY');
    await settled();
    expect((await orderOf(retry.body.id))?.status).toBe('PAID');
    expect((await orderOf(order.id))?.status).toBe('FAILED');
  });

  test('user cancel: CANCELLED (not FAILED) with no payment, nothing granted; it can be paid again', async () => {
    const order = await pendingOrder();
    await sb.complete(order.id, 'CANCEL');
    await settled();
    expect((await orderOf(order.id))?.status).toBe('CANCELLED');
    expect(await transitions(order.id)).toEqual(['PENDING', 'CANCELLED']);
    const r = await check(order.id);
    // The answer names the plan by its name in both languages, and its amount in paise.
    expect(r.body).toMatchObject({
      success: false,
      msg: 'Payment cancelled',
      data: { status: 'CANCELLED', amount: MONTHLY_PAISE, plan: { code: 'ONE_MONTH_PLAN', name: { en: 'Monthly', hi: 'मासिक' } } },
    });
    expect(await paymentsOf(order.id)).toEqual([]);
    expect(await grants(order.id)).toEqual([]);
    expect(await ledgerOf(order.id)).toEqual([]);
    const my = await h.request('GET', '/payment/my', { token: learner });
    expect(my.body.data.orders.find((o: { id: string }) => o.id === order.id)).toMatchObject({ status: 'CANCELLED' });
    // Retry: a new order for the same plan.
    const retry = await h.request('POST', '/payment/retryPayment', { token: learner, body: { id: order.id } });
    expect(retry.status, JSON.stringify(retry.body)).toBe(200);
    expect(retry.body.id).not.toBe(order.id);
    expect(await orderOf(retry.body.id)).toMatchObject({ status: 'CREATED', retryOf: order.id });
  });

  test('a cancel found by the status check alone (no webhook), also after the expiry time, is CANCELLED', async () => {
    const order = await pendingOrder();
    await sb.complete(order.id, 'CANCEL', { deliverWebhook: false });
    const r = await check(order.id);
    expect(r.body).toMatchObject({ success: false, msg: 'Payment cancelled', data: { status: 'CANCELLED' } });
    const late = await pendingOrder();
    await sb.complete(late.id, 'CANCEL', { deliverWebhook: false });
    await reconcilePending(h.deps, Date.now() + ORDER_TTL_MS + 60_000);
    expect((await orderOf(late.id))?.status).toBe('CANCELLED');
  });

  test('PENDING grants nothing', async () => {
    const order = await pendingOrder();
    const r = await check(order.id);
    expect(r.body).toMatchObject({ success: false, msg: 'Payment is being confirmed', data: { status: 'PENDING', receiptNo: null } });
    const byQuery = await h.request('GET', `/payment/checkPayment?order_id=${order.id}`, { token: learner });
    expect(byQuery.body).toMatchObject({ success: false, data: { status: 'PENDING' } });
    expect(await grants(order.id)).toEqual([]);
    expect(await paymentsOf(order.id)).toEqual([]);
    expect((await orderOf(order.id))?.receiptNo).toBeNull();
    // A still-payable order sent to PhonePe is paid again as a new order (PhonePe takes an id once).
    const retry = await h.request('POST', '/payment/retryPayment', { token: learner, body: { id: order.id } });
    expect(retry.status).toBe(200);
    expect(retry.body.id).not.toBe(order.id);
    // One never sent anywhere is answered as it is.
    const fresh = await buy();
    const again = await h.request('POST', '/payment/retryPayment', { token: learner, body: { id: fresh.id } });
    expect(again.body.id).toBe(fresh.id);
  });

  test('the client-sent price is ignored: the plan is charged at the server price', async () => {
    const order = await buy(learner, { prodid: 'ONE_MONTH_PLAN', product: 'PLAN', amount: 1, price: 1, amt: 100, total: 1 });
    expect(order.amt).toBe(MONTHLY_PAISE);
    const r = await initiate(order.id, learner, { amount: 1 });
    expect(r.status).toBe(200);
    expect(sb.order(order.id)?.amount).toBe(MONTHLY_PAISE);
    expect((await orderOf(order.id))?.amount).toBe(MONTHLY_PAISE);
    // By the plan's id as well as its code.
    const plans = await h.request('GET', '/plan');
    const yearly = (plans.body.data as { id: string; code: string }[]).find((p) => p.code === 'ANNUAL_PLAN');
    const byId = await buy(learner, { prodid: yearly?.id ?? '' });
    expect(byId.amt).toBe(72_000);
  });

  test('the redirect after the confirmation page is a path of this site', async () => {
    const cases: [string, string][] = [
      ['/exams?x=1', '/exams?x=1'],
      ['https://evil.example/', '/'],
      ['//evil.example/', '/'],
      ['/\\evil.example', '/'],
      ['javascript:alert(1)', '/'],
    ];
    for (const [given, kept] of cases) {
      const o = await buy(learner, { prodid: 'ONE_MONTH_PLAN', redirection_url: given });
      expect((await orderOf(o.id))?.redirectUrl, given).toBe(kept);
    }
  });

  test('a donation of the payer amount, paid, grants no plan', async () => {
    const r = await h.request('POST', '/payment/createDummyOrder', { token: learner, body: { poid: 'campaign-7', amount: '51.5' } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, amt: 5150, payment: { amount: 51.5 } });
    expect(await orderOf(r.body.id)).toMatchObject({ kind: 'DONATION', reference: 'campaign-7', planId: null, amount: 5150 });
    expect((await initiate(r.body.id)).status).toBe(200);
    await sb.complete(r.body.id, 'PAY');
    await settled();
    expect((await orderOf(r.body.id))?.status).toBe('PAID');
    expect(await grants(r.body.id)).toEqual([]);
    expect((await ledgerOf(r.body.id)).map((l) => l.amount)).toEqual([5150]);
  });
});

describe('concurrency', () => {
  test('the same webhook three times at once: one activation, one receipt number, one event row', async () => {
    const order = await pendingOrder();
    const [d] = await sb.complete(order.id, 'PAY', { deliverWebhook: false });
    if (!d) throw new Error('no webhook');
    const answers = await Promise.all([sb.deliver(d), sb.deliver(d), sb.deliver(d)]);
    await settled();
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect((await orderOf(order.id))?.status).toBe('PAID');
    expect(await grants(order.id)).toHaveLength(1);
    expect(await paymentsOf(order.id)).toHaveLength(1);
    expect(await eventsOf(order.id)).toHaveLength(1);
    expect(await transitions(order.id)).toEqual(['PENDING', 'PAID']);
    const receiptNo = (await orderOf(order.id))?.receiptNo;
    expect(await db().select().from(purchaseOrder).where(eq(purchaseOrder.receiptNo, receiptNo ?? -1))).toHaveLength(1);
  });

  test('50 status checks at once: one PAID transition', async () => {
    const order = await pendingOrder();
    await sb.complete(order.id, 'PAY', { deliverWebhook: false });
    const answers = await Promise.all(Array.from({ length: 50 }, () => check(order.id)));
    expect(answers.every((a) => a.status === 200 && a.body.success === true)).toBe(true);
    expect(new Set(answers.map((a) => a.body.data.receiptNo)).size).toBe(1);
    expect(await transitions(order.id)).toEqual(['PENDING', 'PAID']);
    expect(await grants(order.id)).toHaveLength(1);
    expect(await paymentsOf(order.id)).toHaveLength(1);
    expect(await ledgerOf(order.id)).toHaveLength(1);
  });

  test('a double capture: paid once, the second capture recorded and flagged REFUND_DUE', async () => {
    const order = await pendingOrder();
    const deliveries = await sb.complete(order.id, 'PAY', { captures: 2 });
    await settled();
    expect(deliveries.map((d) => d.result?.status)).toEqual([200, 200]);
    expect((await orderOf(order.id))?.status).toBe('PAID');
    expect(await grants(order.id)).toHaveLength(1);
    const pays = (await paymentsOf(order.id)).sort((a, b) => (a.flag ?? '').localeCompare(b.flag ?? ''));
    expect(pays.map((p) => [p.status, p.flag, p.amount])).toEqual([
      ['SUCCESS', null, MONTHLY_PAISE],
      ['SUCCESS', 'REFUND_DUE', MONTHLY_PAISE],
    ]);
    // The ledger keeps both captures (money received): the first paid the plan, the second is owed back.
    expect(await legsOf(order.id)).toEqual(
      [
        ['CAPTURE', ACCOUNTS.gateway, MONTHLY_PAISE],
        ['CAPTURE', ACCOUNTS.plans, -MONTHLY_PAISE],
        ['REFUND_DUE', ACCOUNTS.gateway, MONTHLY_PAISE],
        ['REFUND_DUE', ACCOUNTS.refundsDue, -MONTHLY_PAISE],
      ].sort(),
    );
    expect(await unbalanced(db())).toEqual({ groups: [], total: 0 });
    const flagged = pays[1];
    const logged = await db().select().from(activityLog).where(and(eq(activityLog.entityAffected, 'payment'), eq(activityLog.entityId, flagged?.id ?? '')));
    expect(logged).toHaveLength(1);
    expect(logged[0]?.newValue).toMatchObject({ flag: 'REFUND_DUE' });
    // The receipt names the payment that paid the order.
    const receipt = await h.request('GET', `/payment/receipt/${order.id}`, { token: learner });
    expect(receipt.body.data.transactionId).toBe(pays[0]?.transactionId);
  });
});

describe('webhooks are verified', () => {
  test('over real HTTP the server takes a delivery before the app: stored once, a repeat a duplicate, a forged one 401, an oversized one 400; the API\'s headers on each', async () => {
    const order = await pendingOrder();
    const [d] = await sb.complete(order.id, 'PAY', { deliverWebhook: false });
    if (!d) throw new Error('no webhook');
    const server = await new Promise<http.Server>((resolve) => {
      const s = serveApp(h.app.fetch, { hostname: '127.0.0.1', port: 0 }, () => resolve(s));
    });
    const { port } = server.address() as AddressInfo;
    const post = (headers: Record<string, string>, body: string) =>
      new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
        const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/api/phonepe/webhook', headers, agent: false });
        req.on('response', (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
        });
        req.on('error', reject);
        req.end(body);
      });
    try {
      const auth = d.headers.authorization ?? '';
      const forged = await post({ ...d.headers, authorization: `${auth.slice(0, -1)}${auth.endsWith('0') ? '1' : '0'}` }, d.body);
      expect(forged.status).toBe(401);
      expect(JSON.parse(forged.body)).toEqual({ success: false, msg: 'Invalid signature', code: 'UNAUTHENTICATED' });
      const huge = await post(d.headers, d.body + ' '.repeat(70 * 1024));
      expect(huge.status).toBe(400);
      expect(await eventsOf(order.id)).toEqual([]);
      const [one, two] = await Promise.all([post(d.headers, d.body), post(d.headers, d.body)]);
      expect([one!.status, two!.status]).toEqual([200, 200]);
      expect([JSON.parse(one!.body).duplicate, JSON.parse(two!.body).duplicate].sort()).toEqual([false, true]);
      for (const a of [forged, huge, one!]) {
        expect(a.headers['content-type']).toMatch(/application\/json/);
        expect(a.headers['x-content-type-options']).toBe('nosniff');
        expect(a.headers['cache-control']).toBe('no-store');
        expect(Number(a.headers['x-server-time'])).toBeGreaterThan(0);
        expect(a.headers['x-request-id']).toBeTruthy();
      }
      await settled();
      expect((await orderOf(order.id))?.status).toBe('PAID');
      expect(await eventsOf(order.id)).toHaveLength(1);
      expect(await grants(order.id)).toHaveLength(1);
    } finally {
      server.close();
    }
  });

  test('a tampered Authorization or body is refused with 401 and changes nothing', async () => {
    const order = await pendingOrder();
    const [d] = await sb.complete(order.id, 'PAY', { deliverWebhook: false });
    if (!d) throw new Error('no webhook');
    // The last hex digit changed (to another digit: a hash that already ends in 0 must change too).
    const auth = d.headers.authorization ?? '';
    const forged = await sb.deliver({ ...d, headers: { ...d.headers, authorization: `${auth.slice(0, -1)}${auth.endsWith('0') ? '1' : '0'}` } });
    expect(forged.status).toBe(401);
    expect(JSON.parse(forged.body)).toMatchObject({ success: false, msg: 'Invalid signature' });
    const missing = await sb.deliver({ ...d, headers: { 'content-type': 'application/json' } });
    expect(missing.status).toBe(401);
    const unsigned = await h.request('POST', '/razorpay/webhook', { rawBody: d.body, headers: { 'x-razorpay-signature': '0'.repeat(64) } });
    expect(unsigned.status).toBe(401);
    expect((await orderOf(order.id))?.status).toBe('PENDING');
    expect(await eventsOf(order.id)).toEqual([]);
    expect(await grants(order.id)).toEqual([]);
    // The genuine delivery still works afterwards.
    expect((await sb.deliver(d)).status).toBe(200);
    await settled();
    expect((await orderOf(order.id))?.status).toBe('PAID');
  });

  test('a bad Razorpay Checkout signature is refused and changes nothing', async () => {
    const r = await h.request('POST', '/payment/verifyRazorpayPayment', {
      token: learner,
      body: { razorpay_order_id: 'order_x', razorpay_payment_id: 'pay_x', razorpay_signature: 'a'.repeat(64) },
    });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ success: false, msg: 'Invalid signature' });
  });
});

describe('expiry and reconciliation', () => {
  test('an order left PENDING past its expiry becomes EXPIRED; a late success is still honoured', async () => {
    const order = await pendingOrder();
    const never = await buy();
    const young = await pendingOrder();
    // An hour on: both are past expiry (the sandbox still says PENDING for the first).
    const later = Date.now() + ORDER_TTL_MS + 3_600_000;
    // Reconcile only looks at orders older than a minute: make `young` young at that time.
    await db().update(purchaseOrder).set({ createdAt: later, expiresAt: later + ORDER_TTL_MS }).where(eq(purchaseOrder.id, young.id));
    const run = await reconcilePending(h.deps, later);
    expect(run.failed).toBe(0);
    expect((await orderOf(order.id))?.status).toBe('EXPIRED');
    expect((await orderOf(never.id))?.status).toBe('EXPIRED');
    expect((await orderOf(young.id))?.status).toBe('PENDING');
    expect(await transitions(order.id)).toEqual(['PENDING', 'EXPIRED']);
    expect(await grants(order.id)).toEqual([]);
    // Expired orders are not payable, and retrying gives a new order.
    expect((await initiate(never.id)).status).toBe(400);
    const retry = await h.request('POST', '/payment/retryPayment', { token: learner, body: { id: never.id } });
    expect(retry.body).toMatchObject({ success: true, amt: MONTHLY_PAISE });
    expect((await orderOf(retry.body.id))?.retryOf).toBe(never.id);
    // The buyer paid at the provider after all: money taken is honoured.
    await sb.complete(order.id, 'PAY');
    await settled();
    expect((await orderOf(order.id))?.status).toBe('PAID');
    expect(await grants(order.id)).toHaveLength(1);
    expect(await transitions(order.id)).toEqual(['PENDING', 'EXPIRED', 'PAID']);
  });

  test('reconcile picks up a payment whose webhook never came', async () => {
    const order = await pendingOrder();
    await sb.complete(order.id, 'PAY', { deliverWebhook: false });
    await reconcilePending(h.deps, Date.now() + 2 * 60_000);
    expect((await orderOf(order.id))?.status).toBe('PAID');
    expect(await grants(order.id)).toHaveLength(1);
  });
});

describe('bad input, other people and guests', () => {
  test('bad input is a 400 with a message, and no order is written', async () => {
    const before = await orderCount();
    const cases: [string, unknown, string][] = [
      ['/payment', {}, 'prodid is required'],
      ['/payment', { prodid: 'ONE_MONTH_PLAN', extra: 1 }, 'Unknown field: extra'],
      ['/payment/createDummyOrder', { amount: 0 }, 'Amount cannot be less than 1'],
      ['/payment/createDummyOrder', { amount: 'abc' }, 'Invalid amount!!!'],
      ['/payment/createDummyOrder', { amount: 10_000_000 }, 'Invalid amount!!!'],
      ['/payment/retryPayment', {}, 'id is required'],
      ['/phonepe/checkPaymentStatus', {}, 'merchantTransactionId is required'],
    ];
    for (const [url, body, msg] of cases) {
      const r = await h.request('POST', url, { token: learner, body });
      expect(r.status, `${url} ${JSON.stringify(body)}`).toBe(400);
      expect(r.body, `${url} ${JSON.stringify(body)}`).toMatchObject({ success: false, msg });
    }
    const unknownPlan = await h.request('POST', '/payment', { token: learner, body: { prodid: 'NO_SUCH_PLAN' } });
    expect(unknownPlan.status).toBe(404);
    expect(unknownPlan.body.msg).toBe('Plan not found');
    const noQuery = await h.request('GET', '/payment/checkPayment', { token: learner });
    expect(noQuery.status).toBe(400);
    expect(await orderCount()).toBe(before);

    const order = await buy();
    const low = await initiate(order.id, learner, { amount: 0 });
    expect(low.status).toBe(400);
    expect(low.body.msg).toBe('Amount cannot be less than 1');
    expect((await orderOf(order.id))?.status).toBe('CREATED');
  });

  test("another learner's order is not found, and stays untouched", async () => {
    const order = await pendingOrder();
    const calls = [
      check(order.id, other),
      initiate(order.id, other),
      h.request('GET', `/payment/checkPayment?order_id=${order.id}`, { token: other }),
      h.request('POST', '/payment/retryPayment', { token: other, body: { id: order.id } }),
      h.request('GET', `/payment/receipt/${order.id}`, { token: other }),
    ];
    for (const r of await Promise.all(calls)) expect(r.status).toBe(404);
    const mine = await h.request('GET', '/payment/my', { token: other });
    expect((mine.body.data.orders as { id: string }[]).some((o) => o.id === order.id)).toBe(false);
    expect((await orderOf(order.id))?.status).toBe('PENDING');
  });

  test('a guest is asked to log in', async () => {
    const before = await orderCount();
    for (const [method, url] of [
      ['POST', '/payment'],
      ['POST', '/payment/createDummyOrder'],
      ['POST', '/phonepe/initiatePayment'],
      ['POST', '/phonepe/checkPaymentStatus'],
      ['GET', '/payment/my'],
    ] as const) {
      const r = await h.request(method, url, method === 'POST' ? { body: { prodid: 'ONE_MONTH_PLAN', amount: 5 } } : {});
      expect(r.status, url).toBe(401);
      expect(r.body).toMatchObject({ success: false, msg: 'Please login to continue' });
    }
    expect(await orderCount()).toBe(before);
  });
});

describe('reports read the real payments', () => {
  test('transactions and earnings answer rupees from paise', async () => {
    const order = await pendingOrder();
    await sb.complete(order.id, 'PAY');
    await settled();
    const now = Date.now();
    const range = `startDate=${now - 86_400_000}&endDate=${now + 60_000}`;
    const txns = await h.request('GET', `/report/transactions?${range}&q=${(await paymentsOf(order.id))[0]?.transactionId ?? ''}`, { token: admin });
    expect(txns.body.data[0]).toMatchObject({ amount: 150, status: 'SUCCESS', order: { id: order.id, status: 'PAID' } });
    const earnings = await h.request('GET', `/report/globalEarnings?${range}`, { token: admin });
    const paise = (await ledgerOf(order.id).then(() => db().select().from(ledgerEntry).where(eq(ledgerEntry.account, ACCOUNTS.gateway))))
      .filter((l) => l.amount > 0 && l.createdAt >= now - 86_400_000 && l.createdAt <= now + 60_000)
      .reduce((s, l) => s + l.amount, 0);
    expect(earnings.body.data.totals.collected).toBe(paise / 100);
  });
});
