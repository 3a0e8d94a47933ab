import { expect, type Page, test } from '@playwright/test';

/*
 * Paid content stays paid (docs/payments.md "Without a plan"): a learner without a plan is not
 * sent the questions of the sets that are not free, so the exam list shows them locked, with
 * what unlocks them, rather than "downloading" for ever; the free sets download and start as
 * before. At 360 px, in English and in Hindi. A new learner signs up for it: the demo learner
 * may hold a plan bought by another spec of the same run (csp.spec, payments.spec).
 */

const randomMobile = () => `7${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;

async function signUpAndLogIn(page: Page) {
  const mobile = randomMobile();
  // Signing up names a referrer: the demo learner (fixtures/accounts.json).
  const created = await page.request.post('/api/UserLogin', { data: { n: 'Meera Patel', m: mobile, password: 'meera1234', confirmPassword: 'meera1234', p: 'demo-learner', terms: true } });
  expect(created.status()).toBe(201);
  await page.goto('/login');
  const panel = page.getByRole('tabpanel', { name: 'Existing users' });
  await panel.getByLabel('Mobile or e-mail').fill(mobile);
  await panel.getByLabel(/^Password/).fill('meera1234');
  await panel.getByRole('button', { name: 'Login' }).click();
  // At 360 px Logout sits in the drawer: the login is done when the page leaves /login.
  await expect(page).not.toHaveURL(/\/login/);
}

/** Nothing wider than the screen (every screen is usable at 360 px). */
const fitsTheScreen = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

test('without a plan the paid sets are locked on the exam list, with what unlocks them, in English and Hindi at 360 px', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 360, height: 740 });
  await signUpAndLogIn(page);
  await page.goto('/exam-list');

  // The free set downloads and starts as before.
  const free = page.getByTestId('exam-card-qs-mock-ssc-1');
  await expect(free.getByTestId('availability')).toHaveText('On this device', { timeout: 30_000 });
  await expect(free.getByRole('link', { name: 'Take Test' })).toBeVisible();

  // The seeded paid practice set (fixtures/question-sets.json); the upcoming mock is published by offline.spec.
  for (const id of ['qs-hindi-sub']) {
    const card = page.getByTestId(`exam-card-${id}`);
    await expect(card.getByTestId('availability')).toHaveText('Locked', { timeout: 30_000 });
    await expect(card.getByTestId('start-blocked')).toContainText('Buy a plan to take this test');
    await expect(card.getByTestId('start-blocked').getByRole('link', { name: 'See plans' })).toHaveAttribute('href', '/plan');
    await expect(card.getByTestId('questions-with-plan')).toHaveText('Its questions download to this device when a plan covers it.');
    await expect(card.getByRole('button', { name: 'Take Test' })).toBeDisabled();
  }
  // The download is complete: what is locked is not waited for.
  await expect(page.getByTestId('download-progress')).toHaveText(/^(All \d+ tests are|Your test is) on this device$/);
  await expect(page.getByText('Downloading…')).toHaveCount(0);
  expect(await fitsTheScreen(page)).toBe(true);

  // The intro page of a locked set (a deep link): no endless "downloading", the reason and the plans.
  await page.goto('/take-exam/qs-hindi-sub');
  const blocked = page.getByTestId('start-blocked');
  await expect(blocked).toContainText('Buy a plan to take this test', { timeout: 30_000 });
  await expect(blocked).toContainText('Its questions download to this device when a plan covers it.');
  await expect(page.getByRole('button', { name: 'Start Test' })).toBeDisabled();
  await expect(page.getByText('Downloading…')).toHaveCount(0);
  expect(await fitsTheScreen(page)).toBe(true);

  await page.goto('/exam-list');
  await page.evaluate(() => localStorage.setItem('lang', 'hi'));
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', 'hi');
  const card = page.getByTestId('exam-card-qs-hindi-sub');
  await expect(card.getByTestId('availability')).toHaveText('लॉक है', { timeout: 30_000 });
  await expect(card.getByTestId('start-blocked')).toContainText('यह टेस्ट देने के लिए प्लान खरीदें');
  await expect(card.getByTestId('start-blocked').getByRole('link', { name: 'प्लान देखें' })).toHaveAttribute('href', '/plan');
  await expect(card.getByTestId('questions-with-plan')).toHaveText('प्लान से कवर होने पर इसके प्रश्न इस डिवाइस पर डाउनलोड होंगे।');
  await expect(page.getByText('डाउनलोड हो रहा है…')).toHaveCount(0);
  expect(await fitsTheScreen(page)).toBe(true);
});
