import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Navigate } from 'react-router';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { clearSession, setSession } from '@/lib/session';
import { json, learnerSession, mockApi } from '@/testing/fetch-mock';
import { renderWithApp } from '@/testing/render';
import type { Withdrawable, Withdrawal } from '../api/payouts';
import { campaignFixture } from '../campaigns.fixture';
import { accountFixture, bankAccountFixture, withdrawableFixture, withdrawalFixture } from '../payouts.fixture';
import WithdrawPage from './withdraw-page';

beforeEach(() => setSession({ ...learnerSession, id: 'p-ben', name: 'Asha Kumari' }, false));
afterEach(() => {
  clearSession();
  vi.restoreAllMocks();
});

const DUE = Date.UTC(2026, 4, 13, 6, 30);

type Serve = { figures?: Withdrawable; withdrawals?: Withdrawal[]; onRequest?: (body: unknown) => Response };

function server({ figures = withdrawableFixture(), withdrawals = [], onRequest }: Serve = {}) {
  return mockApi(({ method, path, body }) => {
    if (method === 'GET' && path === '/campaigns/c-1') return json({ success: true, data: campaignFixture() });
    if (method === 'GET' && path === '/campaign/c-1/withdrawable') return json({ success: true, data: figures });
    if (method === 'GET' && path === '/campaign/c-1/withdrawals') return json({ success: true, data: withdrawals });
    // A verified UPI id, a failed bank account and a supplier's account: only the first is offered.
    if (method === 'GET' && path === '/payout-account/mine')
      return json({ success: true, data: [accountFixture(), bankAccountFixture({ status: 'FAILED' }), bankAccountFixture({ id: 'pa-x', supplierName: 'Someone' })] });
    if (method === 'POST' && path === '/campaign/c-1/withdrawals' && onRequest) return onRequest(body);
    if (method === 'POST' && path === '/withdrawal/w-1/cancel') return json({ success: true, msg: 'Withdrawal cancelled', data: withdrawalFixture({ status: 'CANCELLED' }) });
    return json({ success: false, msg: `unexpected ${method} ${path}` }, 500);
  });
}

const render = (lang = 'en') =>
  renderWithApp(<Navigate to="/my-campaigns/c-1/withdraw" replace />, {
    route: '/start',
    lang,
    namespaces: ['payout', 'campaign'],
    extraRoutes: [{ path: '/my-campaigns/:id/withdraw', element: <WithdrawPage /> }],
  });

async function fill(input: HTMLElement, text: string) {
  await userEvent.click(input);
  await userEvent.paste(text);
}

test('the figures in rupees; the request goes in paise to the verified account, and its due time is shown', async () => {
  const { calls } = server({ onRequest: () => json({ success: true, msg: 'Withdrawal requested', data: withdrawalFixture({ id: 'w-2', amount: 150_50, approvals: [], dueAt: DUE }) }, 201) });
  await render();
  const figures = await screen.findByTestId('withdrawable');
  expect(figures).toHaveTextContent('Indian donations₹188');
  expect(figures).toHaveTextContent('Foreign contributions₹47');
  expect(figures).toHaveTextContent('Held by open requests₹40');
  expect(figures).toHaveTextContent('Available now₹195');
  const form = screen.getByRole('form', { name: 'Ask for a withdrawal' });
  expect(within(form).getByText('In rupees, at most ₹195')).toBeInTheDocument();

  // More than is available is said before anything is sent.
  await fill(within(form).getByRole('textbox', { name: /Amount/ }), '200');
  await userEvent.click(within(form).getByRole('button', { name: 'Send the request' }));
  expect(await within(form).findByText('That is more than the campaign can withdraw now')).toBeInTheDocument();
  expect(within(form).getByText('Say what the money pays for')).toBeInTheDocument();
  expect(calls.some((c) => c.method === 'POST')).toBe(false);

  const amount = within(form).getByRole('textbox', { name: /Amount/ });
  await userEvent.clear(amount);
  await fill(amount, '150.50');
  await fill(within(form).getByRole('textbox', { name: /What it pays for \(English\)/ }), 'School fees for May');
  // The only usable payee is chosen already.
  expect(within(form).getByDisplayValue('Asha Kumari — asha@upi')).toBeInTheDocument();
  await userEvent.click(within(form).getByRole('button', { name: 'Send the request' }));
  await vi.waitFor(() =>
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ amount: 150_50, purpose: { en: 'School fees for May' }, payoutAccountId: 'pa-1' }),
  );
  const sent = await screen.findByTestId('withdrawal-sent');
  expect(sent).toHaveTextContent('₹150.50 to Asha Kumari — asha@upi. Two trustees approve it; it is due by');
  expect(sent).toHaveTextContent('13 May 2026');
});

test('the server refusal (more than the balance) is shown on the amount', async () => {
  server({ onRequest: () => json({ success: false, msg: 'amount is more than the campaign can withdraw (₹195)' }, 409) });
  await render();
  const form = await screen.findByRole('form', { name: 'Ask for a withdrawal' });
  await fill(within(form).getByRole('textbox', { name: /Amount/ }), '100');
  await fill(within(form).getByRole('textbox', { name: /What it pays for \(English\)/ }), 'Books');
  await fill(within(form).getByRole('textbox', { name: /What it pays for \(Hindi/ }), 'किताबें');
  await userEvent.click(within(form).getByRole('button', { name: 'Send the request' }));
  expect(await within(form).findByText(/^amount is more than the campaign can withdraw/)).toBeInTheDocument();
  expect(within(form).getByRole('textbox', { name: /Amount/ })).toHaveAttribute('aria-invalid', 'true');
});

test('after a paid withdrawal, an update first: no form, and the way to post one', async () => {
  server({ figures: withdrawableFixture({ updateRequired: true }) });
  await render();
  const alert = await screen.findByTestId('update-required');
  expect(alert).toHaveTextContent('Post an update first');
  expect(screen.queryByRole('form', { name: 'Ask for a withdrawal' })).toBeNull();
  await userEvent.click(within(alert).getByRole('button', { name: 'Post an update' }));
  expect(await screen.findByRole('dialog', { name: 'Post an update' })).toBeInTheDocument();
});

test("the campaign's withdrawals: status, approvals, due time (overdue flagged), UTR, reasons; cancel while requested", async () => {
  const paid = withdrawalFixture({ id: 'w-3', status: 'PAID', utr: 'UTR0000123', paidAt: DUE, approvals: [withdrawalFixture().approvals[0]!, { by: { id: 'p-t2', name: 'Tarun Trustee' }, at: DUE, note: null }] });
  const rejected = withdrawalFixture({ id: 'w-4', status: 'REJECTED', reason: 'No receipt for the books', approvals: [] });
  const failed = withdrawalFixture({ id: 'w-5', status: 'FAILED', failure: 'Beneficiary bank offline', payee: bankAccountFixture() });
  const { calls } = server({ withdrawals: [withdrawalFixture({ overdue: true }), paid, rejected, failed] });
  await render();
  const [open, paidCard, rejectedCard, failedCard] = (await screen.findAllByTestId('withdrawal')) as [HTMLElement, HTMLElement, HTMLElement, HTMLElement];
  expect(within(open).getByTestId('withdrawal-status')).toHaveTextContent('Waiting for approval');
  expect(open).toHaveTextContent('₹400');
  expect(open).toHaveTextContent('₹188 from Indian donations · ₹212 foreign');
  expect(open).toHaveTextContent('Maths guide and science kit');
  expect(within(open).getByTestId('approvals')).toHaveTextContent('Approvals: 1 of 2');
  expect(within(open).getByTestId('approvals')).toHaveTextContent('Tara Trustee');
  expect(within(open).getByTestId('approvals')).toHaveTextContent('Receipt seen');
  expect(within(open).getByTestId('overdue')).toHaveTextContent('Overdue');
  expect(paidCard).toHaveTextContent('Paid');
  expect(within(paidCard).getByTestId('utr')).toHaveTextContent('Bank reference (UTR): UTR0000123');
  expect(within(paidCard).queryByText(/Due by/)).toBeNull();
  expect(within(rejectedCard).getByTestId('reject-reason')).toHaveTextContent('Why it was rejected: No receipt for the books');
  expect(within(failedCard).getByTestId('failure')).toHaveTextContent('Why the payment failed: Beneficiary bank offline');
  // Only the requester's REQUESTED one has Cancel.
  expect(within(paidCard).queryByRole('button', { name: 'Cancel the request' })).toBeNull();
  await userEvent.click(within(open).getByRole('button', { name: 'Cancel the request' }));
  const dialog = await screen.findByRole('dialog', { name: 'Cancel this withdrawal request?' });
  await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel the request' }));
  await vi.waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.path === '/withdrawal/w-1/cancel')).toBe(true));
});

test('in Hindi, with no verified account: the way to add one', async () => {
  mockApi(({ path }) => {
    if (path === '/campaigns/c-1') return json({ success: true, data: campaignFixture() });
    if (path === '/campaign/c-1/withdrawable') return json({ success: true, data: withdrawableFixture() });
    if (path === '/campaign/c-1/withdrawals') return json({ success: true, data: [] });
    if (path === '/payout-account/mine') return json({ success: true, data: [] });
    return json({ success: false, msg: 'unexpected' }, 500);
  });
  await render('hi');
  expect(await screen.findByRole('heading', { level: 1, name: 'निकासी' })).toBeInTheDocument();
  const none = await screen.findByTestId('no-payee');
  expect(within(none).getByRole('link', { name: 'भुगतान खाता जोड़ें' })).toHaveAttribute('href', '/my-campaigns/payout-accounts');
  expect(screen.getByRole('button', { name: 'अनुरोध भेजें' })).toBeDisabled();
  expect(screen.getByText('अभी कोई निकासी नहीं।')).toBeInTheDocument();
});
