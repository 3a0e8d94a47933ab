import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { RoleView } from './get-roles';

type Saved = { success: boolean; msg: string; data: RoleView };

/**
 * With a selected role, saving updates it (PUT /api/role, permissions
 * included); without one, saving adds one (POST /api/role). Failures are listed on the screen.
 */
export function saveRole(input: { id?: string | undefined; name: string; description: string; permissions: string[] }): Promise<Saved> {
  const body = { name: input.name, description: input.description, permissions: input.permissions };
  return input.id
    ? api('/role', { method: 'PUT', body: { id: input.id, ...body }, silent: true })
    : api('/role', { method: 'POST', body, silent: true });
}

export function useSaveRole() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: saveRole, onSuccess: () => qc.invalidateQueries({ queryKey: ['admin'] }) });
}
