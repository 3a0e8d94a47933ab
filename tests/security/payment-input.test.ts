import { createHmac } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MSG } from '@pm/protocol/messages';
import { ORDER_TTL_MS } from '@pm/protocol/payment';
import { paymentEvent, purchaseOrder } from '../../server/src/db/schema';
import { first } from '../../server/src/db/transaction';
import { createProviders } from '../../server/src/modules/payments/providers/index';
import { reconcilePending } from '../../server/src/modules/payments/reconcile';
import { type Harness, startHarness } from '../../server/src/test/harness';

/**
 * The payment points of docs/security.md "Smaller points" and docs/payments.md:
 * Razorpay events are keyed by their signed body, never by the unsigned X-Razorpay-Event-Id; an
 * order its provider does not know expires at its expiry time; a donation's amount is a number or
 * a string of digits, nothing a coercion would turn into one; `product` may be the plan object,
 * whose price is ignored. Through the real app, the real adapters and the in-process sandbox.
 */

let h: Harness;
let learner: string;
beforeAll(async () => {
  h = await startHarness();
  learner = await h.tokenOf('learner');
});
afterAll(async () => {
  await h.deps.webhooks.drain();
  await h.destroy();
});

const orderRow = (id: string) => first(h.deps.db.select().from(purchaseOrder).where(eq(purchaseOrder.id, id)));
const orderCount = async () => (await first(h.deps.db.select({ n: count() }).from(purchaseOrder)))?.n ?? 0;
const MONTHLY_PAISE = 15_000;

describe('Razorpay webhooks are keyed by the signed body', () => {
  const secret = 'whsec_security_test';
  const body =
    '{"entity":"event","account_id":"acc_T1","event":"payment.captured","contains":["payment"],' +
    '"payload":{"payment":{"entity":{"id":"pay_Replayed01","entity":"payment","amount":15000,"currency":"INR","status":"captured",' +
    '"order_id":"order_Replayed01","method":"upi","notes":{"merchantOrderId":"no-such-order"},"created_at":1767225600}}},"created_at":1767225606}';
  const signature = createHmac('sha256', secret).update(body).digest('hex');

  test('one signed delivery sent again under new X-Razorpay-Event-Id values is stored once', async () => {
    const { config, payments } = h.deps;
    h.deps.config = { ...config, RAZORPAY_KEY_ID: 'rzp_test_security', RAZORPAY_KEY_SECRET: 'rzp_key_secret', RAZORPAY_WEBHOOK_SECRET: secret };
    // The app's providers as this configuration makes them (Razorpay with these keys), over the same sandbox.
    h.deps.payments = { ...payments, providers: createProviders(h.deps.config, payments.sandbox) };
    try {
      const answers = [];
      for (const eventId of ['evt_A', 'evt_B', 'evt_C', '']) {
        const r = await h.request('POST', '/razorpay/webhook', {
          rawBody: body,
          headers: { 'content-type': 'application/json', 'x-razorpay-signature': signature, ...(eventId ? { 'x-razorpay-event-id': eventId } : {}) },
        });
        expect(r.status).toBe(200);
        answers.push(r.body.duplicate);
      }
      expect(answers).toEqual([false, true, true, true]);
      const stored = await h.deps.db.select().from(paymentEvent).where(eq(paymentEvent.provider, 'razorpay'));
      expect(stored.map((e) => e.id)).toEqual(['razorpay:razorpay:payment.captured:payment=pay_Replayed01']);
      await h.deps.webhooks.drain();
    } finally {
      h.deps.config = config;
      h.deps.payments = payments;
    }
  });
});

describe('an order its provider does not know', () => {
  /** An order sent to PhonePe (PENDING, with a provider order id) that the provider has no record of. */
  async function lostOrder() {
    const r = await h.request('POST', '/payment', { token: learner, body: { prodid: 'ONE_MONTH_PLAN', product: 'ONE_MONTH_PLAN' } });
    expect(r.status).toBe(200);
    await h.deps.db.update(purchaseOrder).set({ status: 'PENDING', pgOrderId: `OMO-lost-${r.body.id}` }).where(eq(purchaseOrder.id, r.body.id));
    return (await orderRow(r.body.id))!;
  }

  test('waits as PENDING before its expiry: the buyer is told it is being confirmed', async () => {
    const order = await lostOrder();
    const r = await h.request('POST', '/phonepe/checkPaymentStatus', { token: learner, body: { merchantTransactionId: order.id } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: false, msg: MSG.paymentPending, data: { status: 'PENDING' } });
  });

  test('expires at its expiry time when the reconciliation job meets it', async () => {
    const order = await lostOrder();
    const after = order.expiresAt + 1;
    expect(after - order.createdAt).toBeGreaterThan(ORDER_TTL_MS - 1);
    const run = await reconcilePending(h.deps, after);
    expect(run.failed).toBe(0);
    expect((await orderRow(order.id))?.status).toBe('EXPIRED');
  });
});

describe('a donation amount is a number or a string of digits', () => {
  const donate = (amount: unknown) => h.request('POST', '/payment/createDummyOrder', { token: learner, body: { poid: 'campaign-1', amount } });

  test('true, [1], {}, null, "1e2", "0x10", " 5", "5 ", "1,000" and "" are refused, and no order is made', async () => {
    const before = await orderCount();
    for (const amount of [true, [1], {}, null, '1e2', '0x10', ' 5', '5 ', '1,000', '']) {
      const r = await donate(amount);
      expect({ amount, status: r.status }).toEqual({ amount, status: 400 });
      expect(r.body.msg).toMatch(/^(amount must be a number or text|Invalid amount!!!)$/);
    }
    expect(await orderCount()).toBe(before);
  });

  test('a number and a string of digits are taken, in rupees', async () => {
    for (const [amount, paise] of [
      [51, 5100],
      ['51', 5100],
      ['51.50', 5150],
    ] as const) {
      const r = await donate(amount);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.amt).toBe(paise);
    }
  });
});

describe('POST /api/payment: product may be the plan object, whose price is ignored', () => {
  test('the plan object with a price of its own is charged at the server price', async () => {
    const r = await h.request('POST', '/payment', {
      token: learner,
      body: { prodid: 'ONE_MONTH_PLAN', product: { id: 'whatever', code: 'ONE_MONTH_PLAN', name: 'Monthly', total: 1, price: 1, amount: 1 } },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.amt).toBe(MONTHLY_PAISE);
  });

  test('without prodid, the object names the plan by its code (or id)', async () => {
    const r = await h.request('POST', '/payment', { token: learner, body: { product: { code: 'ONE_MONTH_PLAN', total: 1 } } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.amt).toBe(MONTHLY_PAISE);
    expect((await orderRow(r.body.id))?.amount).toBe(MONTHLY_PAISE);
  });

  test('a product of another type, or one naming no plan, is refused by name', async () => {
    const wrong = await h.request('POST', '/payment', { token: learner, body: { prodid: 'ONE_MONTH_PLAN', product: 42 } });
    expect(wrong).toMatchObject({ status: 400, body: { msg: 'product must be text or an object' } });
    const badId = await h.request('POST', '/payment', { token: learner, body: { product: { id: 7 } } });
    expect(badId).toMatchObject({ status: 400, body: { msg: 'product.id must be text' } });
    const none = await h.request('POST', '/payment', { token: learner, body: { product: { price: 1 } } });
    expect(none).toMatchObject({ status: 400, body: { msg: 'prodid is required' } });
  });
});
