import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Permission } from '@pm/protocol/permission';
import { api } from '@/lib/api-client';

export type RoleView = { id: string; name: string; description: string; permissions: Permission[] };

/** GET /api/role — every role with its permissions (docs/api.md). */
export function getRoles(): Promise<{ success: boolean; data: RoleView[] }> {
  return api('/role');
}

export const rolesQueryOptions = () => queryOptions({ queryKey: ['admin', 'roles'], queryFn: getRoles, select: (r) => r.data });

export function useRoles() {
  return useQuery(rolesQueryOptions());
}
