import { notifications } from '@mantine/notifications';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, test, vi } from 'vitest';
import type { Brand } from '../api/get-brands';
import { clearSession, setSession } from '@/lib/session';
import { type Call, json, learnerSession, mockApi } from '@/testing/fetch-mock';
import { renderWithApp } from '@/testing/render';
import BrandsPage from './brands-page';

const NS = ['admin', 'admin-dashboard', 'messages'];
const BRAND_PERMS = 'SHOP_EDITOR,CREATE_BRAND,UPDATE_BRAND,DELETE_BRAND';

const brands: Brand[] = [
  { id: 'b1', name: 'Arihant', description: 'Exam guides', logo: 'https://example.com/arihant.png', createdAt: 1, updatedAt: 1 },
  { id: 'b2', name: 'Lucent', description: '', logo: null, createdAt: 2, updatedAt: 2 },
];

/** The brand endpoints of the server, answering writes with `write` (a success unless told otherwise). */
const brandApi = (write: (c: Call) => Response = (c) => json({ success: true, msg: c.method === 'POST' ? 'Brand created successfully' : c.method === 'PUT' ? 'Brand updated successfully' : 'Brand deleted successfully', data: {} }, c.method === 'POST' ? 201 : 200)) =>
  mockApi((c) => (c.method === 'GET' && c.path === '/brand' ? json({ success: true, data: brands }) : write(c)));

const signIn = (permissions: string) => setSession({ ...learnerSession, permissions, role: 'ADMIN' }, false);

afterEach(() => {
  vi.restoreAllMocks();
  clearSession();
  act(() => notifications.clean());
});

describe('brands', () => {
  test('lists the brands; the buttons follow CREATE_BRAND, UPDATE_BRAND and DELETE_BRAND', async () => {
    brandApi();
    signIn('SHOP_EDITOR');
    const { unmount } = await renderWithApp(<BrandsPage />, { namespaces: NS });
    const list = await screen.findByRole('list', { name: 'Brands' });
    expect(await within(list).findByText('Arihant')).toBeInTheDocument();
    expect(within(list).getByText('Exam guides')).toBeInTheDocument();
    expect(within(list).getByText('Lucent')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add brand' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit Arihant' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete Arihant' })).not.toBeInTheDocument();
    unmount();

    signIn('SHOP_EDITOR,UPDATE_BRAND');
    await renderWithApp(<BrandsPage />, { namespaces: NS });
    expect(await screen.findByRole('button', { name: 'Edit Arihant' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add brand' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete Arihant' })).not.toBeInTheDocument();
  });

  test('the dialog validates by the brand schema and posts a valid brand', async () => {
    const api = brandApi();
    signIn(BRAND_PERMS);
    const user = userEvent.setup();
    await renderWithApp(<BrandsPage />, { namespaces: NS });
    await user.click(await screen.findByRole('button', { name: 'Add brand' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add brand' });
    const save = within(dialog).getByRole('button', { name: 'Save' });
    await user.click(save);
    expect(within(dialog).getByText('Brand name is required')).toBeInTheDocument();
    expect(save).toBeDisabled();
    // Spaces alone are no name (the schema trims).
    await user.type(within(dialog).getByLabelText(/^Name/), '   ');
    expect(within(dialog).getByText('Brand name is required')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText(/^Name/), 'Kiran');
    expect(within(dialog).queryByText('Brand name is required')).not.toBeInTheDocument();
    const logo = within(dialog).getByLabelText('Logo address (https)');
    await user.type(logo, 'data:x');
    expect(within(dialog).getByText('Logo must be an http(s) address')).toBeInTheDocument();
    expect(save).toBeDisabled();
    await user.clear(logo);
    await user.type(logo, 'https://k.in/a.png');
    await user.type(within(dialog).getByLabelText('Description'), 'Papers');
    expect(save).toBeEnabled();
    await user.click(save);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add brand' })).not.toBeInTheDocument());
    expect(api.calls.find((c) => c.method === 'POST')).toMatchObject({
      path: '/brand',
      body: { name: 'Kiran', description: 'Papers', logo: 'https://k.in/a.png' },
    });
    expect(await screen.findByText('Brand created successfully')).toBeInTheDocument();
  });

  test('edit sends PUT with the id; a conflict is listed in the dialog in Hindi', async () => {
    const api = brandApi((c) => (c.method === 'PUT' ? json({ success: false, msg: 'Brand already exists' }, 409) : json({ success: true })));
    signIn(BRAND_PERMS);
    const user = userEvent.setup();
    await renderWithApp(<BrandsPage />, { namespaces: NS, lang: 'hi' });
    await user.click(await screen.findByRole('button', { name: 'Lucent संपादित करें' }));
    const dialog = await screen.findByRole('dialog', { name: 'ब्रांड संपादित करें' });
    const name = within(dialog).getByLabelText(/^नाम/);
    expect(name).toHaveValue('Lucent');
    await user.clear(name);
    await user.type(name, 'Arihant');
    await user.click(within(dialog).getByRole('button', { name: 'सहेजें' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('ब्रांड पहले से मौजूद है');
    expect(api.calls.find((c) => c.method === 'PUT')?.body).toEqual({ id: 'b2', name: 'Arihant', description: '', logo: null });
  });

  test('delete asks Confirm Delete first, then deletes that brand', async () => {
    const api = brandApi();
    signIn(BRAND_PERMS);
    const user = userEvent.setup();
    await renderWithApp(<BrandsPage />, { namespaces: NS });
    await user.click(await screen.findByRole('button', { name: 'Delete Arihant' }));
    const confirm = await screen.findByRole('dialog', { name: 'Confirm Delete' });
    expect(api.calls.some((c) => c.method === 'DELETE')).toBe(false);
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(api.calls.find((c) => c.method === 'DELETE')?.path).toBe('/brand/b1'));
    expect(await screen.findByText('Brand deleted successfully')).toBeInTheDocument();
  });
});
