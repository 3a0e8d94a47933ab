import { readFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { loginAs, openAppDb } from './helpers';

/*
 * A foreign contribution on a 360 × 740 phone (docs/charity.md "Foreign contributions"): the demo
 * trust is registered for foreign contributions with its share of them capped at 5 % (below its
 * 6 %); a donor who answers "no" to the Indian-passport question is asked their country, sees
 * their own split (5 %), pays through the PhonePe sandbox; the campaign's public ledger marks the
 * movement as foreign; the staff export the year's foreign contributions apart.
 */

test.use({ viewport: { width: 360, height: 740 } });

const DEMO_CAMPAIGN = 'demo-campaign-1';

async function noSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
}

test('a donor without an Indian passport names their country, sees the capped split, pays, and the staff export it apart', async ({ page }) => {
  test.setTimeout(180_000);
  // The trust's settings as its administrator would set them (the trusts screen edits the same columns).
  const db = openAppDb();
  try {
    db.prepare("update trust set fcra_registered = 1, fc_share_cap_bps = 500 where id = 'demo-trust'").run();
  } finally {
    db.close();
  }
  const stamp = Date.now();
  const donor = { name: `Foreign Donor ${stamp}`, email: `foreign-${stamp}@example.com` };

  await page.goto(`/campaigns/${DEMO_CAMPAIGN}/donate`);
  await page.getByRole('textbox', { name: 'Amount (₹)' }).fill('100', { timeout: 30_000 });
  await page.getByRole('textbox', { name: 'Name' }).fill(donor.name);
  await page.getByRole('textbox', { name: 'E-mail' }).fill(donor.email);
  await page.getByRole('textbox', { name: 'Mobile number' }).fill('9812345670');
  const split = page.getByTestId('donation-split');
  await expect(split).toContainText("The trust's share (6 percent)₹6", { timeout: 15_000 });
  await expect(page.getByRole('combobox', { name: /Country you live in/ })).toHaveCount(0);

  await page.getByRole('radiogroup', { name: /Indian passport/ }).getByRole('radio', { name: 'No' }).check();
  const country = page.getByRole('combobox', { name: /Country you live in/ });
  await expect(country).toBeVisible();
  // Their own split: the foreign contribution's, the share capped at 5 %.
  await expect(split).toContainText("The trust's share (5 percent)₹5", { timeout: 15_000 });
  await expect(split).toContainText('Reaches the campaign₹95');
  await expect(page.getByTestId('donation-split-foreign')).toContainText('at most 5 percent');
  await page.getByRole('textbox', { name: 'Address' }).fill('10 High Street, Leeds');
  await noSidewaysScroll(page);

  // Pay without a country: the form says so and sends nothing.
  await page.getByRole('button', { name: 'Pay' }).click();
  await expect(page.getByText('Please choose the country you live in')).toBeVisible();
  await country.selectOption('GB');
  await page.getByRole('button', { name: 'Pay' }).click();
  await expect(page).toHaveURL(/\/sandbox\/phonepe\/pay\//, { timeout: 30_000 });
  await page.getByRole('button', { name: /^Pay/ }).click();
  await expect(page.getByRole('heading', { name: 'Thank you for your donation' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('donation-amount')).toHaveText('₹100');
  const receiptNo = ((await page.getByTestId('donation-receipt-no').textContent()) ?? '').replace('Receipt No. ', '');
  expect(receiptNo).toMatch(/^PMT\/\d{4}-\d{2}\/\d+$/);

  // The campaign's public ledger counts it and marks it foreign, the donor named as any other.
  await page.goto(`/campaigns/${DEMO_CAMPAIGN}`);
  const row = page.getByTestId('campaign-ledger').getByRole('row').filter({ hasText: donor.name });
  await expect(row).toContainText('₹100₹5₹95', { timeout: 30_000 });
  await expect(row).toContainText('Foreign contribution');
  await noSidewaysScroll(page);

  // The staff's export of the year's foreign contributions, apart from Form 10BD's.
  await page.setViewportSize({ width: 1280, height: 800 });
  await loginAs(page, 'admin');
  await page.goto('/admin/donations');
  await expect(page.getByRole('heading', { name: 'Donations' })).toBeVisible({ timeout: 30_000 });
  const foreign = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Foreign contributions (CSV)' }).click();
  const file = await foreign;
  expect(file.suggestedFilename()).toMatch(/^foreign-contributions-\d{4}-\d{2}\.csv$/);
  const csv = readFileSync(await file.path(), 'utf8');
  expect(csv.split('\n')[0]).toBe('Receipt number,Date,Name of donor,Address of donor,Country,Amount (Indian rupees),Campaign,Purpose');
  expect(csv).toContain(`${receiptNo},`);
  expect(csv).toContain(`${donor.name},"10 High Street, Leeds",GB,100.00`);
  const domestic = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export Form 10BD (CSV)' }).click();
  expect(readFileSync(await (await domestic).path(), 'utf8')).not.toContain(donor.name);
});
