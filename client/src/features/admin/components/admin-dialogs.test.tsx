import { notifications } from '@mantine/notifications';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import type { PersonView } from '@pm/protocol/person';
import { clearSession, setSession } from '@/lib/session';
import { json, learnerSession, mockApi } from '@/testing/fetch-mock';
import { renderWithApp } from '@/testing/render';
import BannersPage from './banners-page';
import { PermissionDialog } from './permission-dialog';
import { PersonDialog } from './person-dialog';
import ProductsPage from './products-page';
import { ResetPasswordDialog } from './reset-password-dialog';
import { DateRangeField } from './date-range-field';
import { SaleReportCard } from './sale-report-card';

const NS = ['admin', 'admin-access', 'admin-users', 'admin-dashboard', 'admin-shop', 'admin-content', 'messages'];
const ALL = 'CREATE_PERMISSION,UPDATE_PERMISSION,DELETE_PERMISSION,SHOP_EDITOR,CREATE_PERSON,UPDATE_PERSON,DELETE_PERSON,VIEW_REPORT,UPDATE_ORDER,CREATE_ROLE,UPDATE_ROLE,DELETE_ROLE';

beforeEach(() => setSession({ ...learnerSession, permissions: ALL, role: 'ADMIN' }, false));
afterEach(() => {
  vi.restoreAllMocks();
  clearSession();
  act(() => notifications.clean());
});

const perms = [
  { id: 'p1', permission: 'SHOP_EDITOR', description: 'Admin area' },
  { id: 'p2', permission: 'VIEW_REPORT', description: 'Reports' },
];
const roles = [
  { id: 'r1', name: 'MEMBER', description: '', permissions: [] },
  { id: 'r2', name: 'MANAGER', description: '', permissions: [perms[0]] },
];
const person = (over: Partial<PersonView> = {}): PersonView =>
  ({ id: 'x1', n: 'Ravi Kumar', m: '+919876543210', e: null, r: { id: 'r1', name: 'MEMBER' }, s: 'ACTIVE', permissions: [], ...over }) as PersonView;

describe('permission dialog', () => {
  test('name is required and forced uppercase; the success message names it', async () => {
    const api = mockApi((c) => (c.method === 'POST' ? json({ success: true, msg: `${(c.body as { permission: string }).permission} permission created successfully`, data: {} }, 201) : json({ success: true, data: [] })));
    const user = userEvent.setup();
    const onClose = vi.fn();
    await renderWithApp(<PermissionDialog opened initial={{ permission: '', description: '' }} onClose={onClose} />, { namespaces: NS });
    const dialog = await screen.findByRole('dialog', { name: 'Add permission' });
    const save = within(dialog).getByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();
    const name = within(dialog).getByLabelText(/^Name/);
    await user.type(name, 'view audit');
    await user.clear(name);
    expect(await within(dialog).findByText('Permission name is required')).toBeInTheDocument();
    await user.type(name, 'view_audit');
    expect(name).toHaveValue('VIEW_AUDIT');
    await user.click(save);
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(api.calls.find((c) => c.method === 'POST')?.body).toEqual({ permission: 'VIEW_AUDIT', description: '' });
    expect(await screen.findByText('VIEW_AUDIT permission created successfully')).toBeInTheDocument();
  });

  test('an add failure shows the server message in the dialog', async () => {
    mockApi(() => json({ success: false, msg: 'Permission already exists' }, 409));
    const user = userEvent.setup();
    await renderWithApp(<PermissionDialog opened initial={{ permission: '', description: '' }} onClose={() => undefined} />, { namespaces: NS });
    const dialog = await screen.findByRole('dialog', { name: 'Add permission' });
    await user.type(within(dialog).getByLabelText(/^Name/), 'SHOP_EDITOR');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Permission already exists');
  });
});

describe('person dialog', () => {
  const routes = (c: { method: string; path: string }) => {
    if (c.path === '/role') return json({ success: true, data: roles });
    if (c.path === '/permission') return json({ success: true, data: perms });
    return json({ success: false, msg: 'unexpected' }, 500);
  };

  test('name and mobile are required; the name is capitalised; a 10-digit mobile is sent with +91', async () => {
    const created = person({ n: 'Ravi Kumar', r: { id: 'r2', name: 'MANAGER' }, permissions: [{ permission: 'SHOP_EDITOR' }] });
    const api = mockApi((c) => (c.method === 'POST' && c.path === '/Person' ? json({ success: true, msg: 'Ravi Kumar created successfully. Assign role and permissions', data: created }, 201) : routes(c)));
    const user = userEvent.setup();
    await renderWithApp(<PersonDialog opened person={null} onClose={() => undefined} />, { namespaces: NS });
    const dialog = await screen.findByRole('dialog', { name: 'Add New Member' });
    const save = within(dialog).getByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();
    await user.type(within(dialog).getByLabelText(/^Name/), 'ravi kumar');
    expect(within(dialog).getByLabelText(/^Name/)).toHaveValue('Ravi Kumar');
    expect(save).toBeDisabled();
    await user.type(within(dialog).getByLabelText(/^Mobile/), '12345');
    expect(within(dialog).getByText('Please provide a valid 10 digit mobile number')).toBeInTheDocument();
    await user.clear(within(dialog).getByLabelText(/^Mobile/));
    await user.type(within(dialog).getByLabelText(/^Mobile/), '9876543210');
    await user.type(within(dialog).getByLabelText(/^E-mail/), 'not-an-email');
    expect(within(dialog).getByText('Please provide a valid email')).toBeInTheDocument();
    expect(save).toBeDisabled();
    await user.clear(within(dialog).getByLabelText(/^E-mail/));
    await user.click(await within(dialog).findByText('MANAGER'));
    await user.click(within(dialog).getByRole('button', { name: 'Generate password' }));
    const pw = within(dialog).getByLabelText(/^Password/, { selector: 'input' }) as HTMLInputElement;
    expect(pw.value).toHaveLength(10);
    expect(save).toBeEnabled();
    await user.click(save);
    const post = await waitFor(() => {
      const c = api.calls.find((x) => x.method === 'POST');
      if (!c) throw new Error('no POST yet');
      return c;
    });
    expect(post.body).toMatchObject({ n: 'Ravi Kumar', m: '+919876543210', e: '', r: 'r2', s: 'ACTIVE', password: pw.value });
    expect(await screen.findByText('Ravi Kumar created successfully. Assign role and permissions')).toBeInTheDocument();
    // The dialog carries on with the new person: the permission picker shows the role's permissions.
    const edit = await screen.findByRole('dialog', { name: 'Edit Ravi Kumar' });
    expect(within(edit).getByTestId('perm-granted-SHOP_EDITOR')).toBeInTheDocument();
  });

  test('copy puts the password on the clipboard and says so', async () => {
    mockApi(routes);
    const user = userEvent.setup();
    // user-event installs its own clipboard on setup; watch what reaches it.
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    await renderWithApp(<PersonDialog opened person={null} onClose={() => undefined} />, { namespaces: NS });
    const dialog = await screen.findByRole('dialog', { name: 'Add New Member' });
    await user.click(within(dialog).getByRole('button', { name: 'Generate password' }));
    await user.click(within(dialog).getByRole('button', { name: 'Copy password' }));
    expect(writeText).toHaveBeenCalledWith(expect.stringMatching(/^.{10}$/));
    expect(await screen.findByText('Password copied to clipboard')).toBeInTheDocument();
  });

  test('a failed permission update after a saved edit says so', async () => {
    const p = person();
    mockApi((c) => {
      if (c.method === 'PUT' && c.path === '/Person') return json({ success: true, msg: 'Ravi Kumar updated successfully', data: p });
      if (c.method === 'PATCH') return json({ success: false, msg: 'Unknown permission: X' }, 400);
      return routes(c);
    });
    const user = userEvent.setup();
    await renderWithApp(<PersonDialog opened person={p} onClose={() => undefined} />, { namespaces: NS });
    const dialog = await screen.findByRole('dialog', { name: 'Edit Ravi Kumar' });
    await user.click(await within(dialog).findByTestId('perm-restricted-VIEW_REPORT'));
    await user.click(within(dialog).getByRole('button', { name: 'Grant', exact: true } as never));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Person detail updated but failed to update permission')).toBeInTheDocument();
  });
});

describe('reset password dialog', () => {
  test('the button is disabled without a password; reset sends personId and password', async () => {
    const api = mockApi(() => json({ success: true, msg: 'Password reset successfull' }));
    const user = userEvent.setup();
    await renderWithApp(<ResetPasswordDialog person={person()} onClose={() => undefined} />, { namespaces: NS });
    const dialog = await screen.findByRole('dialog', { name: 'Reset password' });
    const button = within(dialog).getByRole('button', { name: 'Reset password' });
    expect(button).toBeDisabled();
    await user.type(within(dialog).getByLabelText(/^New password/, { selector: 'input' }), 'ab');
    expect(button).toBeDisabled();
    await user.type(within(dialog).getByLabelText(/^New password/, { selector: 'input' }), 'cd1234');
    await user.click(button);
    await waitFor(() => expect(api.calls[0]?.body).toEqual({ personId: 'x1', password: 'abcd1234' }));
    expect(await screen.findByText('Password reset successfull')).toBeInTheDocument();
  });
  test('without a person the button stays disabled', async () => {
    await renderWithApp(<ResetPasswordDialog person={null} onClose={() => undefined} />, { namespaces: NS });
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('product dialog', () => {
  test('required fields, code uppercase, price at least 1; a valid product is posted', async () => {
    const api = mockApi((c) => (c.method === 'POST' ? json({ success: true, msg: 'Product created successfully', data: {} }, 201) : json({ success: true, data: [] })));
    const user = userEvent.setup();
    await renderWithApp(<ProductsPage />, { namespaces: NS });
    await user.click(await screen.findByRole('button', { name: 'Add product' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add product' });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getAllByText('Required in both languages').length).toBeGreaterThan(0);
    expect(within(dialog).getByText('Use capital letters and _ only')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText(/^Code/), 'week_pass');
    expect(within(dialog).getByLabelText(/^Code/)).toHaveValue('WEEK_PASS');
    const price = within(dialog).getByLabelText(/^Price \(₹\)/);
    await user.clear(price);
    await user.type(price, '0');
    expect(within(dialog).getByText('Price must be a whole number of rupees, at least 1')).toBeInTheDocument();
    await user.clear(price);
    await user.type(price, '49');
    await user.type(within(dialog).getByLabelText(/^Name \(English\)/), 'Week pass');
    await user.type(within(dialog).getByLabelText(/^Name \(Hindi\)/), 'साप्ताहिक पास');
    await user.type(within(dialog).getByLabelText(/^Price per day or month \(English\)/), 'About ₹7 a day');
    await user.type(within(dialog).getByLabelText(/^Price per day or month \(Hindi\)/), 'लगभग ₹7 प्रतिदिन');
    await user.type(within(dialog).getByLabelText(/^Line 1 \(English\)/), 'All mock tests');
    expect(within(dialog).getByRole('button', { name: 'Save' })).toBeDisabled();
    await user.type(within(dialog).getByLabelText(/^Line 1 \(Hindi\)/), 'सभी मॉक टेस्ट');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.calls.find((c) => c.method === 'POST')?.body).toMatchObject({ code: 'WEEK_PASS', total: 49, contents: [{ en: 'All mock tests', hi: 'सभी मॉक टेस्ट' }] }));
  });
});

describe('banner dialog', () => {
  test('links must be https or a site path; the headline is needed in both languages', async () => {
    mockApi(() => json({ success: true, data: [] }));
    const user = userEvent.setup();
    await renderWithApp(<BannersPage />, { namespaces: NS });
    await user.click(await screen.findByRole('button', { name: 'Add slide' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add slide' });
    await user.type(within(dialog).getByLabelText(/^Image address/), 'javascript:alert(1)');
    expect(within(dialog).getAllByText('Give an https address or a site path starting with /').length).toBeGreaterThan(0);
    await user.type(within(dialog).getByLabelText(/^Headline \(English\)/), 'Weekly tests');
    expect(within(dialog).getAllByText('The headline is needed in English and Hindi').length).toBeGreaterThan(0);
    expect(within(dialog).getByRole('button', { name: 'Save' })).toBeDisabled();
  });
});

describe('sale report card', () => {
  test('an invalid range shows the spec messages; a valid one requests epoch ms and shows totals', async () => {
    const api = mockApi(() =>
      json({ success: true, data: { orders: [], totals: { count: 3, paidCount: 2, collected: 819.5, refunded: 0, net: 819.5 }, byDay: [] } }),
    );
    await renderWithApp(<SaleReportCard />, { namespaces: NS });
    expect(await screen.findByText('Orders')).toBeInTheDocument();
    expect(await screen.findByText('3')).toBeInTheDocument();
    expect(screen.getAllByText('₹819.50')).toHaveLength(2);
    const q = api.calls[0]?.query;
    const start = Number(q?.get('startDate'));
    const end = Number(q?.get('endDate'));
    // Midnight India time (18:30 UTC the day before).
    expect(new Date(start).getUTCHours() * 60 + new Date(start).getUTCMinutes()).toBe(18 * 60 + 30);
    expect(Math.round((end + 1 - start) / 86_400_000)).toBe(30);
  });

  test('the range field says which date is wrong', async () => {
    await renderWithApp(
      <>
        <DateRangeField value={[null, '2026-01-02']} onChange={() => undefined} />
        <DateRangeField value={['2026-01-02', '2026-01-01']} onChange={() => undefined} />
        <DateRangeField value={['2026-01-01', '2026-01-02']} onChange={() => undefined} />
      </>,
      { namespaces: NS },
    );
    expect(await screen.findAllByText('Invalid start date')).toHaveLength(1);
    expect(screen.getAllByText('Invalid end date')).toHaveLength(1);
  });
});
