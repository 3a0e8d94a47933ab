import { vi } from 'vitest';
import type { LoginResponse } from '@pm/protocol/auth';
import type { Session } from '../lib/session';

export const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

export type Call = { method: string; path: string; query: URLSearchParams; headers: Record<string, string>; body: unknown };

/**
 * Replaces the network (fetch is outside our code) with a handler that sees each request as
 * method, /api path, query, headers and parsed body; records the calls.
 */
export function mockApi(handler: (call: Call) => Response | Promise<Response>) {
  const calls: Call[] = [];
  const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const call: Call = {
      method: init?.method ?? 'GET',
      path: url.pathname.replace(/^\/api/, ''),
      query: url.searchParams,
      headers: (init?.headers ?? {}) as Record<string, string>,
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    calls.push(call);
    return handler(call);
  });
  return { calls, spy };
}

export const basicOf = (call: Call) => atob((call.headers.authorization ?? '').replace(/^Basic /, ''));

export function loginResponse(overrides: Partial<LoginResponse> = {}): LoginResponse {
  return {
    success: true,
    msg: 'Login successful',
    token: 'token-1',
    id: 'demo-learner',
    name: 'Lata Learner',
    mobile: '+919000000003',
    email: 'learner@example.com',
    r: { name: 'MEMBER' },
    permissions: [{ permission: 'MEMBER' }],
    tac: 0,
    iprr: 0,
    terms: { version: '1', accepted: true },
    dq: 0,
    aw: 0,
    curr_orbit: 0,
    taw: 0,
    ...overrides,
  };
}

export const learnerSession: Session = {
  token: 'token-1',
  pushToken: null,
  name: 'Lata Learner',
  mobile: '+919000000003',
  email: 'learner@example.com',
  role: 'MEMBER',
  permissions: 'MEMBER',
  loggedIn: true,
  id: 'demo-learner',
  iprr: 0,
  dq: 0,
  aw: 0,
  curr_orbit: 0,
  tac: 0,
  taw: 0,
};
