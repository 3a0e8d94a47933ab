import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { loginAs, serverDataDir } from './helpers';

/*
 * Donating on a 360 × 740 phone (docs/charity.md "API", "The split", "Receipts"): a guest gives
 * to the demo campaign through the local PhonePe sandbox's hosted page, sees the split before
 * paying, lands on the donation's confirmation with its receipt number, opens the printable
 * receipt (in Hindi too); the campaign's page then counts the donation in its progress and lists
 * it in its public ledger; the receipt e-mail's link opens the donation in another browser. The
 * staff's Donations screen finds it and offers the year's Form 10BD.
 */

test.use({ viewport: { width: 360, height: 740 } });

const DEMO_CAMPAIGN = 'demo-campaign-1';

async function noSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
}

/** The rupees of the campaign's "₹X raised of ₹Y" line. */
async function raisedRupees(page: Page): Promise<number> {
  const text = (await page.getByTestId('campaign-raised').textContent()) ?? '';
  const raised = /₹([\d,.]+)\s*raised/.exec(text)?.[1];
  if (!raised) throw new Error(`no raised figure in ${JSON.stringify(text)}`);
  return Number(raised.replace(/,/g, ''));
}

/** The link of the newest receipt mail the local outbox delivered to `to` (docs/configuration.md). */
function receiptLinkSentTo(to: string): string | undefined {
  const file = path.join(serverDataDir(), 'local-inbox.jsonl');
  if (!existsSync(file)) return undefined;
  const body = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as { to: string; subject: string; body: string })
    .filter((m) => m.to === to && m.subject.startsWith('Donation receipt'))
    .at(-1)?.body;
  return body ? /https?:\/\/\S+\/donations\/[^\s?]+\?t=[\w-]+/.exec(body)?.[0] : undefined;
}

test('a guest donates through the sandbox, sees the split first, gets the receipt (also in Hindi and by e-mail), and the campaign counts it', async ({ page, browser }) => {
  test.setTimeout(180_000);
  const stamp = Date.now();
  const donor = { name: `Guest Donor ${stamp}`, email: `donor-${stamp}@example.com` };

  await page.goto(`/campaigns/${DEMO_CAMPAIGN}`);
  await expect(page.getByTestId('campaign-raised')).toBeVisible({ timeout: 30_000 });
  const before = await raisedRupees(page);
  await page.getByRole('link', { name: 'Donate' }).click();
  await expect(page).toHaveURL(new RegExp(`/campaigns/${DEMO_CAMPAIGN}/donate$`));

  // The split before paying, from the server to the paisa: ₹101 at the demo trust's 6 %.
  await page.getByRole('textbox', { name: 'Amount (₹)' }).fill('101');
  const split = page.getByTestId('donation-split');
  await expect(split).toContainText('You give₹101', { timeout: 15_000 });
  await expect(split).toContainText("The trust's share (6 percent)₹6.06");
  await expect(split).toContainText('Reaches the campaign₹94.94');
  await page.getByRole('textbox', { name: 'Name' }).fill(donor.name);
  await page.getByRole('textbox', { name: 'E-mail' }).fill(donor.email);
  await page.getByRole('textbox', { name: 'Mobile number' }).fill('9812345678');
  await page.getByRole('radiogroup', { name: /Indian passport/ }).getByRole('radio', { name: 'Yes' }).check();
  await page.getByRole('textbox', { name: 'PAN' }).fill('abcde1234f');
  await page.getByRole('textbox', { name: 'Address' }).fill('1 MG Road, Jaipur');
  await noSidewaysScroll(page);

  // Pay → the sandbox's hosted page (PhonePe's protocol, inside our server) → Pay.
  await page.getByRole('button', { name: 'Pay' }).click();
  await expect(page).toHaveURL(/\/sandbox\/phonepe\/pay\//, { timeout: 30_000 });
  await page.getByRole('button', { name: /^Pay/ }).click();

  // Back on the donation's confirmation, with the token in the address.
  await expect(page).toHaveURL(/\/donation-confirmation\?orderId=[^&]+&t=/, { timeout: 30_000 });
  await expect(page.getByRole('heading', { name: 'Thank you for your donation' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('donation-amount')).toHaveText('₹101');
  const receiptNoLine = page.getByTestId('donation-receipt-no');
  await expect(receiptNoLine).toHaveText(/^Receipt No\. PMT\/\d{4}-\d{2}\/\d+$/);
  const receiptNo = ((await receiptNoLine.textContent()) ?? '').replace('Receipt No. ', '');
  await noSidewaysScroll(page);

  // The printable receipt: the trust, the donor, the amount in words; printing leaves the app's frame out.
  await page.getByRole('link', { name: 'View receipt' }).click();
  await expect(page).toHaveURL(/\/donations\/[^/?]+\?t=/);
  const receipt = page.getByTestId('donation-receipt');
  await expect(receipt.getByTestId('receipt-no')).toHaveText(receiptNo, { timeout: 30_000 });
  await expect(receipt).toContainText(donor.name);
  await expect(receipt).toContainText('ABCDE1234F');
  await expect(receipt.getByTestId('amount-in-words')).toHaveText('One Hundred One Rupees Only');
  await expect(receipt).toContainText('This donation was received without any goods or services given in return.');
  await expect(page.getByTestId('donation-status')).toHaveText('Paid');
  await expect(page.getByRole('button', { name: 'Print' })).toBeVisible();
  await noSidewaysScroll(page);
  await page.emulateMedia({ media: 'print' });
  await expect(page.locator('header').first()).toBeHidden();
  await expect(page.getByRole('button', { name: 'Print' })).toBeHidden();
  await expect(receipt).toBeVisible();
  await page.emulateMedia({ media: 'screen' });

  // In Hindi.
  await page.evaluate(() => localStorage.setItem('lang', 'hi'));
  await page.reload();
  await expect(receipt.getByRole('heading', { name: 'दान की रसीद' })).toBeVisible({ timeout: 30_000 });
  await expect(receipt.getByTestId('amount-in-words')).toContainText('रुपये');
  await expect(page.getByRole('button', { name: 'प्रिंट करें' })).toBeVisible();
  await noSidewaysScroll(page);
  await page.evaluate(() => localStorage.setItem('lang', 'en'));

  // The campaign counts it: its progress, its recent donations and its public ledger.
  await page.goto(`/campaigns/${DEMO_CAMPAIGN}`);
  await expect.poll(() => raisedRupees(page), { timeout: 30_000 }).toBeCloseTo(before + 101, 2);
  await expect(page.getByTestId('recent-donations')).toContainText(donor.name);
  const ledgerRow = page.getByTestId('campaign-ledger').getByRole('row').filter({ hasText: donor.name });
  await expect(ledgerRow).toContainText('₹101₹6.06₹94.94');
  await noSidewaysScroll(page);

  // The receipt e-mail's link opens the donation in another browser (no session, nothing kept).
  await expect.poll(() => receiptLinkSentTo(donor.email), { message: `no receipt mail to ${donor.email}`, timeout: 15_000 }).toBeTruthy();
  const link = receiptLinkSentTo(donor.email)!;
  const other = await browser.newContext({ viewport: { width: 360, height: 740 } });
  try {
    const mailReader = await other.newPage();
    await mailReader.goto(link);
    await expect(mailReader.getByTestId('donation-receipt').getByTestId('receipt-no')).toHaveText(receiptNo, { timeout: 30_000 });
    await expect(mailReader.getByTestId('donation-summary')).toContainText('Books and board fees for Class 12 science');
    // Without the token the same address opens nothing.
    await mailReader.goto(link.replace(/\?t=.*$/, ''));
    await expect(mailReader.getByRole('alert')).toContainText('Donation not found', { timeout: 30_000 });
  } finally {
    await other.close();
  }
});

test('the staff find the donation on the Donations screen and may export the year for Form 10BD', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await loginAs(page, 'admin');
  await page.goto('/admin/donations');
  await expect(page.getByRole('heading', { name: 'Donations' })).toBeVisible({ timeout: 30_000 });
  await page.getByRole('textbox', { name: 'Search' }).fill('Guest Donor');
  await expect(page.getByTestId('admin-donation').first()).toContainText('Guest Donor', { timeout: 30_000 });
  await expect(page.getByTestId('admin-donation').first()).toContainText(/PMT\/\d{4}-\d{2}\/\d+/);
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export Form 10BD (CSV)' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^donations-\d{4}-\d{2}\.csv$/);
  const csv = readFileSync(await file.path(), 'utf8');
  expect(csv.split('\n')[0]).toContain('Unique Identification Number of the Donation');
  expect(csv).toContain('Guest Donor');
});
