import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { createHash } from 'node:crypto';
import { loginAs, openAppDb, pngBytes, waitForServiceWorker } from './helpers';

// This spec needs the service worker (playwright.config.ts blocks it elsewhere).
test.use({ serviceWorkers: 'allow' });

/*
 * docs/authoring.md "Offline authoring": an editor edits a question and assembles a set with the network off, reloads
 * offline, and nothing is lost when the network is back; two editors changing one question end
 * with a side-by-side choice.
 * q-gk-010 and q-arithmetic-013 are in no seeded set, so no other spec depends on their words.
 */

const stamp = Date.now().toString(36);
const serverSet = (label: string) => {
  const db = openAppDb();
  try {
    return (db.prepare('select id, q, draft from question_set where l = ? and deleted = 0').get(label) as { id: string; q: string; draft: number } | undefined) ?? null;
  } finally {
    db.close();
  }
};
const serverText = (id: string) => {
  const db = openAppDb();
  try {
    return (db.prepare('select q, version from question where id = ?').get(id) as { q: string; version: number } | undefined) ?? null;
  } finally {
    db.close();
  }
};

/** The question bank is on this device (the sync bar counts it). */
async function bankOnDevice(page: Page) {
  await expect(page.getByTestId('editor-on-device')).toContainText(/[1-9]\d* questions on this device/, { timeout: 30_000 });
}

async function appendToQuestion(page: Page, text: string) {
  const question = page.getByRole('textbox', { name: 'Question', exact: true });
  await expect(question).not.toBeEmpty({ timeout: 15_000 });
  await question.click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type(text);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
}

async function goOnline(context: BrowserContext, page: Page) {
  await context.setOffline(false);
  await page.evaluate(() => window.dispatchEvent(new Event('online')));
}

test('an editor edits a question and creates a set offline, reloads offline, and both are uploaded when the network is back', async ({ browser }) => {
  test.setTimeout(180_000);
  const context = await browser.newContext();
  const page = await context.newPage();
  await loginAs(page, 'editor');
  await page.goto('/question-editor?id=q-gk-010');
  await bankOnDevice(page);
  await waitForServiceWorker(page);
  const before = serverText('q-gk-010')!;

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByText('You are offline: the question bank on this device is used.')).toBeVisible({ timeout: 20_000 });
  const edit = ` offline-${stamp}`;
  // An image added offline: kept on the device under the address the server will give it.
  const png = pngBytes([30, 90 + (Date.now() % 120), 200]);
  const imageUrl = `/media/${createHash('sha256').update(png).digest('hex')}.png`;
  await page.getByLabel('Insert image').first().setInputFiles({ name: 'offline.png', mimeType: 'image/png', buffer: png });
  await expect(page.getByText('You are offline: the image is kept on this device and will upload with the question.').first()).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole('textbox', { name: 'Question', exact: true }).locator(`img[src="${imageUrl}"]`)).toBeVisible();
  await appendToQuestion(page, edit);
  await expect(page.getByText('Saved on this device. It will be uploaded when you are online.').first()).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId('editor-pending')).toContainText('1 change saved on this device');
  // The shell's sync status counts it with everything else waiting to upload.
  await expect(page.getByRole('button', { name: /Sync status: Offline, 1 change waiting to upload/ })).toBeVisible();
  expect(serverText('q-gk-010')?.q).not.toContain(edit);

  // A reload with the network still off: the edit and its pending upload are still here.
  await page.reload();
  await expect(page.getByRole('textbox', { name: 'Question', exact: true })).toContainText(edit.trim(), { timeout: 15_000 });
  await expect(page.getByTestId('editor-pending')).toContainText('1 change saved on this device');
  // The list works offline too, from the device.
  await page.goto('/question-list');
  await expect(page.getByText(edit.trim()).first()).toBeVisible({ timeout: 15_000 });

  // A draft set holding the question just edited, assembled offline.
  const label = `Offline set ${stamp}`;
  await page.goto('/question-set');
  await page.getByRole('button', { name: 'New question set' }).click();
  await page.getByLabel('Label').fill(label);
  await page.getByRole('tab', { name: 'Questions' }).click();
  await page.getByRole('button', { name: 'Add questions' }).first().click();
  const picker = page.getByRole('dialog');
  await picker.getByLabel('Search').fill(`offline-${stamp}`);
  await expect(picker.getByText('1 question', { exact: true })).toBeVisible({ timeout: 15_000 });
  await picker.getByRole('checkbox', { name: 'Select question' }).first().check();
  await picker.getByRole('button', { name: 'Done' }).click();
  await page.getByRole('button', { name: 'Save draft', exact: true }).click();
  await expect(page.getByText('Question set saved on this device. It will upload when you are online.').first()).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId('editor-pending')).toContainText('2 changes saved on this device');
  expect(serverSet(label)).toBeNull();

  // Reloaded offline: the set is still on the device, in the list of sets.
  await page.reload();
  await expect(page.getByLabel('Label')).toHaveValue(label, { timeout: 20_000 });
  await page.getByRole('tab', { name: 'Question Set List' }).click();
  await expect(page.getByText(label).first()).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId('editor-pending')).toContainText('2 changes saved on this device');

  await goOnline(context, page);
  await expect(page.getByTestId('editor-pending')).toHaveCount(0, { timeout: 30_000 });
  await expect.poll(() => serverSet(label)?.q ?? '', { timeout: 15_000 }).toContain('q-gk-010');
  expect(serverSet(label)?.draft).toBe(1);
  await expect(page.getByRole('button', { name: /Sync status: Online, All saved/ })).toBeVisible({ timeout: 15_000 });
  await expect.poll(() => serverText('q-gk-010')?.q ?? '', { timeout: 15_000 }).toContain(edit.trim());
  // The image went up with the question: the server holds it under the same address.
  expect(serverText('q-gk-010')?.q).toContain(imageUrl);
  const served = await context.request.get(imageUrl);
  expect(served.status()).toBe(200);
  expect(Buffer.from(await served.body()).equals(png)).toBe(true);
  expect(serverText('q-gk-010')?.version).toBe(before.version + 1);
  await context.close();
});

test('two editors change one question: the second sees both versions side by side and chooses', async ({ browser }) => {
  test.setTimeout(150_000);
  const first = await browser.newContext();
  const second = await browser.newContext();
  const a = await first.newPage();
  const b = await second.newPage();
  await loginAs(a, 'editor');
  await loginAs(b, 'admin');
  await a.goto('/question-editor?id=q-arithmetic-013');
  await b.goto('/question-editor?id=q-arithmetic-013');
  await bankOnDevice(a);
  await bankOnDevice(b);
  await waitForServiceWorker(b);

  // The second editor works offline on the version they have.
  await second.setOffline(true);
  await b.reload();
  const theirs = ` second-${stamp}`;
  await appendToQuestion(b, theirs);
  await expect(b.getByTestId('editor-pending')).toBeVisible();

  // Meanwhile the first saves online.
  const mine = ` first-${stamp}`;
  await appendToQuestion(a, mine);
  await expect(a.getByText('Question updated successfully').first()).toBeVisible({ timeout: 15_000 });
  await expect.poll(() => serverText('q-arithmetic-013')?.q ?? '').toContain(mine.trim());

  // The second comes back: a conflict, nothing overwritten.
  await goOnline(second, b);
  await expect(b.getByTestId('editor-conflicts')).toContainText('1 question was changed by someone else', { timeout: 30_000 });
  expect(serverText('q-arithmetic-013')?.q).toContain(mine.trim());
  expect(serverText('q-arithmetic-013')?.q).not.toContain(theirs.trim());
  await b.getByTestId('editor-conflicts').getByRole('button', { name: 'Review' }).click();
  const dialog = b.getByRole('dialog', { name: 'Choose the version to keep' });
  const versions = dialog.getByTestId('conflict-version');
  await expect(versions.nth(0)).toContainText('Your version (this device)');
  await expect(versions.nth(0)).toContainText(theirs.trim());
  await expect(versions.nth(1)).toContainText('Saved version (server)');
  await expect(versions.nth(1)).toContainText(mine.trim());
  await dialog.getByRole('button', { name: 'Keep my version' }).click();
  await expect(b.getByTestId('editor-conflicts')).toHaveCount(0);
  await expect.poll(() => serverText('q-arithmetic-013')?.q ?? '', { timeout: 30_000 }).toContain(theirs.trim());
  await first.close();
  await second.close();
});

test('one tab of the browser holds the bank; a second works with the server and takes the bank over when the first closes', async ({ browser }) => {
  test.setTimeout(120_000);
  const context = await browser.newContext();
  const first = await context.newPage();
  await loginAs(first, 'editor');
  await first.goto('/question-list');
  await bankOnDevice(first);

  const second = await context.newPage();
  await second.goto('/question-list');
  // (The tab loads the authoring code and asks for the bank first: slow on a loaded CI machine.)
  await expect(second.getByTestId('editor-bank-elsewhere')).toContainText('open in another tab', { timeout: 20_000 });
  // The list still works there, from the server.
  await expect(second.getByRole('table', { name: 'Questions' }).locator('tbody tr').first()).toBeVisible({ timeout: 20_000 });

  await first.close();
  await second.reload();
  await bankOnDevice(second);
  await expect(second.getByTestId('editor-bank-elsewhere')).toHaveCount(0);
  await context.close();
});
