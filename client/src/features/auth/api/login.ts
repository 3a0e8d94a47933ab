import type { LoginResponse } from '@pm/protocol/auth';
import { api } from '@/lib/api-client';
import { toUsername } from '../lib/username';

/**
 * POST /api/UserLogin/login with Basic credentials and an empty body (docs/api.md, docs/api.md). Silent:
 * the login form shows the server's message in its own alert list.
 */
export function login(input: { username: string; password: string }): Promise<LoginResponse> {
  return api<LoginResponse>('/UserLogin/login', {
    method: 'POST',
    basic: { user: toUsername(input.username), pass: input.password },
    skipAuth: true,
    silent: true,
  });
}
