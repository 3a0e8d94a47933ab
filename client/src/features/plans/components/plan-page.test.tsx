import { notifications } from '@mantine/notifications';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, test, vi } from 'vitest';
import type { CreateOrderAnswer } from '@pm/protocol/payment';
import { clearSession, setSession } from '@/lib/session';
import { json, learnerSession, mockApi } from '@/testing/fetch-mock';
import { renderWithApp } from '@/testing/render';
import type { PlanView } from '../api/get-plans';
import { browser } from '@/lib/payments/browser';
import PlanPage from './plan-page';

/** The three plans (docs/payments.md "What a plan gives"), as GET /api/plan answers. */
const PLANS: PlanView[] = [
  {
    id: 'p1',
    code: 'ANNUAL_PLAN',
    name: { en: 'Yearly', hi: 'वार्षिक' },
    total: 720,
    approx: { en: 'About ₹2 per day, ₹60 per month', hi: 'लगभग ₹2 प्रतिदिन, ₹60 प्रति माह' },
    contents: [
      { en: 'Unlimited mock tests', hi: 'असीमित मॉक टेस्ट' },
      { en: '24 practice exams', hi: '24 अभ्यास परीक्षाएँ' },
    ],
  },
  {
    id: 'p2',
    code: 'QUATERLY_MONTH_PLAN',
    name: { en: 'Quarterly', hi: 'त्रैमासिक' },
    total: 270,
    approx: { en: 'About ₹3 per day, ₹90 per month', hi: 'लगभग ₹3 प्रतिदिन, ₹90 प्रति माह' },
    contents: [{ en: '20 mock tests', hi: '20 मॉक टेस्ट' }],
  },
  {
    id: 'p3',
    code: 'ONE_MONTH_PLAN',
    name: { en: 'Monthly', hi: 'मासिक' },
    total: 150,
    approx: { en: 'About ₹5 per day', hi: 'लगभग ₹5 प्रतिदिन' },
    contents: [{ en: '10 mock tests', hi: '10 मॉक टेस्ट' }],
  },
];

const learner = learnerSession;

function mockPlans(plans: PlanView[] = PLANS) {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const path = new URL(String(input)).pathname;
    // A signed-in learner's page also asks for their plan (none here).
    if (path === '/api/payment/my') return new Response(JSON.stringify({ success: true, data: { plan: null, orders: [] } }), { status: 200, headers: { 'content-type': 'application/json' } });
    expect(path).toBe('/api/plan');
    return new Response(JSON.stringify({ success: true, data: plans }), { status: 200, headers: { 'content-type': 'application/json' } });
  });
}

const renderPlans = (lang = 'en') =>
  renderWithApp(<PlanPage />, {
    route: '/plan',
    lang,
    namespaces: ['plan'],
    extraRoutes: [
      { path: '/login', element: <div data-testid="login-page" /> },
      { path: '/contact', element: <div data-testid="contact-page" /> },
      { path: '/payment-confirmation', element: <div data-testid="confirmation-page" /> },
    ],
  });

afterEach(() => {
  vi.restoreAllMocks();
  delete (window as { Razorpay?: unknown }).Razorpay;
  clearSession();
  act(() => notifications.clean());
});

test('the three plans with price, approx. and contents, in the chosen language', async () => {
  mockPlans();
  await renderPlans();
  const yearly = await screen.findByTestId('plan-ANNUAL_PLAN');
  expect(within(yearly).getByRole('heading', { name: 'Yearly' })).toBeInTheDocument();
  expect(yearly).toHaveTextContent('₹720');
  expect(yearly).toHaveTextContent('About ₹2 per day, ₹60 per month');
  expect(yearly).toHaveTextContent('Unlimited mock tests');
  expect(screen.getByTestId('plan-QUATERLY_MONTH_PLAN')).toHaveTextContent('₹270');
  expect(screen.getByTestId('plan-ONE_MONTH_PLAN')).toHaveTextContent('₹150');
  expect(screen.getAllByRole('button', { name: 'Buy Now' })).toHaveLength(3);
});

test('in Hindi', async () => {
  mockPlans();
  await renderPlans('hi');
  const yearly = await screen.findByTestId('plan-ANNUAL_PLAN');
  expect(within(yearly).getByRole('heading', { name: 'वार्षिक' })).toBeInTheDocument();
  expect(yearly).toHaveTextContent('असीमित मॉक टेस्ट');
  expect(screen.getAllByRole('button', { name: 'अभी खरीदें' })).toHaveLength(3);
});

test('a guest pressing Buy Now goes to /login, and /plan is remembered for afterwards', async () => {
  const user = userEvent.setup();
  mockPlans();
  await renderPlans();
  const monthly = await screen.findByTestId('plan-ONE_MONTH_PLAN');
  await user.click(within(monthly).getByRole('button', { name: 'Buy Now' }));
  expect(await screen.findByTestId('login-page')).toBeInTheDocument();
  expect(sessionStorage.getItem('redirectUrl')).toBe('/plan');
});

/** The monthly plan's order as POST /api/payment answers it (sync-protocol CreateOrderAnswer). */
const monthlyOrder = (payment: Partial<CreateOrderAnswer['payment']> = {}): CreateOrderAnswer => ({
  success: true,
  id: 'order-1',
  amt: 15000,
  payment: { provider: 'phonepe', merchantTransactionId: 'order-1', amount: 150, ...payment },
});

/** The server: the plans, and the payment endpoints answering as `answers` says. */
function mockServer(answers: { order?: () => Response; initiate?: () => Response; verify?: () => Response; my?: () => Response } = {}) {
  return mockApi(({ method, path }) => {
    if (method === 'GET' && path === '/plan') return json({ success: true, data: PLANS });
    if (method === 'GET' && path === '/payment/my') return answers.my?.() ?? json({ success: true, data: { plan: null, orders: [] } });
    if (method === 'POST' && path === '/payment') return answers.order?.() ?? json(monthlyOrder());
    if (method === 'POST' && path === '/phonepe/initiatePayment')
      return answers.initiate?.() ?? json({ success: true, data: { instrumentResponse: { redirectInfo: { url: 'http://localhost:3000/sandbox/phonepe/pay/pg-1' } } } });
    if (method === 'POST' && path === '/payment/verifyRazorpayPayment') return answers.verify?.() ?? json({ success: true });
    return json({ success: false, msg: `unexpected ${method} ${path}` }, 500);
  });
}

test('a signed-in learner buys with PhonePe: an order for the plan, then initiatePayment, then the provider page', async () => {
  const user = userEvent.setup();
  setSession(learner, false);
  const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
  let releaseOrder: () => void = () => undefined;
  const orderHeld = new Promise<void>((resolve) => (releaseOrder = resolve));
  const { calls, spy } = mockServer();
  // Hold the order's answer, to see the button busy meanwhile.
  const real = spy.getMockImplementation()!;
  spy.mockImplementation(async (input, init) => {
    if (String(input).endsWith('/api/payment')) await orderHeld;
    return real(input, init);
  });
  await renderPlans();
  const monthly = await screen.findByTestId('plan-ONE_MONTH_PLAN');
  const button = within(monthly).getByRole('button', { name: 'Buy Now' });
  await user.click(button);
  await vi.waitFor(() => expect(button).toHaveAttribute('data-loading', 'true'));
  expect(within(screen.getByTestId('plan-ANNUAL_PLAN')).getByRole('button', { name: 'Buy Now' })).toBeDisabled();
  releaseOrder();
  await vi.waitFor(() => expect(assign).toHaveBeenCalledWith('http://localhost:3000/sandbox/phonepe/pay/pg-1'));

  const order = calls.find((c) => c.path === '/payment')!;
  expect(order.body).toEqual({ prodid: 'p3', product: 'ONE_MONTH_PLAN' });
  expect(order.headers.authorization).toBe('Bearer token-1');
  const initiate = calls.find((c) => c.path === '/phonepe/initiatePayment')!;
  const origin = window.location.origin;
  expect(initiate.method).toBe('POST');
  expect(initiate.body).toEqual({
    merchantTransactionId: 'order-1',
    amount: 150,
    merchantUserId: 'demo-learner',
    redirectUrl: `${origin}/payment-confirmation?merchantTransactionId=order-1&amount=150&redirection_url=%2Fprofile`,
    redirectMode: 'REDIRECT',
    callbackUrl: `${origin}/api/phonepe/webhook`,
    mobileNumber: '9000000003',
  });
  // On its way to the provider: the button stays busy and no second order can be started.
  expect(button).toHaveAttribute('data-loading', 'true');
});

test('Razorpay: Checkout opens with the order, its signature is verified, then the confirmation page', async () => {
  const user = userEvent.setup();
  setSession(learner, false);
  const opened: unknown[] = [];
  // Razorpay's checkout.js (a third-party script) stands in as the global it defines.
  (window as { Razorpay?: unknown }).Razorpay = class {
    constructor(private readonly options: { handler: (r: unknown) => void }) {
      opened.push(options);
    }
    open() {
      this.options.handler({ razorpay_order_id: 'order_rp1', razorpay_payment_id: 'pay_1', razorpay_signature: 'a'.repeat(64) });
    }
    on() {}
  };
  const razorpay = { key: 'rzp_test_1', order_id: 'order_rp1', amount: 15000, currency: 'INR' as const, name: 'Pariksha Mitra' };
  const { calls } = mockServer({ order: () => json(monthlyOrder({ provider: 'razorpay', razorpay })) });
  const { router } = await renderPlans();
  await user.click(within(await screen.findByTestId('plan-ONE_MONTH_PLAN')).getByRole('button', { name: 'Buy Now' }));
  expect(await screen.findByTestId('confirmation-page')).toBeInTheDocument();
  expect(opened[0]).toMatchObject({ ...razorpay, prefill: { name: 'Lata Learner', email: 'learner@example.com', contact: '9000000003' } });
  expect(calls.find((c) => c.path === '/payment/verifyRazorpayPayment')!.body).toEqual({
    razorpay_order_id: 'order_rp1',
    razorpay_payment_id: 'pay_1',
    razorpay_signature: 'a'.repeat(64),
  });
  expect(calls.some((c) => c.path.endsWith('/initiatePayment'))).toBe(false);
  const q = new URLSearchParams(router.state.location.search);
  expect(Object.fromEntries(q)).toEqual({ merchantTransactionId: 'order-1', amount: '150', redirection_url: '/profile', provider: 'razorpay' });
});

test("an order the server cannot create: 'Failed to create order', and Buy Now is free again", async () => {
  const user = userEvent.setup();
  setSession(learner, false);
  const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
  const { calls } = mockServer({ order: () => json({ success: false, msg: 'Failed to create order' }, 502) });
  await renderPlans();
  const button = within(await screen.findByTestId('plan-ONE_MONTH_PLAN')).getByRole('button', { name: 'Buy Now' });
  await user.click(button);
  expect(await screen.findByText('Failed to create order')).toBeInTheDocument();
  await vi.waitFor(() => expect(button).not.toHaveAttribute('data-loading'));
  expect(calls.some((c) => c.path === '/phonepe/initiatePayment')).toBe(false);
  expect(assign).not.toHaveBeenCalled();
});

test("a payment amount below 1 is not started: 'Amount cannot be less than 1'", async () => {
  const user = userEvent.setup();
  setSession(learner, false);
  const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
  const { calls } = mockServer({ order: () => json(monthlyOrder({ amount: 0.5 })) });
  await renderPlans();
  await user.click(within(await screen.findByTestId('plan-ONE_MONTH_PLAN')).getByRole('button', { name: 'Buy Now' }));
  expect(await screen.findByText('Amount cannot be less than 1')).toBeInTheDocument();
  expect(calls.some((c) => c.path === '/phonepe/initiatePayment')).toBe(false);
  expect(assign).not.toHaveBeenCalled();
});

test('in Hindi a failed order reads in Hindi', async () => {
  const user = userEvent.setup();
  setSession(learner, false);
  mockServer({ order: () => json({ success: false, msg: 'Failed to create order' }, 502) });
  await renderPlans('hi');
  await user.click(within(await screen.findByTestId('plan-ONE_MONTH_PLAN')).getByRole('button', { name: 'अभी खरीदें' }));
  expect(await screen.findByText('ऑर्डर नहीं बन सका')).toBeInTheDocument();
});

test('an amount below 1 is refused with Invalid amount!!!', async () => {
  const user = userEvent.setup();
  setSession(learner, false);
  mockPlans([{ ...PLANS[2]!, total: 0 }]);
  await renderPlans();
  const monthly = await screen.findByTestId('plan-ONE_MONTH_PLAN');
  await user.click(within(monthly).getByRole('button', { name: 'Buy Now' }));
  expect(await screen.findByText('Invalid amount!!!')).toBeInTheDocument();
  // No order was asked for: the only requests were the plan list and the learner's own plan.
  expect(vi.mocked(globalThis.fetch).mock.calls.map(([input]) => new URL(String(input)).pathname).filter((p) => p !== '/api/payment/my')).toEqual(['/api/plan']);
});

/** The learner's Monthly plan in force (GET /api/payment/my): 10 mock tests, 2 practice exams, till 20 December 2026. */
const MONTHLY_IN_FORCE = {
  planCode: 'ONE_MONTH_PLAN',
  name: { en: 'Monthly', hi: 'मासिक' },
  startsAt: Date.UTC(2026, 10, 20),
  endsAt: Date.UTC(2026, 11, 20),
  mock: { limit: 10, used: 3 },
  practice: { limit: 2, used: 0 },
};

test('with a plan in force: the page says what buying another does, and Buy Now first shows it line by line', async () => {
  const user = userEvent.setup();
  setSession(learner, false);
  vi.spyOn(Date, 'now').mockReturnValue(Date.UTC(2026, 10, 28, 12));
  vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
  const { calls } = mockServer({ my: () => json({ success: true, data: { plan: MONTHLY_IN_FORCE, orders: [] } }) });
  await renderPlans();
  const notice = await screen.findByTestId('active-plan-notice');
  expect(notice).toHaveTextContent('You have the Monthly plan until 20 December 2026.');
  expect(notice).toHaveTextContent('limits add up');
  expect(notice).toHaveTextContent('later of the two end dates');
  await user.click(within(screen.getByTestId('plan-QUATERLY_MONTH_PLAN')).getByRole('button', { name: 'Buy Now' }));
  const dialog = await screen.findByRole('dialog', { name: 'Buy the Quarterly plan' });
  // Nothing is ordered before the learner goes on.
  expect(calls.filter((c) => c.path === '/payment')).toHaveLength(0);
  expect(dialog).toHaveTextContent('Quarterly · ₹270');
  expect(dialog).toHaveTextContent('The Quarterly plan starts today and runs until 28 February 2027.');
  const rows = within(within(dialog).getByRole('table', { name: 'What changes' })).getAllByRole('row');
  expect(rows[1]).toHaveTextContent('Mock tests1030');
  expect(rows[2]).toHaveTextContent('Practice exams28');
  expect(rows[3]).toHaveTextContent('Valid till20 December 202628 February 2027');
  expect(dialog).toHaveTextContent('The limits add up until 20 December 2026');
  expect(dialog).not.toHaveTextContent('QUATERLY_MONTH_PLAN');
  await user.click(within(dialog).getByRole('button', { name: 'Continue to payment' }));
  await vi.waitFor(() => expect(calls.filter((c) => c.path === '/payment')).toHaveLength(1));
  expect(calls.find((c) => c.path === '/payment')?.body).toMatchObject({ prodid: 'p2' });
});

test('in Hindi, with a plan in force: the notice and the checkout in Hindi, the yearly plan makes mock tests unlimited', async () => {
  const user = userEvent.setup();
  setSession(learner, false);
  vi.spyOn(Date, 'now').mockReturnValue(Date.UTC(2026, 10, 28, 12));
  mockServer({ my: () => json({ success: true, data: { plan: MONTHLY_IN_FORCE, orders: [] } }) });
  await renderPlans('hi');
  expect(await screen.findByTestId('active-plan-notice')).toHaveTextContent('आपके पास 20 दिसंबर 2026 तक मासिक प्लान है।');
  await user.click(within(screen.getByTestId('plan-ANNUAL_PLAN')).getByRole('button', { name: 'अभी खरीदें' }));
  const dialog = await screen.findByRole('dialog', { name: 'वार्षिक प्लान खरीदें' });
  const rows = within(within(dialog).getByRole('table', { name: 'क्या बदलेगा' })).getAllByRole('row');
  expect(rows[1]).toHaveTextContent('10असीमित');
  expect(rows[2]).toHaveTextContent('226');
  expect(dialog).toHaveTextContent('भुगतान के लिए आगे बढ़ें');
  await user.click(within(dialog).getByRole('button', { name: 'वापस' }));
  await vi.waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
});
