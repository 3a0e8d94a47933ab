import { queryOptions, useQuery } from '@tanstack/react-query';
import type { UsersByDateReport } from '@pm/protocol/report';
import { api } from '@/lib/api-client';

/** GET /api/report/getUsersByDate?startDate&endDate. */
export function getUsersByDate(startDate: number, endDate: number): Promise<{ success: boolean; data: UsersByDateReport }> {
  return api('/report/getUsersByDate', { query: { startDate, endDate } });
}
export const usersByDateQueryOptions = (startDate: number, endDate: number) =>
  queryOptions({ queryKey: ['admin', 'usersByDate', startDate, endDate], queryFn: () => getUsersByDate(startDate, endDate), select: (r) => r.data });
export function useUsersByDate(range: { startDate: number; endDate: number } | null) {
  return useQuery({ ...usersByDateQueryOptions(range?.startDate ?? 0, range?.endDate ?? 0), enabled: range !== null });
}
