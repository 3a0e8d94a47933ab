import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import type { ActivityLogEntry } from '@pm/protocol/activity-log';
import { clearSession, setSession } from '@/lib/session';
import { json, learnerSession, mockApi } from '@/testing/fetch-mock';
import { renderWithApp } from '@/testing/render';
import ActivityLogPage from './activity-log-page';
import { formatDate } from '@/lib/intl-format';

const NS = ['admin', 'admin-dashboard'];

const entries: ActivityLogEntry[] = [
  {
    id: 'a1',
    createdAt: Date.UTC(2026, 2, 5, 6, 30),
    actionType: 'UPDATE',
    person: { id: 'p1', name: 'Asha Admin' },
    entityAffected: 'role',
    entityId: 'role-7',
    oldValue: { name: 'EDITOR', description: 'Edits', permissions: ['SHOP_EDITOR'], note: 'old' },
    newValue: { name: 'CHIEF_EDITOR', description: 'Edits', permissions: ['SHOP_EDITOR', 'VIEW_REPORT'], level: 2 },
  },
  {
    id: 'a2',
    createdAt: Date.UTC(2026, 2, 4, 6, 30),
    actionType: 'CREATE',
    person: null,
    entityAffected: 'brand',
    entityId: 'brand-1',
    oldValue: null,
    newValue: { name: 'Arihant' },
  },
];

beforeEach(() => setSession({ ...learnerSession, permissions: 'SHOP_EDITOR', role: 'ADMIN' }, false));
afterEach(() => {
  vi.restoreAllMocks();
  clearSession();
});

const logApi = () =>
  mockApi((c) => (c.path === '/getActivityLog/count' ? json({ success: true, count: 120 }) : json({ success: true, data: c.query.get('offset') === '0' ? entries : [] })));
const logCalls = (api: ReturnType<typeof logApi>) => api.calls.filter((c) => c.path === '/getActivityLog').map((c) => Object.fromEntries(c.query));

test('renders the entries: time, translated action, user or System, entity with its id, both values', async () => {
  const api = logApi();
  await renderWithApp(<ActivityLogPage />, { namespaces: NS });
  expect(await screen.findByText('Asha Admin')).toBeInTheDocument();
  const [update, create] = screen.getAllByRole('row').slice(1);
  expect(update).toHaveTextContent('Updated');
  expect(update).toHaveTextContent('Role');
  expect(update).toHaveTextContent('role-7');
  expect(update).toHaveTextContent(formatDate(entries[0]!.createdAt, 'en'));
  expect(create).toHaveTextContent('Created');
  expect(create).toHaveTextContent('System');
  expect(create).toHaveTextContent('Brand');
  expect(within(create as HTMLElement).getByRole('group', { name: 'Old value' })).toHaveTextContent('—');
  expect(within(create as HTMLElement).getByRole('group', { name: 'New value' })).toHaveTextContent('Arihant');
  expect(screen.getByText('120 entries')).toBeInTheDocument();
  // The first page, newest first, 50 a page (docs/glossary.md "Fixed values").
  expect(logCalls(api)[0]).toEqual({ pageSize: '50', offset: '0', sort: 'createdAt', order: 'desc' });
});

test('an UPDATE highlights what changed: removed on the old side, added on the new, changed on both, parents of a change', async () => {
  logApi();
  await renderWithApp(<ActivityLogPage />, { namespaces: NS });
  await screen.findByText('Asha Admin');
  const row = screen.getAllByRole('row')[1] as HTMLElement;
  const old = within(row).getByRole('group', { name: 'Old value' });
  const now = within(row).getByRole('group', { name: 'New value' });
  const marked = (side: HTMLElement, kind: string) => [...side.querySelectorAll(`[data-change="${kind}"]`)].map((e) => e.textContent?.replace(/"/g, ''));
  expect(marked(old, 'removed')).toEqual(['note']);
  expect(marked(now, 'added')).toEqual(['level']);
  expect(marked(old, 'changed')).toEqual(['name']);
  expect(marked(now, 'changed')).toEqual(['name']);
  // permissions.1 was added inside a list that stays folded: the list's key says so.
  expect(marked(now, 'ancestor')).toEqual(['permissions']);
  // Each side marks only its own kind: nothing was added to the old value nor removed from the new.
  expect(marked(old, 'added')).toEqual([]);
  expect(marked(now, 'removed')).toEqual([]);
  // Unchanged keys carry no marker.
  expect([...row.querySelectorAll('[data-change]')].some((e) => e.textContent?.includes('description'))).toBe(false);
});

test('a column header sorts on the server and says so with aria-sort', async () => {
  const api = logApi();
  const user = userEvent.setup();
  await renderWithApp(<ActivityLogPage />, { namespaces: NS });
  await screen.findByText('Asha Admin');
  expect(screen.getByRole('columnheader', { name: /Timestamp/ })).toHaveAttribute('aria-sort', 'descending');
  await user.click(screen.getByRole('button', { name: 'User' }));
  await waitFor(() => expect(logCalls(api).at(-1)).toMatchObject({ sort: 'person', order: 'asc', offset: '0' }));
  expect(screen.getByRole('columnheader', { name: /User/ })).toHaveAttribute('aria-sort', 'ascending');
  expect(screen.getByRole('columnheader', { name: /Timestamp/ })).toHaveAttribute('aria-sort', 'none');
  await user.click(screen.getByRole('button', { name: 'User' }));
  await waitFor(() => expect(logCalls(api).at(-1)).toMatchObject({ sort: 'person', order: 'desc' }));
  expect(screen.getByRole('columnheader', { name: /User/ })).toHaveAttribute('aria-sort', 'descending');
  await user.click(screen.getByRole('button', { name: 'Entity' }));
  await waitFor(() => expect(logCalls(api).at(-1)).toMatchObject({ sort: 'entityAffected', order: 'asc' }));
});

test('page 2 asks for offset 50 and keeps the sort', async () => {
  const api = logApi();
  const user = userEvent.setup();
  await renderWithApp(<ActivityLogPage />, { namespaces: NS });
  await screen.findByText('Asha Admin');
  await user.click(screen.getByRole('button', { name: 'Action' }));
  await waitFor(() => expect(logCalls(api).at(-1)).toMatchObject({ sort: 'actionType', order: 'asc' }));
  await user.click(screen.getByRole('button', { name: 'Page 2 of 3' }));
  await waitFor(() => expect(logCalls(api).at(-1)).toEqual({ pageSize: '50', offset: '50', sort: 'actionType', order: 'asc' }));
  await user.click(screen.getByRole('button', { name: 'Next' }));
  await waitFor(() => expect(logCalls(api).at(-1)).toMatchObject({ offset: '100' }));
});
