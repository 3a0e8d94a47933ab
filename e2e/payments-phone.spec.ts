import { expect, type Page, test } from '@playwright/test';
import { buyPlanThroughSandbox, loginAs, openAppDb, pressBuyNow } from './helpers';

/*
 * Plans and payments on a 360 × 740 phone, in Hindi (docs/payments.md): a payment cancelled at
 * the provider is CANCELLED with its own message on the confirmation page, in the learner's past
 * orders and in the admin's orders; the confirmation page opens at its top after the provider
 * sends the buyer back; plans are named, never coded; the plans page and the checkout say what
 * buying while a plan is in force does; the past orders fit the screen.
 */

const PHONE = { width: 360, height: 740 };
/** An internal plan code (ANNUAL_PLAN, QUATERLY_MONTH_PLAN, ONE_MONTH_PLAN …) anywhere in the text. */
const PLAN_CODE = /[A-Z]+_(?:[A-Z]+_)*PLAN/;

async function inHindi(page: Page) {
  await page.evaluate(() => localStorage.setItem('lang', 'hi'));
}

async function noSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
}

test('a payment cancelled at the provider: "भुगतान रद्द किया गया" at the top of the page, the plan by name, and Cancelled in past orders and the admin orders', async ({ page, browser }) => {
  test.setTimeout(180_000);
  // Signed in at the desktop width (the phone keeps Logout behind the burger), then the phone.
  await loginAs(page, 'learner');
  await page.setViewportSize(PHONE);
  await inHindi(page);
  await page.goto('/plan');
  const monthly = page.getByTestId('plan-ONE_MONTH_PLAN');
  await expect(monthly.getByRole('heading', { name: 'मासिक' })).toBeVisible({ timeout: 30_000 });
  await noSidewaysScroll(page);
  // The monthly card is the third on a phone: the page is scrolled down to press its button.
  await monthly.getByRole('button', { name: 'अभी खरीदें' }).scrollIntoViewIfNeeded();
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(200);
  await pressBuyNow(page, 'ONE_MONTH_PLAN', 'hi');
  await page.getByRole('button', { name: /^Cancel/ }).click();

  // Back from the provider (a full page load): the page opens at its top with its heading in view.
  await expect(page).toHaveURL(/\/payment-confirmation\?merchantTransactionId=/);
  const orderId = new URL(page.url()).searchParams.get('merchantTransactionId')!;
  const heading = page.getByRole('heading', { name: 'भुगतान रद्द किया गया' });
  await expect(heading).toBeVisible({ timeout: 30_000 });
  await expect(heading).toBeInViewport();
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  await expect(page.getByRole('heading', { name: 'भुगतान विफल रहा' })).toHaveCount(0);
  await expect(page.getByText(/आपने भुगतान रद्द कर दिया/)).toBeVisible();
  await expect(page.getByTestId('confirmation-bought')).toContainText('मासिक प्लान');
  await expect(page.locator('main')).not.toContainText(PLAN_CODE);
  await expect(page.getByRole('button', { name: 'फिर से प्रयास करें' })).toBeVisible();
  await noSidewaysScroll(page);

  // Stored as CANCELLED, not FAILED.
  const db = openAppDb();
  try {
    expect(db.prepare('select status from purchase_order where id = ?').get(orderId)).toEqual({ status: 'CANCELLED' });
  } finally {
    db.close();
  }

  // The profile's past orders: one card per order that fits the phone, this one Cancelled.
  await page.goto('/profile');
  const card = page.getByTestId(`order-card-${orderId}`);
  await expect(card).toBeVisible({ timeout: 30_000 });
  await expect(card).toContainText('मासिक');
  await expect(card).toContainText('रद्द');
  await expect(card).toContainText('₹150');
  // Polled: the list may draw the card again as the profile's queries settle (a box of null then).
  await expect
    .poll(async () => {
      const box = await card.boundingBox();
      return box !== null && box.x >= 0 && box.x + box.width <= PHONE.width;
    })
    .toBe(true);
  await expect(page.getByRole('region', { name: 'मेरा प्लान' })).not.toContainText(PLAN_CODE);
  await noSidewaysScroll(page);

  // The admin's orders say Cancelled too, in Hindi, by the plan's name.
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  try {
    await loginAs(admin, 'admin');
    await admin.setViewportSize(PHONE);
    await inHindi(admin);
    await admin.goto('/admin/order');
    await admin.getByRole('searchbox').fill(orderId);
    // The search leaves this order alone in the table; its status field is named by the buyer and the time.
    const status = admin.getByRole('table').locator('input[aria-label$="की स्थिति"]');
    await expect(status).toHaveCount(1, { timeout: 30_000 });
    await expect(status).toHaveValue('रद्द', { timeout: 30_000 });
    await expect(admin.getByRole('table')).toContainText('मासिक');
    await expect(admin.getByRole('table')).not.toContainText(PLAN_CODE);
    await noSidewaysScroll(admin);
  } finally {
    await adminContext.close();
  }
});

test('with a plan in force the plans page and the checkout say, in Hindi, that limits add up and the later end date applies; then the plan is paid', async ({ page, request }) => {
  test.setTimeout(180_000);
  await buyPlanThroughSandbox(request, 'learner', 'ONE_MONTH_PLAN');
  // Signed in at the desktop width (the phone keeps Logout behind the burger), then the phone.
  await loginAs(page, 'learner');
  await page.setViewportSize(PHONE);
  await inHindi(page);
  await page.goto('/plan');
  const notice = page.getByTestId('active-plan-notice');
  await expect(notice).toBeVisible({ timeout: 30_000 });
  await expect(notice).toContainText(/आपके पास .+ तक .+ प्लान है।/);
  await expect(notice).toContainText('सीमाएँ जुड़ जाती हैं');
  await expect(notice).toContainText('बाद वाली समाप्ति तिथि');
  await noSidewaysScroll(page);

  await page.getByTestId('plan-QUATERLY_MONTH_PLAN').getByRole('button', { name: 'अभी खरीदें' }).click();
  const dialog = page.getByRole('dialog', { name: 'त्रैमासिक प्लान खरीदें' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('त्रैमासिक · ₹270');
  await expect(dialog).toContainText('त्रैमासिक प्लान आज से शुरू होगा');
  const changes = dialog.getByRole('table', { name: 'क्या बदलेगा' });
  await expect(changes).toContainText('मॉक टेस्ट');
  await expect(dialog).not.toContainText(PLAN_CODE);
  await noSidewaysScroll(page);
  const box = await dialog.boundingBox();
  expect(box && box.x >= 0 && box.x + box.width <= PHONE.width).toBe(true);

  await dialog.getByRole('button', { name: 'भुगतान के लिए आगे बढ़ें' }).click();
  await expect(page).toHaveURL(/\/sandbox\/phonepe\/pay\//, { timeout: 30_000 });
  await page.getByRole('button', { name: /^Pay/ }).click();
  const paid = page.getByRole('heading', { name: 'भुगतान सफल रहा' });
  await expect(paid).toBeVisible({ timeout: 30_000 });
  await expect(paid).toBeInViewport();
  await expect(page.getByTestId('confirmation-bought')).toContainText('त्रैमासिक प्लान');
  await expect(page.locator('main')).not.toContainText(PLAN_CODE);
});
