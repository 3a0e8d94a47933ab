import { expect, type Page, test } from '@playwright/test';
import { loginAs, openAppDb } from './helpers';

/**
 * docs/configuration.md "Machine translation", as an editor would on the demo (`npm start` with no TRANSLATE_URL: the local
 * demo translator, which the editor is told about): a question with a formula is written in
 * English, Generate makes its Hindi translation with the formula kept, the editor saves it; then
 * the English changes and the Hindi is shown as stale, in the editor and in the list's filter.
 */

const stamp = Date.now().toString(36);
const WORD = `quaddle${stamp}`;

async function notice(page: Page, text: string) {
  await expect(page.getByText(text).first()).toBeVisible({ timeout: 15_000 });
}

test('Generate makes a Hindi translation with a formula, saved; an English change marks it stale', async ({ page }) => {
  test.setTimeout(180_000);
  await loginAs(page, 'editor');

  // 1. The English question: text, a formula, options by the shortcut, the correct one.
  await page.goto('/question-editor');
  const question = page.getByRole('textbox', { name: 'Question', exact: true });
  await question.click();
  await page.keyboard.type(`What is the ${WORD} value of`);
  for (const line of ['(a) Two', '(b) Four', '(c) Eight', '(d) Sixteen']) {
    await page.keyboard.press('Enter');
    await page.keyboard.type(line);
  }
  await question.press('Control+Enter');
  await expect(page.getByRole('textbox', { name: 'Option B', exact: true })).toHaveText('Four');
  await question.click();
  await page.keyboard.press('Control+End');
  await page.getByRole('button', { name: 'Insert formula' }).first().click();
  await page.getByLabel('LaTeX').fill('\\frac{8}{2}');
  await page.getByRole('button', { name: 'Insert', exact: true }).click();
  await expect(question.locator('[data-type="inline-math"]')).toHaveCount(1);
  await page.getByRole('radio', { name: 'Option B is correct' }).check();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await notice(page, 'Question created successfully');
  await expect(page).toHaveURL(/question-editor\?id=/);
  const qid = new URL(page.url()).searchParams.get('id')!;
  await expect(page.getByText('Hindi: missing')).toBeVisible();

  // 2. Hindi: the demo translator says what it is; Generate fills the Hindi fields, formula kept.
  await page.getByRole('radiogroup', { name: 'Language' }).getByText('हिन्दी').click();
  await expect(page.getByText('Demo translator', { exact: true })).toBeVisible({ timeout: 15_000 });
  await page.getByRole('button', { name: 'Generate' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Demo translation added' })).toBeVisible({ timeout: 15_000 });
  const hindi = page.getByRole('textbox', { name: 'Question', exact: true });
  await expect(hindi).toContainText(`[demo hi] What is the ${WORD} value of`);
  await expect(hindi.locator('[data-type="inline-math"][data-latex*="frac{8}{2}"]')).toHaveCount(1);
  await expect(page.getByRole('textbox', { name: 'Option B', exact: true })).toHaveText('[demo hi] Four');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await notice(page, 'Question updated successfully');
  await expect(page.getByText('Hindi: missing')).toHaveCount(0);
  await expect(page.getByText('Hindi: stale')).toHaveCount(0);

  // Stored: the translation with its formula, current (not a draft: an editor saved it).
  const db = openAppDb();
  try {
    const row = db.prepare('select trans from question where id = ?').get(qid) as { trans: string };
    const hi = (JSON.parse(row.trans) as Record<string, { q: string; mt?: boolean; src?: string }>).hi!;
    expect(hi.q).toContain('data-latex="\\frac{8}{2}"');
    expect(hi.mt).toBeUndefined();
    expect(hi.src).toBeTruthy();
  } finally {
    db.close();
  }

  // 3. The English changes: the Hindi is stale, in the editor and in the list.
  await page.getByRole('radiogroup', { name: 'Language' }).getByText('English').click();
  await question.click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type(' exactly');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await notice(page, 'Question updated successfully');
  await expect(page.getByText('Hindi: stale').first()).toBeVisible({ timeout: 15_000 });

  await page.goto(`/question-list?tr=stale:hi&search=${WORD}`);
  await expect(page.getByText('1 question', { exact: true })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole('table', { name: 'Questions' })).toContainText('Hindi: stale');
});
