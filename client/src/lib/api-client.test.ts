import { afterEach, expect, test, vi } from 'vitest';
import { SESSION_TOKEN_HEADER } from '@pm/protocol/session';
import { json, learnerSession, mockApi } from '../testing/fetch-mock';
import { api } from './api-client';
import { clearSession, getSession, setSession } from './session';

afterEach(() => {
  vi.restoreAllMocks();
  clearSession();
});

const renewed = (token: string) => {
  const res = json({ success: true });
  res.headers.set(SESSION_TOKEN_HEADER, token);
  return res;
};

test('a token the server renewed replaces the stored one (issue 16 §4)', async () => {
  setSession(learnerSession, true);
  mockApi(() => renewed('token-2'));
  await api('/Person', { background: true });
  expect(getSession()?.token).toBe('token-2');
  // Kept where the session is kept (remember-me: localStorage too).
  expect(JSON.parse(localStorage.getItem('session') ?? '{}').token).toBe('token-2');
});

test('a renewal answering a token that is no longer stored (a new login meanwhile) changes nothing', async () => {
  setSession(learnerSession, false);
  mockApi(() => {
    // Another login replaced the session while this request was on the way.
    setSession({ ...learnerSession, token: 'token-other' }, false);
    return renewed('token-2');
  });
  await api('/Person', { background: true });
  expect(getSession()?.token).toBe('token-other');
});

test('a renewal is ignored after a logout', async () => {
  setSession(learnerSession, false);
  mockApi(() => {
    clearSession();
    return renewed('token-2');
  });
  await api('/Person', { background: true });
  expect(getSession()).toBeNull();
});
