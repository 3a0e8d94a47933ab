import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, test, vi } from 'vitest';
import { financialYearOf } from '@pm/protocol/donation';
import { json, mockApi } from '@/testing/fetch-mock';
import { renderWithApp } from '@/testing/render';
import { cardFixture } from '../campaigns.fixture';
import { listRowFixture } from '../donations.fixture';
import AdminDonationsPage, { recentFinancialYears } from './admin-donations-page';

afterEach(() => vi.restoreAllMocks());

test('the financial years offered: this one (India time) and the four before', () => {
  expect(recentFinancialYears(Date.UTC(2026, 2, 31, 19, 0))).toEqual(['2026-27', '2025-26', '2024-25', '2023-24', '2022-23']);
  expect(recentFinancialYears(Date.UTC(2026, 2, 31, 18, 0))[0]).toBe('2025-26');
});

test('every donation with the donor\'s contact and the split; search and campaign go to the server; Form 10BD for a year downloads the CSV', async () => {
  const { calls } = mockApi(({ path, query }) => {
    if (path === '/campaigns') return json({ success: true, data: [cardFixture()], total: 1 });
    if (path === '/donation/list') return json({ success: true, data: query.get('q') ? [] : [listRowFixture({ anonymous: true }), listRowFixture({ orderId: 'order-10', name: 'Emily Clark', foreign: true, country: 'GB' })], total: query.get('q') ? 0 : 2 });
    if (path === '/donation/export') return new Response('ID Code\n', { status: 200, headers: { 'content-type': 'text/csv', 'content-disposition': `attachment; filename="donations-${query.get('fy')}.csv"` } });
    return json({ success: false }, 404);
  });
  const createObjectURL = vi.fn(() => 'blob:x');
  Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
  await renderWithApp(<AdminDonationsPage />, { namespaces: ['campaign'] });
  const [row, foreignRow] = await screen.findAllByTestId('admin-donation');
  if (!row || !foreignRow) throw new Error('two rows expected');
  // A foreign contribution says so, with the donor's country (docs/charity.md "Foreign contributions").
  expect(within(foreignRow).getByTestId('admin-donation-foreign')).toHaveTextContent('Foreign contribution · GB');
  expect(within(row).queryByTestId('admin-donation-foreign')).toBeNull();
  expect(row).toHaveTextContent('Asha Devi (shown as Anonymous)');
  expect(row).toHaveTextContent('asha@example.com · 9812345678');
  expect(row).toHaveTextContent('₹101Trust ₹6.06 · campaign ₹94.94');
  expect(row).toHaveTextContent('PMT/2026-27/7');
  expect(within(row).getByRole('link', { name: 'Books for Asha' })).toHaveAttribute('href', '/campaigns/c-1');
  expect(screen.getByTestId('donation-total')).toHaveTextContent('2 donations');

  await userEvent.type(screen.getByRole('textbox', { name: 'Search' }), 'PMT/2026');
  expect(await screen.findByText('No donations found.')).toBeInTheDocument();
  expect(calls.filter((c) => c.path === '/donation/list').at(-1)!.query.get('q')).toBe('PMT/2026');

  await userEvent.click(screen.getByRole('button', { name: 'Export Form 10BD (CSV)' }));
  await vi.waitFor(() => expect(createObjectURL).toHaveBeenCalled());
  expect(calls.find((c) => c.path === '/donation/export')!.query.get('fy')).toBe(financialYearOf(Date.now()));
  expect(calls.find((c) => c.path === '/donation/export')!.query.get('foreign')).toBeNull();

  // The year's foreign contributions, apart (docs/charity.md "Foreign contributions").
  await userEvent.click(screen.getByRole('button', { name: 'Foreign contributions (CSV)' }));
  await vi.waitFor(() => expect(calls.filter((c) => c.path === '/donation/export')).toHaveLength(2));
  expect(Object.fromEntries(calls.filter((c) => c.path === '/donation/export')[1]!.query)).toEqual({ fy: financialYearOf(Date.now()), foreign: '1' });
});
