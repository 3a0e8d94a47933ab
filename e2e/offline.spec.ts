import { expect, type Page, test } from '@playwright/test';
import { loginAs, openAppDb, waitForServiceWorker } from './helpers';

const syncStatus = (page: Page) => page.getByTestId('sync-status');

/** Puts the 2099 mock's publish time in the past, as an editor would; the publish job (every
 *  second in the e2e server, PUBLISH_INTERVAL_S) publishes it and tells devices through the
 *  sync stream. */
function publishFutureMock() {
  const db = openAppDb();
  try {
    db.prepare('update question_set set pts = ? where id = ?').run(Math.floor(Date.now() / 60_000) - 1, 'qs-future-mock');
  } finally {
    db.close();
  }
}

test('a learner who opened the app online sees the shell, the exam list and the sync status offline', async ({ page, context }) => {
  await loginAs(page, 'learner');
  await page.goto('/exam-list');
  const cards = page.getByTestId(/^exam-card-/);
  // The seeded sets (other specs may have published more on this run's server).
  await expect(page.getByTestId('exam-card-qs-mock-ssc-1')).toBeVisible();
  const before = await cards.count();
  expect(before).toBeGreaterThanOrEqual(3);
  await expect(page.getByTestId('exam-card-qs-mock-ssc-1').getByTestId('availability')).toHaveText('On this device');
  await expect(syncStatus(page)).toHaveAccessibleName(/Online, All saved/);
  await waitForServiceWorker(page);

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Exams' })).toBeVisible();
  await expect(cards).toHaveCount(before);
  await expect(syncStatus(page)).toHaveAccessibleName(/Offline/);
  await syncStatus(page).click();
  await expect(page.getByRole('dialog', { name: 'Sync status' })).toContainText('You can keep working');
  await page.keyboard.press('Escape');

  // Back online: a set published on the server meanwhile appears without a reload.
  await context.setOffline(false);
  await page.evaluate(() => window.dispatchEvent(new Event('online')));
  publishFutureMock();
  await expect(cards).toHaveCount(before + 1, { timeout: 20_000 });
  await expect(page.getByTestId('exam-card-qs-future-mock').getByTestId('availability')).toHaveText('On this device');
  await expect(syncStatus(page)).toHaveAccessibleName(/Online, All saved/);
});

test('logout closes the replica and "erase" removes this device\'s database', async ({ page }) => {
  await loginAs(page, 'learner');
  await page.goto('/exam-list');
  await expect(page.getByTestId(/^exam-card-/).first()).toBeVisible();
  const names = () => page.evaluate(async () => (await indexedDB.databases()).map((d) => d.name ?? ''));
  await expect.poll(async () => (await names()).some((n) => n.includes('pm-'))).toBe(true);
  await syncStatus(page).click();
  await page.getByRole('button', { name: "Logout and erase this device's data" }).click();
  await page.getByRole('button', { name: 'Erase and logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('button', { name: 'Logout' })).toHaveCount(0);
  await expect.poll(async () => (await names()).filter((n) => n.includes('pm-') && !n.includes('rxdb')).length).toBe(0);
});
