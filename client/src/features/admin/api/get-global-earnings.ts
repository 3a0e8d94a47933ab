import { queryOptions, useQuery } from '@tanstack/react-query';
import type { GlobalEarningsReport } from '@pm/protocol/report';
import { api } from '@/lib/api-client';

/** GET /api/report/globalEarnings?startDate&endDate&groupBy. */
export function getGlobalEarnings(startDate: number, endDate: number, groupBy: 'day' | 'month'): Promise<{ success: boolean; data: GlobalEarningsReport }> {
  return api('/report/globalEarnings', { query: { startDate, endDate, groupBy } });
}
export const globalEarningsQueryOptions = (startDate: number, endDate: number, groupBy: 'day' | 'month') =>
  queryOptions({ queryKey: ['admin', 'globalEarnings', startDate, endDate, groupBy], queryFn: () => getGlobalEarnings(startDate, endDate, groupBy), select: (r) => r.data });
export function useGlobalEarnings(range: { startDate: number; endDate: number } | null, groupBy: 'day' | 'month') {
  return useQuery({ ...globalEarningsQueryOptions(range?.startDate ?? 0, range?.endDate ?? 0, groupBy), enabled: range !== null });
}
