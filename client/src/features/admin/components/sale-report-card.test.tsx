import { MantineProvider } from '@mantine/core';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import type { OrdersByDateReport } from '@pm/protocol/report';
import { clearSession, setSession } from '@/lib/session';
import { json, learnerSession, mockApi } from '@/testing/fetch-mock';
import { renderWithApp } from '@/testing/render';
import DashboardPage from './dashboard-page';
import { SaleReportCard } from './sale-report-card';

const NS = ['admin', 'admin-dashboard'];

const report = (count: number): OrdersByDateReport => ({
  orders: [
    {
      id: 'o1',
      createdAt: new Date(2026, 2, 11, 14, 5).getTime(),
      updatedAt: 0,
      amount: 720,
      status: 'PAID',
      plan: { id: 'pl1', code: 'ANNUAL_PLAN', name: { en: 'Yearly', hi: 'वार्षिक' } },
      person: { id: 'x1', n: 'Ravi Kumar', m: '+919876543210' },
    },
    { id: 'o2', createdAt: new Date(2026, 2, 10, 9, 0).getTime(), updatedAt: 0, amount: 150, status: 'FAILED', plan: null, person: null },
  ],
  totals: { count, paidCount: 1, collected: 123_456.5, refunded: 150, net: 123_306.5 },
  byDay: [
    { day: '2026-03-10', count: 1, collected: 0, refunded: 150, net: -150 },
    { day: '2026-03-11', count: 1, collected: 720, refunded: 0, net: 720 },
  ],
});

/** 00:00 India time of a calendar day, as epoch ms: report ranges are India-time days. */
const ist = (y: number, m: number, d: number) => Date.UTC(y, m, d) - 19_800_000;

const saleApi = () => mockApi((c) => json({ success: true, data: report(c.query.get('startDate') === String(ist(2026, 2, 10)) ? 2 : 1234) }));
const ranges = (api: ReturnType<typeof saleApi>) =>
  api.calls.filter((c) => c.path === '/report/getOrdersByDate').map((c) => [Number(c.query.get('startDate')), Number(c.query.get('endDate'))]);

beforeEach(() => {
  // Only the clock is fixed (31 March 2026, 10:00 local time): the default range is the 30 days up to it.
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(2026, 2, 31, 10, 0));
  setSession({ ...learnerSession, permissions: 'SHOP_EDITOR,VIEW_REPORT', role: 'ADMIN' }, false);
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  clearSession();
});

test('the last 30 days by default: epoch ms of the first day start and last day end; totals in Indian grouping, orders table', async () => {
  const api = saleApi();
  await renderWithApp(<SaleReportCard />, { namespaces: NS });
  expect(await screen.findByText('1,234')).toBeInTheDocument();
  expect(screen.getByText('Orders').nextElementSibling).toHaveTextContent(/^1,234$/);
  expect(ranges(api)).toEqual([[ist(2026, 2, 2), ist(2026, 3, 1) - 1]]);
  // Collected, refunded and net are the ledger's money; the order amounts are only in the table.
  expect(screen.getByText('Collected').nextElementSibling).toHaveTextContent('₹1,23,456.50');
  expect(screen.getByText('Refunded').nextElementSibling).toHaveTextContent('₹150');
  expect(screen.getByText('Net').nextElementSibling).toHaveTextContent('₹1,23,306.50');
  expect(screen.getByRole('figure', { name: 'Sales by day' })).toBeInTheDocument();
  const rows = within(screen.getByRole('table', { name: 'Orders of the range' })).getAllByRole('row');
  expect(rows[1]).toHaveTextContent('Ravi Kumar (+919876543210)');
  expect(rows[1]).toHaveTextContent('Yearly');
  expect(rows[1]).toHaveTextContent('₹720');
  expect(rows[1]).toHaveTextContent('Paid');
  expect(rows[2]).toHaveTextContent('Failed');
});

test('picking a range: a start alone says Invalid end date, closing without an end says Invalid start date, a full range is requested', async () => {
  const api = saleApi();
  const user = userEvent.setup();
  // Mantine's test mode: jsdom has no layout, so a popover would otherwise think its input is off screen and hide.
  await renderWithApp(
    <MantineProvider env="test">
      <SaleReportCard />
    </MantineProvider>,
    { namespaces: NS },
  );
  await screen.findByText('1,234');
  const field = screen.getByLabelText('Start date – End date');

  await user.click(field);
  await user.click(await screen.findByRole('button', { name: '10 March 2026' }));
  expect(await screen.findByText('Invalid end date')).toBeInTheDocument();
  // The picker forgets a lone start when it closes: then there is no start at all.
  await user.keyboard('{Escape}');
  expect(await screen.findByText('Invalid start date')).toBeInTheDocument();
  expect(screen.queryByText('1,234')).not.toBeInTheDocument();
  expect(ranges(api)).toHaveLength(1);

  await user.click(field);
  await user.click(await screen.findByRole('button', { name: '10 March 2026' }));
  await user.click(screen.getByRole('button', { name: '12 March 2026' }));
  await waitFor(() => expect(ranges(api).at(-1)).toEqual([ist(2026, 2, 10), ist(2026, 2, 13) - 1]));
  await waitFor(() => expect(screen.getByText('Orders').nextElementSibling).toHaveTextContent(/^2$/));
  expect(screen.queryByText('Invalid start date')).not.toBeInTheDocument();
  expect(screen.queryByText('Invalid end date')).not.toBeInTheDocument();
});

test('Hindi: totals and statuses in Hindi with Indian grouping', async () => {
  saleApi();
  await renderWithApp(<SaleReportCard />, { namespaces: NS, lang: 'hi' });
  expect(await screen.findByText('बिक्री रिपोर्ट')).toBeInTheDocument();
  expect(await screen.findByText('₹1,23,456.50')).toBeInTheDocument();
  const rows = within(screen.getByRole('table', { name: 'इस अवधि के ऑर्डर' })).getAllByRole('row');
  expect(rows[1]).toHaveTextContent('वार्षिक');
  expect(rows[1]).toHaveTextContent('भुगतान हुआ');
});

test('the dashboard shows the card only with VIEW_REPORT, and the brands to a shop editor', async () => {
  setSession({ ...learnerSession, permissions: 'SHOP_EDITOR', role: 'ADMIN' }, false);
  const api = mockApi((c) => json({ success: true, data: c.path === '/brand' ? [] : report(1) }));
  await renderWithApp(<DashboardPage />, { namespaces: NS });
  expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
  expect(await screen.findByText('No brands yet.')).toBeInTheDocument();
  expect(screen.queryByRole('heading', { name: 'Sale Report' })).not.toBeInTheDocument();
  expect(api.calls.some((c) => c.path.startsWith('/report'))).toBe(false);
});
