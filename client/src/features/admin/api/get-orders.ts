import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { OrderRow, OrderStatus } from '@pm/protocol/order';
import { api } from '@/lib/api-client';

export const ORDER_PAGE_SIZE = 30;
export type OrderFilters = { status?: OrderStatus | undefined; q: string; startDate?: number | undefined; endDate?: number | undefined; offset: number };

/** GET /api/order with filters (docs/admin.md). */
export function getOrders(f: OrderFilters): Promise<{ success: boolean; data: OrderRow[]; total: number }> {
  return api('/order', { query: { status: f.status, q: f.q || undefined, startDate: f.startDate, endDate: f.endDate, limit: ORDER_PAGE_SIZE, offset: f.offset } });
}
export const ordersQueryOptions = (f: OrderFilters) => queryOptions({ queryKey: ['admin', 'orders', f], queryFn: () => getOrders(f), placeholderData: keepPreviousData });
export function useOrders(f: OrderFilters) {
  return useQuery(ordersQueryOptions(f));
}
