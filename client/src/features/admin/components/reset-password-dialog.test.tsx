import { notifications } from '@mantine/notifications';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import type { PersonView } from '@pm/protocol/person';
import { clearSession, setSession } from '@/lib/session';
import { json, learnerSession, mockApi } from '@/testing/fetch-mock';
import { renderWithApp } from '@/testing/render';
import { ResetPasswordDialog } from './reset-password-dialog';

const NS = ['admin', 'admin-users', 'messages'];

beforeEach(() => setSession({ ...learnerSession, permissions: 'SHOP_EDITOR,CREATE_PERSON,UPDATE_PERSON,DELETE_PERSON', role: 'ADMIN' }, false));
afterEach(() => {
  vi.restoreAllMocks();
  clearSession();
  act(() => notifications.clean());
});

const ravi = { id: 'x1', n: 'Ravi Kumar', m: '+919876543210', e: null, r: null, s: 'ACTIVE', permissions: [] } as unknown as PersonView;
const passwordField = (dialog: HTMLElement) => within(dialog).getByLabelText(/^New password/, { selector: 'input' }) as HTMLInputElement;

describe('reset password dialog', () => {
  test('without a person there is nothing to reset: no dialog', async () => {
    await renderWithApp(<ResetPasswordDialog person={null} onClose={() => undefined} />, { namespaces: NS });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  test('Reset is disabled without a password (and with one shorter than 4); generate gives 10 characters that are sent', async () => {
    const api = mockApi(() => json({ success: true, msg: 'Password reset successfull' }));
    const user = userEvent.setup();
    const onClose = vi.fn();
    await renderWithApp(<ResetPasswordDialog person={ravi} onClose={onClose} />, { namespaces: NS });
    const dialog = await screen.findByRole('dialog', { name: 'Reset password' });
    expect(within(dialog).getByText('New password for Ravi Kumar (+919876543210)')).toBeInTheDocument();
    const reset = within(dialog).getByRole('button', { name: 'Reset password' });
    expect(reset).toBeDisabled();
    await user.type(passwordField(dialog), 'abc');
    expect(within(dialog).getByText('Password should have atleast 4 characters')).toBeInTheDocument();
    expect(reset).toBeDisabled();
    await user.clear(passwordField(dialog));
    expect(reset).toBeDisabled();

    await user.click(within(dialog).getByRole('button', { name: 'Generate password' }));
    const generated = passwordField(dialog).value;
    expect(generated).toHaveLength(10);
    expect(reset).toBeEnabled();
    await user.click(reset);

    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(api.calls).toHaveLength(1);
    expect(api.calls[0]).toMatchObject({ method: 'PUT', path: '/UserLogin/resetUserPasswordByAdmin', body: { personId: 'x1', password: generated } });
    expect(await screen.findByText('Password reset successfull')).toBeInTheDocument();
  });

  test('copy puts the password on the clipboard and notifies', async () => {
    const user = userEvent.setup();
    const writeText = vi.fn<(text: string) => Promise<void>>().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } });
    await renderWithApp(<ResetPasswordDialog person={ravi} onClose={() => undefined} />, { namespaces: NS });
    const dialog = await screen.findByRole('dialog', { name: 'Reset password' });
    await user.type(passwordField(dialog), 'Secret#2026');
    await user.click(within(dialog).getByRole('button', { name: 'Copy password' }));
    expect(writeText).toHaveBeenCalledWith('Secret#2026');
    expect(await screen.findByText('Password copied to clipboard')).toBeInTheDocument();
  });

  test('a failure notifies the server message and leaves the dialog open', async () => {
    mockApi(() => json({ success: false, msg: 'Failed to reset password' }, 400));
    const user = userEvent.setup();
    const onClose = vi.fn();
    await renderWithApp(<ResetPasswordDialog person={ravi} onClose={onClose} />, { namespaces: NS });
    const dialog = await screen.findByRole('dialog', { name: 'Reset password' });
    await user.type(passwordField(dialog), 'abcd1234');
    await user.click(within(dialog).getByRole('button', { name: 'Reset password' }));
    expect(await screen.findByText('Failed to reset password')).toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
    expect(passwordField(dialog)).toHaveValue('abcd1234');
  });

  test('switching to another person starts with an empty password', async () => {
    const user = userEvent.setup();
    const sita = { ...ravi, id: 'x2', n: 'Sita Devi', m: '+919000000001' } as PersonView;
    function Switcher() {
      const [p, setP] = useState<PersonView>(ravi);
      return (
        <>
          <button type="button" onClick={() => setP(sita)}>
            next person
          </button>
          <ResetPasswordDialog person={p} onClose={() => undefined} />
        </>
      );
    }
    await renderWithApp(<Switcher />, { namespaces: NS });
    const dialog = await screen.findByRole('dialog', { name: 'Reset password' });
    await user.type(passwordField(dialog), 'abcd1234');
    await user.click(screen.getByRole('button', { name: 'next person', hidden: true }));
    expect(await within(dialog).findByText('New password for Sita Devi (+919000000001)')).toBeInTheDocument();
    expect(passwordField(dialog)).toHaveValue('');
    expect(within(dialog).getByRole('button', { name: 'Reset password' })).toBeDisabled();
  });
});
