import { act, screen } from '@testing-library/react';
import { afterEach, expect, test } from 'vitest';
import { clearSession, setSession, takeRedirect } from '../lib/session';
import { learnerSession } from '../testing/fetch-mock';
import { renderWithApp } from '../testing/render';
import { RequireAuth } from './require-auth';

afterEach(() => {
  clearSession();
  takeRedirect();
});

const guarded = (
  <RequireAuth permissions={['QUESTION_EDITOR']}>
    <div data-testid="guarded" />
  </RequireAuth>
);
const extraRoutes = [{ path: '/login', element: <div data-testid="login" /> }];

test('a signed-out visitor goes to /login with the permission message, and the address is remembered', async () => {
  const { router } = await renderWithApp(guarded, { route: '/question-list', extraRoutes });
  expect(await screen.findByTestId('login')).toBeInTheDocument();
  expect(router.state.location.search).toBe(
    `?error=${encodeURIComponent('Insufficient permission. Please login as authorized user.')}`,
  );
  expect(takeRedirect()).toBe('/question-list');
});

test('a signed-in person without the permission is sent away with the message', async () => {
  setSession(learnerSession, false);
  const { router } = await renderWithApp(guarded, { route: '/question-list', extraRoutes });
  expect(await screen.findByTestId('login')).toBeInTheDocument();
  expect(router.state.location.search).toContain('error=');
});

test('logging out on the page goes to plain /login and does not remember the page for the next login', async () => {
  setSession({ ...learnerSession, permissions: 'QUESTION_EDITOR' }, false);
  const { router } = await renderWithApp(guarded, { route: '/question-list', extraRoutes });
  expect(await screen.findByTestId('guarded')).toBeInTheDocument();
  act(() => clearSession());
  expect(await screen.findByTestId('login')).toBeInTheDocument();
  expect(router.state.location.search).toBe('');
  expect(takeRedirect()).toBe('/exam-list');
});
