import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { serverDataDir } from './helpers';

/** A fresh 10-digit mobile (the demo accounts use 900000000x). */
const randomMobile = () => `8${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;

const loginPanel = (page: Page) => page.getByRole('tabpanel', { name: 'Existing users' });
const signupPanel = (page: Page) => page.getByRole('tabpanel', { name: 'New users' });

async function login(page: Page, username: string, password: string) {
  await page.goto('/login');
  const panel = loginPanel(page);
  await panel.getByLabel('Mobile or e-mail').fill(username);
  await panel.getByLabel(/^Password/).fill(password);
  await panel.getByRole('button', { name: 'Login' }).click();
}

async function logout(page: Page) {
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('button', { name: 'Logout' })).toHaveCount(0);
}

/**
 * The latest message the local outbox adapter delivered to a recipient: its inbox file in the
 * server's DATA_DIR (docs/configuration.md: no SMTP in tests; the outbox table keeps only the masked text).
 */
async function latestOutboxBody(recipient: string): Promise<string> {
  const file = path.join(serverDataDir(), 'local-inbox.jsonl');
  const latest = () => {
    if (!existsSync(file)) return undefined;
    const lines = readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '');
    return lines
      .map((l) => JSON.parse(l) as { to: string; body: string })
      .filter((m) => m.to === recipient)
      .at(-1)?.body;
  };
  // The message is handed to the adapter just after the answer: give it a moment.
  await expect.poll(latest, { message: `no message delivered to ${recipient}`, timeout: 5_000 }).toBeDefined();
  return latest()!;
}

test('a new learner signs up with a referrer, is signed in, and logs out', async ({ page }) => {
  const mobile = randomMobile();
  await page.goto('/login');
  await page.getByRole('tab', { name: 'New users' }).click();
  const panel = signupPanel(page);
  const register = panel.getByRole('button', { name: 'Register' });
  await expect(register).toBeDisabled();
  await panel.getByLabel('Full name').fill('Ravi Kumar');
  await panel.getByLabel(/^Mobile number/).fill(mobile);
  await panel.getByLabel(/^Password/).fill('ravi1234');
  await panel.getByLabel('Confirm password').fill('ravi1234');
  await panel.getByLabel("Referrer's mobile number").fill('9000000003');
  // The public lookup shows a masked name (docs/security.md "Referrals and names").
  await expect(panel.getByText('Referrer: La*** Le***')).toBeVisible();
  await panel.getByRole('checkbox', { name: /I am 18 years or older/ }).check();
  await expect(register).toBeEnabled();
  await register.click();

  await expect(page.getByText('User successfully created')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
  await expect(page).toHaveURL(/\/exam-list$/);
  await logout(page);

  // The new account logs in with its mobile.
  await login(page, mobile, 'ravi1234');
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
});

test('the admin logs in by e-mail and the learner by mobile', async ({ page }) => {
  await login(page, 'admin@example.com', 'admin1234');
  await expect(page.getByText('Login successful')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
  await logout(page);

  await login(page, '9000000003', 'learner1234');
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
  await page.getByRole('link', { name: 'My profile' }).click();
  await expect(page.getByText('Lata Learner')).toBeVisible();
  await expect(page.getByLabel('Your referral link')).toHaveValue(/\/login\?referrer=9000000003$/);
});

test('a wrong password shows Login failed and the server message', async ({ page }) => {
  await login(page, '9000000003', 'not-the-password');
  await expect(page.getByText('Login failed')).toBeVisible();
  await expect(loginPanel(page).getByRole('alert')).toContainText('Invalid username or password');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('button', { name: 'Logout' })).toHaveCount(0);
});

test('a referral link opens the signup tab with the referrer filled in', async ({ page }) => {
  await page.goto('/login?referrer=919000000003');
  await expect(page.getByRole('tab', { name: 'New users' })).toHaveAttribute('aria-selected', 'true');
  const panel = signupPanel(page);
  await expect(panel.getByLabel("Referrer's mobile number")).toHaveValue('9000000003');
  // The public lookup shows a masked name (docs/security.md "Referrals and names").
  await expect(panel.getByText('Referrer: La*** Le***')).toBeVisible();
});

test('a guard sends a signed-out visitor to /login with its message', async ({ page }) => {
  await page.goto('/question-list');
  await expect(page).toHaveURL(/\/login\?error=/);
  await expect(page.getByText('Insufficient permission. Please login as authorized user.')).toBeVisible();
});

test('forgot password: a code by e-mail sets a new password, which then logs in', async ({ page, request }) => {
  const mobile = randomMobile();
  const email = `e2e-${mobile}@example.com`;
  const referrer = await (await request.get('/api/Person/getReferrer?strQuery=9000000003')).json();
  const created = await request.post('/api/UserLogin', {
    data: { n: 'Forgetful Learner', m: mobile, e: email, password: 'first1234', confirmPassword: 'first1234', p: referrer.data[0].id, terms: true },
  });
  expect(created.status()).toBe(201);

  await page.goto('/login');
  await loginPanel(page).getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  // Filled again until the form takes it (under load the page may still be settling after the link).
  await expect(async () => {
    await page.getByLabel('Mobile or e-mail').fill(mobile);
    await expect(page.getByRole('button', { name: 'Request password code' })).toBeEnabled({ timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await page.getByRole('button', { name: 'Request password code' }).click();
  await expect(page.getByLabel('OTP (6-digit code)')).toBeVisible();

  const code = /\b(\d{6})\b/.exec(await latestOutboxBody(email))?.[1];
  expect(code).toMatch(/^\d{6}$/);
  await page.getByLabel(/^New password/).fill('second1234');
  await page.getByLabel('Confirm password').fill('second1234');
  await page.getByLabel('OTP (6-digit code)').fill(code!);
  await page.getByRole('button', { name: 'Reset password' }).click();

  await expect(page.getByText('Password reset successfull')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  await login(page, email, 'second1234');
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
});

test('a signed-in learner changes the password from the profile; the new one logs in', async ({ page, request }) => {
  const mobile = randomMobile();
  const referrer = await (await request.get('/api/Person/getReferrer?strQuery=9000000003')).json();
  const created = await request.post('/api/UserLogin', {
    data: { n: 'Careful Learner', m: mobile, password: 'old12345', confirmPassword: 'old12345', p: referrer.data[0].id, terms: true },
  });
  expect(created.status()).toBe(201);

  // Signed out, /reset-password sends to /login and comes back after the login.
  await page.goto('/reset-password');
  await expect(page).toHaveURL(/\/login$/);
  const panel = loginPanel(page);
  await panel.getByLabel('Mobile or e-mail').fill(mobile);
  await panel.getByLabel(/^Password/).fill('old12345');
  await panel.getByLabel(/^Password/).press('Enter');
  await expect(page).toHaveURL(/\/reset-password$/);

  await page.getByLabel(/^Current password/).fill('old12345');
  await page.getByLabel(/^New password/).fill('new12345');
  await page.getByLabel(/^Confirm new password/).fill('new12345');
  await page.getByLabel(/^Confirm new password/).press('Enter');
  await expect(page.getByText('Password changed successfully')).toBeVisible();
  await expect(page).toHaveURL(/\/profile$/);
  // The fresh token works: the profile loads.
  await expect(page.getByText('Careful Learner')).toBeVisible();
  await logout(page);

  await login(page, mobile, 'new12345');
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
});

test('logging out on a guarded page does not send the next person who logs in there', async ({ page }) => {
  await login(page, 'editor@example.com', 'editor1234');
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
  await page.goto('/question-list');
  await expect(page).toHaveURL(/\/question-list$/);
  await logout(page);
  await login(page, '9000000003', 'learner1234');
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
  await expect(page).toHaveURL(/\/exam-list$/);
});
