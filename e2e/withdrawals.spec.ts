import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test';
import { DEMO, loginOnPhone } from './helpers';

/*
 * Withdrawing on a 360 × 740 phone, in English and in Hindi (docs/charity.md "The withdrawal
 * screens", "Withdrawals"): the demo beneficiary's new campaign, approved and given a donation
 * through the PhonePe sandbox, is withdrawn from: the beneficiary adds a UPI id (verified by the
 * RazorpayX sandbox), asks for a withdrawal to it and sees its due time; trustees 9000000005 and
 * 9000000006 each approve it from the withdrawals queue; the sandbox pays it; the beneficiary sees
 * it PAID with its UTR, the campaign's public ledger lists the payout, and their withdrawn figure
 * grows by it. Each language has a campaign of its own, so that neither waits for the update a
 * paid withdrawal asks for before the next.
 */

test.use({ viewport: { width: 360, height: 740 } });
test.describe.configure({ mode: 'serial' });

const DAY = 86_400_000;

type Lang = 'en' | 'hi';
const WORDS = {
  en: {
    accounts: 'Payout accounts',
    addForm: 'Add a payout account',
    holder: /Account holder's name/,
    upi: /UPI id/,
    verify: 'Verify and add',
    verified: 'Verified',
    withdraw: 'Withdraw',
    requestForm: 'Ask for a withdrawal',
    amount: /Amount/,
    purpose: /What it pays for \(English\)/,
    payee: /Pay to/,
    send: 'Send the request',
    sent: /to Bina Beneficiary — .*Two trustees approve it; it is due by/,
    queue: 'Withdrawals',
    approve: 'Approve',
    approveTitle: 'Approve this withdrawal?',
    requestedStatus: 'Waiting for approval',
    paid: 'Paid',
    utr: /Bank reference \(UTR\): \S+/,
    ledgerPayout: 'Withdrawal paid out',
    withdrawn: 'Withdrawn',
    deleteAccount: 'Delete',
    deleteTitle: 'Delete this account?',
  },
  hi: {
    accounts: 'भुगतान खाते',
    addForm: 'भुगतान खाता जोड़ें',
    holder: /खाताधारक का नाम/,
    upi: /UPI आईडी/,
    verify: 'जाँचें और जोड़ें',
    verified: 'सत्यापित',
    withdraw: 'निकासी करें',
    requestForm: 'निकासी माँगें',
    amount: /राशि/,
    purpose: /यह किस काम के लिए है \(अंग्रेज़ी में\)/,
    payee: /किसे भुगतान करें/,
    send: 'अनुरोध भेजें',
    sent: /Bina Beneficiary — .*को। दो ट्रस्टी इसे स्वीकार करते हैं; इसकी समय-सीमा/,
    queue: 'निकासियाँ',
    approve: 'स्वीकार करें',
    approveTitle: 'यह निकासी स्वीकार करें?',
    requestedStatus: 'स्वीकृति की प्रतीक्षा',
    paid: 'भुगतान हो गया',
    utr: /बैंक संदर्भ \(UTR\): \S+/,
    ledgerPayout: 'निकासी का भुगतान',
    withdrawn: 'निकाली गई',
    deleteAccount: 'हटाएँ',
    deleteTitle: 'यह खाता हटाएँ?',
  },
} as const;

async function noSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
}

async function tokenOf(request: APIRequestContext, who: keyof typeof DEMO): Promise<string> {
  const login = await request.post('/api/UserLogin/login', {
    headers: { authorization: `Basic ${Buffer.from(`${DEMO[who].username}:${DEMO[who].password}`).toString('base64')}` },
  });
  expect(login.ok()).toBe(true);
  return ((await login.json()) as { token: string }).token;
}

/** A new campaign of the demo beneficiary, submitted and approved by the demo trustee, over HTTP. */
async function approvedCampaign(request: APIRequestContext, title: { en: string; hi: string }): Promise<string> {
  const beneficiary = { authorization: `Bearer ${await tokenOf(request, 'beneficiary')}` };
  const created = await request.post('/api/campaign', {
    headers: beneficiary,
    data: { title, story: { en: '<p>Books for the board exams.</p>' }, cause: 'BOOKS', need: [{ what: { en: 'Books' }, amount: 2000_00 }], endsAt: Date.now() + 30 * DAY },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const id = ((await created.json()) as { data: { id: string } }).data.id;
  expect((await request.post(`/api/campaign/${id}/submit`, { headers: beneficiary, data: {} })).ok()).toBe(true);
  const trustee = { authorization: `Bearer ${await tokenOf(request, 'trustee')}` };
  expect((await request.post(`/api/campaign/${id}/approve`, { headers: trustee, data: {} })).ok()).toBe(true);
  return id;
}

/**
 * A guest's donation of `rupees` to the campaign through the PhonePe sandbox, over HTTP (the
 * screens of it are e2e/donations.spec.ts's): POST /donation, its pay step, the sandbox's hosted
 * page answered "Pay", then the donation's page until it reads PAID.
 */
async function donateThroughSandbox(request: APIRequestContext, campaignId: string, rupees: number) {
  const stamp = Date.now();
  const started = await request.post('/api/donation', {
    data: { campaignId, amount: rupees, name: `Withdrawal Donor ${stamp}`, email: `wd-${stamp}@example.com`, mobile: '9812345678', indianPassport: true },
  });
  expect(started.ok(), await started.text()).toBe(true);
  const { id, token } = (await started.json()) as { id: string; token: string };
  const pay = await request.post(`/api/donation/${id}/pay`, { data: { token } });
  expect(pay.ok(), await pay.text()).toBe(true);
  const url = ((await pay.json()) as { data: { instrumentResponse: { redirectInfo: { url: string } } } }).data.instrumentResponse.redirectInfo.url;
  expect((await request.post(url, { form: { outcome: 'PAY' }, maxRedirects: 0 })).status()).toBe(302);
  await expect
    .poll(async () => ((await (await request.get(`/api/donation/${id}`, { params: { t: token } })).json()) as { data: { status: string } }).data.status, { timeout: 30_000 })
    .toBe('PAID');
}

async function inLanguage(page: Page, lang: Lang) {
  await page.evaluate((l) => localStorage.setItem('lang', l), lang);
}

/** A phone of `who`, signed in, in `lang`. */
async function phoneOf(browser: Browser, who: keyof typeof DEMO, lang: Lang): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 360, height: 740 } });
  await loginOnPhone(page, who);
  await inLanguage(page, lang);
  return page;
}

/** The rupees of My campaigns' "Withdrawn" figure, once it has come (NaN while it is loading, for a poll to ask again). */
async function withdrawnRupees(page: Page): Promise<number> {
  const text = (await page.getByTestId('money-withdrawn').textContent()) ?? '';
  const figure = /₹([\d,.]+)/.exec(text)?.[1];
  return figure ? Number(figure.replace(/,/g, '')) : Number.NaN;
}

/** A trustee opens the withdrawals queue from the menu and approves the campaign's withdrawal. */
async function approveFromQueue(browser: Browser, who: 'trustee' | 'trustee2', lang: Lang, title: string) {
  const w = WORDS[lang];
  const page = await phoneOf(browser, who, lang);
  await page.goto('/campaigns');
  await page.getByRole('link', { name: lang === 'en' ? 'Withdrawals to approve' : 'स्वीकृति के लिए निकासियाँ' }).click();
  await expect(page).toHaveURL(/\/withdrawals$/);
  await expect(page.getByRole('heading', { level: 1, name: w.queue })).toBeVisible({ timeout: 30_000 });
  const card = page.getByTestId('withdrawal').filter({ hasText: title });
  await expect(card.getByTestId('withdrawal-status')).toHaveText(w.requestedStatus);
  await noSidewaysScroll(page);
  await card.getByRole('button', { name: w.approve, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: w.approveTitle });
  await dialog.getByRole('button', { name: w.approve, exact: true }).click();
  await expect(dialog).toBeHidden();
  await page.close();
}

for (const lang of ['en', 'hi'] as const) {
  test(`the beneficiary adds a UPI id and withdraws; two trustees approve; the sandbox pays; the ledger and the withdrawn figure show it (${lang})`, async ({ page, browser, request }) => {
    test.setTimeout(240_000);
    const w = WORDS[lang];
    const stamp = Date.now();
    const title = { en: `Withdrawal e2e ${lang} ${stamp}`, hi: `निकासी परीक्षण ${lang} ${stamp}` };
    const shownTitle = title[lang];
    const vpa = `bina.${lang}.${stamp}@upi`;
    const campaignId = await approvedCampaign(request, title);
    // ₹200 at the demo trust's 6 %: ₹188 reaches the campaign.
    await donateThroughSandbox(request, campaignId, 200);

    await loginOnPhone(page, 'beneficiary');
    await inLanguage(page, lang);
    await page.goto('/my-campaigns');
    await expect(page.getByTestId('money-withdrawn')).toContainText('₹', { timeout: 30_000 });
    await expect(page.getByTestId('money-withdrawn')).toContainText('₹');
    const withdrawnBefore = await withdrawnRupees(page);

    // A UPI id, verified by the RazorpayX sandbox.
    await page.getByRole('link', { name: w.accounts }).click();
    await expect(page.getByRole('heading', { level: 1, name: w.accounts })).toBeVisible({ timeout: 30_000 });
    const form = page.getByRole('form', { name: w.addForm });
    await form.getByRole('textbox', { name: w.holder }).fill('Bina Beneficiary');
    await form.getByRole('textbox', { name: w.upi }).fill(vpa);
    await form.getByRole('button', { name: w.verify }).click();
    const account = page.getByTestId('payout-account').filter({ hasText: vpa });
    await expect(account.getByTestId('account-status')).toHaveText(w.verified, { timeout: 30_000 });
    await noSidewaysScroll(page);

    // The request, from the campaign's card on My campaigns.
    await page.goto('/my-campaigns');
    await page.getByTestId('my-campaign').filter({ hasText: shownTitle }).getByRole('link', { name: w.withdraw }).click();
    await expect(page).toHaveURL(new RegExp(`/my-campaigns/${campaignId}/withdraw$`));
    await expect(page.getByTestId('withdrawable')).toContainText('₹188', { timeout: 30_000 });
    const request1 = page.getByRole('form', { name: w.requestForm });
    await request1.getByRole('textbox', { name: w.amount }).fill('150');
    await request1.getByRole('textbox', { name: w.purpose }).fill('Physics and chemistry guides');
    await request1.getByRole('combobox', { name: w.payee }).click();
    await page.getByRole('option', { name: `Bina Beneficiary — ${vpa}` }).click();
    await request1.getByRole('button', { name: w.send }).click();
    await expect(page.getByTestId('withdrawal-sent')).toContainText(w.sent, { timeout: 30_000 });
    const mine = page.getByTestId('withdrawal').first();
    await expect(mine.getByTestId('withdrawal-status')).toHaveText(w.requestedStatus);
    await expect(mine).toContainText('₹150');
    await noSidewaysScroll(page);

    // Two trustees, each from the withdrawals queue.
    await approveFromQueue(browser, 'trustee', lang, shownTitle);
    await approveFromQueue(browser, 'trustee2', lang, shownTitle);

    // The sandbox pays it (processing, then processed with its signed webhook).
    await expect
      .poll(
        async () => {
          await page.reload();
          return (await page.getByTestId('withdrawal').first().getByTestId('withdrawal-status').textContent({ timeout: 15_000 })) ?? '';
        },
        { timeout: 60_000, intervals: [1_000, 2_000, 3_000] },
      )
      .toBe(w.paid);
    await expect(page.getByTestId('withdrawal').first().getByTestId('utr')).toHaveText(w.utr);
    await expect(page.getByTestId('withdrawal').first().getByTestId('approvals')).toContainText('2');
    await noSidewaysScroll(page);

    // The campaign's public ledger lists the payout.
    await page.goto(`/campaigns/${campaignId}`);
    const payoutRow = page.getByTestId('campaign-ledger').getByRole('row').filter({ hasText: w.ledgerPayout });
    await expect(payoutRow).toContainText('₹150', { timeout: 30_000 });
    await noSidewaysScroll(page);

    // The beneficiary's withdrawn figure grew by it.
    await page.goto('/my-campaigns');
    await expect(page.getByTestId('money-withdrawn')).toContainText(w.withdrawn, { timeout: 30_000 });
    await expect.poll(() => withdrawnRupees(page), { timeout: 30_000 }).toBeCloseTo(withdrawnBefore + 150, 2);
    await noSidewaysScroll(page);

    // The paid withdrawal no longer holds the account: it may go (at most five accounts a person).
    await page.goto('/my-campaigns/payout-accounts');
    await account.getByRole('button', { name: w.deleteAccount }).click();
    const dialog = page.getByRole('dialog', { name: w.deleteTitle });
    await dialog.getByRole('button', { name: w.deleteAccount }).click();
    await expect(account).toHaveCount(0, { timeout: 30_000 });
  });
}
