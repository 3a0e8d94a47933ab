import { notifications } from '@mantine/notifications';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import type { PersonView } from '@pm/protocol/person';
import { clearSession, setSession } from '@/lib/session';
import { type Call, json, learnerSession, mockApi } from '@/testing/fetch-mock';
import { renderWithApp } from '@/testing/render';
import { PersonDialog } from './person-dialog';

const NS = ['admin', 'admin-access', 'admin-users', 'messages'];

beforeEach(() => setSession({ ...learnerSession, permissions: 'SHOP_EDITOR,CREATE_PERSON,UPDATE_PERSON,DELETE_PERSON', role: 'ADMIN' }, false));
afterEach(() => {
  vi.restoreAllMocks();
  clearSession();
  act(() => notifications.clean());
});

const perms = [
  { id: 'p1', permission: 'SHOP_EDITOR', description: 'Admin area' },
  { id: 'p2', permission: 'VIEW_REPORT', description: 'Reports' },
  { id: 'p3', permission: 'QUESTION_EDITOR', description: 'Questions' },
];
const roles = [
  { id: 'r1', name: 'MEMBER', description: '', permissions: [] },
  { id: 'r2', name: 'MANAGER', description: '', permissions: [perms[0], perms[1]] },
];
const person = (over: Partial<PersonView> = {}): PersonView =>
  ({ id: 'x1', n: 'Ravi Kumar', m: '+919876543210', e: null, r: { id: 'r1', name: 'MEMBER' }, s: 'ACTIVE', permissions: [], ...over }) as PersonView;

/** GET /role and GET /permission; anything else is left to `more` (500 if it does not answer). */
const withLists = (more: (c: Call) => Response | undefined) => (c: Call) => {
  const r = more(c);
  if (r) return r;
  if (c.method === 'GET' && c.path === '/role') return json({ success: true, data: roles });
  if (c.method === 'GET' && c.path === '/permission') return json({ success: true, data: perms });
  return json({ success: false, msg: `unexpected ${c.method} ${c.path}` }, 500);
};
const firstCall = (calls: Call[], method: string, path: string) =>
  waitFor(() => {
    const c = calls.find((x) => x.method === method && x.path === path);
    if (!c) throw new Error(`no ${method} ${path} yet`);
    return c;
  });

const openAdd = async () => {
  await renderWithApp(<PersonDialog opened person={null} onClose={() => undefined} />, { namespaces: NS });
  return screen.findByRole('dialog', { name: 'Add New Member' });
};
const field = (dialog: HTMLElement, label: RegExp) => within(dialog).getByLabelText(label, { selector: 'input' }) as HTMLInputElement;

describe('person dialog: validation', () => {
  test('name and mobile are required: Save stays disabled until both are given, and the messages show once touched', async () => {
    mockApi(withLists(() => undefined));
    const user = userEvent.setup();
    const dialog = await openAdd();
    const save = within(dialog).getByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();

    await user.type(field(dialog, /^Name/), 'x');
    await user.clear(field(dialog, /^Name/));
    expect(within(dialog).getByText('Name is required')).toBeInTheDocument();
    await user.type(field(dialog, /^Mobile/), '9');
    await user.clear(field(dialog, /^Mobile/));
    expect(within(dialog).getByText('Mobile is required')).toBeInTheDocument();
    expect(save).toBeDisabled();

    await user.type(field(dialog, /^Name/), 'sita');
    expect(save).toBeDisabled(); // mobile still missing
    await user.type(field(dialog, /^Mobile/), '98765');
    expect(within(dialog).getByText('Please provide a valid 10 digit mobile number')).toBeInTheDocument();
    expect(save).toBeDisabled();
    await user.type(field(dialog, /^Mobile/), '43210');
    expect(within(dialog).queryByText('Please provide a valid 10 digit mobile number')).toBeNull();
    expect(save).toBeEnabled();
    await user.clear(field(dialog, /^Name/));
    expect(save).toBeDisabled(); // name missing again
  });

  test('the name is capitalised word by word as it is typed', async () => {
    mockApi(withLists(() => undefined));
    const user = userEvent.setup();
    const dialog = await openAdd();
    await user.type(field(dialog, /^Name/), 'sita devi sharma');
    expect(field(dialog, /^Name/)).toHaveValue('Sita Devi Sharma');
  });

  test('the e-mail is optional but must have a valid format', async () => {
    mockApi(withLists(() => undefined));
    const user = userEvent.setup();
    const dialog = await openAdd();
    const save = within(dialog).getByRole('button', { name: 'Save' });
    await user.type(field(dialog, /^Name/), 'Sita');
    await user.type(field(dialog, /^Mobile/), '9876543210');
    expect(save).toBeEnabled();
    await user.type(field(dialog, /^E-mail/), 'sita@');
    expect(within(dialog).getByText('Please provide a valid email')).toBeInTheDocument();
    expect(save).toBeDisabled();
    await user.type(field(dialog, /^E-mail/), 'example.com');
    expect(within(dialog).queryByText('Please provide a valid email')).toBeNull();
    expect(save).toBeEnabled();
  });
});

describe('person dialog: password', () => {
  test('generate fills 10 characters; copy writes them to the clipboard and says so', async () => {
    mockApi(withLists(() => undefined));
    const user = userEvent.setup();
    // Stub after userEvent.setup(), which installs a clipboard of its own.
    const writeText = vi.fn<(text: string) => Promise<void>>().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } });
    const dialog = await openAdd();
    expect(within(dialog).getByRole('button', { name: 'Copy password' })).toBeDisabled();
    await user.click(within(dialog).getByRole('button', { name: 'Generate password' }));
    const pw = field(dialog, /^Password/).value;
    expect(pw).toHaveLength(10);
    await user.click(within(dialog).getByRole('button', { name: 'Generate password' }));
    expect(field(dialog, /^Password/).value).not.toBe(pw);
    const shown = field(dialog, /^Password/).value;
    await user.click(within(dialog).getByRole('button', { name: 'Copy password' }));
    expect(writeText).toHaveBeenCalledWith(shown);
    expect(await screen.findByText('Password copied to clipboard')).toBeInTheDocument();
  });

  test('a clipboard that refuses is reported instead of a false success', async () => {
    mockApi(withLists(() => undefined));
    const user = userEvent.setup();
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: () => Promise.reject(new Error('denied')) } });
    const dialog = await openAdd();
    await user.click(within(dialog).getByRole('button', { name: 'Generate password' }));
    await user.click(within(dialog).getByRole('button', { name: 'Copy password' }));
    expect(await screen.findByText('The password could not be copied; select it and copy it by hand.')).toBeInTheDocument();
    expect(screen.queryByText('Password copied to clipboard')).toBeNull();
  });
});

describe('person dialog: create', () => {
  test('a 10-digit mobile is sent with +91; the dialog then edits the new person to assign role and permissions', async () => {
    const created = person({ id: 'new1', n: 'Sita Devi', m: '+919876543210', e: 'sita@example.com', r: { id: 'r2', name: 'MANAGER' }, permissions: [{ permission: 'SHOP_EDITOR' }, { permission: 'VIEW_REPORT' }] });
    const api = mockApi(
      withLists((c) => (c.method === 'POST' && c.path === '/Person' ? json({ success: true, id: 'new1', msg: 'Sita Devi created successfully. Assign role and permissions', data: created }, 201) : undefined)),
    );
    const user = userEvent.setup();
    const onClose = vi.fn();
    await renderWithApp(<PersonDialog opened person={null} onClose={onClose} />, { namespaces: NS });
    const dialog = await screen.findByRole('dialog', { name: 'Add New Member' });
    // No permission picker while adding (only when editing an existing person).
    expect(within(dialog).queryByTestId('perm-restricted-SHOP_EDITOR')).toBeNull();
    await user.type(field(dialog, /^Name/), 'sita devi');
    await user.type(field(dialog, /^Mobile/), '9876543210');
    await user.type(field(dialog, /^E-mail/), 'sita@example.com');
    await user.click(await within(dialog).findByText('MANAGER'));
    await user.type(field(dialog, /^Password/), 'secret12');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    const post = await firstCall(api.calls, 'POST', '/Person');
    expect(post.body).toEqual({ n: 'Sita Devi', m: '+919876543210', e: 'sita@example.com', s: 'ACTIVE', r: 'r2', password: 'secret12' });
    expect(await screen.findByText('Sita Devi created successfully. Assign role and permissions')).toBeInTheDocument();
    const edit = await screen.findByRole('dialog', { name: 'Edit Sita Devi' });
    expect(within(edit).getByTestId('perm-granted-SHOP_EDITOR')).toBeInTheDocument();
    expect(within(edit).getByTestId('perm-granted-VIEW_REPORT')).toBeInTheDocument();
    expect(within(edit).getByTestId('perm-restricted-QUESTION_EDITOR')).toBeInTheDocument();
    expect(within(edit).queryByLabelText(/^Password/, { selector: 'input' })).toBeNull();
    expect(onClose).not.toHaveBeenCalled();
  });

  test('a mobile that already carries +91 is sent unchanged', async () => {
    const api = mockApi(withLists((c) => (c.method === 'POST' ? json({ success: true, id: 'n2', msg: 'Sita created successfully. Assign role and permissions', data: person({ id: 'n2', n: 'Sita' }) }, 201) : undefined)));
    const user = userEvent.setup();
    const dialog = await openAdd();
    await user.type(field(dialog, /^Name/), 'Sita');
    await user.type(field(dialog, /^Mobile/), '+919876543210');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    const post = await firstCall(api.calls, 'POST', '/Person');
    expect((post.body as { m: string }).m).toBe('+919876543210');
  });

  test('a save failure notifies the server message and keeps the dialog as it was', async () => {
    mockApi(withLists((c) => (c.method === 'POST' ? json({ success: false, msg: 'This mobile number is already registered' }, 409) : undefined)));
    const user = userEvent.setup();
    const dialog = await openAdd();
    await user.type(field(dialog, /^Name/), 'Sita');
    await user.type(field(dialog, /^Mobile/), '9876543210');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('This mobile number is already registered')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Add New Member' })).toBeInTheDocument();
    expect(field(dialog, /^Name/)).toHaveValue('Sita');
  });
});

describe('person dialog: edit', () => {
  test('shows the status as a label; the status select offers the translated statuses and its choice is saved', async () => {
    const api = mockApi(withLists((c) => (c.method === 'PUT' ? json({ success: true, msg: 'Ravi Kumar updated successfully', data: person({ s: 'INACTIVE' }) }) : undefined)));
    const user = userEvent.setup();
    const onClose = vi.fn();
    await renderWithApp(<PersonDialog opened person={person({ s: 'BLOCKED' })} onClose={onClose} />, { namespaces: NS });
    const dialog = await screen.findByRole('dialog', { name: 'Edit Ravi Kumar' });
    expect(within(dialog).getByTestId('person-status')).toHaveTextContent('Blocked');
    expect(field(dialog, /^Status/)).toHaveValue('Blocked');
    await user.click(field(dialog, /^Status/));
    // The dropdown's transition starts from display: none, and jsdom never finishes it.
    const options = await screen.findAllByRole('option', { hidden: true });
    expect(options.map((o) => o.textContent)).toEqual(['Active', 'Inactive', 'Blocked']);
    await user.click(options[1] as HTMLElement);
    expect(field(dialog, /^Status/)).toHaveValue('Inactive');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect((api.calls.find((c) => c.method === 'PUT')?.body as { s: string }).s).toBe('INACTIVE');
  });

  test('choosing a role copies its permissions; Save sends PUT, then PATCH with the picker’s permissions', async () => {
    const p = person();
    const api = mockApi(
      withLists((c) => {
        // The server copies the new role's permissions on PUT.
        if (c.method === 'PUT') return json({ success: true, msg: 'Ravi Kumar updated successfully', data: person({ r: { id: 'r2', name: 'MANAGER' }, permissions: [{ permission: 'SHOP_EDITOR' }, { permission: 'VIEW_REPORT' }] }) });
        if (c.method === 'PATCH') return json({ success: true, msg: 'Ravi Kumar updated successfully', data: p });
        return undefined;
      }),
    );
    const user = userEvent.setup();
    const onClose = vi.fn();
    await renderWithApp(<PersonDialog opened person={p} onClose={onClose} />, { namespaces: NS });
    const dialog = await screen.findByRole('dialog', { name: 'Edit Ravi Kumar' });
    expect(await within(dialog).findByTestId('perm-restricted-SHOP_EDITOR')).toBeInTheDocument();
    await user.click(within(dialog).getByText('MANAGER'));
    expect(within(dialog).getByTestId('perm-granted-SHOP_EDITOR')).toBeInTheDocument();
    expect(within(dialog).getByTestId('perm-granted-VIEW_REPORT')).toBeInTheDocument();
    // Then one more permission by hand.
    await user.click(within(dialog).getByTestId('perm-restricted-QUESTION_EDITOR'));
    await user.click(within(dialog).getByRole('button', { name: 'Grant', exact: true } as never));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const put = api.calls.find((c) => c.method === 'PUT');
    expect(put?.path).toBe('/Person');
    expect(put?.body).toEqual({ id: 'x1', n: 'Ravi Kumar', m: '+919876543210', e: '', s: 'ACTIVE', r: 'r2' });
    const patch = api.calls.find((c) => c.method === 'PATCH');
    expect(patch?.path).toBe('/Person/updatePermissionCollection');
    expect((patch?.body as { id: string }).id).toBe('x1');
    expect([...(patch?.body as { permissions: string[] }).permissions].sort()).toEqual(['QUESTION_EDITOR', 'SHOP_EDITOR', 'VIEW_REPORT']);
    expect(await screen.findByText('Ravi Kumar updated successfully')).toBeInTheDocument();
  });

  test('without a permission change no PATCH is sent', async () => {
    const p = person({ permissions: [{ permission: 'SHOP_EDITOR' }] });
    const api = mockApi(withLists((c) => (c.method === 'PUT' ? json({ success: true, msg: 'Ravi Singh updated successfully', data: { ...p, n: 'Ravi Singh' } }) : undefined)));
    const user = userEvent.setup();
    const onClose = vi.fn();
    await renderWithApp(<PersonDialog opened person={p} onClose={onClose} />, { namespaces: NS });
    const dialog = await screen.findByRole('dialog', { name: 'Edit Ravi Kumar' });
    await within(dialog).findByTestId('perm-granted-SHOP_EDITOR');
    await user.clear(field(dialog, /^Name/));
    await user.type(field(dialog, /^Name/), 'ravi singh');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect((api.calls.find((c) => c.method === 'PUT')?.body as { n: string }).n).toBe('Ravi Singh');
    expect(api.calls.some((c) => c.method === 'PATCH')).toBe(false);
  });

  test('when the permission update fails after the details were saved, the dialog says so and stays open', async () => {
    const p = person();
    mockApi(
      withLists((c) => {
        if (c.method === 'PUT') return json({ success: true, msg: 'Ravi Kumar updated successfully', data: p });
        if (c.method === 'PATCH') return json({ success: false, msg: 'Unknown permission: VIEW_REPORT' }, 400);
        return undefined;
      }),
    );
    const user = userEvent.setup();
    const onClose = vi.fn();
    await renderWithApp(<PersonDialog opened person={p} onClose={onClose} />, { namespaces: NS });
    const dialog = await screen.findByRole('dialog', { name: 'Edit Ravi Kumar' });
    await user.click(await within(dialog).findByTestId('perm-restricted-VIEW_REPORT'));
    await user.click(within(dialog).getByRole('button', { name: 'Grant', exact: true } as never));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Person detail updated but failed to update permission');
    expect(alert).toHaveTextContent('Unknown permission: VIEW_REPORT');
    expect(onClose).not.toHaveBeenCalled();
    // The details did save: that success is still announced.
    expect(await screen.findByText('Ravi Kumar updated successfully')).toBeInTheDocument();
  });
});

describe('person dialog in Hindi', () => {
  test('labels, statuses and the required messages are Hindi', async () => {
    mockApi(withLists(() => undefined));
    const user = userEvent.setup();
    await renderWithApp(<PersonDialog opened person={null} onClose={() => undefined} />, { namespaces: NS, lang: 'hi' });
    const dialog = await screen.findByRole('dialog', { name: 'नया सदस्य जोड़ें' });
    await user.type(field(dialog, /^नाम/), 'x');
    await user.clear(field(dialog, /^नाम/));
    expect(within(dialog).getByText('नाम आवश्यक है')).toBeInTheDocument();
    expect(field(dialog, /^स्थिति/)).toHaveValue('सक्रिय');
  });
});
