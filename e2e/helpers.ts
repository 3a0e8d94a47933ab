import path from 'node:path';
import Database from 'better-sqlite3';
import { expect, type Page } from '@playwright/test';

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
