import path from 'node:path';
import Database from 'better-sqlite3';
import { type APIRequestContext, expect, type Page } from '@playwright/test';

export const DEMO = {
  admin: { username: 'admin@example.com', password: 'admin1234' },
  editor: { username: 'editor@example.com', password: 'editor1234' },
  learner: { username: '9000000003', password: 'learner1234' },
} as const;

/** Signs in through the login page and waits for the signed-in bar. */
export async function loginAs(page: Page, who: keyof typeof DEMO) {
  await page.goto('/login');
  const panel = page.getByRole('tabpanel', { name: 'Existing users' });
  await panel.getByLabel('Mobile or e-mail').fill(DEMO[who].username);
  await panel.getByLabel(/^Password/).fill(DEMO[who].password);
  await panel.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
}

/** The e2e server's SQLite file (playwright.config.ts gives each run its own data directory). */
export function openAppDb(): Database.Database {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set (playwright.config.ts sets it)');
  return new Database(path.join(dataDir, 'app.db'), { fileMustExist: true });
}

/**
 * Waits until the service worker controls the page (it registers once the app is idle and
 * claims the page when it activates), so that the app reloads offline.
 */
export async function waitForServiceWorker(page: Page) {
  await page.waitForFunction(async () => Boolean((await navigator.serviceWorker.ready).active), undefined, { timeout: 45_000 });
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller)), { timeout: 15_000 }).toBe(true);
}

/**
 * Buys a plan for a demo account through the real payment flow against the local PhonePe
 * sandbox, over HTTP: order, initiatePayment, the sandbox's hosted page answered "Pay", and the
 * status check. For specs that need a plan without walking through the screens again.
 */
export async function buyPlanThroughSandbox(request: APIRequestContext, who: keyof typeof DEMO, planCode: string) {
  const login = await request.post('/api/UserLogin/login', {
    headers: { authorization: `Basic ${Buffer.from(`${DEMO[who].username}:${DEMO[who].password}`).toString('base64')}` },
  });
  const auth = { authorization: `Bearer ${(await login.json()).token as string}` };
  const order = await request.post('/api/payment', { headers: auth, data: { prodid: planCode, product: planCode } });
  expect(order.ok()).toBe(true);
  const { id, payment } = (await order.json()) as { id: string; payment: { amount: number } };
  const started = await request.post('/api/phonepe/initiatePayment', {
    headers: auth,
    data: { merchantTransactionId: id, amount: payment.amount, merchantUserId: 'anonymous', redirectMode: 'REDIRECT' },
  });
  expect(started.ok()).toBe(true);
  const url = ((await started.json()) as { data: { instrumentResponse: { redirectInfo: { url: string } } } }).data.instrumentResponse.redirectInfo.url;
  const paid = await request.post(url, { form: { outcome: 'PAY' }, maxRedirects: 0 });
  expect(paid.status()).toBe(302);
  await expect
    .poll(async () => ((await (await request.post('/api/phonepe/checkPaymentStatus', { headers: auth, data: { merchantTransactionId: id } })).json()) as { success: boolean }).success)
    .toBe(true);
  return id;
}
