import { act, screen } from '@testing-library/react';
import { afterEach, expect, test, vi } from 'vitest';
import { clearSession, setSession } from '@/lib/session';
import { type Call, json, learnerSession, mockApi } from '@/testing/fetch-mock';
import { renderWithApp } from '@/testing/render';
import { browser } from '@/lib/payments/browser';
import PaymentConfirmationPage from './payment-confirmation-page';

const PAID = { success: true, msg: 'Payment successfull', data: { status: 'PAID', receiptNo: 7 } };
const FAILED = { success: false, msg: 'Payment failed', data: { status: 'FAILED', receiptNo: null } };
const PENDING = { success: false, msg: 'Payment is being confirmed', data: { status: 'PENDING', receiptNo: null } };

const confirmationRoute = (query: Record<string, string>) => `/payment-confirmation?${new URLSearchParams(query).toString()}`;
const ORDER = { merchantTransactionId: 'order-1', amount: '150', redirection_url: '/profile' };

const renderConfirmation = (route: string, lang = 'en') =>
  renderWithApp(<PaymentConfirmationPage />, {
    route,
    lang,
    namespaces: ['plan'],
    extraRoutes: [
      { path: '/', element: <div data-testid="home-page" /> },
      { path: '/login', element: <div data-testid="login-page" /> },
      { path: '/profile', element: <div data-testid="profile-page" /> },
      { path: '/plan', element: <div data-testid="plan-page" /> },
      { path: '/receipt/:id', element: <div data-testid="receipt-page" /> },
    ],
  });

/**
 * The status endpoint answers one queued answer per call; each waits until the test lets it go,
 * so that timers can be faked before anything on the page starts one.
 */
function statusServer(answers: unknown[], extra?: (call: Call) => Response | undefined) {
  const gates: (() => void)[] = [];
  const { calls } = mockApi(async (call) => {
    const other = extra?.(call);
    if (other) return other;
    if (call.method === 'POST' && call.path === '/phonepe/checkPaymentStatus') {
      const answer = answers.shift() ?? FAILED;
      await new Promise<void>((resolve) => gates.push(resolve));
      return json(answer);
    }
    return json({ success: false, msg: `unexpected ${call.method} ${call.path}` }, 500);
  });
  const statusCalls = () => calls.filter((c) => c.path === '/phonepe/checkPaymentStatus');
  /** Lets the next waiting status answer go and lets the page draw it. */
  const release = async () => {
    await vi.waitFor(() => expect(gates.length).toBeGreaterThan(0));
    await act(async () => {
      gates.shift()!();
      await vi.advanceTimersByTimeAsync(0);
    });
  };
  return { calls, statusCalls, release };
}

const fakeTimers = () => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
const tick = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  clearSession();
});

test('without merchantTransactionId the learner is sent to the root', async () => {
  setSession(learnerSession, false);
  const { calls } = mockApi(() => json({}));
  await renderConfirmation('/payment-confirmation?amount=150&redirection_url=/profile');
  expect(await screen.findByTestId('home-page')).toBeInTheDocument();
  expect(calls).toHaveLength(0);
});

test('a guest is sent to login and the address is remembered for afterwards', async () => {
  const { calls } = mockApi(() => json({}));
  const route = confirmationRoute(ORDER);
  await renderConfirmation(route);
  expect(await screen.findByTestId('login-page')).toBeInTheDocument();
  expect(sessionStorage.getItem('redirectUrl')).toBe(route);
  expect(calls).toHaveLength(0);
});

test('success: the image, Payment successfull, a countdown from 6 each second, then the redirect', async () => {
  setSession(learnerSession, false);
  const server = statusServer([PAID]);
  const { router } = await renderConfirmation(confirmationRoute(ORDER));
  // State 0: the loader while the status is asked.
  expect(await screen.findByText('Checking your payment…')).toBeInTheDocument();
  fakeTimers();
  await server.release();
  expect(server.statusCalls()[0]!.body).toEqual({ merchantTransactionId: 'order-1' });
  expect(server.statusCalls()[0]!.headers.authorization).toBe('Bearer token-1');
  expect(screen.getByRole('img', { name: 'Payment received' })).toBeInTheDocument();
  expect(screen.getByRole('heading', { name: 'Payment successfull' })).toBeInTheDocument();
  expect(screen.getByRole('link', { name: 'View receipt' })).toHaveAttribute('href', '/receipt/order-1');
  for (const n of [6, 5, 4, 3, 2, 1]) {
    expect(screen.getByText(`You will be redirected automatically in ${n} seconds`)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/payment-confirmation');
    await tick(1000);
  }
  expect(router.state.location.pathname).toBe('/profile');
  expect(screen.getByTestId('profile-page')).toBeInTheDocument();
});

test("'Click here...' goes at once; a redirection_url of another site goes to the root instead", async () => {
  setSession(learnerSession, false);
  const server = statusServer([PAID]);
  const { router } = await renderConfirmation(confirmationRoute({ ...ORDER, redirection_url: 'https://evil.example/steal' }));
  await screen.findByText('Checking your payment…');
  fakeTimers();
  await server.release();
  await tick(1000);
  expect(screen.getByText('You will be redirected automatically in 5 seconds')).toBeInTheDocument();
  await act(async () => {
    screen.getByRole('button', { name: 'Click here...' }).click();
    await vi.advanceTimersByTimeAsync(0);
  });
  expect(router.state.location.pathname).toBe('/');
  expect(screen.getByTestId('home-page')).toBeInTheDocument();
});

test('a payment still PENDING is asked again every 3 s while the page says it is being confirmed', async () => {
  setSession(learnerSession, false);
  const server = statusServer([PENDING, PENDING, PAID]);
  await renderConfirmation(confirmationRoute(ORDER));
  await screen.findByText('Checking your payment…');
  fakeTimers();
  await server.release();
  expect(screen.getByText('Payment is being confirmed')).toBeInTheDocument();
  // The loader stays while it waits.
  expect(screen.getByLabelText('Checking your payment…')).toBeInTheDocument();
  await tick(2999);
  expect(server.statusCalls()).toHaveLength(1);
  await tick(1);
  expect(server.statusCalls()).toHaveLength(2);
  await server.release();
  expect(screen.getByText('Payment is being confirmed')).toBeInTheDocument();
  await tick(3000);
  await server.release();
  expect(server.statusCalls()).toHaveLength(3);
  expect(screen.getByRole('heading', { name: 'Payment successfull' })).toBeInTheDocument();
});

test('PENDING for a whole minute ends as failed', async () => {
  setSession(learnerSession, false);
  const server = statusServer(Array.from({ length: 25 }, () => PENDING));
  await renderConfirmation(confirmationRoute(ORDER));
  await screen.findByText('Checking your payment…');
  fakeTimers();
  for (let i = 0; i < 20; i++) {
    await server.release();
    if (i < 19) await tick(3000);
  }
  expect(server.statusCalls()).toHaveLength(20);
  expect(screen.getByRole('heading', { name: 'Payment failed' })).toBeInTheDocument();
});

test('failure: Payment failed with its image and no redirect; Retry pays again through the provider', async () => {
  setSession(learnerSession, false);
  const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
  const server = statusServer([FAILED], ({ method, path }) => {
    if (method === 'POST' && path === '/payment/retryPayment')
      return json({ success: true, id: 'order-2', amt: 15000, payment: { provider: 'phonepe', merchantTransactionId: 'order-2', amount: 150 } });
    if (method === 'POST' && path === '/phonepe/initiatePayment')
      return json({ success: true, data: { instrumentResponse: { redirectInfo: { url: 'http://localhost:3000/sandbox/phonepe/pay/pg-2' } } } });
    return undefined;
  });
  const { router } = await renderConfirmation(confirmationRoute(ORDER));
  await screen.findByText('Checking your payment…');
  fakeTimers();
  await server.release();
  expect(screen.getByRole('img', { name: 'Payment not completed' })).toBeInTheDocument();
  expect(screen.getByRole('heading', { name: 'Payment failed' })).toBeInTheDocument();
  expect(screen.queryByText(/redirected automatically/)).not.toBeInTheDocument();
  expect(screen.getByRole('link', { name: 'See the plans' })).toHaveAttribute('href', '/plan');
  await tick(10_000);
  expect(router.state.location.pathname).toBe('/payment-confirmation');
  expect(server.statusCalls()).toHaveLength(1);

  vi.useRealTimers();
  await act(async () => screen.getByRole('button', { name: 'Retry' }).click());
  await vi.waitFor(() => expect(assign).toHaveBeenCalledWith('http://localhost:3000/sandbox/phonepe/pay/pg-2'));
  expect(server.calls.find((c) => c.path === '/payment/retryPayment')!.body).toEqual({ id: 'order-1' });
  expect(server.calls.find((c) => c.path === '/phonepe/initiatePayment')!.body).toMatchObject({
    merchantTransactionId: 'order-2',
    amount: 150,
    redirectUrl: `${window.location.origin}/payment-confirmation?merchantTransactionId=order-2&amount=150&redirection_url=%2Fprofile`,
  });
});

test('in Hindi', async () => {
  setSession(learnerSession, false);
  const server = statusServer([PAID]);
  await renderConfirmation(confirmationRoute(ORDER), 'hi');
  await screen.findByText('आपके भुगतान की जाँच हो रही है…');
  fakeTimers();
  await server.release();
  expect(screen.getByRole('heading', { name: 'भुगतान सफल रहा' })).toBeInTheDocument();
  expect(screen.getByText('आपको 6 सेकंड में अपने-आप आगे भेज दिया जाएगा')).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'यहाँ क्लिक करें...' })).toBeInTheDocument();
});

const MONTHLY = { code: 'ONE_MONTH_PLAN', name: { en: 'Monthly', hi: 'मासिक' } };

test('a payment the payer cancelled: its own heading and text, the plan by its name, Retry offered, no redirect', async () => {
  setSession(learnerSession, false);
  const server = statusServer([{ success: false, msg: 'Payment cancelled', data: { status: 'CANCELLED', receiptNo: null, amount: 15000, plan: MONTHLY } }]);
  const { router } = await renderConfirmation(confirmationRoute(ORDER));
  await screen.findByText('Checking your payment…');
  fakeTimers();
  await server.release();
  expect(screen.getByRole('heading', { name: 'Payment cancelled' })).toBeInTheDocument();
  expect(screen.queryByRole('heading', { name: 'Payment failed' })).not.toBeInTheDocument();
  expect(screen.getByText(/You cancelled the payment, so no money was taken/)).toBeInTheDocument();
  expect(screen.getByTestId('confirmation-bought')).toHaveTextContent('Monthly plan · ₹150');
  expect(document.body).not.toHaveTextContent('ONE_MONTH_PLAN');
  expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  await tick(10_000);
  expect(router.state.location.pathname).toBe('/payment-confirmation');
});

test('in Hindi: a cancelled payment and a paid one name the plan in Hindi', async () => {
  setSession(learnerSession, false);
  const server = statusServer([{ success: false, msg: 'Payment cancelled', data: { status: 'CANCELLED', receiptNo: null, amount: 15000, plan: MONTHLY } }]);
  await renderConfirmation(confirmationRoute(ORDER), 'hi');
  await screen.findByText('आपके भुगतान की जाँच हो रही है…');
  fakeTimers();
  await server.release();
  expect(screen.getByRole('heading', { name: 'भुगतान रद्द किया गया' })).toBeInTheDocument();
  expect(screen.getByTestId('confirmation-bought')).toHaveTextContent('मासिक प्लान');
});

test('a Razorpay order is checked with Razorpay', async () => {
  setSession(learnerSession, false);
  const { calls } = mockApi(({ path }) => (path === '/razorpay/checkPaymentStatus' ? json(FAILED) : json({ success: false, msg: 'unexpected' }, 500)));
  await renderConfirmation(confirmationRoute({ ...ORDER, provider: 'razorpay' }));
  expect(await screen.findByRole('heading', { name: 'Payment failed' })).toBeInTheDocument();
  expect(calls.map((c) => c.path)).toEqual(['/razorpay/checkPaymentStatus']);
});
