import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { OrderRow, OrderStatus } from '@pm/protocol/order';
import { api } from '@/lib/api-client';

/** PATCH /api/order/status {id, status} (UPDATE_ORDER). */
export function updateOrderStatus(input: { id: string; status: OrderStatus }): Promise<{ success: boolean; msg: string; data: OrderRow }> {
  return api('/order/status', { method: 'PATCH', body: input });
}
export function useUpdateOrderStatus() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: updateOrderStatus, onSuccess: () => qc.invalidateQueries({ queryKey: ['admin'] }) });
}
