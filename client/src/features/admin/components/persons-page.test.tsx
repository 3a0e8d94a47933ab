import { notifications } from '@mantine/notifications';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, test, vi } from 'vitest';
import type { PersonView } from '@pm/protocol/person';
import { clearSession, setSession } from '@/lib/session';
import { type Call, json, learnerSession, mockApi } from '@/testing/fetch-mock';
import { renderWithApp } from '@/testing/render';
import PersonsPage, { MIN_SEARCH_CHARS, searchTerm } from './persons-page';

const NS = ['admin', 'admin-access', 'admin-users', 'messages'];
const ALL = 'SHOP_EDITOR,CREATE_PERSON,UPDATE_PERSON,DELETE_PERSON';

afterEach(() => {
  vi.restoreAllMocks();
  clearSession();
  act(() => notifications.clean());
});

const person = (i: number, over: Partial<PersonView> = {}): PersonView =>
  ({
    id: `p${i}`,
    n: `Person ${i}`,
    m: `+9190000000${String(i).padStart(2, '0')}`,
    e: `person${i}@example.com`,
    r: { id: 'r1', name: 'MEMBER' },
    s: 'ACTIVE',
    permissions: [],
    ...over,
  }) as PersonView;

const ravi = person(1, { n: 'Ravi Kumar', m: '+919876543210', e: 'ravi@example.com', r: { id: 'r2', name: 'MANAGER' }, s: 'BLOCKED', permissions: [{ permission: 'SHOP_EDITOR' }] });
const sita = person(2, { n: 'Sita Devi', e: null, r: null, s: 'INACTIVE' });

/** GET /Person/get answers from `people` by a substring match, paged like the server (count = all matches). */
function server(people: PersonView[], more: (c: Call) => Response | undefined = () => undefined) {
  return mockApi((c) => {
    const r = more(c);
    if (r) return r;
    if (c.method === 'GET' && c.path === '/Person/get') {
      const q = (c.query.get('strQuery') ?? '').toLowerCase();
      const hits = people.filter((p) => !q || p.n.toLowerCase().includes(q) || p.m.includes(q) || (p.e ?? '').includes(q));
      const offset = Number(c.query.get('offset'));
      const limit = Number(c.query.get('limit'));
      return json({ success: true, data: hits.slice(offset, offset + limit), count: hits.length });
    }
    if (c.method === 'GET' && c.path === '/role') return json({ success: true, data: [] });
    if (c.method === 'GET' && c.path === '/permission') return json({ success: true, data: [] });
    return json({ success: false, msg: `unexpected ${c.method} ${c.path}` }, 500);
  });
}
const searches = (calls: Call[]) => calls.filter((c) => c.path === '/Person/get').map((c) => c.query.get('strQuery'));

const renderPage = async (permissions = ALL) => {
  setSession({ ...learnerSession, permissions, role: 'ADMIN' }, false);
  await renderWithApp(<PersonsPage />, { namespaces: NS, route: '/admin/person' });
};

describe('search rule (spec §5: more than 3 characters)', () => {
  test('searchTerm sends nothing until the trimmed input has more than 3 characters', () => {
    expect(MIN_SEARCH_CHARS).toBe(4);
    expect(searchTerm('')).toBe('');
    expect(searchTerm('rav')).toBe('');
    expect(searchTerm('  rav  ')).toBe('');
    expect(searchTerm('ravi')).toBe('ravi');
    expect(searchTerm(' 98765 ')).toBe('98765');
  });

  test('the grid lists everyone at first, ignores 3 characters, and searches from the 4th (debounced)', async () => {
    const api = server([ravi, sita]);
    const user = userEvent.setup();
    await renderPage();
    const grid = await screen.findByRole('list', { name: 'Users' });
    expect(await within(grid).findByRole('listitem', { name: 'Sita Devi' })).toBeInTheDocument();
    const first = api.calls.find((c) => c.path === '/Person/get');
    expect(first?.query.get('limit')).toBe('30');
    expect(first?.query.get('offset')).toBe('0');
    // The dialog's lists (roles, permissions) are not fetched until the dialog opens.
    expect(api.calls.map((c) => c.path)).toEqual(['/Person/get']);
    expect(searches(api.calls)).toEqual(['']);

    const box = screen.getByLabelText('Search by name, mobile or e-mail');
    await user.type(box, 'rav');
    expect(screen.getByText('Type more than 3 characters to search; everyone is listed meanwhile.')).toBeInTheDocument();
    await new Promise((r) => setTimeout(r, 450));
    expect(searches(api.calls)).toEqual(['']);
    expect(within(grid).getByRole('listitem', { name: 'Sita Devi' })).toBeInTheDocument();

    await user.type(box, 'i k');
    await waitFor(() => expect(within(grid).queryByRole('listitem', { name: 'Sita Devi' })).toBeNull());
    expect(within(grid).getByRole('listitem', { name: 'Ravi Kumar' })).toBeInTheDocument();
    // Typing "i k" quickly asked once, for the whole term, not once per key.
    expect(searches(api.calls)).toEqual(['', 'ravi k']);
  });

  test('a search that finds nobody says so', async () => {
    server([ravi, sita]);
    const user = userEvent.setup();
    await renderPage();
    await screen.findByRole('listitem', { name: 'Ravi Kumar' });
    await user.type(screen.getByLabelText('Search by name, mobile or e-mail'), 'zzzz');
    expect(await screen.findByText('Nobody matches this search.')).toBeInTheDocument();
  });
});

describe('users grid', () => {
  test('a card shows name, e-mail, mobile, role and status, with edit and reset-password buttons', async () => {
    server([ravi, sita]);
    await renderPage();
    const card = await screen.findByRole('listitem', { name: 'Ravi Kumar' });
    for (const text of ['ravi@example.com', '+919876543210', 'MANAGER', 'Blocked']) expect(within(card).getByText(text)).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Edit Ravi Kumar' })).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Reset password of Ravi Kumar' })).toBeInTheDocument();
    const other = screen.getByRole('listitem', { name: 'Sita Devi' });
    for (const text of ['No e-mail', 'No role', 'Inactive']) expect(within(other).getByText(text)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add New Member' })).toBeInTheDocument();
  });

  test('Add New Member needs CREATE_PERSON; edit and reset need UPDATE_PERSON', async () => {
    server([ravi]);
    await renderPage('SHOP_EDITOR');
    const card = await screen.findByRole('listitem', { name: 'Ravi Kumar' });
    expect(screen.queryByRole('button', { name: 'Add New Member' })).toBeNull();
    expect(within(card).queryByRole('button', { name: 'Edit Ravi Kumar' })).toBeNull();
    expect(within(card).queryByRole('button', { name: 'Reset password of Ravi Kumar' })).toBeNull();
  });

  test('pages by 30: page 2 asks for offset 30, and a new search starts again at page 1', async () => {
    const people = Array.from({ length: 45 }, (_, i) => person(i + 10));
    const api = server(people);
    const user = userEvent.setup();
    await renderPage();
    const grid = await screen.findByRole('list', { name: 'Users' });
    await waitFor(() => expect(within(grid).getAllByRole('listitem')).toHaveLength(30));
    await user.click(screen.getByRole('button', { name: '2' }));
    await waitFor(() => expect(within(grid).getAllByRole('listitem')).toHaveLength(15));
    expect(api.calls.at(-1)?.query.get('offset')).toBe('30');
    await user.type(screen.getByLabelText('Search by name, mobile or e-mail'), 'person 1');
    await waitFor(() => expect(api.calls.at(-1)?.query.get('strQuery')).toBe('person 1'));
    expect(api.calls.at(-1)?.query.get('offset')).toBe('0');
  });

  test('the detail view shows mobile, e-mail, role and the permissions as the server holds them now', async () => {
    const now = { ...ravi, permissions: [{ permission: 'SHOP_EDITOR' }, { permission: 'VIEW_REPORT' }] };
    const api = server([ravi], (c) => (c.method === 'GET' && c.path === '/Person/p1' ? json({ success: true, data: now }) : undefined));
    const user = userEvent.setup();
    await renderPage();
    const card = await screen.findByRole('listitem', { name: 'Ravi Kumar' });
    await user.click(within(card).getByRole('button', { name: 'Details of Ravi Kumar' }));
    const drawer = await screen.findByRole('dialog', { name: 'Ravi Kumar' });
    expect(within(drawer).getByText('+919876543210')).toBeInTheDocument();
    expect(within(drawer).getByText('ravi@example.com')).toBeInTheDocument();
    expect(within(drawer).getByText('MANAGER')).toBeInTheDocument();
    const list = within(drawer).getByRole('list', { name: 'Permissions' });
    await waitFor(() => expect(within(list).getAllByRole('listitem').map((b) => b.textContent)).toEqual(['SHOP_EDITOR', 'VIEW_REPORT']));
    expect(api.calls.some((c) => c.path === '/Person/p1')).toBe(true);
  });

  test('edit opens the person dialog and reset opens the reset-password dialog for that person', async () => {
    server([ravi]);
    const user = userEvent.setup();
    await renderPage();
    const card = await screen.findByRole('listitem', { name: 'Ravi Kumar' });
    await user.click(within(card).getByRole('button', { name: 'Edit Ravi Kumar' }));
    const edit = await screen.findByRole('dialog', { name: 'Edit Ravi Kumar' });
    expect(within(edit).getByLabelText(/^Mobile/, { selector: 'input' })).toHaveValue('+919876543210');
    await user.click(within(edit).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit Ravi Kumar' })).toBeNull());
    await user.click(within(screen.getByRole('listitem', { name: 'Ravi Kumar' })).getByRole('button', { name: 'Reset password of Ravi Kumar' }));
    const reset = await screen.findByRole('dialog', { name: 'Reset password' });
    expect(within(reset).getByText('New password for Ravi Kumar (+919876543210)')).toBeInTheDocument();
  });

  test('in Hindi the search label, statuses and buttons are Hindi', async () => {
    server([ravi]);
    setSession({ ...learnerSession, permissions: ALL, role: 'ADMIN' }, false);
    await renderWithApp(<PersonsPage />, { namespaces: NS, lang: 'hi' });
    const card = await screen.findByRole('listitem', { name: 'Ravi Kumar' });
    expect(within(card).getByText('अवरुद्ध')).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Ravi Kumar संपादित करें' })).toBeInTheDocument();
    expect(screen.getByLabelText('नाम, मोबाइल या ई-मेल से खोजें')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'नया सदस्य जोड़ें' })).toBeInTheDocument();
  });
});
