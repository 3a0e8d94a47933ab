import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, test, vi } from 'vitest';
import { json, mockApi } from '@/testing/fetch-mock';
import { renderWithApp } from '@/testing/render';
import { rowFixture } from '../grievances.fixture';
import GrievanceQueuePage from './grievance-queue-page';

afterEach(() => vi.restoreAllMocks());

test('the queue as the server orders it (overdue first), with raiser and owner; a status and a search are asked of the server', async () => {
  const rows = [
    rowFixture({ id: 'g-2', title: 'Late one', overdue: true, dueAt: Date.UTC(2026, 4, 1), owner: { id: 'demo-trustee', name: 'Tara Trustee' } }),
    rowFixture({ id: 'g-3', title: 'Report: this campaign is offensive', subject: 'CAMPAIGN', reportReason: 'OFFENSIVE', raiser: null }),
  ];
  const { calls } = mockApi(({ path }) => (path === '/grievance/queue' ? json({ success: true, data: rows, total: 2 }) : json({}, 404)));
  await renderWithApp(<GrievanceQueuePage />, { route: '/grievance-queue', namespaces: ['grievance'] });
  const items = await screen.findAllByTestId('grievance-item');
  expect(within(items[0]!).getByTestId('grievance-due')).toHaveTextContent(/^Overdue since/);
  expect(items[0]).toHaveTextContent('Owner: Tara Trustee');
  expect(items[1]).toHaveTextContent('It is offensive · a guest');
  expect(items[1]).toHaveTextContent('Owner: nobody');
  expect(within(items[0]!).getByRole('link', { name: 'Late one' })).toHaveAttribute('href', '/grievances/g-2');
  expect(screen.getByTestId('grievance-total')).toHaveTextContent('2 grievances');

  await userEvent.click(screen.getByRole('combobox', { name: 'Status' }));
  await userEvent.click(await screen.findByRole('option', { name: 'Resolved' }));
  await vi.waitFor(() => expect(calls.at(-1)?.query.get('status')).toBe('RESOLVED'));
  await userEvent.type(screen.getByRole('textbox', { name: 'Search' }), 'G2026');
  await vi.waitFor(() => expect(calls.at(-1)?.query.get('q')).toBe('G2026'));
});

test('in Hindi, with nothing waiting', async () => {
  mockApi(() => json({ success: true, data: [], total: 0 }));
  await renderWithApp(<GrievanceQueuePage />, { route: '/grievance-queue', namespaces: ['grievance'], lang: 'hi' });
  expect(await screen.findByText('यहाँ कोई शिकायत नहीं।')).toBeInTheDocument();
  expect(screen.getByRole('heading', { level: 1, name: 'शिकायतों की कतार' })).toBeInTheDocument();
});
