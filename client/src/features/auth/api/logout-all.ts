import { api } from '@/lib/api-client';

/**
 * POST /api/UserLogin/logoutAll: ends every session of the signed-in person, this device's too
 * (docs/security.md "Sessions and logout"). The caller then logs this device out locally.
 */
export function logoutAll(): Promise<{ success: boolean; msg: string }> {
  return api('/UserLogin/logoutAll', { method: 'POST' });
}
