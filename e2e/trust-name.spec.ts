import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, request as requestContext, test } from '@playwright/test';
import { DEFAULT_TRUST_NAME } from '@pm/protocol/site';
import { type ServerProcess, startServer } from '../tests/security/server-process';
import { buyPlanThroughSandbox, DEMO } from './helpers';

/*
 * docs/configuration.md, TRUST_NAME: one trust name, set for the installation, on the home page,
 * About, the footer and receipts, in English and Hindi. A server of its own with another name
 * (the spec's server keeps the demo's), serving the same build. At 360 px.
 */

test.use({ viewport: { width: 360, height: 740 } });

const NAME = 'Vidya Daan Seva Trust';
const NAME_HI = 'विद्या दान सेवा ट्रस्ट';
let server: ServerProcess;
let dataDir: string;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  dataDir = mkdtempSync(path.join(tmpdir(), 'pm-e2e-trust-'));
  server = await startServer({ dataDir, logFile: path.join(dataDir, 'server.log'), env: { TRUST_NAME: NAME, TRUST_NAME_HI: NAME_HI, LOG_LEVEL: 'warn' } });
  await server.ready();
});
test.afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

test('the home page, About, the footer and a receipt name the configured trust, in English and in Hindi', async ({ page }) => {
  test.setTimeout(180_000);
  const base = server.base;
  const nowhere = (text: string) => expect(page.getByText(text)).toHaveCount(0);

  // The home page as the build drew it (before any script) and after the app has started.
  await page.goto(`${base}/`);
  await expect(page.getByText(new RegExp(`run by ${NAME}`)).first()).toBeVisible();
  await expect(page.locator('footer')).toContainText(`${NAME}. All rights reserved.`);
  await nowhere(DEFAULT_TRUST_NAME.en);

  await page.goto(`${base}/about-us`);
  await expect(page.getByText(new RegExp(`run by ${NAME}`)).first()).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Who runs Pariksha Mitra' })).toBeVisible();
  await expect(page.locator('footer')).toContainText(NAME);
  await nowhere(DEFAULT_TRUST_NAME.en);

  // A receipt of the demo learner's paid plan.
  const api = await requestContext.newContext({ baseURL: base });
  const orderId = await buyPlanThroughSandbox(api, 'learner', 'ONE_MONTH_PLAN');
  await api.dispose();
  await page.goto(`${base}/login`);
  const panel = page.getByRole('tabpanel', { name: 'Existing users' });
  await panel.getByLabel('Mobile or e-mail').fill(DEMO.learner.username);
  await panel.getByLabel(/^Password/).fill(DEMO.learner.password);
  await panel.getByRole('button', { name: 'Login' }).click();
  await expect(page).not.toHaveURL(/\/login/);
  await page.goto(`${base}/receipt/${orderId}`);
  await expect(page.getByTestId('receipt').getByRole('heading', { level: 1 })).toHaveText(NAME);

  // In Hindi: the Hindi name everywhere.
  await page.evaluate(() => localStorage.setItem('lang', 'hi'));
  await page.reload();
  await expect(page.getByTestId('receipt').getByRole('heading', { level: 1 })).toHaveText(NAME_HI);
  await page.goto(`${base}/about-us`);
  await expect(page.getByText(NAME_HI).first()).toBeVisible();
  await expect(page.locator('footer')).toContainText(NAME_HI);
  await nowhere(DEFAULT_TRUST_NAME.hi);
  await page.goto(`${base}/`);
  await expect(page.getByText(NAME_HI).first()).toBeVisible();
  await nowhere(DEFAULT_TRUST_NAME.hi);
});
