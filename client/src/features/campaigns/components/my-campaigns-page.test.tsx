import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { clearSession, setSession } from '@/lib/session';
import { json, learnerSession, mockApi } from '@/testing/fetch-mock';
import { renderWithApp } from '@/testing/render';
import { campaignFixture } from '../campaigns.fixture';
import MyCampaignsPage from './my-campaigns-page';

beforeEach(() => setSession({ ...learnerSession, id: 'p-ben', name: 'Asha Kumari' }, false));
afterEach(() => {
  clearSession();
  vi.restoreAllMocks();
});

test("the beneficiary's money from the server's ledger sums (rupees in GET /Person), payout accounts and Withdraw, in English and Hindi", async () => {
  mockApi(({ path }) => {
    if (path === '/campaign/mine') return json({ success: true, data: [campaignFixture(), campaignFixture({ id: 'c-2', status: 'DRAFT' })] });
    // docs/charity.md "The ledger": tac collected, aw withdrawable, taw withdrawn.
    if (path === '/Person') return json({ success: true, data: { id: 'p-ben', tac: 235, aw: 35.5, taw: 199.5 } });
    return json({ success: false, msg: 'unexpected' }, 500);
  });
  const { unmount } = await renderWithApp(<MyCampaignsPage />, { route: '/my-campaigns', namespaces: ['campaign', 'payout'] });
  const money = await screen.findByTestId('my-money');
  await vi.waitFor(() => expect(within(money).getByTestId('money-withdrawn')).toHaveTextContent('Withdrawn₹199.50'));
  expect(within(money).getByTestId('money-collected')).toHaveTextContent('Collected₹235');
  expect(within(money).getByTestId('money-withdrawable')).toHaveTextContent('Withdrawable₹35.50');
  expect(screen.getByRole('link', { name: 'Payout accounts' })).toHaveAttribute('href', '/my-campaigns/payout-accounts');
  const [open, draft] = (await screen.findAllByTestId('my-campaign')) as [HTMLElement, HTMLElement];
  expect(within(open).getByRole('link', { name: 'Withdraw' })).toHaveAttribute('href', '/my-campaigns/c-1/withdraw');
  expect(within(draft).queryByRole('link', { name: 'Withdraw' })).toBeNull();
  unmount();

  await renderWithApp(<MyCampaignsPage />, { route: '/my-campaigns', lang: 'hi', namespaces: ['campaign', 'payout'] });
  const hindi = await screen.findByTestId('my-money');
  await vi.waitFor(() => expect(within(hindi).getByTestId('money-withdrawn')).toHaveTextContent('निकाली गई'));
  expect(await screen.findAllByRole('link', { name: 'निकासी करें' })).toHaveLength(1);
});
