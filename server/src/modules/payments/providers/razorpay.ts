import { z } from 'zod';
import { MSG } from '@pm/protocol/messages';
import { AppError } from '#server/lib/errors';
import type {
  CreatedPayment,
  CreatePaymentInput,
  PaymentProvider,
  ProviderOrderState,
  ProviderPayment,
  ProviderStatus,
  WebhookEvent,
} from '../provider';
import { callProvider, type FetchLike, hmacSha256Hex, orderRefused, providerUnavailable, safeEqual, sha256Hex } from './common';

/*
 * Razorpay Orders + Standard Checkout (ARCHITECTURE decision 9; docs/payments.md). Confirmed against
 * Razorpay's Node SDK (github.com/razorpay/razorpay-node: lib/api.js, lib/resources/orders.js,
 * lib/utils/razorpay-utils.js and its tests) and the docs (razorpay.com/docs: Orders API,
 * Payments webhook events, Webhooks best practices):
 *
 * - Every API call uses HTTP basic auth key_id:key_secret on https://api.razorpay.com/v1.
 * - POST /v1/orders {amount (paise), currency (the SDK defaults 'INR'), receipt, notes} → {id:
 *   'order_…', entity: 'order', amount, amount_paid, amount_due, currency, receipt, status
 *   created|attempted|paid, notes, created_at}. GET /v1/orders/{id}; GET /v1/orders?receipt=…
 *   (orders.all); GET /v1/orders/{id}/payments (orders.fetchPayments) → {entity: 'collection',
 *   count, items: [payment]} with payment {id: 'pay_…', amount, status
 *   created|authorized|captured|refunded|failed, order_id, method, created_at (s), …}.
 * - Checkout's handler gets razorpay_order_id, razorpay_payment_id, razorpay_signature; the
 *   signature is hex HMAC-SHA256(order_id + '|' + payment_id) keyed with key_secret
 *   (validatePaymentVerification). The SDK's test vector is checked in razorpay.test.ts.
 * - Webhooks: X-Razorpay-Signature is hex HMAC-SHA256 of the RAW body keyed with the webhook
 *   secret (validateWebhookSignature; re-serialised JSON would not match). X-Razorpay-Event-Id
 *   is outside the signature, so events are keyed by the signed body (razorpayEventKey). Events
 *   used: payment.captured, payment.failed, order.paid. A non-2xx answer is retried with
 *   exponential backoff for 24 hours, so events come more than once and out of order; the
 *   status API is the truth.
 *
 * Status mapping (ours; Razorpay has no single order state that says "failed"):
 * - a payment: captured or refunded → COMPLETED (the money was taken; a refund is recorded on
 *   our side), failed → FAILED, or CANCELLED when its error_reason is `payment_cancelled` (the
 *   customer cancelled or closed the payment), created or authorized → PENDING (Checkout captures
 *   automatically; an authorised payment not captured in time is refunded by Razorpay and ends
 *   failed/refunded).
 * - the order: COMPLETED when any payment is captured (or Razorpay says paid); when it has
 *   payments and every one of them failed or was cancelled, CANCELLED if the latest was
 *   cancelled, else FAILED; otherwise PENDING (no attempt yet, or one still
 *   in flight). A buyer may try again in the same Checkout after a failure: the next status check
 *   then says PENDING or COMPLETED again, which our state machine accepts from FAILED.
 */

export const RAZORPAY_BASE_URL = 'https://api.razorpay.com';

export type RazorpayOptions = {
  baseUrl?: string;
  keyId: string;
  keySecret: string;
  webhookSecret: string;
  /** Shown at the top of Checkout. */
  merchantName?: string;
  fetch?: FetchLike;
};

const orderEntity = z.looseObject({
  id: z.string().min(1),
  amount: z.number().int(),
  status: z.string(),
  receipt: z.string().nullish(),
});

const paymentEntity = z.looseObject({
  id: z.string().min(1),
  amount: z.number().int(),
  status: z.string(),
  method: z.string().nullish(),
  created_at: z.number().optional(),
  error_reason: z.string().nullish(),
});

const collection = <T extends z.ZodType>(item: T) => z.looseObject({ items: z.array(item) });

const webhookBody = z.looseObject({
  event: z.string().min(1),
  payload: z.looseObject({
    payment: z.looseObject({ entity: z.looseObject({ id: z.string().optional(), order_id: z.string().nullish(), notes: z.unknown().optional() }) }).optional(),
    order: z.looseObject({ entity: z.looseObject({ id: z.string().optional(), receipt: z.string().nullish(), notes: z.unknown().optional() }) }).optional(),
  }),
});

/** Razorpay's error_reason of a failed payment the customer cancelled (docs/payments.md, "Cancelled payments"). */
export const RAZORPAY_CANCEL_REASON = 'payment_cancelled';

export function razorpayPaymentState(status: string, errorReason?: string | null): ProviderOrderState {
  if (status === 'captured' || status === 'refunded') return 'COMPLETED';
  if (status === 'failed') return errorReason === RAZORPAY_CANCEL_REASON ? 'CANCELLED' : 'FAILED';
  return 'PENDING';
}

/** The order's state from Razorpay's order status and its payments (see the mapping above). */
export function razorpayOrderState(orderStatus: string, payments: { state: ProviderOrderState; at?: number }[]): ProviderOrderState {
  if (orderStatus === 'paid' || payments.some((p) => p.state === 'COMPLETED')) return 'COMPLETED';
  if (payments.length > 0 && payments.every((p) => p.state === 'FAILED' || p.state === 'CANCELLED')) {
    const latest = payments.reduce((a, b) => ((b.at ?? 0) >= (a.at ?? 0) ? b : a));
    return latest.state;
  }
  return 'PENDING';
}

/** Checkout's handler signature: hex HMAC-SHA256(order_id|payment_id, key_secret). */
export const razorpayCheckoutSignature = (keySecret: string, orderId: string, paymentId: string) => hmacSha256Hex(keySecret, `${orderId}|${paymentId}`);

/** A webhook's X-Razorpay-Signature: hex HMAC-SHA256(raw body, webhook secret). */
export const razorpayWebhookSignature = (webhookSecret: string, rawBody: string) => hmacSha256Hex(webhookSecret, rawBody);

/**
 * The key a webhook event is stored under, from the signed body only (docs/payments.md): the
 * event's name and the ids of the entities it carries (payment, order, refund…), which are the
 * same on every delivery of one event. X-Razorpay-Event-Id is not covered by the signature: a
 * captured delivery sent again under new header values would otherwise be stored, and its order
 * asked about, once per value. A body that carries no entity id is keyed by its own hash.
 */
export function razorpayEventKey(event: string, payload: Record<string, unknown>, rawBody: string): string {
  const ids = Object.keys(payload)
    .sort()
    .flatMap((name) => {
      const entity: unknown = (payload[name] as { entity?: unknown } | null | undefined)?.entity;
      const id = entity && typeof entity === 'object' ? (entity as { id?: unknown }).id : undefined;
      return typeof id === 'string' && id ? [`${name}=${id}`] : [];
    });
  return ids.length > 0 ? `${event}:${ids.join(',')}` : sha256Hex(rawBody);
}

const noteOf = (notes: unknown): string | null => {
  if (notes && typeof notes === 'object' && !Array.isArray(notes)) {
    const v = (notes as Record<string, unknown>).merchantOrderId;
    if (typeof v === 'string' && v) return v;
  }
  return null;
};

export function createRazorpayProvider(opts: RazorpayOptions): PaymentProvider {
  const fetchImpl: FetchLike = opts.fetch ?? ((input, init) => fetch(input, init));
  const base = `${(opts.baseUrl ?? RAZORPAY_BASE_URL).replace(/\/+$/, '')}/v1`;
  const auth = `Basic ${Buffer.from(`${opts.keyId}:${opts.keySecret}`).toString('base64')}`;
  const name = opts.merchantName ?? 'Pariksha Mitra';

  const call = (method: 'GET' | 'POST', path: string, body?: unknown) =>
    callProvider(fetchImpl, base + path, {
      method,
      headers: { Authorization: auth, Accept: 'application/json', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  /**
   * A GET that must succeed. Razorpay answers an unknown id with 400 BAD_REQUEST_ERROR "The id
   * provided does not exist" (and a wrong path with 404): both are "no such order"; any other
   * answer but 200 is the provider's fault.
   */
  async function get<T extends z.ZodType>(path: string, schema: T): Promise<z.output<T>> {
    const r = await call('GET', path);
    if (r.status === 404 || r.status === 400) throw new AppError('NOT_FOUND', MSG.notFound);
    if (r.status !== 200) throw providerUnavailable(new Error(`Razorpay GET ${path}: ${r.status} ${JSON.stringify(r.json)}`));
    const parsed = schema.safeParse(r.json);
    if (!parsed.success) throw providerUnavailable(parsed.error);
    return parsed.data;
  }

  return {
    name: 'razorpay',

    async createPayment(input: CreatePaymentInput): Promise<CreatedPayment> {
      // receipt: Razorpay allows up to 40 characters (a UUID is 36); notes carry it as well.
      const r = await call('POST', '/orders', {
        amount: input.amount,
        currency: 'INR',
        receipt: input.merchantOrderId,
        notes: { merchantOrderId: input.merchantOrderId },
      });
      if (r.status !== 200) throw orderRefused(new Error(`Razorpay create order: ${r.status} ${JSON.stringify(r.json)}`));
      const o = orderEntity.safeParse(r.json);
      if (!o.success) throw providerUnavailable(o.error);
      return { pgOrderId: o.data.id, checkout: { key: opts.keyId, order_id: o.data.id, amount: o.data.amount, currency: 'INR', name } };
    },

    async status(merchantOrderId: string, pgOrderId: string | null): Promise<ProviderStatus> {
      let order: z.output<typeof orderEntity>;
      if (pgOrderId) {
        order = await get(`/orders/${encodeURIComponent(pgOrderId)}`, orderEntity);
      } else {
        // No order id kept (creating it failed half-way): find it by its receipt.
        const found = await get(`/orders?receipt=${encodeURIComponent(merchantOrderId)}`, collection(orderEntity));
        const first = found.items[0];
        if (!first) throw new AppError('NOT_FOUND', MSG.notFound);
        order = first;
      }
      const list = await get(`/orders/${encodeURIComponent(order.id)}/payments`, collection(paymentEntity));
      const payments: ProviderPayment[] = list.items.map((p) => ({
        transactionId: p.id,
        state: razorpayPaymentState(p.status, p.error_reason),
        amount: p.amount,
        channel: (p.method ?? 'unknown').toUpperCase(),
        at: (p.created_at ?? 0) * 1000,
        raw: p,
      }));
      return { state: razorpayOrderState(order.status, payments), amount: order.amount, pgOrderId: order.id, payments };
    },

    verifyCheckoutSignature(pgOrderId: string, paymentId: string, signature: string): boolean {
      return safeEqual(signature, razorpayCheckoutSignature(opts.keySecret, pgOrderId, paymentId));
    },

    parseWebhook(headers: Headers, rawBody: string): WebhookEvent | null {
      if (!safeEqual(headers.get('x-razorpay-signature'), razorpayWebhookSignature(opts.webhookSecret, rawBody))) return null;
      let json: unknown;
      try {
        json = JSON.parse(rawBody);
      } catch {
        return null;
      }
      const b = webhookBody.safeParse(json);
      if (!b.success) return null;
      const payment = b.data.payload.payment?.entity;
      const order = b.data.payload.order?.entity;
      return {
        eventId: `razorpay:${razorpayEventKey(b.data.event, b.data.payload, rawBody)}`,
        type: b.data.event,
        merchantOrderId: order?.receipt ?? noteOf(order?.notes) ?? noteOf(payment?.notes),
        pgOrderId: payment?.order_id ?? order?.id ?? null,
        payload: json,
      };
    },
  };
}
