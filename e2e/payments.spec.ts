import { expect, type Page, test } from '@playwright/test';
import { loginAs, openAppDb, pressBuyNow, waitForServiceWorker } from './helpers';

// This spec needs the service worker (playwright.config.ts blocks it elsewhere).
test.use({ serviceWorkers: 'allow' });

/*
 * docs/payments.md: the demo learner buys the monthly plan through the local PhonePe sandbox (the real
 * adapter against our own sandbox), lands on the payment confirmation page, is redirected after
 * the countdown, sees the plan in the profile and the allowance on the exam list, and starts a
 * practice exam offline within it. Other specs may have bought plans for the same learner
 * before (plans stack), so the allowance is checked as a change, not as a number.
 */

const left = async (page: Page, which: 'mock-left' | 'practice-left') => {
  const summary = page.getByTestId('allowance-summary');
  await expect(summary).toBeVisible({ timeout: 30_000 });
  const line = summary.getByTestId(which);
  if ((await line.count()) === 0) return 0;
  const text = (await line.textContent()) ?? '';
  return /Unlimited/.test(text) ? Number.POSITIVE_INFINITY : Number(/(\d+)/.exec(text)?.[1] ?? NaN);
};

test.beforeAll(() => {
  // The upcoming mock (not free) is published now, as offline.spec does: the publish job runs every second.
  const db = openAppDb();
  try {
    db.prepare('update question_set set pts = ? where id = ? and published = 0').run(Math.floor(Date.now() / 60_000) - 1, 'qs-future-mock');
  } finally {
    db.close();
  }
});

test('the learner buys the monthly plan through the sandbox, sees the confirmation and the plan, and starts a mock test offline within the allowance', async ({ page, context }) => {
  test.setTimeout(180_000);
  await loginAs(page, 'learner');
  await page.goto('/exam-list');
  // The exam list knows the allowance from the replicated entitlement document. Without a plan
  // (no other spec bought one on this run) the paid mock is locked: its questions come with a
  // plan (docs/payments.md "Without a plan").
  await expect(page.getByTestId('exam-card-qs-future-mock').getByTestId('availability')).toHaveText(/On this device|Locked/, { timeout: 30_000 });
  const mockBefore = await left(page, 'mock-left');
  const practiceBefore = await left(page, 'practice-left');

  // Buy Now → the sandbox's hosted page (PhonePe's protocol, inside our server) → Pay.
  await page.goto('/plan');
  await pressBuyNow(page, 'ONE_MONTH_PLAN');
  await page.getByRole('button', { name: /^Pay/ }).click();

  // The confirmation page: success, the 6-second countdown, then the redirect to the profile.
  await expect(page).toHaveURL(/\/payment-confirmation\?merchantTransactionId=/);
  await expect(page.getByText('Payment successfull')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText(/You will be redirected automatically in \d seconds/)).toBeVisible();
  await expect(page).toHaveURL(/\/profile$/, { timeout: 15_000 });

  // My plan: the plan in force, and the order with its receipt.
  const myPlan = page.getByRole('region', { name: 'My plan' });
  await expect(myPlan.getByTestId('active-plan')).toBeVisible({ timeout: 20_000 });
  const paidOrder = myPlan.getByRole('table', { name: 'Past orders' }).getByRole('row').filter({ hasText: 'Monthly' }).filter({ hasText: 'Paid' }).first();
  await expect(paidOrder).toBeVisible();
  await paidOrder.getByRole('link', { name: /Receipt|No\./ }).click();
  await expect(page.getByText(/Receipt No\. \d+/)).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText('₹150').first()).toBeVisible();

  // The exam list shows two more practice exams and ten more mock tests than before.
  await page.goto('/exam-list');
  await expect.poll(() => left(page, 'practice-left'), { timeout: 30_000 }).toBe(practiceBefore + 2);
  expect(await left(page, 'mock-left')).toBe(mockBefore === Number.POSITIVE_INFINITY ? mockBefore : mockBefore + 10);

  // Offline: a mock test that is not free starts within the allowance, and uses one. Its
  // questions are on the device now, without a reload.
  const card = page.getByTestId('exam-card-qs-future-mock');
  await expect(card.getByTestId('availability')).toHaveText('On this device', { timeout: 30_000 });
  await card.getByRole('link', { name: 'Take Test' }).click();
  await expect(page.getByRole('button', { name: 'Start Test' })).toBeEnabled();
  await waitForServiceWorker(page);
  await context.setOffline(true);
  await page.getByRole('button', { name: 'Start Test' }).click();
  await expect(page.getByTestId('question-number')).toHaveText('Question 1');
  await page.goto('/exam-list').catch(() => undefined);
  await expect.poll(() => left(page, 'mock-left'), { timeout: 30_000 }).toBe(mockBefore + 9);
  await context.setOffline(false);

  // Back online, the server counts the attempt against the plan, within it.
  await expect
    .poll(
      () => {
        const db = openAppDb();
        try {
          return db.prepare("select over_limit as o from entitlement_use where qsid = 'qs-future-mock' order by created_at desc limit 1").get() as { o: number } | undefined;
        } finally {
          db.close();
        }
      },
      { timeout: 30_000 },
    )
    .toEqual({ o: 0 });
});

test('a failed payment shows "Payment failed" without a redirect, and offers Retry', async ({ page }) => {
  test.setTimeout(120_000);
  await loginAs(page, 'learner');
  await page.goto('/plan');
  await pressBuyNow(page, 'QUATERLY_MONTH_PLAN');
  await page.getByRole('button', { name: /^Fail/ }).click();
  await expect(page).toHaveURL(/\/payment-confirmation\?/);
  await expect(page.getByText('Payment failed', { exact: true })).toBeVisible({ timeout: 30_000 });
  await page.waitForTimeout(7_000);
  await expect(page).toHaveURL(/\/payment-confirmation\?/);
  // Retry starts a new order for the same plan and goes back to the provider.
  await page.getByRole('button', { name: 'Retry' }).click();
  await expect(page).toHaveURL(/\/sandbox\/phonepe\/pay\//, { timeout: 30_000 });
});
