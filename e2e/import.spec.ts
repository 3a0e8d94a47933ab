import { expect, test } from '@playwright/test';
import { loginAs } from './helpers';

/**
 * docs/authoring.md "Import and export", as the demo editor: a Moodle GIFT file with one question our types cannot hold
 * (matching). The preview refuses only that row; the editor stores the valid rows and finds the
 * imported questions, pending review, in the question list.
 */

const word = `quorvex${Date.now().toString(36)}`;
const GIFT = `// Exported from Moodle
$CATEGORY: $course$/top/General Knowledge

::River:: Which ${word} river is the longest in India? {=Ganga ~Yamuna ~Godavari}

::Match:: Match the ${word} capitals. {=India -> New Delhi =Nepal -> Kathmandu}

::Capital:: The capital of India (${word}) is {=New Delhi =Delhi}.
`;

test('the editor imports a GIFT file: only the broken question is refused, the others land in the list', async ({ page }) => {
  test.setTimeout(120_000);
  await loginAs(page, 'editor');
  await page.goto('/question-list');
  await page.getByRole('link', { name: 'Import / export' }).click();
  await expect(page.getByRole('heading', { name: 'Import and export questions' })).toBeVisible();

  await page.getByText('Moodle GIFT', { exact: true }).click();
  await expect(page.getByRole('radio', { name: 'Moodle GIFT' })).toBeChecked();
  await page.locator('input[type="file"]').setInputFiles({ name: 'quiz.gift', mimeType: 'text/plain', buffer: Buffer.from(GIFT) });
  await page.getByRole('button', { name: 'Check the file' }).click();

  await expect(page.getByTestId('import-summary')).toHaveText('3 rows: 2 can be stored, 1 have errors, 0 are duplicates.');
  const rows = page.getByRole('table', { name: 'Rows of the file' }).locator('tbody tr');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0)).toHaveAttribute('data-state', 'ok');
  await expect(rows.nth(1)).toHaveAttribute('data-state', 'error');
  await expect(rows.nth(1)).toContainText('Matching questions are not supported');
  await expect(rows.nth(2)).toHaveAttribute('data-state', 'ok');

  await page.getByRole('button', { name: 'Store the valid rows' }).click();
  await expect(page.getByRole('status').filter({ hasText: '2 questions stored as pending review; 1 rows left out.' })).toBeVisible();
  await page.getByRole('link', { name: 'Open the question list' }).click();

  await page.getByLabel('Search').fill(word);
  const table = page.getByRole('table', { name: 'Questions' });
  await expect(table.getByText(`Which ${word} river is the longest in India?`)).toBeVisible({ timeout: 15_000 });
  await expect(table.getByText(`The capital of India (${word}) is _____ .`)).toBeVisible();
  await expect(table.getByText(`Match the ${word} capitals.`)).toHaveCount(0);
});
