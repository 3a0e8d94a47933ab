import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Navigate } from 'react-router';
import { afterEach, expect, test, vi } from 'vitest';
import { browser } from '@/lib/payments/browser';
import { clearSession, setSession } from '@/lib/session';
import { json, learnerSession, mockApi } from '@/testing/fetch-mock';
import { renderWithApp } from '@/testing/render';
import { campaignFixture } from '../campaigns.fixture';
import DonatePage from './donate-page';

afterEach(() => {
  vi.restoreAllMocks();
  clearSession();
  delete (window as { Razorpay?: unknown }).Razorpay;
});

const QUOTE = { success: true, data: { amount: 100_00, share: 6_00, toCampaign: 94_00, shareBps: 600, trust: { name: { en: 'Demo Trust', hi: '' }, fcraRegistered: false } } };
const STARTED = {
  success: true,
  id: 'order-9',
  amt: 100_00,
  payment: { provider: 'phonepe', merchantTransactionId: 'order-9', amount: 100 },
  token: 'tok-1',
  split: { amount: 100_00, share: 6_00, toCampaign: 94_00, shareBps: 600 },
};

function server(campaign = campaignFixture(), start: () => Response = () => json(STARTED, 201), pay?: () => Response) {
  return mockApi(({ method, path }) => {
    if (pay && method === 'POST' && path === '/donation/order-9/pay') return pay();
    if (method === 'GET' && path === `/campaigns/${campaign.id}`) return json({ success: true, data: campaign });
    if (method === 'GET' && path === '/donation/quote') return json(QUOTE);
    if (method === 'POST' && path === '/donation') return start();
    if (method === 'POST' && path === '/donation/order-9/pay') return json({ success: true, data: { instrumentResponse: { redirectInfo: { url: 'http://localhost/sandbox/phonepe/pay/pg-9' } } } });
    return json({ success: false, msg: `unexpected ${method} ${path}` }, 500);
  });
}

const render = (lang = 'en') =>
  renderWithApp(<Navigate to="/campaigns/c-1/donate" replace />, {
    route: '/start',
    lang,
    namespaces: ['campaign'],
    extraRoutes: [
      { path: '/campaigns/:id/donate', element: <DonatePage /> },
      { path: '/donation-confirmation', element: <div data-testid="donation-confirmation" /> },
    ],
  });

test("the amount's rules in the app's words; PAN is checked; nothing is sent while the form is wrong", async () => {
  const { calls } = server();
  await render();
  const amount = await screen.findByRole('textbox', { name: 'Amount (₹)' });
  await userEvent.type(amount, 'abc');
  await userEvent.tab();
  expect(screen.getByText('Invalid amount!!!')).toBeInTheDocument();
  await userEvent.clear(amount);
  await userEvent.type(amount, '0.5');
  await userEvent.tab();
  expect(screen.getByText('Amount cannot be less than 1')).toBeInTheDocument();
  await userEvent.type(screen.getByRole('textbox', { name: 'PAN' }), 'abcd1234');
  await userEvent.tab();
  expect(screen.getByText(/A PAN is five letters, four digits and a letter/)).toBeInTheDocument();
  await userEvent.click(screen.getByRole('button', { name: 'Pay' }));
  expect(screen.getByText('Please say whether you hold an Indian passport')).toBeInTheDocument();
  expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
});

test('a signed-in donor: prefilled, the split from the server to the paisa with the terms, then Pay goes to POST /donation, its /pay and the provider', async () => {
  setSession(learnerSession, false);
  const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
  const { calls } = server();
  await render();
  expect(await screen.findByRole('textbox', { name: 'Name' })).toHaveValue('Lata Learner');
  expect(screen.getByRole('textbox', { name: 'E-mail' })).toHaveValue('learner@example.com');
  expect(screen.getByRole('textbox', { name: 'Mobile number' })).toHaveValue('9000000003');
  await userEvent.type(screen.getByRole('textbox', { name: 'Amount (₹)' }), '100');
  const split = await screen.findByTestId('donation-split');
  await vi.waitFor(() => expect(split).toHaveTextContent('You give₹100'));
  expect(split).toHaveTextContent("The trust's share (6 percent)₹6");
  expect(split).toHaveTextContent('Reaches the campaign₹94');
  expect(split).toHaveTextContent(/keeps 6 percent of each donation .* will not exceed 10 percent/);
  const quote = calls.find((c) => c.path === '/donation/quote')!;
  expect(Object.fromEntries(quote.query)).toEqual({ campaignId: 'c-1', amount: '100' });

  await userEvent.click(within(screen.getByRole('radiogroup', { name: /Indian passport/ })).getByRole('radio', { name: 'Yes' }));
  await userEvent.type(screen.getByRole('textbox', { name: 'PAN' }), 'abcde1234f');
  await userEvent.click(screen.getByRole('checkbox', { name: 'Show my name as Anonymous' }));
  await userEvent.click(screen.getByRole('button', { name: 'Pay' }));
  await vi.waitFor(() => expect(assign).toHaveBeenCalledWith('http://localhost/sandbox/phonepe/pay/pg-9'));
  expect(calls.find((c) => c.method === 'POST' && c.path === '/donation')!.body).toEqual({
    campaignId: 'c-1',
    amount: 100,
    name: 'Lata Learner',
    email: 'learner@example.com',
    mobile: '+919000000003',
    indianPassport: true,
    pan: 'ABCDE1234F',
    anonymous: true,
  });
  // Paid through the donation's own route with its token; the provider sends the donor back to
  // the donation's confirmation, an address of this site with the order and the token.
  expect(calls.find((c) => c.path === '/donation/order-9/pay')!.body).toEqual({
    token: 'tok-1',
    provider: 'phonepe',
    redirectUrl: `${window.location.origin}/donation-confirmation?orderId=order-9&t=tok-1`,
  });
  expect(calls.some((c) => c.path.includes('initiatePayment'))).toBe(false);
});

test('a guest gives without an account; a refusal of the server is said above Pay, in place', async () => {
  const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
  let refuse = true;
  const { calls } = server(campaignFixture(), () =>
    refuse ? json({ success: false, msg: 'This trust is not registered to accept foreign contributions: a donor without an Indian passport cannot give to it' }, 403) : json(STARTED, 201),
  );
  await render();
  await userEvent.type(await screen.findByRole('textbox', { name: 'Amount (₹)' }), '100');
  await userEvent.type(screen.getByRole('textbox', { name: 'Name' }), 'Asha Devi');
  await userEvent.type(screen.getByRole('textbox', { name: 'E-mail' }), 'asha@example.com');
  await userEvent.type(screen.getByRole('textbox', { name: 'Mobile number' }), '9812345678');
  await userEvent.click(within(screen.getByRole('radiogroup', { name: /Indian passport/ })).getByRole('radio', { name: 'No' }));
  expect(screen.getByTestId('foreign-donor-note')).toBeInTheDocument();
  // A donor without an Indian passport names their country (docs/charity.md "Foreign contributions").
  await userEvent.selectOptions(screen.getByRole('combobox', { name: /Country you live in/ }), 'US');
  await userEvent.click(screen.getByRole('button', { name: 'Pay' }));
  expect(await screen.findByTestId('donation-refused')).toHaveTextContent('not registered to accept foreign contributions');
  expect(assign).not.toHaveBeenCalled();
  expect(calls.find((c) => c.method === 'POST' && c.path === '/donation')!.headers.authorization).toBeUndefined();

  refuse = false;
  await userEvent.click(within(screen.getByRole('radiogroup', { name: /Indian passport/ })).getByRole('radio', { name: 'Yes' }));
  await userEvent.click(screen.getByRole('button', { name: 'Pay' }));
  await vi.waitFor(() => expect(assign).toHaveBeenCalledWith('http://localhost/sandbox/phonepe/pay/pg-9'));
  expect(screen.queryByTestId('donation-refused')).toBeNull();
  // The tab keeps the token too, for an address that lost it.
  expect(sessionStorage.getItem('donation-token:order-9')).toBe('tok-1');
});

test('a donor without an Indian passport: the country is asked only then and required, their own capped split is quoted, and the country is sent', async () => {
  vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
  const FOREIGN_QUOTE = { success: true, data: { amount: 100_00, share: 4_00, toCampaign: 96_00, shareBps: 400, foreign: true, trust: { name: { en: 'Demo Trust', hi: '' }, fcraRegistered: true, fcShareCapBps: 400 } } };
  const { calls } = mockApi(({ method, path, query }) => {
    if (method === 'GET' && path === '/campaigns/c-1') return json({ success: true, data: campaignFixture() });
    if (method === 'GET' && path === '/donation/quote') return json(query.get('indianPassport') === 'false' ? FOREIGN_QUOTE : QUOTE);
    if (method === 'POST' && path === '/donation') return json({ ...STARTED, split: { amount: 100_00, share: 4_00, toCampaign: 96_00, shareBps: 400 } }, 201);
    if (method === 'POST' && path === '/donation/order-9/pay') return json({ success: true, data: { instrumentResponse: { redirectInfo: { url: 'http://localhost/sandbox/phonepe/pay/pg-9' } } } });
    return json({ success: false, msg: `unexpected ${method} ${path}` }, 500);
  });
  await render();
  await userEvent.type(await screen.findByRole('textbox', { name: 'Amount (₹)' }), '100');
  await userEvent.type(screen.getByRole('textbox', { name: 'Name' }), 'Emily Clark');
  await userEvent.type(screen.getByRole('textbox', { name: 'E-mail' }), 'emily@example.com');
  await userEvent.type(screen.getByRole('textbox', { name: 'Mobile number' }), '9812345670');
  const passport = within(screen.getByRole('radiogroup', { name: /Indian passport/ }));
  expect(screen.queryByRole('combobox', { name: /Country you live in/ })).toBeNull();
  await userEvent.click(passport.getByRole('radio', { name: 'Yes' }));
  expect(screen.queryByRole('combobox', { name: /Country you live in/ })).toBeNull();
  await userEvent.click(passport.getByRole('radio', { name: 'No' }));
  const country = screen.getByRole('combobox', { name: /Country you live in/ });
  // India is not offered; countries are named, not coded.
  expect(within(country).queryByRole('option', { name: 'India' })).toBeNull();
  expect(within(country).getByRole('option', { name: 'United Kingdom' })).toHaveValue('GB');

  const split = await screen.findByTestId('donation-split');
  await vi.waitFor(() => expect(split).toHaveTextContent("The trust's share (4 percent)₹4"));
  expect(split).toHaveTextContent('Reaches the campaign₹96');
  expect(screen.getByTestId('donation-split-foreign')).toHaveTextContent('at most 4 percent');
  expect(calls.some((c) => c.path === '/donation/quote' && c.query.get('indianPassport') === 'false')).toBe(true);

  await userEvent.click(screen.getByRole('button', { name: 'Pay' }));
  expect(screen.getByText('Please choose the country you live in')).toBeInTheDocument();
  expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  await userEvent.selectOptions(country, 'GB');
  await userEvent.click(screen.getByRole('button', { name: 'Pay' }));
  await vi.waitFor(() => expect(calls.find((c) => c.method === 'POST' && c.path === '/donation')?.body).toMatchObject({ indianPassport: false, country: 'GB', name: 'Emily Clark' }));
});

test('Razorpay: /pay answers Checkout\'s options, Checkout opens prefilled, then the confirmation with the token; a guest\'s signature is not sent (its route needs a login)', async () => {
  const opened: unknown[] = [];
  // Razorpay's checkout.js (a third-party script) stands in as the global it defines.
  (window as { Razorpay?: unknown }).Razorpay = class {
    constructor(private readonly options: { handler: (r: unknown) => void }) {
      opened.push(options);
    }
    open() {
      this.options.handler({ razorpay_order_id: 'order_rp9', razorpay_payment_id: 'pay_9', razorpay_signature: 'a'.repeat(64) });
    }
    on() {}
  };
  const razorpay = { key: 'rzp_test_1', order_id: 'order_rp9', amount: 100_00, currency: 'INR' as const, name: 'Pariksha Mitra' };
  const started = { ...STARTED, payment: { ...STARTED.payment, provider: 'razorpay', razorpay } };
  const { calls } = server(campaignFixture(), () => json(started, 201), () => json({ success: true, data: { razorpay } }));
  const { router } = await render();
  await userEvent.type(await screen.findByRole('textbox', { name: 'Amount (₹)' }), '100');
  await userEvent.type(screen.getByRole('textbox', { name: 'Name' }), 'Asha Devi');
  await userEvent.type(screen.getByRole('textbox', { name: 'E-mail' }), 'asha@example.com');
  await userEvent.type(screen.getByRole('textbox', { name: 'Mobile number' }), '9812345678');
  await userEvent.click(within(screen.getByRole('radiogroup', { name: /Indian passport/ })).getByRole('radio', { name: 'Yes' }));
  await userEvent.click(screen.getByRole('button', { name: 'Pay' }));
  expect(await screen.findByTestId('donation-confirmation')).toBeInTheDocument();
  expect(opened[0]).toMatchObject({ ...razorpay, prefill: { name: 'Asha Devi', email: 'asha@example.com', contact: '9812345678' } });
  expect(calls.find((c) => c.path === '/donation/order-9/pay')!.body).toMatchObject({ token: 'tok-1', provider: 'razorpay' });
  expect(calls.some((c) => c.path === '/payment/verifyRazorpayPayment')).toBe(false);
  expect(`${router.state.location.pathname}${router.state.location.search}`).toBe('/donation-confirmation?orderId=order-9&t=tok-1');
});

test('a campaign that takes no donations shows why, and no form', async () => {
  server(campaignFixture({ status: 'PAUSED' }));
  await render();
  expect(await screen.findByTestId('donate-blocked')).toBeInTheDocument();
  expect(screen.queryByRole('button', { name: 'Pay' })).toBeNull();
});

test('in Hindi', async () => {
  server();
  await render('hi');
  expect(await screen.findByRole('heading', { level: 1, name: 'दान करें' })).toBeInTheDocument();
  await userEvent.type(screen.getByRole('textbox', { name: 'राशि (₹)' }), '0');
  await userEvent.tab();
  expect(screen.getByText('राशि 1 से कम नहीं हो सकती')).toBeInTheDocument();
  expect(screen.getByRole('checkbox', { name: 'मेरा नाम गुमनाम दिखाएँ' })).toBeInTheDocument();
  await userEvent.click(within(screen.getByRole('radiogroup', { name: /भारतीय पासपोर्ट/ })).getByRole('radio', { name: 'नहीं' }));
  expect(screen.getByRole('combobox', { name: /आप जिस देश में रहते हैं/ })).toBeInTheDocument();
});
