import { expect, type Page, test } from '@playwright/test';
import { loginOnPhone, pngBytes, waitForServiceWorker } from './helpers';

// This spec needs the service worker (playwright.config.ts blocks it elsewhere).
test.use({ serviceWorkers: 'allow' });

/*
 * The charity half's screens on a 360 × 740 phone (docs/charity.md): a visitor browses the
 * campaigns and a campaign's page, in English and in Hindi; the demo beneficiary drafts a
 * campaign with an image and submits it; the demo trustee approves it from the queue (in Hindi);
 * it is then public. Donating is left to the donation routes' own spec.
 */

test.use({ viewport: { width: 360, height: 740 } });

/** The seeded approved campaign (fixtures/demo-charity.json). */
const DEMO_CAMPAIGN = { id: 'demo-campaign-1', en: 'Books and board fees for Class 12 science', hi: 'कक्षा 12 विज्ञान की किताबें और बोर्ड शुल्क' };

async function noSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
}

async function inLanguage(page: Page, lang: 'en' | 'hi') {
  await page.evaluate((l) => localStorage.setItem('lang', l), lang);
}

test('a visitor browses the campaigns and a campaign page, in English and in Hindi', async ({ page }) => {
  await page.goto('/');
  // The footer leads there.
  await page.locator('footer').getByRole('link', { name: 'Campaigns', exact: true }).click();
  await expect(page).toHaveURL(/\/campaigns$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Campaigns' })).toBeVisible({ timeout: 30_000 });
  const card = page.getByTestId('campaign-card').filter({ hasText: DEMO_CAMPAIGN.en });
  await expect(card).toBeVisible();
  await expect(card.getByTestId('campaign-raised')).toContainText('raised of ₹5,600');
  await expect(card.getByText(/days left/)).toBeVisible();
  await noSidewaysScroll(page);

  // The cause filter goes into the address and keeps the card (the demo campaign is for education).
  await page.getByRole('combobox', { name: 'Cause' }).click();
  await page.getByRole('option', { name: 'Education' }).click();
  await expect(page).toHaveURL(/cause=EDUCATION/);
  await expect(card).toBeVisible();

  await card.getByRole('link', { name: DEMO_CAMPAIGN.en }).click();
  await expect(page).toHaveURL(new RegExp(`/campaigns/${DEMO_CAMPAIGN.id}$`));
  await expect(page.getByRole('heading', { level: 1, name: DEMO_CAMPAIGN.en })).toBeVisible();
  await expect(page.getByTestId('campaign-need')).toContainText('Board examination fee');
  await expect(page.getByTestId('campaign-need')).toContainText('₹5,600');
  await expect(page.getByRole('link', { name: 'Donate' })).toHaveAttribute('href', `/campaigns/${DEMO_CAMPAIGN.id}/donate`);
  await expect(page.getByTestId('campaign-share').getByRole('link', { name: 'Share on WhatsApp' })).toHaveAttribute('href', /^https:\/\/wa\.me\//);
  await expect(page).toHaveTitle('Campaign | Pariksha Mitra');
  await noSidewaysScroll(page);

  await inLanguage(page, 'hi');
  await page.goto('/campaigns');
  const hindiCard = page.getByTestId('campaign-card').filter({ hasText: DEMO_CAMPAIGN.hi });
  await expect(hindiCard).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('heading', { level: 1, name: 'अभियान' })).toBeVisible();
  await hindiCard.getByRole('link', { name: DEMO_CAMPAIGN.hi }).click();
  await expect(page.getByRole('heading', { level: 1, name: DEMO_CAMPAIGN.hi })).toBeVisible();
  await expect(page.getByRole('link', { name: 'दान करें' })).toBeVisible();
  await expect(page.getByTestId('campaign-need')).toContainText('बोर्ड परीक्षा शुल्क');
  await noSidewaysScroll(page);
});

test('the beneficiary drafts a campaign with an image and submits it; the trustee approves it in Hindi; it is public', async ({ browser }) => {
  test.setTimeout(240_000);
  const stamp = Date.now();
  const title = `Geometry box and atlas ${stamp}`;
  const hindiTitle = `ज्यामिति बॉक्स और एटलस ${stamp}`;

  // The demo beneficiary drafts and submits.
  const owner = await browser.newPage({ viewport: { width: 360, height: 740 } });
  await loginOnPhone(owner, 'beneficiary');
  await owner.goto('/my-campaigns');
  await expect(owner.getByRole('heading', { level: 1, name: 'My campaigns' })).toBeVisible({ timeout: 30_000 });
  await owner.getByRole('link', { name: 'New campaign' }).click();
  await expect(owner).toHaveURL(/\/my-campaigns\/new$/);
  await owner.getByRole('textbox', { name: 'Title in English' }).fill(title);
  await owner.getByRole('textbox', { name: 'Title in Hindi' }).fill(hindiTitle);
  const story = owner.getByRole('textbox', { name: 'Story in English' });
  await story.click();
  await owner.keyboard.type('I am in Class 8 and need a geometry box and an atlas.');
  await owner.getByRole('combobox', { name: 'Cause' }).click();
  await owner.getByRole('option', { name: 'Books' }).click();
  const lastDay = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
  await owner.getByLabel('Last day').fill(lastDay);
  const item = owner.getByTestId('need-row').first();
  await item.getByRole('textbox', { name: 'What (English)' }).fill('Geometry box');
  await item.getByRole('textbox', { name: 'Amount (₹)' }).fill('250');
  await owner.getByRole('button', { name: 'Add an item' }).click();
  const second = owner.getByTestId('need-row').nth(1);
  await second.getByRole('textbox', { name: 'What (English)' }).fill('School atlas');
  await second.getByRole('textbox', { name: 'Amount (₹)' }).fill('399.50');
  await expect(owner.getByTestId('editor-goal')).toHaveText('Goal: ₹649.50');
  await noSidewaysScroll(owner);
  await owner.getByRole('button', { name: 'Save draft' }).click();
  await expect(owner).toHaveURL(/\/my-campaigns\/[^/]+\/edit$/, { timeout: 30_000 });

  // An image: a GIF is refused in the browser, a PNG is uploaded as its bytes.
  const fileInput = owner.locator('input[type="file"]');
  await fileInput.setInputFiles({ name: 'not-an-image.png', mimeType: 'image/png', buffer: Buffer.from('GIF89a not a png') });
  await expect(owner.getByTestId('image-problem')).toContainText('not a PNG or JPEG image');
  await fileInput.setInputFiles({ name: 'box.png', mimeType: 'image/png', buffer: pngBytes([30, 120, 220]) });
  await expect(owner.getByTestId('editor-images').getByRole('img')).toHaveCount(1, { timeout: 30_000 });
  await owner.getByRole('button', { name: 'Submit for approval' }).click();
  await expect(owner).toHaveURL(/\/my-campaigns$/, { timeout: 30_000 });
  const mine = owner.getByTestId('my-campaign').filter({ hasText: title });
  await expect(mine.getByTestId('campaign-status')).toHaveText('Waiting for approval');
  await owner.close();

  // The demo trustee approves it from the queue, in Hindi.
  const trustee = await browser.newPage({ viewport: { width: 360, height: 740 } });
  await loginOnPhone(trustee, 'trustee');
  await inLanguage(trustee, 'hi');
  await trustee.goto('/trustee');
  await expect(trustee.getByRole('heading', { level: 1, name: 'स्वीकृति की कतार' })).toBeVisible({ timeout: 30_000 });
  // Titles show in Hindi where given.
  const queued = trustee.getByTestId('queue-item').filter({ hasText: hindiTitle });
  await expect(queued).toContainText('Bina Beneficiary');
  await queued.getByRole('button', { name: 'खोलें' }).click();
  await expect(trustee.getByRole('heading', { level: 1, name: hindiTitle })).toBeVisible();
  await trustee.getByTestId('trustee-actions').getByRole('button', { name: 'स्वीकार करें', exact: true }).click();
  const confirm = trustee.getByRole('dialog', { name: 'यह अभियान स्वीकार करें?' });
  await confirm.getByRole('button', { name: 'स्वीकार करें', exact: true }).click();
  await expect(confirm).toBeHidden();
  await expect(trustee.getByText('अभियान स्वीकार किया गया')).toBeVisible();
  await noSidewaysScroll(trustee);
  await trustee.close();

  // It is public: a visitor finds it by its title, with its image.
  const visitor = await browser.newPage({ viewport: { width: 360, height: 740 } });
  await visitor.goto(`/campaigns?q=${encodeURIComponent(title)}`);
  const card = visitor.getByTestId('campaign-card').filter({ hasText: title });
  await expect(card).toBeVisible({ timeout: 30_000 });
  await expect(card.getByTestId('campaign-raised')).toContainText('₹0 raised of ₹649.50');
  await card.getByRole('link', { name: title }).click();
  await expect(visitor.getByRole('img', { name: `${title}, image 1` })).toBeVisible();
  await expect(visitor.getByRole('link', { name: 'Donate' })).toBeVisible();
  await visitor.close();
});

test('offline, the list and a campaign seen before are read from the last copy, and say they are offline', async ({ page, context }) => {
  test.setTimeout(120_000);
  await page.goto('/campaigns');
  await waitForServiceWorker(page);
  // Seen online once the worker controls the page: the worker keeps these answers.
  await page.reload();
  await expect(page.getByTestId('campaign-card').filter({ hasText: DEMO_CAMPAIGN.en })).toBeVisible({ timeout: 30_000 });
  await page.goto(`/campaigns/${DEMO_CAMPAIGN.id}`);
  await expect(page.getByRole('heading', { level: 1, name: DEMO_CAMPAIGN.en })).toBeVisible({ timeout: 30_000 });

  await context.setOffline(true);
  try {
    await page.goto('/campaigns');
    await expect(page.getByTestId('campaign-card').filter({ hasText: DEMO_CAMPAIGN.en })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('campaigns-offline')).toBeVisible();
    await page.getByRole('link', { name: DEMO_CAMPAIGN.en }).click();
    await expect(page.getByRole('heading', { level: 1, name: DEMO_CAMPAIGN.en })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('campaign-need')).toContainText('Board examination fee');
  } finally {
    await context.setOffline(false);
  }
});
