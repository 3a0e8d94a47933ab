import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Permission } from '@pm/protocol/permission';
import { api } from '@/lib/api-client';

/** GET /api/permission — every permission (docs/api.md). */
export function getPermissions(): Promise<{ success: boolean; data: Permission[] }> {
  return api('/permission');
}

export const permissionsQueryOptions = () => queryOptions({ queryKey: ['admin', 'permissions'], queryFn: getPermissions, select: (r) => r.data });

export function usePermissions() {
  return useQuery(permissionsQueryOptions());
}
