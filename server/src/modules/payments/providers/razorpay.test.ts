import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MSG } from '@pm/protocol/messages';
import { AppError } from '#server/lib/errors';
import { createRazorpayProvider, razorpayCheckoutSignature, razorpayOrderState, razorpayPaymentState, razorpayWebhookSignature } from './razorpay';

/*
 * The Razorpay adapter: its signatures against known vectors (computed here independently with
 * node:crypto, and the published ones from Razorpay's Node SDK tests, test/utils/
 * razorpay-utils.spec.js), and its API calls against a local server that speaks Razorpay's Orders
 * API (basic auth, order and payment entities as the API reference shows them).
 */

const hmac = (key: string, data: string) => createHmac('sha256', key).update(data).digest('hex');

describe('Checkout signature: HMAC-SHA256(order_id|payment_id, key_secret)', () => {
  test("Razorpay's published vector (razorpay-node test/utils/razorpay-utils.spec.js, Payment Verification)", () => {
    const p = createRazorpayProvider({ keyId: 'rzp_test_x', keySecret: 'EnLs21M47BllR3X8PSFtjtbd', webhookSecret: 'w' });
    expect(razorpayCheckoutSignature('EnLs21M47BllR3X8PSFtjtbd', 'order_IEIaMR65cu6nz3', 'pay_IH4NVgf4Dreq1l')).toBe(
      '0d4e745a1838664ad6c9c9902212a32d627d68e917290b0ad5f08ff4561bc50f',
    );
    expect(p.verifyCheckoutSignature!('order_IEIaMR65cu6nz3', 'pay_IH4NVgf4Dreq1l', '0d4e745a1838664ad6c9c9902212a32d627d68e917290b0ad5f08ff4561bc50f')).toBe(true);
    expect(p.verifyCheckoutSignature!('order_IEIaMR65cu6nz3', 'pay_IH4NVgf4Dreq1l', 'sddsfdsfs')).toBe(false);
  });

  test('vectors computed here: right, swapped ids, another secret, a flipped digit, empty', () => {
    const secret = 'key_secret_for_tests';
    const p = createRazorpayProvider({ keyId: 'rzp_test_x', keySecret: secret, webhookSecret: 'w' });
    const sig = hmac(secret, 'order_A1|pay_B2');
    expect(p.verifyCheckoutSignature!('order_A1', 'pay_B2', sig)).toBe(true);
    expect(p.verifyCheckoutSignature!('pay_B2', 'order_A1', sig)).toBe(false);
    expect(p.verifyCheckoutSignature!('order_A1', 'pay_B2', hmac('other', 'order_A1|pay_B2'))).toBe(false);
    expect(p.verifyCheckoutSignature!('order_A1', 'pay_B3', sig)).toBe(false);
    expect(p.verifyCheckoutSignature!('order_A1', 'pay_B2', sig.slice(0, -1) + (sig.endsWith('0') ? '1' : '0'))).toBe(false);
    expect(p.verifyCheckoutSignature!('order_A1', 'pay_B2', '')).toBe(false);
  });
});

describe('webhooks: X-Razorpay-Signature = HMAC-SHA256(raw body, webhook secret)', () => {
  test("Razorpay's published vector (validateWebhookSignature)", () => {
    expect(razorpayWebhookSignature('123456', '{"a":1,"b":2,"c":{"d":3}}')).toBe('2fe04e22977002e6c7cb553adab8b460cb9e2a4970d5953cb27a8472752e3bbc');
  });

  const secret = 'whsec_for_tests';
  const p = createRazorpayProvider({ keyId: 'rzp_test_x', keySecret: 'k', webhookSecret: secret });
  // As Razorpay sends payment.captured: the payment entity, with its order id (spacing kept as sent).
  const body =
    '{"entity":"event","account_id":"acc_BFQ7uQEaa7j2z7","event":"payment.captured","contains":["payment"],' +
    '"payload":{"payment":{"entity":{"id":"pay_DESlfW9H8K9uqM","entity":"payment","amount":19900,"currency":"INR","status":"captured",' +
    '"order_id":"order_DESlLckIVRkHWj","method":"upi","notes":{"merchantOrderId":"0b6a0d4c-ours"},"created_at":1567674599}}},"created_at":1567674606}';

  test('a signed delivery is read: type, our order (from the notes), Razorpay\'s order, the event id from the signed body', () => {
    const e = p.parseWebhook(new Headers({ 'x-razorpay-signature': hmac(secret, body), 'x-razorpay-event-id': 'KGKxl0bXjVw4yg' }), body);
    expect(e).toMatchObject({
      eventId: 'razorpay:payment.captured:payment=pay_DESlfW9H8K9uqM',
      type: 'payment.captured',
      merchantOrderId: '0b6a0d4c-ours',
      pgOrderId: 'order_DESlLckIVRkHWj',
    });
    // order.paid carries the order with its receipt.
    const paid = JSON.stringify({ event: 'order.paid', payload: { order: { entity: { id: 'order_X', receipt: 'ours-2', status: 'paid' } }, payment: { entity: { id: 'pay_Y', order_id: 'order_X' } } } });
    expect(p.parseWebhook(new Headers({ 'x-razorpay-signature': hmac(secret, paid), 'x-razorpay-event-id': 'E2' }), paid)).toMatchObject({ merchantOrderId: 'ours-2', pgOrderId: 'order_X' });
  });

  test('refused: a changed body (even re-serialised JSON), another secret, a missing or truncated signature', () => {
    const sig = hmac(secret, body);
    expect(p.parseWebhook(new Headers({ 'x-razorpay-signature': sig }), body.replace('19900', '99'))).toBeNull();
    expect(p.parseWebhook(new Headers({ 'x-razorpay-signature': sig }), JSON.stringify(JSON.parse(body), null, 1))).toBeNull();
    expect(p.parseWebhook(new Headers({ 'x-razorpay-signature': hmac('other', body) }), body)).toBeNull();
    expect(p.parseWebhook(new Headers({}), body)).toBeNull();
    expect(p.parseWebhook(new Headers({ 'x-razorpay-signature': sig.slice(0, 32) }), body)).toBeNull();
  });

  test('the same event delivered again has the same id, whatever its unsigned X-Razorpay-Event-Id says', () => {
    const sig = hmac(secret, body);
    const ids = ['E1', 'E2', '', undefined].map((header) =>
      p.parseWebhook(new Headers({ 'x-razorpay-signature': sig, ...(header === undefined ? {} : { 'x-razorpay-event-id': header }) }), body)?.eventId,
    );
    expect(new Set(ids)).toEqual(new Set(['razorpay:payment.captured:payment=pay_DESlfW9H8K9uqM']));
    // order.paid names both entities; a body with no entity id is keyed by its own hash.
    const paid = JSON.stringify({ event: 'order.paid', payload: { order: { entity: { id: 'order_X' } }, payment: { entity: { id: 'pay_Y' } } } });
    expect(p.parseWebhook(new Headers({ 'x-razorpay-signature': hmac(secret, paid) }), paid)?.eventId).toBe('razorpay:order.paid:order=order_X,payment=pay_Y');
    const bare = JSON.stringify({ event: 'payment.dispute.created', payload: {} });
    expect(p.parseWebhook(new Headers({ 'x-razorpay-signature': hmac(secret, bare) }), bare)?.eventId).toMatch(/^razorpay:[0-9a-f]{64}$/);
  });
});

describe('the order state from the payments (our mapping)', () => {
  test('captured anywhere → COMPLETED; all failed → FAILED; none or one in flight → PENDING', () => {
    expect(razorpayOrderState('created', [])).toBe('PENDING');
    expect(razorpayOrderState('attempted', [{ state: 'FAILED' }])).toBe('FAILED');
    expect(razorpayOrderState('attempted', [{ state: 'FAILED' }, { state: 'PENDING' }])).toBe('PENDING');
    expect(razorpayOrderState('paid', [{ state: 'FAILED' }, { state: 'COMPLETED' }])).toBe('COMPLETED');
    expect(razorpayOrderState('paid', [])).toBe('COMPLETED');
  });

  test('a payment the customer cancelled (error_reason payment_cancelled) → CANCELLED; the latest attempt decides', () => {
    expect(razorpayPaymentState('failed', 'payment_cancelled')).toBe('CANCELLED');
    expect(razorpayPaymentState('failed', 'payment_failed')).toBe('FAILED');
    expect(razorpayPaymentState('failed', null)).toBe('FAILED');
    expect(razorpayOrderState('attempted', [{ state: 'CANCELLED', at: 1 }])).toBe('CANCELLED');
    expect(razorpayOrderState('attempted', [{ state: 'CANCELLED', at: 1 }, { state: 'FAILED', at: 2 }])).toBe('FAILED');
    expect(razorpayOrderState('attempted', [{ state: 'FAILED', at: 1 }, { state: 'CANCELLED', at: 2 }])).toBe('CANCELLED');
    expect(razorpayOrderState('attempted', [{ state: 'CANCELLED', at: 1 }, { state: 'PENDING', at: 2 }])).toBe('PENDING');
  });
});

// --- A local Razorpay ---------------------------------------------------------------------

type RzpOrder = { id: string; entity: 'order'; amount: number; amount_paid: number; amount_due: number; currency: string; receipt: string | null; status: string; attempts: number; notes: unknown; created_at: number };
type RzpPayment = { id: string; entity: 'payment'; amount: number; currency: string; status: string; order_id: string; method: string; captured: boolean; created_at: number };

const KEY_ID = 'rzp_test_local';
const KEY_SECRET = 'local_secret_123';

/** Orders API as documented: basic auth; POST /v1/orders; GET order, orders by receipt, an order's payments. */
function localRazorpay() {
  const orders = new Map<string, RzpOrder>();
  const payments = new Map<string, RzpPayment[]>();
  const seen: { method: string; url: string; auth: string | undefined }[] = [];
  const rid = (prefix: string) => `${prefix}_${randomBytes(7).toString('hex').slice(0, 14)}`;
  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const badRequest = (description: string) => ({ error: { code: 'BAD_REQUEST_ERROR', description, source: 'business', step: 'payment_initiation', reason: 'input_validation_failed' } });
  const server = createServer(async (req: IncomingMessage, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', auth: req.headers.authorization });
    const expected = `Basic ${Buffer.from(`${KEY_ID}:${KEY_SECRET}`).toString('base64')}`;
    if (req.headers.authorization !== expected) return send(res, 401, badRequest('Authentication failed'));
    const url = new URL(req.url ?? '/', 'http://x');
    let raw = '';
    for await (const chunk of req) raw += chunk;
    if (req.method === 'POST' && url.pathname === '/v1/orders') {
      let b: { amount?: unknown; currency?: unknown; receipt?: unknown; notes?: unknown };
      try {
        b = JSON.parse(raw);
      } catch {
        return send(res, 400, badRequest('Invalid JSON'));
      }
      if (!Number.isInteger(b.amount) || (b.amount as number) < 100) return send(res, 400, badRequest('Order amount less than minimum amount allowed'));
      if (b.currency !== 'INR') return send(res, 400, badRequest('The currency is invalid'));
      if (typeof b.receipt === 'string' && b.receipt.length > 40) return send(res, 400, badRequest('The receipt may not be greater than 40 characters.'));
      const o: RzpOrder = {
        id: rid('order'),
        entity: 'order',
        amount: b.amount as number,
        amount_paid: 0,
        amount_due: b.amount as number,
        currency: 'INR',
        receipt: typeof b.receipt === 'string' ? b.receipt : null,
        status: 'created',
        attempts: 0,
        notes: b.notes ?? [],
        created_at: Math.floor(Date.now() / 1000),
      };
      orders.set(o.id, o);
      payments.set(o.id, []);
      return send(res, 200, o);
    }
    if (req.method === 'GET' && url.pathname === '/v1/orders') {
      const receipt = url.searchParams.get('receipt');
      const items = [...orders.values()].filter((o) => receipt === null || o.receipt === receipt);
      return send(res, 200, { entity: 'collection', count: items.length, items });
    }
    const m = /^\/v1\/orders\/([^/]+)(\/payments)?$/.exec(url.pathname);
    if (req.method === 'GET' && m) {
      const o = orders.get(decodeURIComponent(m[1]!));
      if (!o) return send(res, 400, badRequest('The id provided does not exist'));
      if (!m[2]) return send(res, 200, o);
      const items = payments.get(o.id) ?? [];
      return send(res, 200, { entity: 'collection', count: items.length, items });
    }
    return send(res, 404, badRequest('The requested URL was not found on the server.'));
  });
  return {
    server,
    seen,
    /** A payment on the order, as a buyer in Checkout makes it. */
    pay(orderId: string, status: 'captured' | 'failed' | 'authorized', method = 'upi') {
      const o = orders.get(orderId)!;
      const p: RzpPayment = { id: rid('pay'), entity: 'payment', amount: o.amount, currency: 'INR', status, order_id: o.id, method, captured: status === 'captured', created_at: Math.floor(Date.now() / 1000) };
      payments.get(o.id)!.push(p);
      o.attempts++;
      if (status === 'captured') Object.assign(o, { status: 'paid', amount_paid: o.amount, amount_due: 0 });
      else if (o.status === 'created') o.status = 'attempted';
      return p;
    },
  };
}

describe('against a local Razorpay', () => {
  const rzp = localRazorpay();
  let base: string;
  beforeAll(async () => {
    await new Promise<void>((r) => rzp.server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(rzp.server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((r) => rzp.server.close(r)));
  const provider = () => createRazorpayProvider({ baseUrl: base, keyId: KEY_ID, keySecret: KEY_SECRET, webhookSecret: 'w', merchantName: 'Pariksha Mitra Trust' });
  const input = (merchantOrderId: string, amount = 19_900) => ({ merchantOrderId, amount, redirectUrl: '/payment-confirmation', expireAfterS: 1200 });

  test('createPayment: an order with our id as receipt and in the notes, basic auth, and what Checkout needs', async () => {
    const created = await provider().createPayment(input('3f1c2a9e-0000-4000-8000-000000000001'));
    expect(created.pgOrderId).toMatch(/^order_/);
    expect(created.checkout).toEqual({ key: KEY_ID, order_id: created.pgOrderId, amount: 19_900, currency: 'INR', name: 'Pariksha Mitra Trust' });
    const post = rzp.seen.find((s) => s.method === 'POST');
    expect(post).toMatchObject({ url: '/v1/orders', auth: `Basic ${Buffer.from(`${KEY_ID}:${KEY_SECRET}`).toString('base64')}` });
  });

  test('status: PENDING with no payment, FAILED when every attempt failed, COMPLETED once one is captured', async () => {
    const p = provider();
    const ours = 'order-status-1';
    const { pgOrderId } = await p.createPayment(input(ours, 49_900));
    expect(await p.status(ours, pgOrderId)).toEqual({ state: 'PENDING', amount: 49_900, pgOrderId, payments: [] });
    const failed = rzp.pay(pgOrderId, 'failed', 'card');
    const s1 = await p.status(ours, pgOrderId);
    expect(s1.state).toBe('FAILED');
    expect(s1.payments).toMatchObject([{ transactionId: failed.id, state: 'FAILED', amount: 49_900, channel: 'CARD' }]);
    rzp.pay(pgOrderId, 'authorized');
    expect((await p.status(ours, pgOrderId)).state).toBe('PENDING');
    const captured = rzp.pay(pgOrderId, 'captured');
    const s2 = await p.status(ours, pgOrderId);
    expect(s2.state).toBe('COMPLETED');
    expect(s2.payments.find((x) => x.transactionId === captured.id)).toMatchObject({ state: 'COMPLETED', channel: 'UPI', at: captured.created_at * 1000 });
  });

  test('status without Razorpay\'s order id finds the order by its receipt', async () => {
    const p = provider();
    const { pgOrderId } = await p.createPayment(input('order-by-receipt'));
    rzp.pay(pgOrderId, 'captured');
    expect(await p.status('order-by-receipt', null)).toMatchObject({ state: 'COMPLETED', pgOrderId });
    await expect(p.status('never-made', null)).rejects.toMatchObject({ status: 404 });
    await expect(p.status('x', 'order_doesnotexist')).rejects.toMatchObject({ status: 404 });
  });

  test('a double capture shows two COMPLETED payments', async () => {
    const p = provider();
    const { pgOrderId } = await p.createPayment(input('order-double'));
    rzp.pay(pgOrderId, 'captured');
    rzp.pay(pgOrderId, 'captured');
    const s = await p.status('order-double', pgOrderId);
    expect(s.payments.filter((x) => x.state === 'COMPLETED')).toHaveLength(2);
  });

  test('wrong keys: the local Razorpay refuses them (401) and the adapter answers 502', async () => {
    const bad = createRazorpayProvider({ baseUrl: base, keyId: KEY_ID, keySecret: 'wrong', webhookSecret: 'w' });
    const err = await bad.createPayment(input('order-bad-keys')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ status: 502, message: MSG.failedToCreateOrder });
    await expect(bad.status('x', 'order_x')).rejects.toMatchObject({ status: 502, message: MSG.providerUnavailable });
  });

  test('an amount Razorpay refuses: 502 "Failed to create order"', async () => {
    await expect(provider().createPayment(input('order-too-small', 50))).rejects.toMatchObject({ status: 502, message: MSG.failedToCreateOrder });
  });

  test('nothing listening: 502 providerUnavailable', async () => {
    const closed: Server = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((r) => closed.close(r));
    const p = createRazorpayProvider({ baseUrl: url, keyId: KEY_ID, keySecret: KEY_SECRET, webhookSecret: 'w' });
    await expect(p.createPayment(input('order-down'))).rejects.toMatchObject({ status: 502, message: MSG.providerUnavailable });
  });
});
