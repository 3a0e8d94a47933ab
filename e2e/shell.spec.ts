import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type Page, test } from '@playwright/test';
import Database from 'better-sqlite3';
import { serverDataDir } from './helpers';

/**
 * The app shell against the built client and the real server (playwright.config.ts starts it on
 * a fresh data directory, helpers.ts serverDataDir): language, guards, drawer, footer, contact, plans, and
 * screenshots of the main pages in both languages and two widths.
 */

const screenshots = path.join(path.dirname(fileURLToPath(import.meta.url)), 'screenshots');
const PHONE = { width: 360, height: 740 };
const DESKTOP = { width: 1280, height: 800 };

/** The language is a stored choice (lib/i18n): set it before the app starts. (Browser code is
 * passed as strings: the e2e project is type-checked without the DOM library.) */
async function useLanguage(page: Page, lang: 'en' | 'hi') {
  await page.addInitScript(`localStorage.setItem('lang', '${lang}')`);
}

test('switching to Hindi shows Hindi navigation and survives a reload', async ({ page }) => {
  await page.goto('/');
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  await expect(nav.getByRole('link', { name: 'Home' })).toBeVisible();

  await page.getByRole('combobox', { name: 'Language' }).selectOption('hi');
  const hindiNav = page.getByRole('navigation', { name: 'मुख्य नेविगेशन' });
  await expect(hindiNav.getByRole('link', { name: 'होम' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'hi');
  await expect(page).toHaveTitle(/परीक्षा मित्र/);

  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', 'hi');
  await expect(hindiNav.getByRole('link', { name: 'होम' })).toBeVisible();
  await expect(hindiNav.getByRole('link', { name: 'प्लान' })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'भाषा' })).toHaveValue('hi');
});

test('a guest opening an editor page is sent to /login with the permission message', async ({ page }) => {
  await page.goto('/question-list');
  await expect(page).toHaveURL(/\/login\?error=/);
  await expect(page.getByText('Insufficient permission. Please login as authorized user.')).toBeVisible();
  // The guarded address is remembered for after the login (docs/api.md "Where people land").
  expect(await page.evaluate('sessionStorage.getItem("redirectUrl")')).toBe('/question-list');
});

test('a message written on the contact page is stored', async ({ page }) => {
  const description = `Shell e2e ${Date.now()}: how do I buy the yearly plan?`;
  await page.goto('/contact');
  await expect(page.getByRole('heading', { name: 'Write To Us' })).toBeVisible();
  const submit = page.getByRole('button', { name: 'Submit' });
  await expect(submit).toBeDisabled();
  await page.getByLabel(/^Name/).fill('Kiran Rao');
  await page.getByLabel(/^Mobile/).fill('9876543210');
  await page.getByLabel(/^Description/).fill(description);
  await submit.click();
  await expect(page.getByTestId('contact-success')).toContainText(
    'Your message has been posted to community. One of the member will contact you soon.',
  );
  await expect(page.getByLabel(/^Name/)).toHaveValue('');

  // There is no API to list contact messages without an admin screen: read the database.
  const dbFile = path.join(serverDataDir(), 'app.db');
  const db = new Database(dbFile, { readonly: true, fileMustExist: true });
  try {
    const row = db.prepare('SELECT name, email, mobile, description FROM contact_message WHERE description = ?').get(description);
    expect(row).toEqual({ name: 'Kiran Rao', email: null, mobile: '+919876543210', description });
  } finally {
    db.close();
  }
});

test('at 360 px the burger opens the drawer, which shows the version', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await page.goto('/');
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeHidden();
  await page.getByRole('button', { name: 'Open menu' }).click();
  const drawer = page.getByRole('dialog');
  await expect(drawer).toBeVisible();
  await expect(drawer.getByText('Version 1.0.7')).toBeVisible();
  await expect(drawer.getByRole('link', { name: 'Plans' })).toBeVisible();
  // A link closes the drawer and navigates.
  await drawer.getByRole('link', { name: 'Plans' }).click();
  await expect(page).toHaveURL(/\/plan$/);
  await expect(drawer).toBeHidden();
});

test('a guest pressing Buy Now goes to /login and /plan is remembered', async ({ page }) => {
  await page.goto('/plan');
  await expect(page.getByTestId('plan-ANNUAL_PLAN')).toContainText('₹720');
  await page.getByTestId('plan-ANNUAL_PLAN').getByRole('button', { name: 'Buy Now' }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate('sessionStorage.getItem("redirectUrl")')).toBe('/plan');
});

test('the footer links reach the privacy policy, the terms, the FAQ and the contact page', async ({ page }) => {
  await page.goto('/');
  const footer = page.locator('footer');
  for (const [name, url, title] of [
    ['Privacy policy', '/privacy', 'Privacy Policy'],
    ['Terms & Conditions', '/tnc', 'Terms & Conditions'],
    ['FAQ', '/faq', 'FAQ'],
    ['Contact us', '/contact', 'Write To Us'],
  ] as const) {
    await footer.getByRole('link', { name, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`${url}$`));
    await expect(page).toHaveTitle(`${title} | Pariksha Mitra`);
  }
});

test('a new page starts at the top; Back returns to where the reader was', async ({ page }) => {
  await page.goto('/about-us');
  await expect(page.getByRole('heading', { name: 'About Us' })).toBeVisible();
  await page.evaluate('window.scrollTo(0, 400)');
  await expect.poll(() => page.evaluate('Math.round(window.scrollY)')).toBe(400);
  // The header stays in view: clicking it does not scroll.
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Plans' }).click();
  await expect(page).toHaveURL(/\/plan$/);
  await expect.poll(() => page.evaluate('window.scrollY')).toBe(0);
  await page.goBack();
  await expect(page).toHaveURL(/\/about-us$/);
  await expect.poll(() => page.evaluate('Math.round(window.scrollY)')).toBe(400);
});

test('screenshots of home, login and plan in both languages, desktop and phone', async ({ page }) => {
  mkdirSync(screenshots, { recursive: true });
  await page.goto('/');
  for (const lang of ['en', 'hi'] as const) {
    await page.evaluate(`localStorage.setItem('lang', '${lang}')`);
    for (const [device, size] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      await page.setViewportSize(size);
      for (const [name, url, ready] of [
        ['home', '/', () => page.getByRole('main').getByRole('heading').first()],
        ['login', '/login', () => page.getByRole('tabpanel')],
        ['plan', '/plan', () => page.getByTestId('plan-ONE_MONTH_PLAN')],
      ] as const) {
        await page.goto(url);
        await expect(page.locator('html')).toHaveAttribute('lang', lang);
        await expect(ready()).toBeVisible();
        // Web fonts (Devanagari) and images settle before the picture is taken.
        await page.evaluate('document.fonts.ready.then(() => undefined)');
        await page.screenshot({ path: path.join(screenshots, `${name}-${lang}-${device}.png`), fullPage: true });
      }
    }
  }
});

test.describe('in Hindi', () => {
  test.beforeEach(async ({ page }) => useLanguage(page, 'hi'));

  test('the plans and the contact page speak Hindi', async ({ page }) => {
    await page.goto('/plan');
    await expect(page.getByTestId('plan-ANNUAL_PLAN').getByRole('heading', { name: 'वार्षिक' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'अभी खरीदें' })).toHaveCount(3);
    await page.goto('/contact');
    await expect(page.getByRole('heading', { name: 'हमें लिखें' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'सबमिट करें' })).toBeDisabled();
  });
});
