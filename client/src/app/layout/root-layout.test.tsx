import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, test, vi } from 'vitest';
import { requestLogout } from '../../lib/logout-request';
import { clearSession, getSession, setSession } from '../../lib/session';
import { learnerSession, mockApi } from '../../testing/fetch-mock';
import { renderWithApp } from '../../testing/render';
import { RootLayout } from './root-layout';

afterEach(() => {
  vi.restoreAllMocks();
  clearSession();
});

/*
 * The shell is rendered at /login: a logout elsewhere first navigates there and finishes once the
 * login page is on screen, which needs the whole route tree; at /login it finishes at once.
 */

test('Logout asks the server to end this session (issue 16 §4) and the device forgets it', async () => {
  setSession(learnerSession, false);
  const { calls } = mockApi(() => new Response(JSON.stringify({ success: true, msg: 'Logged out' }), { status: 200 }));
  await renderWithApp(<RootLayout />, { route: '/login' });
  await userEvent.setup().click(screen.getAllByRole('button', { name: 'Logout' })[0]!);
  await waitFor(() => expect(getSession()).toBeNull());
  const call = calls.find((c) => c.path === '/UserLogin/logout');
  expect(call).toMatchObject({ method: 'POST', headers: { authorization: 'Bearer token-1' } });
});

test('offline, Logout still forgets the session on this device at once', async () => {
  setSession(learnerSession, false);
  mockApi(() => Promise.reject(new TypeError('Failed to fetch')));
  await renderWithApp(<RootLayout />, { route: '/login' });
  await userEvent.setup().click(screen.getAllByRole('button', { name: 'Logout' })[0]!);
  await waitFor(() => expect(getSession()).toBeNull());
});

test('a page logs out through the shell without asking the server again when the server already ended the session', async () => {
  setSession(learnerSession, false);
  const { calls } = mockApi(() => new Response('{}', { status: 200 }));
  await renderWithApp(<RootLayout />, { route: '/login' });
  expect(requestLogout({ endedOnServer: true })).toBe(true);
  await waitFor(() => expect(getSession()).toBeNull());
  expect(calls.filter((c) => c.path === '/UserLogin/logout')).toEqual([]);
});
