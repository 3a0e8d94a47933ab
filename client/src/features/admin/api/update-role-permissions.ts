import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { RoleView } from './get-roles';

/** PUT /api/role/updatePermissionCollection — only the role's permissions change. */
export function updateRolePermissions(input: { id: string; permissions: string[] }): Promise<{ success: boolean; msg: string; data: RoleView }> {
  return api('/role/updatePermissionCollection', { method: 'PUT', body: input, silent: true });
}

export function useUpdateRolePermissions() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: updateRolePermissions, onSuccess: () => qc.invalidateQueries({ queryKey: ['admin'] }) });
}
