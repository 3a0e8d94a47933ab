import type { Provider } from '@pm/protocol/payment';
import { api } from '@/lib/api-client';

/** The body of POST /api/{provider}/initiatePayment (docs/api.md; sync-protocol initiatePaymentSchema). */
export type InitiatePaymentBody = {
  merchantTransactionId: string;
  /** Rupees. */
  amount: number;
  merchantUserId: string;
  redirectUrl: string;
  redirectMode: 'REDIRECT';
  callbackUrl: string;
  mobileNumber?: string;
};

export type InitiatePaymentAnswer = {
  success: boolean;
  msg?: string;
  data?: { instrumentResponse?: { redirectInfo?: { url?: string } } };
};

/** POST /api/{provider}/initiatePayment: the provider's hosted page the browser goes to next. */
export function initiatePayment(provider: Provider, body: InitiatePaymentBody): Promise<InitiatePaymentAnswer> {
  return api(`/${provider}/initiatePayment`, { method: 'POST', body });
}
