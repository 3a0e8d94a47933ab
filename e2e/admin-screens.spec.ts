import { expect, test } from '@playwright/test';
import { loginAs } from './helpers';

/**
 * docs/admin.md: the demo admin reaches every back-office screen from the side menu, in
 * English and in Hindi, and the reports show the seeded demo sales.
 */

const SCREENS: [menu: string, url: RegExp, heading: string, hindiMenu: string, hindiHeading: string][] = [
  ['Dashboard', /\/admin$/, 'Dashboard', 'डैशबोर्ड', 'डैशबोर्ड'],
  ['Products (plans)', /\/admin\/product$/, 'Products (plans)', 'उत्पाद (प्लान)', 'उत्पाद (प्लान)'],
  ['Brands', /\/admin\/brand$/, 'Brands', 'ब्रांड', 'ब्रांड'],
  ['Banners', /\/admin\/banner$/, 'Banners', 'बैनर', 'बैनर'],
  ['Permissions', /\/admin\/permission$/, 'Permissions', 'अनुमतियाँ', 'अनुमतियाँ'],
  ['Roles', /\/admin\/role$/, 'Roles', 'भूमिकाएँ', 'भूमिकाएँ'],
  ['User report', /\/admin\/user-report$/, 'User report', 'उपयोगकर्ता रिपोर्ट', 'उपयोगकर्ता रिपोर्ट'],
  ['Users', /\/admin\/person$/, 'Users', 'उपयोगकर्ता', 'उपयोगकर्ता'],
  ['Static pages', /\/admin\/static-pages$/, 'Static pages', 'स्थिर पृष्ठ', 'स्थिर पृष्ठ'],
  ['Orders', /\/admin\/order$/, 'Orders', 'ऑर्डर', 'ऑर्डर'],
  ['Contact messages', /\/admin\/contact-messages$/, 'Contact messages', 'संपर्क संदेश', 'संपर्क संदेश'],
  ['Activity log', /\/admin\/activity-log$/, 'Activity log', 'गतिविधि लॉग', 'गतिविधि लॉग'],
  ['Transaction report', /\/transaction-report$/, 'Transaction Report', 'लेन-देन रिपोर्ट', 'लेन-देन रिपोर्ट'],
  ['Global earning report', /\/global-earning-report$/, 'Global Earning Report', 'कुल आय रिपोर्ट', 'कुल आय रिपोर्ट'],
];

test('every back-office screen opens from the side menu, in English and in Hindi', async ({ page }) => {
  test.setTimeout(180_000);
  await loginAs(page, 'admin');
  // One full load of the back office, then from screen to screen through the side menu as an
  // admin moves; a reload at the end opens the last screen from its own URL.
  await page.goto('/admin');
  const menu = page.getByRole('navigation', { name: 'Admin menu' });
  for (const [item, url, heading] of SCREENS) {
    // The two money reports are site pages without the side menu: back to the back office first.
    if (!(await menu.isVisible())) await page.goto('/admin');
    await menu.getByRole('link', { name: item, exact: true }).click();
    await expect(page, item).toHaveURL(url);
    await expect(page.getByRole('heading', { level: 2, name: heading, exact: true }), item).toBeVisible();
    await expect(page, item).toHaveTitle(`${heading} | Pariksha Mitra`);
  }
  // A full load of a screen deep in the menu renders it with the menu, in both languages below.
  await page.reload();
  await expect(page.getByRole('heading', { level: 2, name: SCREENS.at(-1)![2], exact: true })).toBeVisible();

  await page.goto('/admin');
  // The admin header's language switch (the site bar's is hidden on admin pages).
  await page.getByTestId('language-select').last().selectOption('hi');
  await expect(page.locator('html')).toHaveAttribute('lang', 'hi');
  const hindiMenu = page.getByRole('navigation', { name: 'एडमिन मेन्यू' });
  for (const [, url, , item, heading] of SCREENS) {
    if (!(await hindiMenu.isVisible())) await page.goto('/admin');
    await hindiMenu.getByRole('link', { name: item, exact: true }).click();
    await expect(page, item).toHaveURL(url);
    await expect(page.getByRole('heading', { level: 2, name: heading, exact: true }), item).toBeVisible();
  }
  await page.reload();
  await expect(page.getByRole('heading', { level: 2, name: SCREENS.at(-1)![4], exact: true })).toBeVisible();
  await page.getByTestId('language-select').last().selectOption('en');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
});

test('the reports show the demo sales', async ({ page }) => {
  await loginAs(page, 'admin');
  await page.goto('/admin');
  const sale = page.locator('section', { has: page.getByRole('heading', { name: 'Sale Report' }) });
  // The dashboard's chart chunk and reports load first: on a busy 2-core machine past 5 s.
  await expect(sale.getByText('Paid orders')).toBeVisible({ timeout: 20_000 });
  // The demo orders of the last 30 days fill the table.
  await expect(sale.getByRole('table', { name: 'Orders of the range' }).getByRole('row').nth(1)).toBeVisible({ timeout: 20_000 });

  await page.goto('/transaction-report');
  await expect(page.getByText('Credits received')).toBeVisible();
  await expect(page.getByRole('table', { name: 'Transaction Report' }).getByRole('row').nth(1)).toBeVisible();

  await page.goto('/global-earning-report');
  await expect(page.getByText(/6 percent of each payment is kept/)).toBeVisible();
  await page.getByText('By month').click();
  await expect(page.getByRole('table', { name: 'Global Earning Report' }).getByRole('row').nth(1)).toBeVisible();
});

test('an admin rewrites the Terms page and the public page shows it', async ({ page }) => {
  const line = `Edited in the back office ${Date.now()}`;
  await loginAs(page, 'admin');
  await page.goto('/admin/static-pages');
  // The page chooser (not the footer's link of the same name).
  await page.locator('.mantine-SegmentedControl-root').getByText('Terms & Conditions', { exact: true }).click();
  await expect(page.getByText(/^English: not edited yet/)).toBeVisible();
  const editor = page.getByRole('textbox', { name: 'Terms & Conditions in English' });
  // The editor starts from the built-in Terms; the line goes at its end.
  await expect(editor).toContainText('Terms & Conditions');
  await editor.click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type(line);
  await page.getByRole('button', { name: 'Save English', exact: true }).click();
  await expect(page.getByText('Page saved successfully')).toBeVisible();
  await page.goto('/tnc');
  await expect(page.getByText(line)).toBeVisible();
  await expect(page).toHaveTitle('Terms & Conditions | Pariksha Mitra');
});
