import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Receipt } from '@pm/protocol/payment';
import { api } from '@/lib/api-client';

/** GET /api/payment/receipt/{orderId} (login): a paid order's receipt. Silent: the page shows the failure. */
export function getReceipt(orderId: string): Promise<{ success: boolean; data: Receipt }> {
  return api(`/payment/receipt/${encodeURIComponent(orderId)}`, { silent: true });
}

export const receiptQueryOptions = (orderId: string) =>
  queryOptions({ queryKey: ['payment', 'receipt', orderId], queryFn: () => getReceipt(orderId), select: (r) => r.data });

export function useReceipt(orderId: string) {
  return useQuery(receiptQueryOptions(orderId));
}
