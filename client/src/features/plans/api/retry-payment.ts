import type { CreateOrderAnswer } from '@pm/protocol/payment';
import { api } from '@/lib/api-client';

/**
 * POST /api/payment/retryPayment {id} (docs/api.md): a failed or expired order is paid again (the
 * server answers a new order for the same plan, or the same order while it can still be paid).
 */
export function retryPayment(orderId: string): Promise<CreateOrderAnswer> {
  return api('/payment/retryPayment', { method: 'POST', body: { id: orderId } });
}
