import { notifications } from '@mantine/notifications';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, test, vi } from 'vitest';
import { clearSession, getSession, setSession, takeRedirect } from '@/lib/session';
import { renderWithApp } from '@/testing/render';
import { json, learnerSession, loginResponse, mockApi } from '@/testing/fetch-mock';
import ResetPasswordPage from './reset-password-page';

afterEach(() => {
  vi.restoreAllMocks();
  clearSession();
  act(() => notifications.clean());
});

const renderPage = (lang = 'en') =>
  renderWithApp(<ResetPasswordPage />, {
    route: '/reset-password',
    lang,
    namespaces: ['auth'],
    extraRoutes: [
      { path: '/login', element: <div data-testid="login-page" /> },
      { path: '/profile', element: <div data-testid="profile-page" /> },
    ],
  });

test('signed out: remembers the address and goes to /login', async () => {
  const { router } = await renderPage();
  await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  expect(takeRedirect()).toBe('/reset-password');
});

test('rules of spec §5 Change password; Save waits for a valid form', async () => {
  const user = userEvent.setup();
  setSession(learnerSession, false);
  await renderPage();
  const save = await screen.findByRole('button', { name: 'Save' });
  expect(save).toBeDisabled();
  await user.type(screen.getByLabelText(/^Current password/), 'abc');
  await user.type(screen.getByLabelText(/^New password/), 'new1');
  await user.type(screen.getByLabelText(/^Confirm new password/), 'new2');
  await user.tab();
  expect(await screen.findByText('Password should have atleast 4 characters')).toBeInTheDocument();
  expect(screen.getByText('New password and confirm password are not same')).toBeInTheDocument();
  expect(save).toBeDisabled();
});

test('the rules in Hindi', async () => {
  const user = userEvent.setup();
  setSession(learnerSession, false);
  await renderPage('hi');
  await user.click(await screen.findByLabelText(/^वर्तमान पासवर्ड/));
  await user.tab();
  await user.tab();
  expect(await screen.findByText('कृपया अपना वर्तमान पासवर्ड दर्ज करें')).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'सहेजें' })).toBeDisabled();
});

test('Enter saves; the fresh token replaces the old one and the user goes to the profile', async () => {
  const user = userEvent.setup();
  setSession(learnerSession, true);
  const { calls } = mockApi(() => json(loginResponse({ token: 'token-2', msg: 'Password changed successfully' })));
  const { router } = await renderPage();
  await user.type(await screen.findByLabelText(/^Current password/), 'learner1234');
  await user.type(screen.getByLabelText(/^New password/), 'learner5678');
  await user.type(screen.getByLabelText(/^Confirm new password/), 'learner5678{Enter}');

  await waitFor(() => expect(router.state.location.pathname).toBe('/profile'));
  expect(calls[0]!.method).toBe('PATCH');
  expect(calls[0]!.path).toBe('/UserLogin/updatePasswordWithOldPassword');
  expect(calls[0]!.headers.authorization).toBe('Bearer token-1');
  expect(calls[0]!.body).toEqual({ oldPassword: 'learner1234', newPassword: 'learner5678', confirmPassword: 'learner5678' });
  expect(getSession()?.token).toBe('token-2');
  expect(JSON.parse(localStorage.getItem('session') ?? '{}').token).toBe('token-2');
  expect(await screen.findByText('Password changed successfully')).toBeInTheDocument();
});

test('a wrong old password is listed on the form', async () => {
  const user = userEvent.setup();
  setSession(learnerSession, false);
  mockApi(() => json({ success: false, msg: 'Old password is incorrect', code: 'BAD_REQUEST' }, 400));
  const { router } = await renderPage();
  await user.type(await screen.findByLabelText(/^Current password/), 'wrong-one');
  await user.type(screen.getByLabelText(/^New password/), 'learner5678');
  await user.type(screen.getByLabelText(/^Confirm new password/), 'learner5678');
  await user.click(screen.getByRole('button', { name: 'Save' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('Old password is incorrect');
  expect(router.state.location.pathname).toBe('/reset-password');
  expect(getSession()?.token).toBe('token-1');
});

test('the page is titled Change password', async () => {
  setSession(learnerSession, false);
  await renderPage();
  expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent('Change password');
});

test('in Hindi the title is पासवर्ड बदलें', async () => {
  setSession(learnerSession, false);
  await renderPage('hi');
  expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent('पासवर्ड बदलें');
});
