import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { clearSession, setSession } from '@/lib/session';
import { json, learnerSession, mockApi } from '@/testing/fetch-mock';
import { renderWithApp } from '@/testing/render';
import type { PayoutAccount } from '../api/payouts';
import { accountFixture, bankAccountFixture } from '../payouts.fixture';
import PayoutAccountsPage from './payout-accounts-page';

beforeEach(() => setSession({ ...learnerSession, id: 'p-ben', name: 'Asha Kumari' }, false));
afterEach(() => {
  clearSession();
  vi.restoreAllMocks();
});

const MISMATCHED = bankAccountFixture({ verifiedName: 'RAVI VERMA', nameMatches: false });

function server(accounts: PayoutAccount[], onPost?: (body: unknown) => Response) {
  return mockApi(({ method, path, body }) => {
    if (method === 'GET' && path === '/payout-account/mine') return json({ success: true, data: accounts });
    if (method === 'POST' && path === '/payout-account' && onPost) return onPost(body);
    if (method === 'DELETE' && path === '/payout-account/pa-1') return json({ success: false, msg: 'This account is used by a withdrawal that is not finished yet' }, 409);
    if (method === 'DELETE' && path === '/payout-account/pa-2') return json({ success: true, msg: 'Payout account removed' });
    return json({ success: false, msg: `unexpected ${method} ${path}` }, 500);
  });
}

/** Types by pasting: a keystroke at a time redraws the whole form each time, slowly. */
async function fill(input: HTMLElement, text: string) {
  await userEvent.click(input);
  await userEvent.paste(text);
}

const render = (lang = 'en') => renderWithApp(<PayoutAccountsPage />, { route: '/my-campaigns/payout-accounts', lang, namespaces: ['payout'] });

test('the list: masked account, holder, status, and the bank name flagged when it is not the holder', async () => {
  server([accountFixture(), MISMATCHED, accountFixture({ id: 'pa-3', vpa: 'invalid@upi', status: 'FAILED', verifiedName: null, nameMatches: null })]);
  await render();
  const [upi, bank, failed] = (await screen.findAllByTestId('payout-account')) as [HTMLElement, HTMLElement, HTMLElement];
  expect(upi).toHaveTextContent('asha@upi');
  expect(upi).toHaveTextContent('Holder: Asha Kumari');
  expect(within(upi).getByTestId('account-status')).toHaveTextContent('Verified');
  expect(within(upi).queryByTestId('name-mismatch')).toBeNull();
  // Never the whole number: its last four digits and the IFSC.
  expect(bank).toHaveTextContent('•••• 6789 · SBIN0001234');
  expect(bank).toHaveTextContent('Name at the bank: RAVI VERMA');
  expect(within(bank).getByTestId('name-mismatch')).toHaveTextContent("The bank's name for this account is RAVI VERMA, not Asha Kumari.");
  expect(within(failed).getByTestId('account-status')).toHaveTextContent('Not verified');
  expect(failed).toHaveTextContent('cannot be used');
});

test('a UPI id is verified and added; the form is empty again', async () => {
  const { calls } = server([], () => json({ success: true, msg: 'Payout account verified', data: accountFixture() }, 201));
  await render();
  expect(await screen.findByText('You have no payout account yet.')).toBeInTheDocument();
  const form = screen.getByRole('form', { name: 'Add a payout account' });
  await fill(within(form).getByRole('textbox', { name: /Account holder's name/ }), 'Asha Kumari');
  await fill(within(form).getByRole('textbox', { name: /UPI id/ }), 'asha@upi');
  await userEvent.click(within(form).getByRole('button', { name: 'Verify and add' }));
  await vi.waitFor(() => expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ kind: 'VPA', holderName: 'Asha Kumari', vpa: 'asha@upi' }));
  expect(await screen.findByText('The account is verified and ready for withdrawals')).toBeInTheDocument();
  expect(within(form).getByRole('textbox', { name: /UPI id/ })).toHaveValue('');
});

test('a bank account: the number twice, checked before sending; the server refusal lands on its field', async () => {
  const { calls } = server([], () => json({ success: false, msg: 'ifsc must be 4 letters, 0, then 6 letters or digits (for example SBIN0001234)' }, 400));
  await render();
  const form = await screen.findByRole('form', { name: 'Add a payout account' });
  await userEvent.click(within(form).getByRole('radio', { name: 'Bank account' }));
  await fill(within(form).getByRole('textbox', { name: /Account holder's name/ }), 'Asha Kumari');
  await fill(within(form).getByRole('textbox', { name: /IFSC/ }), 'sbin0001234');
  expect(within(form).getByRole('textbox', { name: /IFSC/ })).toHaveValue('SBIN0001234');
  await fill(within(form).getByRole('textbox', { name: /^Account number\s*\*?$/ }), '123456789');
  await fill(within(form).getByRole('textbox', { name: /Account number again/ }), '123456780');
  await userEvent.click(within(form).getByRole('button', { name: 'Verify and add' }));
  expect(await within(form).findByText('The two account numbers are not the same')).toBeInTheDocument();
  expect(calls.some((c) => c.method === 'POST')).toBe(false);

  const again = within(form).getByRole('textbox', { name: /Account number again/ });
  await userEvent.clear(again);
  await fill(again, '123456789');
  await userEvent.click(within(form).getByRole('button', { name: 'Verify and add' }));
  await vi.waitFor(() =>
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ kind: 'BANK', holderName: 'Asha Kumari', ifsc: 'SBIN0001234', accountNumber: '123456789', accountNumberConfirm: '123456789' }),
  );
  // The server's word on the IFSC, under the IFSC field (its description and error describe it).
  expect(await within(form).findByText(/^ifsc must be 4 letters/)).toBeInTheDocument();
  expect(within(form).getByRole('textbox', { name: /IFSC/ })).toHaveAttribute('aria-invalid', 'true');
  expect(within(form).queryByTestId('account-refused')).toBeNull();
});

test('an account the bank could not verify is said so', async () => {
  server([], () => json({ success: true, msg: 'The bank or UPI provider could not verify this account', data: accountFixture({ status: 'FAILED' }) }, 201));
  await render();
  const form = await screen.findByRole('form', { name: 'Add a payout account' });
  await fill(within(form).getByRole('textbox', { name: /Account holder's name/ }), 'Asha Kumari');
  await fill(within(form).getByRole('textbox', { name: /UPI id/ }), 'invalid@upi');
  await userEvent.click(within(form).getByRole('button', { name: 'Verify and add' }));
  expect(await screen.findByText(/The bank could not verify this account, so it cannot be used. Check/)).toBeInTheDocument();
});

test('delete asks first; an account an open withdrawal uses is refused in the dialog, in Hindi', async () => {
  const { calls } = server([accountFixture(), MISMATCHED]);
  await render('hi');
  const [upi] = (await screen.findAllByTestId('payout-account')) as [HTMLElement];
  await userEvent.click(within(upi).getByRole('button', { name: 'हटाएँ' }));
  const dialog = await screen.findByRole('dialog', { name: 'यह खाता हटाएँ?' });
  expect(dialog).toHaveTextContent('asha@upi अब निकासी के लिए नहीं दिखेगा।');
  await userEvent.click(within(dialog).getByRole('button', { name: 'हटाएँ' }));
  expect(await within(dialog).findByRole('alert')).toHaveTextContent(/.+/);
  expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual(['/payout-account/pa-1']);
});
