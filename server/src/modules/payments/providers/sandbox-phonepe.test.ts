import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '#server/app';
import { loadConfig, parseEnv } from '#server/env';
import { SITE_CSP } from '#server/lib/security-headers';
import { serveApp } from '#server/serve';
import { type Harness, startHarness } from '#server/test/harness';
import { createPaymentServices } from './index';
import { sandboxControl } from './sandbox-phonepe';

/*
 * The local PhonePe inside the real app (server/src/test/harness.ts): the adapter chosen by the
 * default configuration reaches it in-process, the hosted page works under the site's CSP, the
 * protocol refuses what PhonePe refuses, and a production installation that takes real payments
 * has no sandbox at all.
 */

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ seed: false });
});
afterAll(async () => {
  await sandboxControl(h.deps.payments.sandbox).idle();
  h.destroy();
});

let n = 0;
const order = (over: Record<string, unknown> = {}) => ({
  merchantOrderId: `sandbox-${++n}`,
  amount: 19_900,
  redirectUrl: '/payment-confirmation?merchantTransactionId=m',
  expireAfterS: 1200,
  ...over,
});

describe('the default configuration', () => {
  test("is the sandbox: 'phonepe' goes to it in-process, and the test control finishes its orders", async () => {
    expect(h.deps.config.PAYMENT_PROVIDER).toBe('sandbox');
    const providers = h.deps.payments.providers;
    expect(providers.defaultName).toBe('phonepe');
    expect(providers.has('razorpay')).toBe(false);
    const phonepe = providers.get('phonepe');
    const i = order();
    const created = await phonepe.createPayment(i);
    expect((await phonepe.status(i.merchantOrderId, created.pgOrderId)).state).toBe('PENDING');
    const control = sandboxControl(h.deps.payments.sandbox);
    await control.complete(i.merchantOrderId, 'PAY', { deliverWebhook: false });
    expect(await phonepe.status(i.merchantOrderId, created.pgOrderId)).toMatchObject({ state: 'COMPLETED', amount: 19_900, pgOrderId: created.pgOrderId });
  });
});

describe('the hosted page', () => {
  test('shows the amount and Pay / Fail / Cancel in English and Hindi, with no script, under the site CSP, not cached', async () => {
    const { redirectUrl } = await h.deps.payments.providers.get('phonepe').createPayment(order({ amount: 123_456 }));
    const res = await h.app.request(redirectUrl!);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toBe(SITE_CSP);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const html = await res.text();
    expect(html).not.toMatch(/<script|\son[a-z]+=|javascript:/i);
    expect(html).toContain('₹1,234.56');
    for (const text of ['Pay', 'भुगतान करें', 'Fail', 'विफल करें', 'Cancel', 'रद्द करें']) expect(html).toContain(text);
    // The form posts to this site (CSP form-action 'self').
    expect(html).toContain(`<form method="post" action="${redirectUrl}">`);
  });

  test('a finished order shows its outcome and the way back, no buttons', async () => {
    const i = order();
    const { redirectUrl } = await h.deps.payments.providers.get('phonepe').createPayment(i);
    await sandboxControl(h.deps.payments.sandbox).complete(i.merchantOrderId, 'FAIL', { deliverWebhook: false });
    const html = await (await h.app.request(redirectUrl!)).text();
    expect(html).toContain('This order has failed or expired.');
    expect(html).not.toContain('<button');
    expect(html).toContain(`href="${i.redirectUrl}"`);
  });

  test('an unknown order: 404; a form without a valid outcome: 400, nothing changes', async () => {
    expect((await h.app.request('/sandbox/phonepe/pay/OMO-nope')).status).toBe(404);
    const i = order();
    const { redirectUrl } = await h.deps.payments.providers.get('phonepe').createPayment(i);
    const bad = await h.app.request(redirectUrl!, { method: 'POST', body: new URLSearchParams({ outcome: 'STEAL' }) });
    expect(bad.status).toBe(400);
    expect(sandboxControl(h.deps.payments.sandbox).order(i.merchantOrderId)?.state).toBe('PENDING');
  });
});

describe('over real HTTP (headers written by Node, a browser-like form post)', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = await new Promise<Server>((resolve) => {
      const s = serveApp(h.app.fetch, { hostname: '127.0.0.1', port: 0 }, () => resolve(s));
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  test('the page has the site CSP and no-store; Cancel posts, fails the order and sends the browser back', async () => {
    const i = order({ redirectUrl: '/payment-confirmation?merchantTransactionId=tcp' });
    const { redirectUrl } = await h.deps.payments.providers.get('phonepe').createPayment(i);
    const page = await fetch(base + redirectUrl!);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(SITE_CSP);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    const posted = await fetch(base + redirectUrl!, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'outcome=CANCEL',
      redirect: 'manual',
    });
    expect(posted.status).toBe(302);
    expect(posted.headers.get('location')).toBe(i.redirectUrl);
    expect(sandboxControl(h.deps.payments.sandbox).order(i.merchantOrderId)).toMatchObject({ state: 'FAILED', errorCode: 'USER_CANCEL', paymentDetails: [] });
  });
});

describe('the protocol', () => {
  const base = '/sandbox/phonepe';
  const token = async () => {
    const c = sandboxControl(h.deps.payments.sandbox).credentials;
    const res = await h.app.request(`${base}/v1/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: c.clientId, client_version: c.clientVersion, client_secret: c.clientSecret, grant_type: 'client_credentials' }).toString(),
    });
    expect(res.status).toBe(200);
    return (await res.json()) as { access_token: string; token_type: string; expires_at: number; issued_at: number };
  };

  test('the token: O-Bearer, expires_at in seconds; wrong credentials are refused', async () => {
    const t = await token();
    expect(t.token_type).toBe('O-Bearer');
    expect(t.expires_at - t.issued_at).toBe(3600);
    expect(Math.abs(t.issued_at - Date.now() / 1000)).toBeLessThan(5);
    const refused = await h.app.request(`${base}/v1/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: 'PARIKSHA_MITRA_SANDBOX', client_version: '1', client_secret: 'guess', grant_type: 'client_credentials' }).toString(),
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ code: 'INVALID_CLIENT' });
  });

  test('pay and status need the O-Bearer token', async () => {
    const t = await token();
    const body = JSON.stringify({ merchantOrderId: `raw-${++n}`, amount: 100, paymentFlow: { type: 'PG_CHECKOUT', merchantUrls: { redirectUrl: 'https://example.org/back' } } });
    for (const authorization of [undefined, `Bearer ${t.access_token}`, 'O-Bearer forged']) {
      const res = await h.app.request(`${base}/checkout/v2/pay`, { method: 'POST', headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) }, body });
      expect(res.status, String(authorization)).toBe(401);
    }
    const ok = await h.app.request(`${base}/checkout/v2/pay`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `O-Bearer ${t.access_token}` }, body });
    expect(ok.status).toBe(200);
    const paid = (await ok.json()) as { orderId: string; state: string; expireAt: number; redirectUrl: string };
    expect(paid).toMatchObject({ state: 'PENDING', redirectUrl: `${base}/pay/${paid.orderId}` });
    // PhonePe's default expiry is 20 minutes.
    expect(paid.expireAt - Date.now()).toBeGreaterThan(19 * 60_000);
    const merchantOrderId = (JSON.parse(body) as { merchantOrderId: string }).merchantOrderId;
    const status = await h.app.request(`${base}/checkout/v2/order/${merchantOrderId}/status`, { headers: { authorization: `O-Bearer ${t.access_token}` } });
    expect(await status.json()).toMatchObject({ orderId: paid.orderId, merchantOrderId, state: 'PENDING', amount: 100, paymentDetails: [] });
    expect((await h.app.request(`${base}/checkout/v2/order/${merchantOrderId}/status`)).status).toBe(401);
  });
});

describe('a production installation', () => {
  test('taking real payments has no sandbox; choosing the sandbox keeps it', async () => {
    const real = loadConfig(
      parseEnv({
        DATA_DIR: h.dataDir,
        LOG_LEVEL: 'silent',
        NODE_ENV: 'production',
        PUBLIC_URL: 'https://parikshamitra.example',
        PAYMENT_PROVIDER: 'phonepe',
        PHONEPE_CLIENT_ID: 'M_LIVE',
        PHONEPE_CLIENT_SECRET: 'secret',
        PHONEPE_CLIENT_VERSION: '1',
        PHONEPE_WEBHOOK_USER: 'pariksha_hook',
        PHONEPE_WEBHOOK_PASSWORD: 'hookpass123',
      }),
    );
    const realPayments = createPaymentServices(real);
    expect(realPayments.sandbox).toBeNull();
    const app = createApp({ ...h.deps, config: real, payments: realPayments });
    const res = await app.request('/sandbox/phonepe/v1/oauth/token', { method: 'POST' });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ success: false, code: 'NOT_FOUND' });

    const sandbox = loadConfig(
      parseEnv({
        DATA_DIR: h.dataDir,
        LOG_LEVEL: 'silent',
        NODE_ENV: 'production',
        PUBLIC_URL: 'https://parikshamitra.example',
        PAYMENT_PROVIDER: 'sandbox',
        ALLOW_SANDBOX_PAYMENTS_IN_PRODUCTION: 'true',
      }),
    );
    const payments = createPaymentServices(sandbox);
    expect(payments.sandbox).not.toBeNull();
    const withSandbox = createApp({ ...h.deps, config: sandbox, payments });
    expect((await withSandbox.request('/sandbox/phonepe/pay/OMO-nope')).status).toBe(404);
    const { redirectUrl } = await payments.providers.get('phonepe').createPayment(order());
    expect((await withSandbox.request(redirectUrl!)).status).toBe(200);
  });
});
