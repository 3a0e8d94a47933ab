import { expect, type Page, test } from '@playwright/test';

/*
 * docs/sms.md "Every code by SMS", "The sandbox": a learner with no e-mail resets a forgotten
 * password with the code that came by SMS, read on the SMS sandbox's page (the phone), at a
 * phone's width.
 */

test.use({ viewport: { width: 360, height: 740 } });

/** A fresh 10-digit mobile (the demo accounts use 900000000x; 555… are the sandbox's switched-off numbers). */
const randomMobile = () => `8${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;

/** The newest 6-digit code on the sandbox's page of `mobile`, polled until one is there. */
async function codeOnSandboxPage(phone: Page, mobile: string): Promise<string> {
  let code: string | undefined;
  await expect(async () => {
    await phone.goto(`/sandbox/sms?number=${encodeURIComponent(`+91${mobile}`)}`);
    const newest = phone.getByRole('listitem').first();
    await expect(newest).toContainText('password reset code', { timeout: 1_000 });
    code = /\b(\d{6})\b/.exec(await newest.innerText())?.[1];
    expect(code).toMatch(/^\d{6}$/);
  }).toPass({ timeout: 15_000 });
  return code!;
}

test('a learner without e-mail resets the password with the code from the SMS sandbox', async ({ page, context, request }) => {
  const mobile = randomMobile();
  const referrer = await (await request.get('/api/Person/getReferrer?strQuery=9000000003')).json();
  const created = await request.post('/api/UserLogin', {
    data: { n: 'Phone Only Learner', m: mobile, password: 'first1234', confirmPassword: 'first1234', p: referrer.data[0].id, terms: true },
  });
  expect(created.status()).toBe(201);

  await page.goto('/forgot-password');
  // Filled again until the form takes it (under load the page may still be settling).
  await expect(async () => {
    await page.getByLabel('Mobile or e-mail').fill(mobile);
    await expect(page.getByRole('button', { name: 'Request password code' })).toBeEnabled({ timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await page.getByRole('button', { name: 'Request password code' }).click();
  await expect(page.getByLabel('OTP (6-digit code)')).toBeVisible();

  // The phone: the sandbox's page lists what reached this number.
  const phone = await context.newPage();
  const code = await codeOnSandboxPage(phone, mobile);
  // Readable at 360 px: nothing wider than the screen.
  expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await phone.close();

  await page.getByLabel(/^New password/).fill('second1234');
  await page.getByLabel('Confirm password').fill('second1234');
  await page.getByLabel('OTP (6-digit code)').fill(code);
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page.getByText('Password reset successfull')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);

  const login = await request.post('/api/UserLogin/login', { headers: { authorization: `Basic ${Buffer.from(`${mobile}:second1234`).toString('base64')}` } });
  expect(login.status()).toBe(200);
});
