import { Hono } from 'hono';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MSG } from '@pm/protocol/messages';
import type { AppEnv } from '#server/context';
import { loadConfig, parseEnv } from '#server/env';
import { AppError } from '#server/lib/errors';
import type { PaymentProvider } from '../provider';
import type { FetchLike } from './common';
import { createProviders } from './index';
import { createPhonePeProvider, phonePeState, phonePeWebhookAuthorization } from './phonepe';
import { createPhonePeSandbox, type PhonePeSandbox, SANDBOX_BASE_URL, sandboxControl, sandboxFetch, sandboxPhonePeRoutes, SANDBOX_WEBHOOK_PATH } from './sandbox-phonepe';

/*
 * The PhonePe adapter against the local PhonePe (sandbox-phonepe.ts), which speaks Standard
 * Checkout v2: token caching and refresh, pay and status, webhooks and their Authorization, and
 * what an unreachable provider gives. The app here is the sandbox plus a webhook receiver that
 * verifies with the adapter itself (the payments module's own webhook route is tested with the
 * full flow in modules/payments).
 */

let dir: string;
let sandbox: PhonePeSandbox;
let app: Hono<AppEnv>;
let control: ReturnType<typeof sandboxControl>;
/** What the receiver got, and how it answers the next deliveries. */
const received: { authorization: string | null; body: string }[] = [];
let answers: number[] = [];

function adapter(over: Partial<Parameters<typeof createPhonePeProvider>[0]> = {}): PaymentProvider {
  const c = control.credentials;
  return createPhonePeProvider({
    baseUrl: SANDBOX_BASE_URL,
    clientId: c.clientId,
    clientSecret: c.clientSecret,
    clientVersion: c.clientVersion,
    webhookUser: c.webhookUser,
    webhookPassword: c.webhookPassword,
    fetch: sandboxFetch(sandbox),
    ...over,
  });
}

let n = 0;
const input = (over: Partial<Parameters<PaymentProvider['createPayment']>[0]> = {}) => ({
  merchantOrderId: `test-${process.pid}-${++n}`,
  amount: 19_900,
  redirectUrl: '/payment-confirmation?merchantTransactionId=x',
  expireAfterS: 1200,
  ...over,
});

/** The AppError a promise rejects with. */
async function appError(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'pm-phonepe-'));
  // This small app's own sandbox, mounted on it below.
  sandbox = createPhonePeSandbox(loadConfig(parseEnv({ DATA_DIR: dir, LOG_LEVEL: 'silent' })));
  app = new Hono<AppEnv>();
  app.post(SANDBOX_WEBHOOK_PATH, async (c) => {
    received.push({ authorization: c.req.header('authorization') ?? null, body: await c.req.text() });
    return c.json({ ok: true }, (answers.shift() ?? 200) as 200);
  });
  sandboxPhonePeRoutes(app, sandbox, (req) => app.fetch(req));
  control = sandboxControl(sandbox);
});
afterAll(async () => {
  await control.idle();
  rmSync(dir, { recursive: true, force: true });
});

describe('webhook Authorization', () => {
  test("is hex SHA-256 of username:password (the vector of PhonePe's Node SDK, tests/callback.test.ts)", () => {
    expect(phonePeWebhookAuthorization('username', 'password')).toBe('bc842c31a9e54efe320d30d948be61291f3ceee4766e36ab25fa65243cd76e0e');
    expect(phonePeWebhookAuthorization('user', 'pass1234')).toBe(createHash('sha256').update('user:pass1234').digest('hex'));
  });

  test('a webhook with that header is accepted; a tampered, missing or wrongly sized one is refused', () => {
    const p = createPhonePeProvider({ baseUrl: 'http://unused', clientId: 'a', clientSecret: 'b', clientVersion: '1', webhookUser: 'username', webhookPassword: 'password' });
    const body = JSON.stringify({ event: 'checkout.order.completed', payload: { orderId: 'OMO1', merchantOrderId: 'm1', state: 'COMPLETED', amount: 100, paymentDetails: [{ transactionId: 'OM1', state: 'COMPLETED' }] } });
    const good = 'bc842c31a9e54efe320d30d948be61291f3ceee4766e36ab25fa65243cd76e0e';
    const ok = p.parseWebhook(new Headers({ authorization: good }), body);
    expect(ok).toMatchObject({ type: 'checkout.order.completed', merchantOrderId: 'm1', pgOrderId: 'OMO1' });
    // Upper-case hex is the same digest.
    expect(p.parseWebhook(new Headers({ authorization: good.toUpperCase() }), body)?.eventId).toBe(ok?.eventId);
    const flipped = good.slice(0, -1) + (good.endsWith('e') ? 'f' : 'e');
    expect(p.parseWebhook(new Headers({ authorization: flipped }), body)).toBeNull();
    expect(p.parseWebhook(new Headers({ authorization: good.slice(1) }), body)).toBeNull();
    expect(p.parseWebhook(new Headers({ authorization: `${good}00` }), body)).toBeNull();
    expect(p.parseWebhook(new Headers({}), body)).toBeNull();
    expect(p.parseWebhook(new Headers({ authorization: phonePeWebhookAuthorization('username', 'Password') }), body)).toBeNull();
    // Authentic but not JSON, or not an event: nothing to act on.
    expect(p.parseWebhook(new Headers({ authorization: good }), 'not json')).toBeNull();
    expect(p.parseWebhook(new Headers({ authorization: good }), '{"payload":{}}')).toBeNull();
    // The older `type` field names the event as well.
    expect(p.parseWebhook(new Headers({ authorization: good }), JSON.stringify({ type: 'CHECKOUT_ORDER_FAILED', payload: { orderId: 'OMO2' } }))?.type).toBe('CHECKOUT_ORDER_FAILED');
  });
});

describe('the OAuth token', () => {
  test('is fetched once and cached: sequential and concurrent calls share it', async () => {
    const p = adapter();
    const before = control.tokenRequests();
    const i = input();
    const { merchantOrderId } = i;
    await p.createPayment(i);
    for (let i = 0; i < 5; i++) await p.status(merchantOrderId, null);
    await Promise.all(Array.from({ length: 10 }, () => p.status(merchantOrderId, null)));
    expect(control.tokenRequests() - before).toBe(1);
  });

  test('concurrent first calls make one token request', async () => {
    const p = adapter();
    const before = control.tokenRequests();
    await Promise.all(Array.from({ length: 8 }, () => p.createPayment(input())));
    expect(control.tokenRequests() - before).toBe(1);
  });

  test('is fetched again shortly before expires_at', async () => {
    let clock = Date.now();
    const p = adapter({ now: () => clock });
    const before = control.tokenRequests();
    const i = input();
    const { merchantOrderId } = i;
    await p.createPayment(i);
    await p.status(merchantOrderId, null);
    expect(control.tokenRequests() - before).toBe(1);
    // The sandbox's tokens live an hour; 58 minutes on, the cached one is still used…
    clock += 58 * 60_000;
    await p.status(merchantOrderId, null);
    expect(control.tokenRequests() - before).toBe(1);
    // …and within the last minute a new one is fetched before it runs out.
    clock += 90_000;
    await p.status(merchantOrderId, null);
    expect(control.tokenRequests() - before).toBe(2);
  });

  test('a 401 (token revoked) fetches a new token once and repeats the call', async () => {
    const p = adapter();
    const i = input();
    const { merchantOrderId } = i;
    await p.createPayment(i);
    const before = control.tokenRequests();
    control.expireTokens();
    expect((await p.status(merchantOrderId, null)).state).toBe('PENDING');
    expect(control.tokenRequests() - before).toBe(1);
  });

  test('a second 401 is not retried again: the call fails with 502', async () => {
    const calls: string[] = [];
    const inner = sandboxFetch(sandbox);
    // The network loses the Authorization header on the way: every PG call is refused.
    const lossy: FetchLike = (url, init) => {
      calls.push(url);
      const headers = new Headers(init?.headers);
      if (url.includes('/checkout/')) headers.set('authorization', 'O-Bearer nope');
      return inner(url, { ...init, headers });
    };
    const p = adapter({ fetch: lossy });
    const err = await appError(p.createPayment(input()));
    expect(err.status).toBe(502);
    expect(err.message).toBe(MSG.failedToCreateOrder);
    expect(calls.filter((u) => u.endsWith('/checkout/v2/pay'))).toHaveLength(2);
    expect(calls.filter((u) => u.endsWith('/v1/oauth/token'))).toHaveLength(2);
  });

  test('wrong client credentials: 502, the provider is unavailable', async () => {
    const err = await appError(adapter({ clientSecret: 'wrong' }).createPayment(input()));
    expect(err).toMatchObject({ status: 502, code: 'BAD_GATEWAY', message: MSG.providerUnavailable });
  });
});

describe('pay and status against the sandbox', () => {
  test('a buyer who cancels: PhonePe says FAILED with USER_CANCEL, the adapter CANCELLED; a failure or an expiry stays FAILED', async () => {
    const p = adapter();
    const cancel = input({ amount: 15_000 });
    const c = await p.createPayment(cancel);
    await control.complete(cancel.merchantOrderId, 'CANCEL', { deliverWebhook: false });
    expect(await p.status(cancel.merchantOrderId, c.pgOrderId)).toMatchObject({ state: 'CANCELLED', payments: [] });
    const fail = input({ amount: 15_000 });
    const f = await p.createPayment(fail);
    await control.complete(fail.merchantOrderId, 'FAIL', { deliverWebhook: false });
    expect((await p.status(fail.merchantOrderId, f.pgOrderId)).state).toBe('FAILED');
    const late = input({ amount: 15_000 });
    const l = await p.createPayment(late);
    control.expire(late.merchantOrderId);
    expect((await p.status(late.merchantOrderId, l.pgOrderId)).state).toBe('FAILED');
    expect(phonePeState('FAILED', { errorCode: 'PAYMENT_ERROR', detailedErrorCode: 'USER_CANCELLED' })).toBe('CANCELLED');
    expect(phonePeState('FAILED', { errorCode: 'TXN_NOT_COMPLETED', detailedErrorCode: 'TXN_AUTO_FAILED' })).toBe('FAILED');
    expect(phonePeState('COMPLETED', { errorCode: 'USER_CANCEL' })).toBe('COMPLETED');
  });

  test('pay gives the hosted page; status follows the buyer: PENDING, then COMPLETED with the attempt', async () => {
    const p = adapter();
    const i = input({ amount: 49_900 });
    const created = await p.createPayment(i);
    expect(created.pgOrderId).toMatch(/^OMO/);
    expect(created.redirectUrl).toBe(`/sandbox/phonepe/pay/${created.pgOrderId}`);
    expect(await p.status(i.merchantOrderId, created.pgOrderId)).toEqual({ state: 'PENDING', amount: 49_900, pgOrderId: created.pgOrderId, payments: [] });
    await control.complete(i.merchantOrderId, 'PAY', { deliverWebhook: false });
    const s = await p.status(i.merchantOrderId, created.pgOrderId);
    expect(s.state).toBe('COMPLETED');
    expect(s.payments).toHaveLength(1);
    expect(s.payments[0]).toMatchObject({ state: 'COMPLETED', amount: 49_900, channel: 'UPI' });
    expect(s.payments[0]?.transactionId).toMatch(/^OM/);
    expect(s.payments[0]?.at).toBeGreaterThan(Date.now() - 60_000);
  });

  test('Fail leaves the order FAILED, Cancel CANCELLED (without any attempt); a finished order cannot be finished again', async () => {
    const p = adapter();
    const fail = input();
    const cancel = input();
    await p.createPayment(fail);
    await p.createPayment(cancel);
    await control.complete(fail.merchantOrderId, 'FAIL', { deliverWebhook: false });
    await control.complete(cancel.merchantOrderId, 'CANCEL', { deliverWebhook: false });
    const f = await p.status(fail.merchantOrderId, null);
    expect(f.state).toBe('FAILED');
    expect(f.payments.map((x) => x.state)).toEqual(['FAILED']);
    const c = await p.status(cancel.merchantOrderId, null);
    // PhonePe says FAILED with USER_CANCEL; the adapter reads that as the payer's cancel.
    expect(c).toMatchObject({ state: 'CANCELLED', payments: [] });
    expect(control.order(cancel.merchantOrderId)).toMatchObject({ state: 'FAILED', errorCode: 'USER_CANCEL' });
    await expect(control.complete(fail.merchantOrderId, 'PAY')).rejects.toThrow(/no longer PENDING/);
  });

  test('a double capture shows two COMPLETED payments', async () => {
    const p = adapter();
    const i = input();
    await p.createPayment(i);
    await control.complete(i.merchantOrderId, 'PAY', { deliverWebhook: false, captures: 2 });
    const s = await p.status(i.merchantOrderId, null);
    expect(s.state).toBe('COMPLETED');
    expect(s.payments.filter((x) => x.state === 'COMPLETED')).toHaveLength(2);
    expect(new Set(s.payments.map((x) => x.transactionId)).size).toBe(2);
  });

  test('an order past its expiry is FAILED', async () => {
    const p = adapter();
    const i = input();
    await p.createPayment(i);
    control.expire(i.merchantOrderId);
    expect((await p.status(i.merchantOrderId, null)).state).toBe('FAILED');
    await expect(control.complete(i.merchantOrderId, 'PAY')).rejects.toThrow(/no longer PENDING/);
  });

  test('expireAfter is kept within PhonePe limits (300–3600 s)', async () => {
    const p = adapter();
    const short = input({ expireAfterS: 10 });
    const long = input({ expireAfterS: 86_400 });
    await p.createPayment(short);
    await p.createPayment(long);
    const now = Date.now();
    expect(control.order(short.merchantOrderId)?.expireAt).toBeGreaterThan(now + 290_000);
    expect(control.order(long.merchantOrderId)?.expireAt).toBeLessThanOrEqual(now + 3_600_000);
  });

  test('the sandbox refuses what PhonePe refuses: under ₹1, a bad merchantOrderId, the same one twice', async () => {
    const p = adapter();
    const tooSmall = await appError(p.createPayment(input({ amount: 99 })));
    expect(tooSmall).toMatchObject({ status: 502, message: MSG.failedToCreateOrder });
    await appError(p.createPayment(input({ merchantOrderId: 'has space' })));
    await appError(p.createPayment(input({ redirectUrl: 'javascript:alert(1)' })));
    const i = input();
    await p.createPayment(i);
    expect((await appError(p.createPayment(i))).message).toBe(MSG.failedToCreateOrder);
  });

  test('status of an order the provider does not know: 404', async () => {
    const err = await appError(adapter().status('never-created', null));
    expect(err.status).toBe(404);
  });
});

describe('webhooks from the sandbox', () => {
  test('arrive with the Authorization the adapter verifies; a repeat has the same event id, a second capture another', async () => {
    const p = adapter();
    const i = input();
    const { pgOrderId } = await p.createPayment(i);
    const start = received.length;
    const deliveries = await control.complete(i.merchantOrderId, 'PAY', { captures: 2 });
    expect(deliveries).toHaveLength(2);
    expect(deliveries.map((d) => d.result)).toEqual([
      { status: 200, attempts: 1 },
      { status: 200, attempts: 1 },
    ]);
    const got = received.slice(start);
    expect(got).toHaveLength(2);
    const events = got.map((g) => p.parseWebhook(new Headers(g.authorization ? { authorization: g.authorization } : {}), g.body));
    expect(events[0]).toMatchObject({ type: 'checkout.order.completed', merchantOrderId: i.merchantOrderId, pgOrderId });
    expect(events[0]?.payload).toMatchObject({ event: 'checkout.order.completed', payload: { state: 'COMPLETED', amount: i.amount, merchantOrderId: i.merchantOrderId } });
    expect(events[0]?.eventId).not.toBe(events[1]?.eventId);
    // Delivered again (three times at once): the same body, the same id.
    await Promise.all([control.deliver(deliveries[0]!), control.deliver(deliveries[0]!), control.deliver(deliveries[0]!)]);
    const again = received.slice(start + 2).map((g) => p.parseWebhook(new Headers({ authorization: g.authorization ?? '' }), g.body)?.eventId);
    expect(again).toEqual([events[0]?.eventId, events[0]?.eventId, events[0]?.eventId]);
    // Another merchant's credentials do not verify them.
    const other = createPhonePeProvider({ baseUrl: 'http://unused', clientId: 'a', clientSecret: 'b', clientVersion: '1', webhookUser: 'someone', webhookPassword: 'else1234' });
    expect(other.parseWebhook(new Headers({ authorization: got[0]!.authorization! }), got[0]!.body)).toBeNull();
  });

  test('the failure webhook names checkout.order.failed', async () => {
    const p = adapter();
    const i = input();
    await p.createPayment(i);
    const [d] = await control.complete(i.merchantOrderId, 'CANCEL');
    expect(p.parseWebhook(new Headers(d!.headers), d!.body)).toMatchObject({ type: 'checkout.order.failed', merchantOrderId: i.merchantOrderId });
  });

  test('a delivery answered with non-2xx is sent again until it is taken', async () => {
    const p = adapter();
    const i = input();
    await p.createPayment(i);
    answers = [500, 503];
    const [d] = await control.complete(i.merchantOrderId, 'PAY');
    expect(d?.result).toEqual({ status: 200, attempts: 3 });
  });

  test('the hosted page: Pay sends the browser back at once and the webhook follows on its own', async () => {
    const p = adapter();
    const i = input({ redirectUrl: 'https://example.org/payment-confirmation?merchantTransactionId=abc' });
    const { redirectUrl } = await p.createPayment(i);
    const start = received.length;
    const res = await app.request(redirectUrl!, { method: 'POST', body: new URLSearchParams({ outcome: 'PAY' }) });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(i.redirectUrl);
    await control.idle();
    expect(received.slice(start).map((g) => p.parseWebhook(new Headers({ authorization: g.authorization ?? '' }), g.body)?.type)).toEqual(['checkout.order.completed']);
    expect((await p.status(i.merchantOrderId, null)).state).toBe('COMPLETED');
    // Pressed again (a double click): back to the merchant, nothing changes, nothing is sent.
    const twice = await app.request(redirectUrl!, { method: 'POST', body: new URLSearchParams({ outcome: 'FAIL' }) });
    expect(twice.status).toBe(302);
    await control.idle();
    expect(received.length - start).toBe(1);
    expect((await p.status(i.merchantOrderId, null)).state).toBe('COMPLETED');
  });
});

describe('an unreachable provider', () => {
  let down: Server;
  let downUrl: string;
  beforeAll(async () => {
    down = createServer((_req, res) => {
      res.writeHead(503, { 'content-type': 'text/plain' });
      res.end('maintenance');
    });
    await new Promise<void>((r) => down.listen(0, '127.0.0.1', r));
    downUrl = `http://127.0.0.1:${(down.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((r) => down.close(r)));

  test('5xx: 502 with the providerUnavailable message', async () => {
    const p = createPhonePeProvider({ baseUrl: downUrl, clientId: 'a', clientSecret: 'b', clientVersion: '1', webhookUser: 'u', webhookPassword: 'p' });
    const err = await appError(p.createPayment(input()));
    expect(err).toMatchObject({ status: 502, code: 'BAD_GATEWAY', message: MSG.providerUnavailable });
    expect((await appError(p.status('x', null))).status).toBe(502);
  });

  test('nothing listening: 502 with the providerUnavailable message', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((r) => closed.close(r));
    const p = createPhonePeProvider({ baseUrl: url, clientId: 'a', clientSecret: 'b', clientVersion: '1', webhookUser: 'u', webhookPassword: 'p' });
    expect(await appError(p.createPayment(input()))).toMatchObject({ status: 502, message: MSG.providerUnavailable });
  });

  test('a sandbox mounted on no app: 502', async () => {
    const other = loadConfig(parseEnv({ DATA_DIR: dir, LOG_LEVEL: 'silent' }));
    const providers = createProviders(other, createPhonePeSandbox(other));
    expect(await appError(providers.get('phonepe').createPayment(input()))).toMatchObject({ status: 502, message: MSG.providerUnavailable });
  });
});
