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
  <RequireAuth access={{ all: ['QUESTION_EDITOR'] }}>
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

test('a signed-in person without the permission is told so in place, with a way back, not sent to the login form', async () => {
  setSession(learnerSession, false);
  const { router } = await renderWithApp(guarded, { route: '/question-list', extraRoutes });
  expect(await screen.findByRole('heading', { name: 'You do not have access to this page' })).toBeInTheDocument();
  expect(screen.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/');
  expect(screen.queryByTestId('login')).not.toBeInTheDocument();
  expect(screen.queryByTestId('guarded')).not.toBeInTheDocument();
  expect(router.state.location.pathname).toBe('/question-list');
});

test('the same in Hindi', async () => {
  setSession(learnerSession, false);
  await renderWithApp(guarded, { route: '/question-list', extraRoutes, lang: 'hi' });
  expect(await screen.findByRole('heading', { name: 'आपको इस पृष्ठ तक पहुँच नहीं है' })).toBeInTheDocument();
});

test('"any of" lets in a person holding one of the list', async () => {
  setSession({ ...learnerSession, permissions: 'UPDATE_BRAND' }, false);
  await renderWithApp(
    <RequireAuth access={{ any: ['SHOP_EDITOR', 'UPDATE_BRAND'] }}>
      <div data-testid="guarded" />
    </RequireAuth>,
    { route: '/dashboard', extraRoutes },
  );
  expect(await screen.findByTestId('guarded')).toBeInTheDocument();
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
