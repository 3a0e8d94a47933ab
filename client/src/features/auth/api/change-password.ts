import type { LoginResponse } from '@pm/protocol/auth';
import { api } from '@/lib/api-client';

/**
 * PATCH /api/UserLogin/updatePasswordWithOldPassword. The server voids every older token and
 * answers a fresh login response, whose token replaces the stored one.
 */
export function changePassword(input: { oldPassword: string; newPassword: string; confirmPassword: string }): Promise<LoginResponse> {
  return api<LoginResponse>('/UserLogin/updatePasswordWithOldPassword', {
    method: 'PATCH',
    body: input,
    silent: true,
    // An auth call: a 403 (account blocked meanwhile) sends the user to /login.
    authCall: true,
  });
}
