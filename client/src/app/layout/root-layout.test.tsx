import { screen, waitFor, within } from '@testing-library/react';
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

test('at start, a signed-in person whose terms are not accepted in their current version is asked before going on', async () => {
  setSession({ ...learnerSession, terms: { version: '1', accepted: true } }, false);
  let accepted = false;
  const { calls } = mockApi((call) => {
    if (call.path === '/UserLogin/terms') return new Response(JSON.stringify({ success: true, version: '2', accepted, acceptedAt: null }), { status: 200 });
    if (call.path === '/UserLogin/acceptTerms') {
      accepted = true;
      return new Response(JSON.stringify({ success: true, msg: 'Thank you for accepting the terms', version: '2', accepted: true }), { status: 200 });
    }
    return new Response('{}', { status: 200 });
  });
  await renderWithApp(<RootLayout />, { route: '/login', namespaces: ['auth'] });
  const gate = await screen.findByRole('dialog', { name: 'Terms of use' });
  const go = within(gate).getByRole('button', { name: 'Accept and continue' });
  expect(go).toBeDisabled();
  const user = userEvent.setup();
  await user.click(within(gate).getByRole('checkbox', { name: /I am 18 years or older/ }));
  await user.click(go);
  await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Terms of use' })).toBeNull());
  expect(calls.find((c) => c.path === '/UserLogin/acceptTerms')).toMatchObject({ method: 'POST', body: { version: '2', terms: true } });
  expect(getSession()?.terms).toEqual({ version: '2', accepted: true });
});
