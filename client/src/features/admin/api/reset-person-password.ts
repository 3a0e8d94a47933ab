import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import type { adminResetSchema } from '@pm/protocol/auth';
import { api } from '@/lib/api-client';

export type AdminResetBody = z.input<typeof adminResetSchema>;

/**
 * PUT /api/UserLogin/resetUserPasswordByAdmin {personId, password} (docs/api.md); success msg
 * 'Password reset successfull', a failure is notified with the server's message by api().
 */
export function resetPersonPassword(body: AdminResetBody): Promise<{ success: boolean; msg: string }> {
  return api('/UserLogin/resetUserPasswordByAdmin', { method: 'PUT', body });
}

export function useResetPersonPassword() {
  return useMutation({ mutationFn: resetPersonPassword });
}
