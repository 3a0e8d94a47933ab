import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { clearSession, setSession } from '@/lib/session';
import { json, learnerSession, mockApi } from '@/testing/fetch-mock';
import { renderWithApp } from '@/testing/render';
import type { Withdrawal } from '../api/payouts';
import { bankAccountFixture, supplierFixture, withdrawalFixture } from '../payouts.fixture';
import WithdrawalsQueuePage from './withdrawals-queue-page';

const TRUSTEE = { ...learnerSession, id: 'p-t2', name: 'Tarun Trustee', role: 'TRUSTEE', permissions: 'VIEW_REPORT,APPROVE_CAMPAIGN,APPROVE_WITHDRAWAL' };

beforeEach(() => setSession(TRUSTEE, false));
afterEach(() => {
  clearSession();
  vi.restoreAllMocks();
});

const OVERDUE = withdrawalFixture({ id: 'w-9', overdue: true, dueAt: Date.now() - 3_600_000, campaignTitle: { en: 'Fees for Ravi', hi: 'रवि की फ़ीस' }, requester: { id: 'p-ravi', name: 'Ravi' }, approvals: [] });
const MISMATCH = withdrawalFixture({ payee: bankAccountFixture({ verifiedName: 'RAVI VERMA', nameMatches: false }) });
const FAILED = withdrawalFixture({ id: 'w-f', status: 'FAILED', failure: 'Bank offline', payee: supplierFixture() });
const PAYING = withdrawalFixture({ id: 'w-p', status: 'PAYING', payoutId: 'pout_1' });

function server(queue: Withdrawal[]) {
  return mockApi(({ method, path }) => {
    if (method === 'GET' && path === '/withdrawal/queue') return json({ success: true, data: queue });
    const move = /^\/withdrawal\/([\w-]+)\/(approve|reject|check|retry)$/.exec(path);
    if (method === 'POST' && move) return json({ success: true, msg: 'Approval recorded', data: queue.find((w) => w.id === move[1]) });
    return json({ success: false, msg: `unexpected ${method} ${path}` }, 500);
  });
}

const render = (lang = 'en') => renderWithApp(<WithdrawalsQueuePage />, { route: '/withdrawals', lang, namespaces: ['payout'] });

test('the queue in the order the server gives (overdue first): campaign, requester, amount and split, purpose, payee, approvals', async () => {
  server([OVERDUE, MISMATCH]);
  await render();
  const [first, second] = (await screen.findAllByTestId('withdrawal')) as [HTMLElement, HTMLElement];
  expect(first).toHaveTextContent('Fees for Ravi');
  expect(first).toHaveTextContent('Asked by Ravi');
  expect(within(first).getByTestId('overdue')).toHaveTextContent('Overdue');
  expect(first).toHaveTextContent('₹400');
  expect(first).toHaveTextContent('₹188 from Indian donations · ₹212 foreign');
  expect(first).toHaveTextContent('Maths guide and science kit');
  expect(within(first).getByTestId('approvals')).toHaveTextContent('No approval yet');
  expect(second).toHaveTextContent('Books for Asha');
  expect(within(second).getByTestId('approvals')).toHaveTextContent('Tara Trustee');
  expect(second).toHaveTextContent('Name at the bank: RAVI VERMA');
  expect(within(second).getByTestId('name-mismatch')).toHaveTextContent("The bank's name for this account is RAVI VERMA, not Asha Kumari.");
});

test('approving a payee whose name does not match needs the explicit confirmation, sent as acceptNameMismatch', async () => {
  const { calls } = server([MISMATCH]);
  await render();
  await userEvent.click(within(await screen.findByTestId('withdrawal-actions')).getByRole('button', { name: 'Approve' }));
  const dialog = await screen.findByRole('dialog', { name: 'Approve this withdrawal?' });
  const approve = within(dialog).getByRole('button', { name: 'Approve' });
  expect(approve).toBeDisabled();
  await userEvent.type(within(dialog).getByRole('textbox', { name: 'Note (optional)' }), 'Called her');
  await userEvent.click(within(dialog).getByRole('checkbox', { name: 'I have checked that RAVI VERMA is the right payee' }));
  await userEvent.click(approve);
  await vi.waitFor(() => expect(calls.find((c) => c.path === '/withdrawal/w-1/approve')?.body).toEqual({ note: 'Called her', acceptNameMismatch: true }));
});

test('a matching payee is approved without it; a rejection needs its reason', async () => {
  const { calls } = server([OVERDUE]);
  await render();
  const actions = await screen.findByTestId('withdrawal-actions');
  await userEvent.click(within(actions).getByRole('button', { name: 'Approve' }));
  await userEvent.click(within(await screen.findByRole('dialog', { name: 'Approve this withdrawal?' })).getByRole('button', { name: 'Approve' }));
  await vi.waitFor(() => expect(calls.find((c) => c.path === '/withdrawal/w-9/approve')?.body).toEqual({}));

  await userEvent.click(within(actions).getByRole('button', { name: 'Reject' }));
  const dialog = await screen.findByRole('dialog', { name: 'Reject this withdrawal?' });
  const reject = within(dialog).getByRole('button', { name: 'Reject' });
  expect(reject).toBeDisabled();
  await userEvent.type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'No bill');
  await userEvent.click(reject);
  await vi.waitFor(() => expect(calls.find((c) => c.path === '/withdrawal/w-9/reject')?.body).toEqual({ reason: 'No bill' }));
});

test('no Approve for one\'s own request or one already approved; a refusal is shown on the card', async () => {
  const mine = withdrawalFixture({ id: 'w-m', requester: { id: 'p-t2', name: 'Tarun Trustee' }, approvals: [] });
  const approved = withdrawalFixture({ id: 'w-a', approvals: [{ by: { id: 'p-t2', name: 'Tarun Trustee' }, at: Date.now(), note: null }] });
  mockApi(({ method, path }) => {
    if (method === 'GET' && path === '/withdrawal/queue') return json({ success: true, data: [mine, approved] });
    return json({ success: false, msg: 'You cannot approve your own withdrawal' }, 403);
  });
  await render();
  const [ownActions, approvedActions] = (await screen.findAllByTestId('withdrawal-actions')) as [HTMLElement, HTMLElement];
  expect(ownActions).toHaveTextContent('You asked for this one');
  expect(within(ownActions).queryByRole('button')).toBeNull();
  expect(approvedActions).toHaveTextContent('You have approved it');
  expect(within(approvedActions).queryByRole('button', { name: 'Approve' })).toBeNull();
  await userEvent.click(within(approvedActions).getByRole('button', { name: 'Reject' }));
  const dialog = await screen.findByRole('dialog', { name: 'Reject this withdrawal?' });
  await userEvent.type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'Wrong');
  await userEvent.click(within(dialog).getByRole('button', { name: 'Reject' }));
  expect(await within(dialog).findByRole('alert')).toHaveTextContent('You cannot approve your own withdrawal');
});

test('a trustee checks a paying one and pays a failed one again, in Hindi', async () => {
  const { calls } = server([PAYING, FAILED]);
  await render('hi');
  const [paying, failed] = (await screen.findAllByTestId('withdrawal')) as [HTMLElement, HTMLElement];
  expect(within(paying).getByTestId('withdrawal-status')).toHaveTextContent('भुगतान हो रहा है');
  expect(within(failed).getByTestId('failure')).toHaveTextContent('भुगतान विफल होने का कारण: Bank offline');
  expect(failed).toHaveTextContent('आपूर्तिकर्ता: Sharma Book Depot');
  await userEvent.click(within(paying).getByRole('button', { name: 'भुगतान जाँचें' }));
  await userEvent.click(within(failed).getByRole('button', { name: 'फिर से भुगतान करें' }));
  await vi.waitFor(() => expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual(['/withdrawal/w-p/check', '/withdrawal/w-f/retry']));
});
