import { notifications } from '@mantine/notifications';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, test, vi } from 'vitest';
import { renderWithApp } from '@/testing/render';
import { basicOf, json, mockApi } from '@/testing/fetch-mock';
import ForgotPasswordPage from './forgot-password-page';

afterEach(() => {
  vi.restoreAllMocks();
  act(() => notifications.clean());
});

const renderPage = (lang = 'en') =>
  renderWithApp(<ForgotPasswordPage />, {
    route: '/forgot-password',
    lang,
    namespaces: ['auth'],
    extraRoutes: [{ path: '/login', element: <div data-testid="login-page" /> }],
  });

test('step 1: an entry with @ must be a valid e-mail; the button waits for a valid entry', async () => {
  const user = userEvent.setup();
  await renderPage();
  const button = await screen.findByRole('button', { name: 'Request password code' });
  expect(button).toBeDisabled();
  const input = screen.getByLabelText(/Mobile or e-mail/);
  await user.type(input, 'learner@');
  await user.tab();
  expect(await screen.findByText('Invalid email')).toBeInTheDocument();
  expect(button).toBeDisabled();
  await user.clear(input);
  await user.type(input, '12345');
  await user.tab();
  expect(await screen.findByText('Please provide a valid 10 digit mobile number')).toBeInTheDocument();
  await user.clear(input);
  await user.type(input, 'learner@example.com');
  expect(button).toBeEnabled();
});

test('step 1 in Hindi', async () => {
  const user = userEvent.setup();
  await renderPage('hi');
  const input = await screen.findByLabelText(/मोबाइल या ईमेल/);
  await user.type(input, 'a@b');
  await user.tab();
  expect(await screen.findByText('अमान्य ईमेल')).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'पासवर्ड कोड मँगाएँ' })).toBeDisabled();
});

test('a reported success shows step 2; its rules; the code resets the password and leads to /login', async () => {
  const user = userEvent.setup();
  const { calls } = mockApi(({ path }) =>
    path === '/UserLogin/resetPassword'
      ? json({ success: true, msg: 'If the account exists, a reset code has been sent to its registered email or mobile' })
      : json({ success: true, msg: 'Password reset successfull' }),
  );
  const { router } = await renderPage();
  await user.type(await screen.findByLabelText(/Mobile or e-mail/), '9000000003{Enter}');

  expect(await screen.findByLabelText(/OTP/)).toBeInTheDocument();
  expect(calls[0]!.body).toEqual({ username: '+919000000003' });
  expect(screen.getAllByText('If the account exists, a reset code has been sent to its registered email or mobile').length).toBeGreaterThan(0);

  const submit = screen.getByRole('button', { name: 'Reset password' });
  expect(submit).toBeDisabled();
  await user.click(screen.getByLabelText(/^New password/));
  await user.tab(); // the show/hide toggle
  await user.tab();
  expect(await screen.findByText('Password and OTP are required')).toBeInTheDocument();
  await user.type(screen.getByLabelText(/^New password/), '    ');
  await user.tab();
  expect(await screen.findByText('Password cannot be only spaces')).toBeInTheDocument();
  await user.clear(screen.getByLabelText(/^New password/));
  await user.type(screen.getByLabelText(/^New password/), 'fresh123');
  await user.type(screen.getByLabelText(/^Confirm password/), 'fresh124');
  await user.type(screen.getByLabelText(/OTP/), '123456');
  expect(await screen.findByText('New password and confirm password are not same')).toBeInTheDocument();
  expect(submit).toBeDisabled();
  await user.clear(screen.getByLabelText(/^Confirm password/));
  await user.type(screen.getByLabelText(/^Confirm password/), 'fresh123');
  expect(submit).toBeEnabled();
  await user.click(submit);

  await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  const reset = calls.find((c) => c.path === '/UserLogin/updatePasswordWithResetCode')!;
  expect(reset.body).toEqual({ username: '+919000000003' });
  expect(basicOf(reset)).toBe('123456:fresh123');
  expect(await screen.findByText('Password reset successfull')).toBeInTheDocument();
});

test('a refused code: Failed to reset password plus the server message', async () => {
  const user = userEvent.setup();
  mockApi(({ path }) =>
    path === '/UserLogin/resetPassword'
      ? json({ success: true, msg: 'If the account exists, a reset code has been sent to its registered email or mobile' })
      : json({ success: false, msg: 'Invalid or expired code', code: 'BAD_REQUEST' }, 400),
  );
  const { router } = await renderPage();
  await user.type(await screen.findByLabelText(/Mobile or e-mail/), 'learner@example.com');
  await user.click(screen.getByRole('button', { name: 'Request password code' }));
  await user.type(await screen.findByLabelText(/^New password/), 'fresh123');
  await user.type(screen.getByLabelText(/^Confirm password/), 'fresh123');
  await user.type(screen.getByLabelText(/OTP/), '000000{Enter}');

  expect(await screen.findByText('Failed to reset password')).toBeInTheDocument();
  expect(screen.getByText('Invalid or expired code')).toBeInTheDocument();
  expect(router.state.location.pathname).toBe('/forgot-password');
});

test('a refused request stays on step 1 with the server message', async () => {
  const user = userEvent.setup();
  mockApi(() => json({ success: false, msg: 'Too many requests. Please try again later.', code: 'RATE_LIMITED' }, 429));
  await renderPage();
  await user.type(await screen.findByLabelText(/Mobile or e-mail/), '9000000003{Enter}');
  expect(await screen.findAllByText('Too many requests. Please try again later.')).not.toHaveLength(0);
  expect(screen.queryByLabelText(/OTP/)).not.toBeInTheDocument();
});
