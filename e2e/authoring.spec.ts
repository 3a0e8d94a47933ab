import { expect, type Page, test } from '@playwright/test';
import { loginAs, pngBytes, waitForServiceWorker } from './helpers';

// This spec needs the service worker (playwright.config.ts blocks it elsewhere).
test.use({ serviceWorkers: 'allow' });

/**
 * docs/authoring.md, as a newcomer would: the demo editor writes an mcq1 question with a formula and an
 * image using the Ctrl+Enter shortcut, finds it by two filters and a text search, reviews and
 * approves it, builds a set with a section and negative marking and publishes it; the demo
 * learner then takes that set offline and sees the formula and the image. Last, an earlier
 * version of the question is restored.
 */

const stamp = Date.now().toString(36);
const QUESTION_WORD = `zorblat${stamp}`;
const SET_LABEL = `Authoring check ${stamp}`;

async function notice(page: Page, text: string) {
  await expect(page.getByText(text).first()).toBeVisible({ timeout: 15_000 });
}

test('an editor writes, finds, approves and publishes a question with a formula and an image; a learner takes it offline; a version is restored', async ({ browser }) => {
  test.setTimeout(240_000);
  const editorContext = await browser.newContext();
  const page = await editorContext.newPage();
  await loginAs(page, 'editor');

  // 1. Write the question: four paragraphs at the end become the options (Ctrl+Enter).
  await page.goto('/question-editor');
  const question = page.getByRole('textbox', { name: 'Question', exact: true });
  await question.click();
  await page.keyboard.type(`Which value does the ${QUESTION_WORD} formula give`);
  for (const line of ['(a) Two', '(b) Four', '(c) Eight', '(d) Sixteen']) {
    await page.keyboard.press('Enter');
    await page.keyboard.type(line);
  }
  await question.press('Control+Enter');
  await expect(page.getByRole('textbox', { name: 'Option B', exact: true })).toHaveText('Four');
  await expect(question).not.toContainText('Sixteen');

  // A formula at the end of the question, through the toolbar's control with its live preview.
  await question.click();
  await page.keyboard.press('Control+End');
  await page.getByRole('button', { name: 'Insert formula' }).first().click();
  await page.getByLabel('LaTeX').fill('x^2 + \\frac{1}{2}');
  await expect(page.locator('.katex').first()).toBeVisible();
  await page.getByRole('button', { name: 'Insert', exact: true }).click();
  await expect(question.locator('[data-type="inline-math"]')).toHaveCount(1);

  // An image, uploaded and checked by its bytes on the server.
  await page.getByLabel('Insert image').first().setInputFiles({ name: 'diagram.png', mimeType: 'image/png', buffer: pngBytes() });
  await expect(question.locator('img[src^="/media/"]')).toHaveCount(1, { timeout: 15_000 });

  await page.getByRole('radio', { name: 'Option B is correct' }).check();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await notice(page, 'Question created successfully');
  await expect(page).toHaveURL(/question-editor\?id=/);
  const qid = new URL(page.url()).searchParams.get('id')!;

  // 2. Find it: type and difficulty filters and the text search.
  await page.goto(`/question-list?qt=mcq1&d=3&search=${QUESTION_WORD}`);
  await expect(page.getByText('1 question', { exact: true })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole('table', { name: 'Questions' })).toContainText(QUESTION_WORD);
  await page.getByRole('link', { name: 'Edit' }).first().click();
  await expect(page).toHaveURL(new RegExp(`id=${qid}`));

  // 3. Review: Mark reviewed, then Approve.
  await page.getByRole('button', { name: 'Mark reviewed' }).click();
  await notice(page, 'Question status updated successfully');
  await page.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByRole('main').getByText('Approved', { exact: true })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole('group', { name: 'Review' }).getByRole('button', { name: 'Back to pending' })).toBeVisible();

  // 4. A set with a section and negative marking, published.
  await page.goto('/question-set');
  await page.getByRole('button', { name: 'New question set' }).click();
  await page.getByLabel('Label').fill(SET_LABEL);
  await page.getByLabel('Negative marking').fill('0.25');
  // Free for everyone (docs/payments.md "Without a plan"): the learner takes it without a plan.
  await page.getByRole('checkbox', { name: 'Free for everyone' }).check();
  await page.getByRole('textbox', { name: 'Section name' }).fill('Mathematics');
  await page.getByRole('button', { name: 'Add section' }).click();
  await page.getByRole('tab', { name: 'Questions' }).click();
  await page.getByRole('region', { name: /Mathematics/ }).getByRole('button', { name: 'Add questions' }).click();
  const picker = page.getByRole('dialog');
  await picker.getByLabel('Search').fill(QUESTION_WORD);
  await expect(picker.getByText('1 question', { exact: true })).toBeVisible({ timeout: 15_000 });
  await picker.getByRole('checkbox', { name: 'Select question' }).first().check();
  await picker.getByRole('button', { name: 'Done' }).click();
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await notice(page, 'Question set created successfully');

  // 5. The learner downloads the set, goes offline and takes it: formula and image are there.
  const learnerContext = await browser.newContext();
  const learner = await learnerContext.newPage();
  await loginAs(learner, 'learner');
  await learner.goto('/exam-list');
  const card = learner.getByTestId(/^exam-card-/).filter({ hasText: SET_LABEL });
  await expect(card.getByTestId('availability')).toHaveText('On this device', { timeout: 30_000 });
  await waitForServiceWorker(learner);
  // The set's image is put in the service worker's cache as the set arrives.
  await expect
    .poll(() => learner.evaluate(async () => (await (await caches.open('pm-media-v1')).keys()).length), { timeout: 20_000 })
    .toBeGreaterThan(0);
  await learnerContext.setOffline(true);
  await learner.reload();
  await card.getByRole('link', { name: 'Take Test' }).click();
  await learner.getByRole('button', { name: 'Start Test' }).click();
  await expect(learner.locator('.katex').first()).toBeVisible();
  const image = learner.locator('img[src^="/media/"]').first();
  await expect(image).toBeVisible();
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(8);
  await learnerContext.close();

  // 6. Restore an earlier version: edit the text, save, then bring version 1 back.
  await page.goto(`/question-editor?id=${qid}`);
  await question.click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type(' (edited)');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await notice(page, 'Question updated successfully');
  await expect(question).toContainText('(edited)');
  await page.getByRole('button', { name: 'History' }).click();
  await page.getByRole('button', { name: /Version 1\b/ }).click();
  await page.getByRole('button', { name: 'Restore', exact: true }).click();
  await page.getByRole('dialog', { name: /Restore version 1/ }).getByRole('button', { name: 'Restore' }).click();
  await notice(page, 'Version restored successfully');
  await page.keyboard.press('Escape');
  await expect(question).not.toContainText('(edited)');
  await editorContext.close();
});

test('the editor over the list: edits discarded on close are gone when the same question is opened again', async ({ page }) => {
  await loginAs(page, 'editor');
  await page.goto('/question-list');
  const edit = page.getByRole('link', { name: 'Edit' }).first();
  await edit.waitFor();
  // The editor is made hidden in advance: nothing of it is shown, nothing takes the focus.
  await page.waitForTimeout(1000);
  await expect(page.getByRole('dialog')).toHaveCount(0);

  await edit.click();
  const question = page.getByRole('dialog').getByRole('textbox', { name: 'Question', exact: true });
  await expect(question).not.toBeEmpty();
  const saved = await question.innerText();
  await question.click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type(' discarded words');
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
  await page.getByRole('button', { name: 'Discard', exact: true }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);

  await edit.click();
  // (innerText, as read before: a formula's text content differs from what is shown.)
  await expect.poll(() => question.innerText()).toBe(saved);
  await expect(question).not.toContainText('discarded words');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
});
