import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { clearSession, setSession } from '@/lib/session';
import { json, learnerSession, mockApi } from '@/testing/fetch-mock';
import { renderWithApp } from '@/testing/render';
import MyMoneySection from './my-money-section';

beforeEach(() => setSession({ ...learnerSession, id: 'p-ben', name: 'Asha Kumari' }, false));
afterEach(() => {
  clearSession();
  vi.restoreAllMocks();
});

test("the profile's money: collected, withdrawable, withdrawn and paid, as GET /Person sums them from the ledger, in English and Hindi", async () => {
  mockApi(({ path }) => {
    if (path === '/Person') return json({ success: true, data: { id: 'p-ben', tac: 235, aw: 35.5, taw: 199.5, paidAmount: 1_499 } });
    return json({ success: false, msg: 'unexpected' }, 500);
  });
  const { unmount } = await renderWithApp(<MyMoneySection />, { route: '/profile', namespaces: ['payout'] });
  expect(await screen.findByRole('heading', { name: 'My money' })).toBeInTheDocument();
  const money = screen.getByTestId('my-money');
  await vi.waitFor(() => expect(within(money).getByTestId('money-paid')).toHaveTextContent('Paid by me₹1,499'));
  expect(within(money).getByTestId('money-collected')).toHaveTextContent('Collected₹235');
  expect(within(money).getByTestId('money-withdrawable')).toHaveTextContent('Withdrawable₹35.50');
  expect(within(money).getByTestId('money-withdrawn')).toHaveTextContent('Withdrawn₹199.50');
  unmount();

  await renderWithApp(<MyMoneySection />, { route: '/profile', lang: 'hi', namespaces: ['payout'] });
  expect(await screen.findByRole('heading', { name: 'मेरा धन' })).toBeInTheDocument();
  await vi.waitFor(() => expect(within(screen.getByTestId('my-money')).getByTestId('money-paid')).toHaveTextContent('मेरे द्वारा भुगतान'));
});

test('signed out, the section shows nothing', async () => {
  clearSession();
  mockApi(() => json({ success: false, msg: 'unexpected' }, 500));
  const { container } = await renderWithApp(<MyMoneySection />, { route: '/profile', namespaces: ['payout'] });
  expect(container.querySelector('[data-testid="my-money"]')).toBeNull();
});
