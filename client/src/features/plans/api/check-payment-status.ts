import type { OrderStatus } from '../../../../../sync-protocol/src/order';
import type { Provider } from '../../../../../sync-protocol/src/payment';
import { api } from '../../../lib/api-client';

/**
 * POST /api/{provider}/checkPaymentStatus answer: `success` decides the outcome (spec §7); the
 * order's status tells a payment still being confirmed (PENDING) from a failed one.
 */
export type PaymentStatusAnswer = {
  success: boolean;
  msg?: string;
  data?: { status?: OrderStatus; receiptNo?: number | null };
};

/** Background and silent: the confirmation page polls it and shows the outcome itself. */
export function checkPaymentStatus(provider: Provider, merchantTransactionId: string): Promise<PaymentStatusAnswer> {
  return api(`/${provider}/checkPaymentStatus`, { method: 'POST', body: { merchantTransactionId }, background: true, silent: true });
}
