import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test';
import { DEMO, loginOnPhone } from './helpers';

/*
 * Grievances and reports on a 360 × 740 phone (docs/charity.md "Grievances"): a donor raises a
 * grievance about their donation from the donation's page, a trustee answers it from the queue,
 * the donor reads the answer (in English and in Hindi), the trustee resolves it and the donor
 * reads the note; a guest reports a campaign in Hindi and the report is in the trustees' queue.
 */

test.use({ viewport: { width: 360, height: 740 } });

const DEMO_CAMPAIGN = 'demo-campaign-1';
const PHONE = { viewport: { width: 360, height: 740 } };

async function noSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
}

/** A donation of the demo learner, signed in, paid through the PhonePe sandbox over HTTP: its order id. */
async function learnersPaidDonation(request: APIRequestContext): Promise<string> {
  const login = await request.post('/api/UserLogin/login', {
    headers: { authorization: `Basic ${Buffer.from(`${DEMO.learner.username}:${DEMO.learner.password}`).toString('base64')}` },
  });
  const auth = { authorization: `Bearer ${(await login.json()).token as string}` };
  const started = await request.post('/api/donation', {
    headers: auth,
    data: { campaignId: DEMO_CAMPAIGN, amount: 51, name: 'Lata Learner', email: 'learner@example.com', mobile: '9000000003', indianPassport: true },
  });
  expect(started.status()).toBe(201);
  const { id, token } = (await started.json()) as { id: string; token: string };
  const pay = await request.post(`/api/donation/${id}/pay`, { headers: auth, data: { token } });
  expect(pay.ok()).toBe(true);
  const url = ((await pay.json()) as { data: { instrumentResponse: { redirectInfo: { url: string } } } }).data.instrumentResponse.redirectInfo.url;
  expect((await request.post(url, { form: { outcome: 'PAY' }, maxRedirects: 0 })).status()).toBe(302);
  await expect.poll(async () => ((await (await request.get(`/api/donation/${id}?t=${token}`)).json()) as { data: { status: string } }).data.status, { timeout: 30_000 }).toBe('PAID');
  return id;
}

async function phoneAs(browser: Browser, who: keyof typeof DEMO): Promise<Page> {
  const page = await (await browser.newContext(PHONE)).newPage();
  await loginOnPhone(page, who);
  return page;
}

test('a donor raises a grievance about their donation; a trustee answers and resolves it; the donor reads both (English and Hindi)', async ({ page, browser, request }) => {
  test.setTimeout(180_000);
  const orderId = await learnersPaidDonation(request);
  const title = `No receipt e-mail ${Date.now()}`;

  // The donor, from the donation's page.
  await loginOnPhone(page, 'learner');
  await page.goto(`/donations/${orderId}`);
  await page.getByTestId('raise-grievance').click();
  await expect(page).toHaveURL(new RegExp(`/grievances\\?subject=DONATION&id=${orderId}$`));
  await expect(page.getByRole('combobox', { name: 'About' })).toHaveValue('A donation');
  await expect(page.getByRole('combobox', { name: /Which donation/ })).toHaveValue(/₹51/, { timeout: 15_000 });
  await page.getByRole('textbox', { name: /Title/ }).fill(title);
  await page.getByRole('textbox', { name: /What happened/ }).fill('The donation was paid but no receipt e-mail came.');
  await noSidewaysScroll(page);
  await page.getByRole('button', { name: 'Raise the grievance' }).click();
  await expect(page).toHaveURL(/\/grievances\/[\w-]+$/, { timeout: 15_000 });
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(page.getByTestId('grievance-number')).toHaveText(/^G\d{4}-\d{2}-\d{6} · /);
  await expect(page.getByTestId('grievance-status')).toHaveText('Open');
  await expect(page.getByTestId('grievance-due')).toHaveText(/^Answer due by /);
  const threadUrl = page.url();

  // The trustee: the queue, the grievance, an answer.
  const trustee = await phoneAs(browser, 'trustee');
  await trustee.goto('/grievance-queue');
  await trustee.getByRole('textbox', { name: 'Search' }).fill(title);
  const item = trustee.getByTestId('grievance-item').filter({ hasText: title });
  await expect(item).toHaveCount(1, { timeout: 15_000 });
  await expect(item).toContainText('Lata Learner');
  await noSidewaysScroll(trustee);
  await item.getByRole('link', { name: title }).click();
  await trustee.getByRole('textbox', { name: 'Answer the raiser' }).fill('We have sent the receipt to your e-mail again.');
  await trustee.getByRole('button', { name: 'Send' }).click();
  await expect(trustee.getByTestId('grievance-message')).toContainText('We have sent the receipt to your e-mail again.');
  await expect(trustee.getByTestId('grievance-status')).toHaveText('Answered');

  // The donor reads the answer, in English, then in Hindi.
  await page.goto(threadUrl);
  const answer = page.getByTestId('grievance-message').filter({ hasText: 'We have sent the receipt to your e-mail again.' });
  await expect(answer).toContainText('The trust');
  await expect(page.getByTestId('grievance-status')).toHaveText('Answered');
  await page.evaluate(() => localStorage.setItem('lang', 'hi'));
  await page.reload();
  await expect(page.getByTestId('grievance-status')).toHaveText('उत्तर दिया गया', { timeout: 30_000 });
  await expect(answer).toContainText('ट्रस्ट');
  await expect(page.getByRole('textbox', { name: 'आपका संदेश' })).toBeVisible();
  await noSidewaysScroll(page);

  // The trustee resolves it with a note; the donor reads it (still in Hindi) and may reopen.
  await trustee.getByTestId('staff-actions').getByRole('button', { name: 'Resolve' }).click();
  const dialog = trustee.getByRole('dialog', { name: 'Resolve this grievance?' });
  await dialog.getByRole('textbox', { name: /Resolution note/ }).fill('The receipt was sent again and has arrived.');
  await dialog.getByRole('button', { name: 'Resolve' }).click();
  await expect(trustee.getByTestId('grievance-status')).toHaveText('Resolved');
  await page.reload();
  await expect(page.getByTestId('grievance-resolution')).toContainText('ट्रस्ट का नोट: The receipt was sent again and has arrived.', { timeout: 30_000 });
  await expect(page.getByRole('button', { name: 'फिर से खोलें' })).toBeVisible();
  await page.evaluate(() => localStorage.setItem('lang', 'en'));
  await trustee.context().close();
});

test('a guest reports a campaign in Hindi; it is in the trustees\' queue', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const text = `शुल्क बहुत अधिक लिखा है ${Date.now()}`;
  await page.goto(`/campaigns/${DEMO_CAMPAIGN}`);
  await page.evaluate(() => localStorage.setItem('lang', 'hi'));
  await page.reload();
  await page.getByRole('button', { name: 'इस अभियान की रिपोर्ट करें' }).click({ timeout: 30_000 });
  const dialog = page.getByRole('dialog', { name: 'क्या इस अभियान में कुछ गलत लगता है?' });
  await dialog.getByRole('combobox', { name: /क्या गलत है/ }).click();
  await dialog.getByRole('option', { name: 'जानकारी गलत है' }).click();
  await dialog.getByRole('textbox', { name: /आपने क्या देखा/ }).fill(text);
  await noSidewaysScroll(page);
  await dialog.getByRole('button', { name: 'रिपोर्ट भेजें' }).click();
  await expect(page.getByText('धन्यवाद। ट्रस्ट आपकी रिपोर्ट की जाँच करेगा।').first()).toBeVisible({ timeout: 15_000 });
  await expect(dialog).toBeHidden();

  const trustee = await phoneAs(browser, 'trustee');
  await trustee.goto('/grievance-queue');
  const reports = trustee.getByTestId('grievance-item').filter({ hasText: 'The information is wrong' });
  await expect(reports.first()).toBeVisible({ timeout: 15_000 });
  await reports.first().getByRole('link').click();
  await expect(trustee.getByText(text)).toBeVisible();
  await expect(trustee.getByText(/Raised by a guest/)).toBeVisible();
  await trustee.context().close();
});
