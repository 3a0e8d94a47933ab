import { expect, type Page, test } from '@playwright/test';
import { loginOnPhone } from './helpers';

/*
 * docs/admin.md, Who sees what: a menu entry shows only to whom its screen lets in (one table,
 * client/src/config/route-access.ts), and a signed-in person on a screen they may not open is
 * told so in place, in their language, with a way back, never shown the login form. At 360 px.
 */

test.use({ viewport: { width: 360, height: 740 } });

const drawer = (page: Page) => page.getByTestId('app-drawer').getByRole('navigation');

test('a learner sees no Questions or Reports menu, and an editor screen says "no access" in place, in English and Hindi', async ({ page }) => {
  await loginOnPhone(page, 'learner');
  await page.goto('/exam-list');
  await page.getByRole('button', { name: 'Open menu' }).click();
  await expect(drawer(page).getByRole('link', { name: 'Home' })).toBeVisible();
  await expect(drawer(page).getByText('Questions', { exact: true })).toHaveCount(0);
  await expect(drawer(page).getByText('Reports', { exact: true })).toHaveCount(0);
  await expect(page.getByRole('link', { name: /Create New Question|Question List|Question Set/ })).toHaveCount(0);

  await page.goto('/question-list');
  await expect(page.getByRole('heading', { name: 'You do not have access to this page' })).toBeVisible();
  await expect(page).toHaveURL(/\/question-list$/);
  // Still signed in: no login form, and the way back goes home.
  await expect(page.getByRole('tabpanel', { name: 'Existing users' })).toHaveCount(0);
  await page.getByRole('link', { name: 'Go to the home page' }).click();
  await expect(page).toHaveURL(/\/$/);

  await page.evaluate(() => localStorage.setItem('lang', 'hi'));
  await page.goto('/admin/static-pages');
  await expect(page.getByRole('heading', { name: 'आपको इस पृष्ठ तक पहुँच नहीं है' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'होम पेज पर जाएँ' })).toBeVisible();
});

test('an editor sees the Questions menu and no Reports, and the admin area says "no access"', async ({ page }) => {
  await loginOnPhone(page, 'editor');
  await page.goto('/exam-list');
  await page.getByRole('button', { name: 'Open menu' }).click();
  await drawer(page).getByText('Questions', { exact: true }).click();
  await expect(drawer(page).getByRole('link', { name: 'Question List' })).toBeVisible();
  await expect(drawer(page).getByText('Reports', { exact: true })).toHaveCount(0);
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'You do not have access to this page' })).toBeVisible();
});
