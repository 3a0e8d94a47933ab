import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ActivityLogEntry } from '@pm/protocol/activity-log';
import { api } from '@/lib/api-client';

/** docs/glossary.md "Fixed values": the activity log's page size. */
export const LOG_PAGE_SIZE = 50;
export type LogSort = 'createdAt' | 'actionType' | 'person' | 'entityAffected';

/** GET /api/getActivityLog?pageSize&offset (docs/api.md) with our sort and order. */
export function getActivityLog(offset: number, sort: LogSort, order: 'asc' | 'desc'): Promise<{ success: boolean; data: ActivityLogEntry[] }> {
  return api('/getActivityLog', { query: { pageSize: LOG_PAGE_SIZE, offset, sort, order } });
}
export const activityLogQueryOptions = (offset: number, sort: LogSort, order: 'asc' | 'desc') =>
  queryOptions({ queryKey: ['admin', 'activityLog', offset, sort, order], queryFn: () => getActivityLog(offset, sort, order), placeholderData: keepPreviousData });
export function useActivityLog(offset: number, sort: LogSort, order: 'asc' | 'desc') {
  return useQuery(activityLogQueryOptions(offset, sort, order));
}
