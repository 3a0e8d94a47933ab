import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, test, vi } from 'vitest';
import { clearSession, getSession, setSession, takeRedirect } from '@/lib/session';
import { renderWithApp } from '@/testing/render';
import { json, learnerSession, mockApi } from '@/testing/fetch-mock';
import ProfilePage from './profile-page';

afterEach(() => {
  vi.restoreAllMocks();
  clearSession();
});

const profile = {
  id: 'demo-learner',
  n: 'Lata Learner',
  m: '+919000000003',
  mv: false,
  e: null,
  ev: false,
  r: { id: 'r1', name: 'MEMBER' },
  s: 'ACTIVE',
  p: 'demo-admin',
  permissions: [],
  paidAmount: 0,
  aw: 0,
  totalWithdrawn: 0,
  tac: 0,
  teamSize: 7,
  directDownlines: 2,
  curr_orbit: 0,
  aadharFront: null,
  aadharBack: null,
  pan: null,
  pic: null,
  amountForNextLevel: 0,
  dq: 0,
  taw: 0,
  iprr: 0,
  co: null,
  createdAt: 0,
  uplines: [
    { id: 'demo-editor', name: 'Esha Editor' },
    { id: 'demo-admin', name: 'Asha Admin' },
  ],
};

test('shows the person, the referrer chain, the team and the referral link', async () => {
  setSession(learnerSession, false);
  const { calls } = mockApi(() => json({ success: true, data: profile }));
  await renderWithApp(<ProfilePage />, { route: '/profile', namespaces: ['auth'] });

  expect(await screen.findByText('Lata Learner')).toBeInTheDocument();
  expect(calls[0]!.path).toBe('/Person');
  expect(screen.getByText('+919000000003')).toBeInTheDocument();
  expect(screen.getByText('Not given')).toBeInTheDocument();
  // The built-in role by its name in the reader's language, not its key (lib/built-in-labels).
  expect(screen.getByText('Member')).toBeInTheDocument();
  expect(screen.queryByText('MEMBER')).toBeNull();
  expect(screen.getByText('7')).toBeInTheDocument();
  const chain = screen.getByRole('list', { name: 'Referred by' });
  expect(chain).toHaveTextContent(/Esha Editor.*Asha Admin/);
  expect(screen.getByLabelText('Your referral link')).toHaveValue(`${window.location.origin}/login?referrer=9000000003`);
  expect(screen.getByRole('button', { name: 'Copy link' })).toBeInTheDocument();
  expect(screen.getByRole('link', { name: 'Change password' })).toHaveAttribute('href', '/reset-password');
  expect(screen.getByRole('link', { name: 'See my team' })).toHaveAttribute('href', '/profile/team');
});


test('signed out: goes to /login and comes back after logging in', async () => {
  const { router } = await renderWithApp(<ProfilePage />, { route: '/profile', namespaces: ['auth'] });
  await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  expect(takeRedirect()).toBe('/profile');
});

test('a logout on the page goes to /login without making /profile the next redirect', async () => {
  setSession(learnerSession, false);
  mockApi(() => json({ success: true, data: profile }));
  const { router } = await renderWithApp(<ProfilePage />, { route: '/profile', namespaces: ['auth'] });
  await screen.findByText('Lata Learner');
  act(() => clearSession());
  await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  expect(takeRedirect()).toBe('/exam-list');
});

test('"Log out of all devices" asks first; confirmed, it ends every session on the server and logs this device out', async () => {
  setSession(learnerSession, false);
  const { calls } = mockApi((call) =>
    call.path === '/UserLogin/logoutAll' ? json({ success: true, msg: 'Logged out of all devices' }) : json({ success: true, data: profile }),
  );
  const { router } = await renderWithApp(<ProfilePage />, { route: '/profile', namespaces: ['auth'] });
  await screen.findByText('Lata Learner');
  const user = userEvent.setup();

  await user.click(screen.getByRole('button', { name: 'Log out of all devices' }));
  const dialog = await screen.findByRole('dialog', { name: 'Log out of all devices?' });
  // Cancelling asks nothing of the server.
  await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  expect(calls.some((c) => c.path === '/UserLogin/logoutAll')).toBe(false);

  await user.click(screen.getByRole('button', { name: 'Log out of all devices' }));
  await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Log out everywhere' }));
  await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  const call = calls.find((c) => c.path === '/UserLogin/logoutAll');
  expect(call).toMatchObject({ method: 'POST', headers: { authorization: 'Bearer token-1' } });
  expect(getSession()).toBeNull();
});

test('"Log out of all devices" that fails keeps this device signed in', async () => {
  setSession(learnerSession, false);
  mockApi((call) => (call.path === '/UserLogin/logoutAll' ? json({ success: false, msg: 'Too many requests. Please try again later.' }, 429) : json({ success: true, data: profile })));
  await renderWithApp(<ProfilePage />, { route: '/profile', namespaces: ['auth'] });
  await screen.findByText('Lata Learner');
  const user = userEvent.setup();
  await user.click(screen.getByRole('button', { name: 'Log out of all devices' }));
  await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Log out everywhere' }));
  await waitFor(() => expect(screen.getByRole('button', { name: 'Log out everywhere' })).not.toHaveAttribute('data-loading'));
  expect(getSession()?.token).toBe('token-1');
});

test('the name is edited on the profile (PATCH /Person/me) and the session follows; a short one is refused on the form', async () => {
  setSession(learnerSession, false);
  let current = { ...profile, pendingEmail: null };
  const { calls } = mockApi((call) => {
    if (call.path === '/Person/me') {
      current = { ...current, n: 'Lata Sharma' };
      return json({ success: true, msg: 'Your profile has been updated', name: 'Lata Sharma' });
    }
    return json({ success: true, data: current });
  });
  await renderWithApp(<ProfilePage />, { route: '/profile', namespaces: ['auth'] });
  const edit = (await screen.findByRole('heading', { name: 'Edit your details' })).parentElement!;
  const user = userEvent.setup();
  const name = within(edit).getByRole('textbox', { name: 'Name' });
  await user.clear(name);
  await user.type(name, 'Lat');
  await user.click(within(edit).getByRole('button', { name: 'Save name' }));
  expect(await within(edit).findByText('Please provide your full name')).toBeInTheDocument();
  expect(calls.some((c) => c.path === '/Person/me')).toBe(false);
  await user.clear(name);
  await user.type(name, 'Lata Sharma');
  await user.click(within(edit).getByRole('button', { name: 'Save name' }));
  await waitFor(() => expect(getSession()?.name).toBe('Lata Sharma'));
  expect(calls.find((c) => c.path === '/Person/me')).toMatchObject({ method: 'PATCH', body: { n: 'Lata Sharma' } });
});

test('a new e-mail is used only after its code: the request, the waiting address, the code, then the session', async () => {
  setSession(learnerSession, false);
  let current: Omit<typeof profile, 'e'> & { e: string | null; pendingEmail: string | null } = { ...profile, e: 'learner@example.com', pendingEmail: null };
  const { calls } = mockApi((call) => {
    if (call.path === '/Person/me/email') {
      current = { ...current, pendingEmail: 'lata@example.com' };
      return json({ success: true, msg: 'If this address can be used, a code has been sent to it. Enter the code to start using it' });
    }
    if (call.path === '/Person/me/email/verify') {
      if ((call.body as { code: string }).code !== '123456') return json({ success: false, msg: 'Invalid or expired code', code: 'BAD_REQUEST' }, 400);
      current = { ...current, e: 'lata@example.com', pendingEmail: null };
      return json({ success: true, msg: 'Your e-mail address has been changed', email: 'lata@example.com' });
    }
    return json({ success: true, data: current });
  });
  await renderWithApp(<ProfilePage />, { route: '/profile', namespaces: ['auth'] });
  const edit = (await screen.findByRole('heading', { name: 'Edit your details' })).parentElement!;
  const user = userEvent.setup();
  await user.type(within(edit).getByRole('textbox', { name: 'New e-mail address' }), 'Lata@Example.com');
  await user.click(within(edit).getByRole('button', { name: 'Send code' }));
  expect(await within(edit).findByTestId('email-waiting')).toHaveTextContent('If this address can be used, a code has been sent to it');
  expect(calls.find((c) => c.path === '/Person/me/email')).toMatchObject({ method: 'POST', body: { e: 'Lata@Example.com' } });
  // Until the code is in, the session keeps the old address.
  expect(getSession()?.email).toBe(learnerSession.email);
  const code = within(edit).getByRole('textbox', { name: '6-digit code' });
  await user.type(code, '000000');
  await user.click(within(edit).getByRole('button', { name: 'Confirm new e-mail' }));
  expect(await within(edit).findByText('Invalid or expired code')).toBeInTheDocument();
  await user.clear(code);
  await user.type(code, '123456');
  await user.click(within(edit).getByRole('button', { name: 'Confirm new e-mail' }));
  await waitFor(() => expect(getSession()?.email).toBe('lata@example.com'));
  await waitFor(() => expect(screen.queryByTestId('email-waiting')).toBeNull());
});


test('an unverified mobile: a code by SMS, the box says where it went, and the code verifies it', async () => {
  setSession(learnerSession, false);
  let current = { ...profile, e: 'learner@example.com' };
  const { calls } = mockApi((call) => {
    if (call.path === '/Person/me/mobile/code') return json({ success: true, msg: 'A code has been sent to your mobile. Enter it to verify your number', sentTo: '…03', email: true });
    if (call.path === '/Person/me/mobile/verify') {
      if ((call.body as { code: string }).code !== '654321') return json({ success: false, msg: 'Invalid or expired code', code: 'BAD_REQUEST' }, 400);
      current = { ...current, mv: true };
      return json({ success: true, msg: 'Your mobile number is verified', mv: true });
    }
    return json({ success: true, data: current });
  });
  await renderWithApp(<ProfilePage />, { route: '/profile', namespaces: ['auth'] });
  const box = await screen.findByTestId('verify-mobile');
  const user = userEvent.setup();
  await user.click(within(box).getByRole('button', { name: 'Send code by SMS' }));
  expect(await within(box).findByRole('status')).toHaveTextContent('A code was sent by SMS to your mobile ending …03. If the SMS does not arrive in a few minutes, the code comes to your e-mail.');
  expect(calls.find((c) => c.path === '/Person/me/mobile/code')).toMatchObject({ method: 'POST' });
  const code = within(box).getByRole('textbox', { name: '6-digit code' });
  await user.type(code, '000000');
  await user.click(within(box).getByRole('button', { name: 'Verify mobile' }));
  expect(await within(box).findByText('Invalid or expired code')).toBeInTheDocument();
  await user.clear(code);
  await user.type(code, '654321');
  await user.click(within(box).getByRole('button', { name: 'Verify mobile' }));
  await waitFor(() => expect(screen.queryByTestId('verify-mobile')).toBeNull());
  expect(screen.getByText(/\+919000000003 \(Verified\)/)).toBeInTheDocument();
});
