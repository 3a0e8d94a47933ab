import { queryOptions, useQuery } from '@tanstack/react-query';
import type { OrdersByDateReport } from '@pm/protocol/report';
import { api } from '@/lib/api-client';

/** GET /api/report/getOrdersByDate?startDate&endDate (epoch ms, docs/api.md). */
export function getOrdersByDate(startDate: number, endDate: number): Promise<{ success: boolean; data: OrdersByDateReport }> {
  return api('/report/getOrdersByDate', { query: { startDate, endDate } });
}
export const ordersByDateQueryOptions = (startDate: number, endDate: number) =>
  queryOptions({ queryKey: ['admin', 'ordersByDate', startDate, endDate], queryFn: () => getOrdersByDate(startDate, endDate), select: (r) => r.data });
export function useOrdersByDate(range: { startDate: number; endDate: number } | null) {
  return useQuery({ ...ordersByDateQueryOptions(range?.startDate ?? 0, range?.endDate ?? 0), enabled: range !== null });
}
