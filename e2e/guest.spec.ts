import { expect, test } from '@playwright/test';
import { openAppDb, waitForServiceWorker } from './helpers';

// This spec needs the service worker (playwright.config.ts blocks it elsewhere).
test.use({ serviceWorkers: 'allow' });

/*
 * docs/replication.md "Guests" (anonymous users may take exams): a guest opens the exam list without an
 * account, finds the free sets on the device, takes one with the network off, submits, and is
 * asked to sign up; the new account gets the attempt, which uploads and is scored once.
 */

const randomMobile = () => `7${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;

test('a guest takes a free test offline, signs up at submit and sees the scored result', async ({ page, context }) => {
  test.setTimeout(150_000);
  await page.goto('/exam-list');
  // Only the sets marked free come to a guest's device.
  const card = page.getByTestId('exam-card-qs-practice-gk');
  await expect(card.getByTestId('availability')).toHaveText('On this device', { timeout: 30_000 });
  await expect(page.getByTestId('exam-card-qs-hindi-sub')).toHaveCount(0);
  await card.getByRole('link', { name: 'Take Test' }).click();
  await expect(page.getByRole('heading', { name: /Practice Set: General Knowledge/ })).toBeVisible();
  await waitForServiceWorker(page);

  await context.setOffline(true);
  await page.getByRole('button', { name: 'Start Test' }).click();
  await expect(page.getByTestId('question-number')).toHaveText('Question 1');
  await page.getByRole('tabpanel').getByRole('radio').nth(2).check();
  await page.getByRole('button', { name: 'Save & Next' }).click();
  await expect(page.getByTestId('question-number')).toHaveText('Question 2');
  await page.getByRole('tabpanel').getByRole('radio').nth(0).check();
  await page.getByRole('button', { name: 'Save & Next' }).click();
  // A reload offline keeps the guest's answers.
  await page.reload();
  await expect(page.getByRole('button', { name: /^Question 2,/ })).toHaveAccessibleName('Question 2, Answered', { timeout: 20_000 });
  await page.getByRole('complementary').getByRole('button', { name: 'Submit' }).click();
  await page.getByRole('dialog', { name: 'Exam summary' }).getByRole('button', { name: 'Submit test' }).click();

  // The result needs an account: the login page says why.
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByText('Your test is submitted and your answers are saved on this device. Sign up or log in to see your result').first()).toBeVisible();

  await context.setOffline(false);
  const mobile = randomMobile();
  await page.getByRole('tab', { name: 'New users' }).click();
  const panel = page.getByRole('tabpanel', { name: 'New users' });
  await panel.getByLabel('Full name').fill('Guna Guest');
  await panel.getByLabel(/^Mobile number/).fill(mobile);
  await panel.getByLabel(/^Password/).fill('guna1234');
  await panel.getByLabel('Confirm password').fill('guna1234');
  // Sign-up needs the mobile of the person who invited you (spec): a demo learner's.
  await panel.getByLabel("Referrer's mobile number").fill('9000000003');
  await expect(panel.getByText('Referrer: La*** Le***')).toBeVisible();
  await panel.getByRole('checkbox', { name: /I am 18 years or older/ }).check();
  await panel.getByRole('button', { name: 'Register' }).click();

  // Back to the result: the attempt moved into the new account, uploaded and was scored.
  await expect(page).toHaveURL(/\/exam-result\/qs-practice-gk\/true$/, { timeout: 20_000 });
  await expect(page.getByTestId('total-marks')).toBeVisible({ timeout: 30_000 });
  const db = openAppDb();
  try {
    const person = db.prepare("select id from person where mobile like '%' || ?").get(mobile) as { id: string };
    const results = db.prepare('select count(*) as n from exam_result where person_id = ? and qsid = ?').get(person.id, 'qs-practice-gk') as { n: number };
    expect(results.n).toBe(1);
  } finally {
    db.close();
  }
  // The guest's copy is gone from the device's guest database: nothing left to move twice.
  await expect(page.getByRole('button', { name: /Sync status: Online, All saved/ })).toBeVisible({ timeout: 15_000 });
});
