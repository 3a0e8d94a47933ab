import { expect, test } from '@playwright/test';
import { loginOnPhone } from './helpers';

/*
 * docs/admin.md, Static pages: the editor starts from the page's current text in the language
 * being edited (the built-in text while it has none), each language is saved on its own, a
 * language never shows the other's text, and an earlier version can be restored. At 360 px.
 */

test.use({ viewport: { width: 360, height: 740 } });

test('editing About Us keeps the built-in text, saves English only, and an earlier version is restored', async ({ page }) => {
  const first = `Open on Sundays too ${Date.now()}.`;
  const second = `Closed on Sundays ${Date.now()}.`;
  await loginOnPhone(page, 'admin');
  await page.goto('/admin/static-pages');
  await expect(page.getByText(/^English: not edited yet/)).toBeVisible({ timeout: 20_000 });
  const editor = page.getByRole('textbox', { name: 'About Us in English' });
  // Not an empty editor: the About Us page as readers see it.
  await expect(editor).toContainText('Pariksha Mitra means');
  await expect(editor).toContainText('Who runs Pariksha Mitra');
  await editor.click();
  await page.keyboard.press('Control+End');
  await page.keyboard.press('Enter');
  await page.keyboard.type(first);
  await page.getByRole('button', { name: 'Save English', exact: true }).click();
  await expect(page.getByText('Page saved successfully')).toBeVisible();
  await expect(page.getByText(/^English: your text, version 1/)).toBeVisible();
  // The screen fits the phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

  // The Hindi tab starts from the built-in Hindi page, not from the English text.
  await page.getByRole('tab', { name: 'Hindi' }).click();
  const hindi = page.getByRole('textbox', { name: 'About Us in Hindi' });
  await expect(hindi).toContainText('हमारे बारे में');
  await expect(hindi).not.toContainText(first);
  await expect(page.getByText(/^Hindi: not edited yet/)).toBeVisible();

  // The public page in English: the whole page, with the added sentence.
  await page.goto('/about-us');
  await expect(page.getByText(first)).toBeVisible();
  await expect(page.getByText(/Pariksha Mitra means/)).toBeVisible();
  // In Hindi: the built-in Hindi page, without the English sentence.
  await page.evaluate(() => localStorage.setItem('lang', 'hi'));
  await page.reload();
  await expect(page.getByRole('heading', { level: 2, name: 'हमारे बारे में' }).or(page.getByRole('heading', { level: 1, name: 'हमारे बारे में' })).first()).toBeVisible();
  await expect(page.getByText(first)).toHaveCount(0);
  await page.evaluate(() => localStorage.setItem('lang', 'en'));

  // A second version, then the first restored.
  await page.goto('/admin/static-pages');
  await expect(page.getByText(/^English: your text, version 1/)).toBeVisible({ timeout: 20_000 });
  await editor.click();
  await page.keyboard.press('Control+End');
  await page.keyboard.press('Enter');
  await page.keyboard.type(second);
  await page.getByRole('button', { name: 'Save English', exact: true }).click();
  await expect(page.getByText(/^English: your text, version 2/)).toBeVisible();
  await page.getByRole('button', { name: 'Restore version 1' }).click();
  await expect(page.getByText('Earlier version restored')).toBeVisible();
  await expect(page.getByText(/^English: your text, version 3/)).toBeVisible();
  await expect(editor).not.toContainText(second);
  await page.goto('/about-us');
  await expect(page.getByText(first)).toBeVisible();
  await expect(page.getByText(second)).toHaveCount(0);
});
