import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MSG } from '@pm/protocol/messages';
import { DEMO_MEMBER_PASSWORD } from '@pm/protocol/fixtures';
import { createApp } from '../../server/src/app';
import { loadConfig, parseEnv } from '../../server/src/env';
import { serveClientFiles } from '../../server/src/lib/client-files';
import { SANDBOX_BANNER_ID, SANDBOX_BANNER_TEXT } from '../../server/src/lib/sandbox-banner';
import { createPaymentServices } from '../../server/src/modules/payments/providers/index';
import { DEMO, type Harness, startHarness, testDatabaseEnv } from '../../server/src/test/harness';
import { ROOT, type ServerProcess, startServer } from './server-process';

/*
 * docs/security.md "Production that cannot be fooled":
 * - a production start paid through the sandbox is refused (exit 1, a fatal line) unless
 *   ALLOW_SANDBOX_PAYMENTS_IN_PRODUCTION=true, and then every page says no money is taken and
 *   the receipts say SANDBOX;
 * - no password published in fixtures/ can be set, in any mode;
 * - the address the payment provider sends the buyer back to starts with PUBLIC_URL, whatever
 *   Host the request named.
 */

const work = mkdtempSync(path.join(tmpdir(), 'pm-production-config-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
/** Tests that start processes (each start loads the server through tsx: seconds on a busy machine). */
const SLOW = 180_000;

const SITE = 'https://trial.parikshamitra.example';
const FORGED_HOST = 'evil.example';

/** A built client in miniature: the shell and the home and login pages, with the twins the build writes. */
function fakeClient(): string {
  const dir = path.join(work, `client-${Math.random().toString(36).slice(2)}`);
  mkdirSync(dir, { recursive: true });
  const page = (title: string) => `<!doctype html><html lang="en"><head><title>${title}</title></head><body><div id="root">${title}</div></body></html>`;
  for (const [file, title] of [
    ['index.html', 'Shell'],
    ['home.html', 'Home'],
    ['login.html', 'Login'],
  ] as const) {
    const html = page(title);
    writeFileSync(path.join(dir, file), html);
    writeFileSync(path.join(dir, `${file}.br`), brotliCompressSync(Buffer.from(html)));
    writeFileSync(path.join(dir, `${file}.gz`), gzipSync(Buffer.from(html)));
  }
  return dir;
}

/** One request on a connection of its own, with any headers (Host included) and a body. */
function send(base: string, method: string, url: string, opts: { headers?: Record<string, string>; body?: string } = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string; json: () => any }>((resolve, reject) => {
    const req = http.request(`${base}${url}`, { method, headers: opts.headers ?? {}, agent: false });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) });
      });
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

const jsonPost = (base: string, url: string, token: string, body: unknown, headers: Record<string, string> = {}) =>
  send(base, 'POST', url, { headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...headers }, body: JSON.stringify(body) });

/** `npm run create-admin` on the data directory, its password on stdin. */
async function createAdmin(dataDir: string, mobile: string, password: string) {
  const { NODE_ENV: _mode, ...env } = process.env;
  return spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/create-admin.ts'), '--name', 'Trial Admin', '--mobile', mobile], {
    cwd: ROOT,
    env: { ...env, DATA_DIR: dataDir, ...(await testDatabaseEnv(dataDir)) },
    input: `${password}\n`,
    encoding: 'utf8',
  });
}

describe('PAYMENT_PROVIDER=sandbox with NODE_ENV=production', () => {
  test('without ALLOW_SANDBOX_PAYMENTS_IN_PRODUCTION the server refuses to start: exit 1 and a fatal line saying why', async () => {
    const dataDir = path.join(work, 'refused', 'data');
    const server = await startServer({
      dataDir,
      logFile: path.join(work, 'refused.log'),
      env: { NODE_ENV: 'production', PAYMENT_PROVIDER: 'sandbox', PUBLIC_URL: SITE },
    });
    const { code } = await server.exited;
    expect(code).toBe(1);
    const fatal = server.log().find((l) => l.level === 60);
    expect(fatal?.msg).toMatch(/refusing to start/);
    expect(fatal?.msg).toMatch(/PAYMENT_PROVIDER=sandbox takes no money/);
    expect(fatal?.msg).toMatch(/ALLOW_SANDBOX_PAYMENTS_IN_PRODUCTION=true/);
    expect(fatal?.problems).toEqual([expect.objectContaining({ variable: 'PAYMENT_PROVIDER' })]);
    expect(server.log().some((l) => l.msg === 'listening')).toBe(false);
  }, SLOW);

  test('the opt-in is a boolean: any other value is refused too', () => {
    const env = { DATA_DIR: path.join(work, 'parse'), NODE_ENV: 'production', PAYMENT_PROVIDER: 'sandbox', PUBLIC_URL: SITE };
    expect(() => parseEnv(env)).toThrow(/PAYMENT_PROVIDER=sandbox takes no money/);
    expect(() => parseEnv({ ...env, ALLOW_SANDBOX_PAYMENTS_IN_PRODUCTION: 'false' })).toThrow(/ALLOW_SANDBOX_PAYMENTS_IN_PRODUCTION=true/);
    expect(() => parseEnv({ ...env, ALLOW_SANDBOX_PAYMENTS_IN_PRODUCTION: 'maybe' })).toThrow(/ALLOW_SANDBOX_PAYMENTS_IN_PRODUCTION/);
    expect(parseEnv({ ...env, ALLOW_SANDBOX_PAYMENTS_IN_PRODUCTION: 'true' }).PAYMENT_PROVIDER).toBe('sandbox');
  });

  describe('with ALLOW_SANDBOX_PAYMENTS_IN_PRODUCTION=true', () => {
    const dataDir = path.join(work, 'trial', 'data');
    let server: ServerProcess;
    beforeAll(async () => {
      server = await startServer({
        dataDir,
        logFile: path.join(work, 'trial.log'),
        env: { NODE_ENV: 'production', PAYMENT_PROVIDER: 'sandbox', ALLOW_SANDBOX_PAYMENTS_IN_PRODUCTION: 'true', PUBLIC_URL: SITE, CLIENT_DIR: fakeClient() },
      });
      await server.ready();
    }, SLOW);
    afterAll(() => server.stop());

    test('every page carries the banner that no money is taken, in English and Hindi, also the precompressed ones', async () => {
      for (const url of ['/', '/login', '/index.html', '/plan', '/receipt/some-order', '/admin/users']) {
        for (const encoding of ['br', 'gzip', 'identity']) {
          const r = await send(server.base, 'GET', url, { headers: { 'accept-encoding': encoding } });
          expect(r.status, `${url} ${encoding}`).toBe(200);
          expect(r.headers['content-type'], url).toMatch(/^text\/html/);
          // Sent as text: the build's compressed twin would not carry the banner.
          expect(r.headers['content-encoding'], url).toBeUndefined();
          expect(r.text, `${url} ${encoding}`).toContain(`id="${SANDBOX_BANNER_ID}"`);
          expect(r.text).toContain(SANDBOX_BANNER_TEXT.en);
          expect(r.text).toContain(SANDBOX_BANNER_TEXT.hi);
          // Inside the body, once, after the app's root (which React owns).
          expect(r.text.indexOf(SANDBOX_BANNER_ID)).toBeGreaterThan(r.text.indexOf('id="root"'));
          expect(r.text.indexOf(SANDBOX_BANNER_ID)).toBeLessThan(r.text.indexOf('</body>'));
          expect(r.text.split(SANDBOX_BANNER_ID)).toHaveLength(2);
        }
      }
      // The API's answers are left as they are.
      const health = await send(server.base, 'GET', '/api/health');
      expect(health.json()).toEqual({ success: true });
    });

    test("the sandbox's Pay grants the plan with a receipt that says SANDBOX; the way back is on PUBLIC_URL, not the forged Host", async () => {
      const made = await createAdmin(dataDir, '9812300001', 'trial admin passphrase');
      expect(made.status, made.stderr).toBe(0);
      const login = await send(server.base, 'POST', '/api/UserLogin/login', { headers: { authorization: `Basic ${Buffer.from('9812300001:trial admin passphrase').toString('base64')}` } });
      expect(login.status, login.text).toBe(200);
      const token = login.json().token as string;

      const order = await jsonPost(server.base, '/api/payment', token, { prodid: 'ONE_MONTH_PLAN', product: 'ONE_MONTH_PLAN' });
      expect(order.status, order.text).toBe(200);
      const id = order.json().id as string;
      // The request names another host, as anyone can; a client address on it is not taken either.
      const forged = { host: FORGED_HOST, 'x-forwarded-host': FORGED_HOST };
      const initiated = await jsonPost(
        server.base,
        '/api/phonepe/initiatePayment',
        token,
        { merchantTransactionId: id, amount: 199, redirectUrl: `http://${FORGED_HOST}/payment-confirmation?merchantTransactionId=${id}` },
        forged,
      );
      expect(initiated.status, initiated.text).toBe(200);
      const payPage = initiated.json().data.instrumentResponse.redirectInfo.url as string;
      expect(payPage).toMatch(/^\/sandbox\/phonepe\/pay\//);

      // The buyer presses Pay on the sandbox's page; it sends the browser back where it was told to.
      const paid = await send(server.base, 'POST', payPage, { headers: { 'content-type': 'application/x-www-form-urlencoded', ...forged }, body: 'outcome=PAY' });
      expect(paid.status).toBe(302);
      const back = new URL(paid.headers.location!);
      expect(back.origin).toBe(SITE);
      expect(back.pathname).toBe('/payment-confirmation');
      expect(back.searchParams.get('merchantTransactionId')).toBe(id);
      expect(paid.headers.location).not.toContain(FORGED_HOST);

      const status = await jsonPost(server.base, '/api/phonepe/checkPaymentStatus', token, { merchantTransactionId: id });
      expect(status.json()).toMatchObject({ success: true, data: { status: 'PAID', receiptNo: expect.any(Number) } });
      const receipt = await send(server.base, 'GET', `/api/payment/receipt/${id}`, { headers: { authorization: `Bearer ${token}` } });
      expect(receipt.status, receipt.text).toBe(200);
      expect(receipt.json().data).toMatchObject({ orderId: id, receiptNo: expect.any(Number), sandbox: true });
    }, SLOW);
  });
});

describe('PUBLIC_URL', () => {
  const base = { DATA_DIR: path.join(work, 'parse') };
  const phonepe = {
    PAYMENT_PROVIDER: 'phonepe',
    PHONEPE_CLIENT_ID: 'M_LIVE',
    PHONEPE_CLIENT_SECRET: 'secret',
    PHONEPE_CLIENT_VERSION: '1',
    PHONEPE_WEBHOOK_USER: 'pariksha_hook',
    PHONEPE_WEBHOOK_PASSWORD: 'hookpass123',
  };

  test('is required with NODE_ENV=production, naming the variable', () => {
    expect(() => parseEnv({ ...base, ...phonepe, NODE_ENV: 'production' })).toThrow(/PUBLIC_URL is required when NODE_ENV=production/);
    expect(parseEnv({ ...base, ...phonepe, NODE_ENV: 'production', PUBLIC_URL: 'https://parikshamitra.example/' }).PUBLIC_URL).toBe('https://parikshamitra.example');
  });

  test('is an origin only: a path, a query, credentials or another scheme are refused', () => {
    for (const bad of ['https://parikshamitra.example/app', 'https://parikshamitra.example/?a=1', 'https://user:pw@parikshamitra.example', 'ftp://parikshamitra.example', 'parikshamitra.example']) {
      expect(() => parseEnv({ ...base, PUBLIC_URL: bad }), bad).toThrow(/PUBLIC_URL/);
    }
    expect(parseEnv({ ...base, PUBLIC_URL: 'http://192.168.1.20:8080' }).PUBLIC_URL).toBe('http://192.168.1.20:8080');
  });

  test('defaults to the listening address outside production (every interface is reached as localhost)', () => {
    expect(parseEnv(base).PUBLIC_URL).toBe('http://127.0.0.1:8080');
    expect(parseEnv({ ...base, HOST: '0.0.0.0', PORT: '3000' }).PUBLIC_URL).toBe('http://localhost:3000');
    expect(parseEnv({ ...base, HOST: '::1', PORT: '3000' }).PUBLIC_URL).toBe('http://[::1]:3000');
  });
});

describe('in one app (the demo)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.destroy());

  test('a request naming another host (and, behind the proxy, another scheme) gets the return address on the configured origin', async () => {
    const token = await h.tokenOf('learner');
    const bought = await h.request('POST', '/payment', { token, body: { prodid: 'ONE_MONTH_PLAN', product: 'ONE_MONTH_PLAN' } });
    const id = bought.body.id as string;
    const r = await h.app.request(`https://${FORGED_HOST}/api/phonepe/initiatePayment`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, host: FORGED_HOST, 'x-forwarded-proto': 'https' },
      body: JSON.stringify({ merchantTransactionId: id, amount: 199, redirectUrl: `https://${FORGED_HOST}/payment-confirmation?merchantTransactionId=${id}` }),
    });
    expect(r.status).toBe(200);
    const payPage = ((await r.json()) as { data: { instrumentResponse: { redirectInfo: { url: string } } } }).data.instrumentResponse.redirectInfo.url;
    const paid = await h.app.request(payPage, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'outcome=PAY' });
    expect(paid.status).toBe(302);
    expect(new URL(paid.headers.get('location')!).origin).toBe(h.deps.config.PUBLIC_URL);
    expect(h.deps.config.PUBLIC_URL).toBe('http://127.0.0.1:8080');
  });

  test('a client address on the configured origin is kept as it is', async () => {
    const token = await h.tokenOf('learner');
    const bought = await h.request('POST', '/payment', { token, body: { prodid: 'ONE_MONTH_PLAN', product: 'ONE_MONTH_PLAN' } });
    const id = bought.body.id as string;
    const own = `${h.deps.config.PUBLIC_URL}/payment-confirmation?merchantTransactionId=${id}&amount=199&redirection_url=%2Fplan`;
    const r = await h.request('POST', '/phonepe/initiatePayment', { token, body: { merchantTransactionId: id, amount: 199, redirectUrl: own } });
    const paid = await h.app.request(r.body.data.instrumentResponse.redirectInfo.url as string, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'outcome=PAY',
    });
    expect(paid.headers.get('location')).toBe(own);
  });

  test('outside production the pages carry no sandbox banner', async () => {
    const app = createApp(h.deps);
    serveClientFiles(app, fakeClient());
    for (const url of ['/', '/login', '/exam-list']) {
      const res = await app.request(url);
      expect(res.status).toBe(200);
      expect(await res.text()).not.toContain(SANDBOX_BANNER_ID);
    }
  });

  test('production with a real provider carries no banner either', async () => {
    const config = loadConfig(
      parseEnv({
        DATA_DIR: h.dataDir,
        LOG_LEVEL: 'silent',
        NODE_ENV: 'production',
        PUBLIC_URL: SITE,
        PAYMENT_PROVIDER: 'razorpay',
        RAZORPAY_KEY_ID: 'rzp_live_1',
        RAZORPAY_KEY_SECRET: 'k',
        RAZORPAY_WEBHOOK_SECRET: 'w',
      }),
    );
    // Its own payment services, as its configuration makes them: Razorpay, no sandbox.
    const app = createApp({ ...h.deps, config, payments: createPaymentServices(config) });
    serveClientFiles(app, fakeClient());
    const res = await app.request('/', { headers: { 'accept-encoding': 'br' } });
    expect(res.headers.get('content-encoding')).toBe('br');
    const plain = await app.request('/');
    expect(await plain.text()).not.toContain(SANDBOX_BANNER_ID);
  });
});

describe('the passwords published in fixtures/', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.destroy());

  /** Every string under a "password" key in the JSON files of fixtures/, read here on their own, and the demo members'. */
  const published = (() => {
    const found: string[] = [DEMO_MEMBER_PASSWORD];
    const dir = path.join(ROOT, 'fixtures');
    for (const file of ['accounts.json', 'demo-sales.json', 'permissions.json', 'plans.json', 'question-sets.json', 'questions.json', 'roles.json', 'tags.json']) {
      const text = readFileSync(path.join(dir, file), 'utf8');
      for (const m of text.matchAll(/"(\w*password\w*)"\s*:\s*"([^"]*)"/gi)) found.push(m[2]!);
    }
    return [...new Set(found)];
  })();

  test('are the demo passwords of the README', () => {
    expect(published).toEqual(expect.arrayContaining(['admin1234', 'editor1234', 'learner1234', 'member1234']));
  });

  test('the demo seed still creates the demo accounts with them (development)', async () => {
    for (const who of Object.values(DEMO)) expect((await h.login(who.username, who.password)).status, who.username).toBe(200);
  });

  let mobile = 9833300000;
  test.each(published.flatMap((p) => [p, p.toUpperCase(), ` ${p} `]))('signup refuses %j, naming the rule in English', async (password) => {
    mobile += 1;
    const r = await h.request('POST', '/UserLogin', { body: { n: 'Published Person', m: String(mobile), password, p: DEMO.admin.id, terms: true } });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ success: false, msg: MSG.passwordPublished });
  });

  test('an admin cannot set one, nor can anyone change theirs to one', async () => {
    const admin = await h.tokenOf('admin');
    for (const password of published) {
      const reset = await h.request('PUT', '/UserLogin/resetUserPasswordByAdmin', { token: admin, body: { personId: DEMO.learner.id, password } });
      expect(reset.status, password).toBe(400);
      expect(reset.body.msg).toBe(MSG.passwordPublished);
    }
    const learner = await h.tokenOf('learner');
    const change = await h.request('PATCH', '/UserLogin/updatePasswordWithOldPassword', {
      token: learner,
      body: { oldPassword: DEMO.learner.password, newPassword: DEMO.admin.password, confirmPassword: DEMO.admin.password },
    });
    expect(change.status).toBe(400);
    expect(change.body.msg).toBe(MSG.passwordPublished);
    // Nothing changed: the learner still signs in with the demo password.
    expect((await h.login(DEMO.learner.username, DEMO.learner.password)).status).toBe(200);
  });

  test('create-admin refuses one', async () => {
    const made = await createAdmin(path.join(work, 'create-admin', 'data'), '9812300002', DEMO.admin.password);
    expect(made.status).not.toBe(0);
    expect(made.stderr).toContain(MSG.passwordPublished);
  }, SLOW);
});
