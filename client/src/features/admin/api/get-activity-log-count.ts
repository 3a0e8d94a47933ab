import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET /api/getActivityLog/count (docs/api.md). */
export function getActivityLogCount(): Promise<{ success: boolean; count: number }> {
  return api('/getActivityLog/count');
}
export const activityLogCountQueryOptions = () => queryOptions({ queryKey: ['admin', 'activityLogCount'], queryFn: getActivityLogCount, select: (r) => r.count });
export function useActivityLogCount() {
  return useQuery(activityLogCountQueryOptions());
}
