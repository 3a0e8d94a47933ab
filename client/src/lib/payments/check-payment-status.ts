import type { PaymentStatusData, Provider } from '@pm/protocol/payment';
import { api } from '@/lib/api-client';

/**
 * POST /api/{provider}/checkPaymentStatus answer: `success` decides the outcome (docs/api.md); the
 * order's status tells a payment still being confirmed (PENDING) from a failed or cancelled one,
 * and the answer names the plan bought.
 */
export type PaymentStatusAnswer = {
  success: boolean;
  msg?: string;
  data?: Partial<PaymentStatusData>;
};

/** Background and silent: the confirmation page polls it and shows the outcome itself. */
export function checkPaymentStatus(provider: Provider, merchantTransactionId: string): Promise<PaymentStatusAnswer> {
  return api(`/${provider}/checkPaymentStatus`, { method: 'POST', body: { merchantTransactionId }, background: true, silent: true });
}
