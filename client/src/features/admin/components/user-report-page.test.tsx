import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import type { UsersByDateReport } from '@pm/protocol/report';
import { clearSession, setSession } from '@/lib/session';
import { json, learnerSession, mockApi } from '@/testing/fetch-mock';
import { renderWithApp } from '@/testing/render';
import UserReportPage from './user-report-page';

const NS = ['admin', 'admin-dashboard', 'admin-content'];

beforeEach(() => setSession({ ...learnerSession, permissions: 'SHOP_EDITOR,VIEW_REPORT', role: 'ADMIN' }, false));
afterEach(() => {
  vi.restoreAllMocks();
  clearSession();
});

const report: UsersByDateReport = {
  total: 7,
  byDay: [
    { day: '2026-11-01', count: 4 },
    { day: '2026-11-03', count: 3 },
  ],
  byReferrer: [
    { referrer: null, count: 4 },
    { referrer: { id: 'p9', n: 'Sunita Devi', m: '+919811111111' }, count: 3 },
  ],
};

test('asks for the last 30 days and shows the total and the signups per referrer', async () => {
  const api = mockApi(() => json({ success: true, data: report }));
  await renderWithApp(<UserReportPage />, { namespaces: NS });

  expect(await screen.findByRole('heading', { level: 2, name: 'User report' })).toBeInTheDocument();
  const table = await screen.findByRole('table', { name: 'Signups per referrer' });
  const rows = within(table).getAllByRole('row').slice(1);
  expect(rows.map((r) => within(r).getAllByRole('cell').map((c) => c.textContent))).toEqual([
    ['No referrer', '4'],
    ['Sunita Devi (+919811111111)', '3'],
  ]);
  // Signups 7, days with signups 2, referrers (people) 1.
  expect(screen.getByText('7')).toBeInTheDocument();
  expect(screen.getByText('Days with signups').nextSibling).toHaveTextContent('2');
  expect(screen.getByText('Referrers').nextSibling).toHaveTextContent('1');

  const call = api.calls.find((c) => c.path === '/report/getUsersByDate');
  const start = Number(call?.query.get('startDate'));
  const end = Number(call?.query.get('endDate'));
  // India-time days: 00:00 IST is 18:30 UTC the day before; the end is the last millisecond of a day.
  const utcMinutes = (ms: number) => new Date(ms).getUTCHours() * 60 + new Date(ms).getUTCMinutes();
  expect(utcMinutes(start)).toBe(18 * 60 + 30);
  expect(utcMinutes(end + 1)).toBe(18 * 60 + 30);
  expect(Math.round((end + 1 - start) / 86_400_000)).toBe(30);
  expect(end).toBeGreaterThanOrEqual(Date.now());
});

test('a range without an end says "Invalid end date" and sends no request for it', async () => {
  const api = mockApi(() => json({ success: true, data: report }));
  const user = userEvent.setup();
  await renderWithApp(<UserReportPage />, { namespaces: NS });
  await screen.findByRole('table', { name: 'Signups per referrer' });
  const before = api.calls.length;

  await user.click(screen.getByRole('button', { name: /^Start date – End date/ }));
  // One day picked: the range has a start but no end yet.
  const days = await screen.findAllByRole('button', { name: /^\d{1,2} \w+ \d{4}$/ });
  await user.click(days[10]!);
  expect(await screen.findByText('Invalid end date')).toBeInTheDocument();
  // The report of the invalid range is neither asked for nor shown.
  expect(screen.queryByRole('table', { name: 'Signups per referrer' })).not.toBeInTheDocument();
  expect(api.calls.length).toBe(before);
});

test('says so when nobody signed up', async () => {
  mockApi(() => json({ success: true, data: { total: 0, byDay: [], byReferrer: [] } satisfies UsersByDateReport }));
  await renderWithApp(<UserReportPage />, { namespaces: NS });
  expect(await screen.findByText('Nobody signed up in this range.')).toBeInTheDocument();
  expect(screen.queryByRole('table')).not.toBeInTheDocument();
  await waitFor(() => expect(screen.getByText('Signups').nextSibling).toHaveTextContent('0'));
});
