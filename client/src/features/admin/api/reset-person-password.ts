import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** PUT /api/UserLogin/resetUserPasswordByAdmin {personId, password} (spec §7). */
export function resetPersonPassword(input: { personId: string; password: string }): Promise<{ success: boolean; msg: string }> {
  return api('/UserLogin/resetUserPasswordByAdmin', { method: 'PUT', body: input });
}

export function useResetPersonPassword() {
  return useMutation({ mutationFn: resetPersonPassword });
}
