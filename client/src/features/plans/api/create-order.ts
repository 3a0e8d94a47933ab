import type { CreateOrderAnswer } from '@pm/protocol/payment';
import { api } from '@/lib/api-client';

/**
 * POST /api/payment {prodid, product} (docs/api.md): an order for a plan at the server's own price.
 * Silent: the buyer is told 'Failed to create order' by the caller.
 */
export function createOrder(plan: { id: string; code: string }): Promise<CreateOrderAnswer> {
  return api('/payment', { method: 'POST', body: { prodid: plan.id, product: plan.code }, silent: true });
}
