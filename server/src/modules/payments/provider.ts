import type { Provider } from '@pm/protocol/payment';

/*
 * The payment provider port (ARCHITECTURE decision 9; docs/payments.md). The payments service only
 * talks to this interface; providers/phonepe.ts (Standard Checkout v2, also pointed at our own
 * sandbox), providers/razorpay.ts, and providers/sandbox-phonepe.ts (the local PhonePe that runs
 * inside the server) implement or serve it. Amounts are integer paise.
 */

/**
 * An order's state at the provider, as its status API says (the source of truth). CANCELLED is
 * a FAILED the provider itself attributes to the payer (they cancelled, or closed its page
 * mid-payment): each adapter reads it from the provider's own error code (docs/payments.md,
 * "Cancelled payments").
 */
export type ProviderOrderState = 'PENDING' | 'COMPLETED' | 'FAILED' | 'CANCELLED';

/** One payment attempt on the provider's order. */
export type ProviderPayment = {
  /** The provider's transaction / payment id (unique). */
  transactionId: string;
  state: ProviderOrderState;
  /** Paise. */
  amount: number;
  /** UPI, CARD, NETBANKING… (the Payment entity's `channel`). */
  channel: string;
  /** ms */
  at: number;
  raw?: unknown;
};

export type ProviderStatus = {
  state: ProviderOrderState;
  /** Paise. */
  amount: number;
  /** The provider's own order id, when it has one. */
  pgOrderId: string | null;
  /** Every payment attempt; more than one COMPLETED is a double capture. */
  payments: ProviderPayment[];
};

/** A verified webhook delivery. */
export type WebhookEvent = {
  /** Unique per event (a repeated delivery has the same id). */
  eventId: string;
  type: string;
  /** Our order id (merchantOrderId / Razorpay receipt or notes), when the event names it. */
  merchantOrderId: string | null;
  /** The provider's order id, when the event names it. */
  pgOrderId: string | null;
  payload: unknown;
};

export type CreatePaymentInput = {
  /** Our order id (merchantTransactionId / merchantOrderId / Razorpay receipt). */
  merchantOrderId: string;
  /** Paise. */
  amount: number;
  /** Where the provider sends the browser back (the payment-confirmation page). */
  redirectUrl: string;
  /** Seconds until the provider expires the order. */
  expireAfterS: number;
  mobileNumber?: string;
};

export type CreatedPayment = {
  pgOrderId: string;
  /** PhonePe: the hosted checkout page the browser is sent to. */
  redirectUrl?: string;
  /** Razorpay: what Checkout.js needs. */
  checkout?: { key: string; order_id: string; amount: number; currency: 'INR'; name: string };
};

export interface PaymentProvider {
  readonly name: Provider;
  createPayment(input: CreatePaymentInput): Promise<CreatedPayment>;
  /** The provider's status API for one of our orders. */
  status(merchantOrderId: string, pgOrderId: string | null): Promise<ProviderStatus>;
  /** Verifies a webhook (headers and the raw body) in constant time; null when not authentic. */
  parseWebhook(headers: Headers, rawBody: string): WebhookEvent | null;
  /** Razorpay Checkout's handler signature: HMAC-SHA256(order_id|payment_id, key_secret). */
  verifyCheckoutSignature?(pgOrderId: string, paymentId: string, signature: string): boolean;
}
