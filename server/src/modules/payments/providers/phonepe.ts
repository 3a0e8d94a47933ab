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
import { callProvider, type FetchLike, orderRefused, providerUnavailable, type ProviderAnswer, safeEqual, sha256Hex } from './common';

/*
 * PhonePe Standard Checkout v2 (ARCHITECTURE decision 9; docs/payments.md). Confirmed against
 * PhonePe's own Node SDK (github.com/PhonePe/phonepe-pg-sdk-node, src/) and the developer docs
 * (developer.phonepe.com, Standard Checkout → API reference):
 *
 * - Hosts (src/common/constants/BaseUrl.ts): UAT has PG and OAuth on
 *   https://api-preprod.phonepe.com/apis/pg-sandbox; production has the PG on
 *   https://api.phonepe.com/apis/pg and OAuth on https://api.phonepe.com/apis/identity-manager.
 * - Token (tokenhandler/TokenService.ts, TokenConstants.ts, OAuthResponse.ts): POST
 *   /v1/oauth/token, form-encoded client_id, client_secret, client_version, grant_type=
 *   client_credentials; the answer has access_token, token_type ('O-Bearer'), issued_at and
 *   expires_at in epoch SECONDS. The Authorization header is `${token_type} ${access_token}`.
 *   The SDK refreshes at half the token's life and, on a 401 from any call, refreshes once and
 *   retries once (common/BaseClient.ts executeWithRetry); so do we.
 * - Pay (payments/v2/standardcheckout/Constants.ts, models/request/StandardCheckoutPayRequest.ts,
 *   PgCheckoutPaymentFlow.ts): POST /checkout/v2/pay {merchantOrderId, amount (paise),
 *   expireAfter (s), metaInfo?, prefillUserLoginDetails?, paymentFlow: {type: 'PG_CHECKOUT',
 *   message?, merchantUrls: {redirectUrl}}} → {orderId, state, expireAt, redirectUrl}.
 * - Status: GET /checkout/v2/order/{merchantOrderId}/status?details=true (details=false gives only
 *   the latest attempt; we want every attempt, to see a double capture) → {orderId, state
 *   PENDING|COMPLETED|FAILED, amount, expireAt (ms), errorCode?, paymentDetails: [{transactionId,
 *   paymentMode, timestamp (ms), amount, state, errorCode?, ...}]}.
 * - Webhook (StandardCheckoutClient.validateCallback, CommonUtils.isCallbackValid; docs "Handling
 *   webhooks"): header Authorization = hex SHA-256 of `username:password` as configured on the
 *   dashboard (the SDK's test vector: sha256("username:password") = bc842c31…6e0e, checked in
 *   phonepe.test.ts); body {event: 'checkout.order.completed' | 'checkout.order.failed' | …,
 *   payload: {orderId, merchantId, merchantOrderId, state, amount, expireAt, paymentDetails}}.
 *   Older deliveries name the event in `type` (CHECKOUT_ORDER_COMPLETED …); both are read. The
 *   docs: rely on payload.state only, and expect the same event more than once.
 */

/** PhonePe's hosts (the SDK's BaseUrl.ts). */
export const PHONEPE_HOSTS = {
  sandbox: { pg: 'https://api-preprod.phonepe.com/apis/pg-sandbox', oauth: 'https://api-preprod.phonepe.com/apis/pg-sandbox' },
  production: { pg: 'https://api.phonepe.com/apis/pg', oauth: 'https://api.phonepe.com/apis/identity-manager' },
} as const;

export const PHONEPE_PATHS = {
  token: '/v1/oauth/token',
  pay: '/checkout/v2/pay',
  status: (merchantOrderId: string) => `/checkout/v2/order/${encodeURIComponent(merchantOrderId)}/status`,
} as const;

/** PhonePe accepts expireAfter between 300 and 3600 seconds (pay API reference). */
export const PHONEPE_EXPIRE_AFTER = { min: 300, max: 3600 } as const;

/** A cached token is dropped this long before its expires_at (or at half its life, if sooner). */
const TOKEN_MARGIN_MS = 60_000;

export type PhonePeOptions = {
  /** The PG host (PHONEPE_HOSTS.*.pg, or our own /sandbox/phonepe). */
  baseUrl: string;
  /** The OAuth host; the PG host when absent (as in UAT). */
  authBaseUrl?: string;
  clientId: string;
  clientSecret: string;
  clientVersion: string;
  webhookUser: string;
  webhookPassword: string;
  fetch?: FetchLike;
  /** The clock (ms); tests move it. */
  now?: () => number;
};

const tokenAnswer = z.object({
  access_token: z.string().min(1),
  token_type: z.string().min(1).default('O-Bearer'),
  issued_at: z.number().optional(),
  expires_at: z.number(),
});

const payAnswer = z.object({
  orderId: z.string().min(1),
  state: z.string(),
  expireAt: z.number().optional(),
  redirectUrl: z.string().min(1),
});

const paymentDetail = z.looseObject({
  transactionId: z.string().min(1),
  paymentMode: z.string().optional(),
  timestamp: z.number().optional(),
  amount: z.number().int(),
  state: z.string(),
  errorCode: z.string().nullish(),
  detailedErrorCode: z.string().nullish(),
});

const statusAnswer = z.looseObject({
  orderId: z.string().min(1),
  state: z.string(),
  amount: z.number().int(),
  errorCode: z.string().nullish(),
  detailedErrorCode: z.string().nullish(),
  paymentDetails: z.array(paymentDetail).default([]),
});

// What a delivery must carry. Unknown fields are dropped from the parsed copy, not refused (the
// event is stored as received, raw, in the inbox): a plain object schema runs zod's compiled
// fast path, where a loose one copies every other key, and deliveries come in bursts.
const webhookBody = z.object({
  event: z.string().optional(),
  type: z.string().optional(),
  payload: z.object({
    orderId: z.string().optional(),
    merchantOrderId: z.string().optional(),
    originalMerchantOrderId: z.string().optional(),
    state: z.string().optional(),
    paymentDetails: z.array(z.object({ transactionId: z.string().optional(), state: z.string().optional() })).optional(),
  }),
});

/**
 * The error codes with which PhonePe reports a FAILED order or attempt as the payer's own doing:
 * they cancelled on its page or backed out of the payment app (USER_CANCEL, with the detailed
 * USER_CANCELLED; PAYMENT_CANCELLED in its older API). An order that only ran out of time
 * (TXN_AUTO_FAILED) is not one: it expires (docs/payments.md, "Cancelled payments").
 */
export const PHONEPE_CANCEL_CODES: ReadonlySet<string> = new Set(['USER_CANCEL', 'USER_CANCELLED', 'PAYMENT_CANCELLED']);

/** PhonePe's order and attempt states; anything else (none is documented) is still pending. */
export function phonePeState(state: string, error?: { errorCode?: string | null | undefined; detailedErrorCode?: string | null | undefined }): ProviderOrderState {
  if (state === 'COMPLETED') return 'COMPLETED';
  if (state !== 'FAILED') return 'PENDING';
  const cancelled = [error?.errorCode, error?.detailedErrorCode].some((c) => typeof c === 'string' && PHONEPE_CANCEL_CODES.has(c));
  return cancelled ? 'CANCELLED' : 'FAILED';
}

/** The Authorization header PhonePe sends with a webhook: hex SHA-256 of `username:password`. */
export const phonePeWebhookAuthorization = (user: string, password: string) => sha256Hex(`${user}:${password}`);

/**
 * PhonePe sends no event id. A delivery is identified by what it says: the event, the order,
 * the order's state and each attempt with its state. A repeated delivery says the same and gets
 * the same id; a later event (another attempt, a second capture, the order completing) differs.
 */
export function phonePeEventId(type: string, orderId: string, state: string, attempts: { transactionId?: string; state?: string }[]): string {
  const parts = attempts.map((a) => `${a.transactionId ?? ''}:${a.state ?? ''}`).sort();
  return `phonepe:${sha256Hex([type, orderId, state, ...parts].join('|'))}`;
}

export function createPhonePeProvider(opts: PhonePeOptions): PaymentProvider {
  const fetchImpl: FetchLike = opts.fetch ?? ((input, init) => fetch(input, init));
  const now = opts.now ?? Date.now;
  const pgBase = opts.baseUrl.replace(/\/+$/, '');
  const authBase = (opts.authBaseUrl ?? opts.baseUrl).replace(/\/+$/, '');
  const expectedAuthorization = phonePeWebhookAuthorization(opts.webhookUser, opts.webhookPassword);

  let cached: { header: string; refreshAt: number } | null = null;
  /** One token request at a time: concurrent calls share it (the SDK holds a mutex for this). */
  let fetching: Promise<string> | null = null;

  async function fetchToken(): Promise<string> {
    const form = new URLSearchParams({
      client_id: opts.clientId,
      client_version: opts.clientVersion,
      client_secret: opts.clientSecret,
      grant_type: 'client_credentials',
    });
    const r = await callProvider(fetchImpl, authBase + PHONEPE_PATHS.token, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
      body: form.toString(),
    });
    // A 4xx here is wrong credentials: nothing a buyer can fix, so the provider is unavailable.
    if (r.status !== 200) throw providerUnavailable(new Error(`PhonePe token: ${r.status} ${JSON.stringify(r.json)}`));
    const t = tokenAnswer.safeParse(r.json);
    if (!t.success) throw providerUnavailable(t.error);
    const expiresAtMs = t.data.expires_at * 1000;
    const issuedAtMs = t.data.issued_at !== undefined ? t.data.issued_at * 1000 : now();
    const refreshAt = Math.max(issuedAtMs + (expiresAtMs - issuedAtMs) / 2, expiresAtMs - TOKEN_MARGIN_MS);
    const header = `${t.data.token_type} ${t.data.access_token}`;
    cached = { header, refreshAt };
    return header;
  }

  function token(): Promise<string> {
    if (cached && now() < cached.refreshAt) return Promise.resolve(cached.header);
    if (!fetching) {
      fetching = fetchToken().finally(() => {
        fetching = null;
      });
    }
    return fetching;
  }

  /** A call with the token; on 401 the token is fetched again and the call made once more. */
  async function authorized(method: 'GET' | 'POST', url: string, body?: unknown): Promise<ProviderAnswer> {
    const send = (authorization: string) =>
      callProvider(fetchImpl, url, {
        method,
        headers: { 'Content-Type': 'application/json', Accept: 'application/json', Authorization: authorization },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const first = await token();
    const r = await send(first);
    if (r.status !== 401) return r;
    // Drop the refused token unless a concurrent call has already replaced it.
    if (cached?.header === first) cached = null;
    return send(await token());
  }

  return {
    name: 'phonepe',

    async createPayment(input: CreatePaymentInput): Promise<CreatedPayment> {
      const expireAfter = Math.min(PHONEPE_EXPIRE_AFTER.max, Math.max(PHONEPE_EXPIRE_AFTER.min, Math.round(input.expireAfterS)));
      const request = {
        merchantOrderId: input.merchantOrderId,
        amount: input.amount,
        expireAfter,
        ...(input.mobileNumber ? { prefillUserLoginDetails: { phoneNumber: input.mobileNumber } } : {}),
        paymentFlow: { type: 'PG_CHECKOUT', merchantUrls: { redirectUrl: input.redirectUrl } },
      };
      const r = await authorized('POST', pgBase + PHONEPE_PATHS.pay, request);
      if (r.status !== 200) throw orderRefused(new Error(`PhonePe pay: ${r.status} ${JSON.stringify(r.json)}`));
      const p = payAnswer.safeParse(r.json);
      if (!p.success) throw providerUnavailable(p.error);
      return { pgOrderId: p.data.orderId, redirectUrl: p.data.redirectUrl };
    },

    async status(merchantOrderId: string): Promise<ProviderStatus> {
      const r = await authorized('GET', `${pgBase}${PHONEPE_PATHS.status(merchantOrderId)}?details=true`);
      if (r.status === 404) throw new AppError('NOT_FOUND', MSG.notFound);
      if (r.status !== 200) throw providerUnavailable(new Error(`PhonePe status: ${r.status} ${JSON.stringify(r.json)}`));
      const s = statusAnswer.safeParse(r.json);
      if (!s.success) throw providerUnavailable(s.error);
      const payments: ProviderPayment[] = s.data.paymentDetails.map((p) => ({
        transactionId: p.transactionId,
        state: phonePeState(p.state, p),
        amount: p.amount,
        channel: p.paymentMode ?? 'UNKNOWN',
        at: p.timestamp ?? now(),
        raw: p,
      }));
      return { state: phonePeState(s.data.state, s.data), amount: s.data.amount, pgOrderId: s.data.orderId, payments };
    },

    parseWebhook(headers: Headers, rawBody: string): WebhookEvent | null {
      const received = headers.get('authorization')?.trim().toLowerCase();
      if (!safeEqual(received, expectedAuthorization)) return null;
      let json: unknown;
      try {
        json = JSON.parse(rawBody);
      } catch {
        return null;
      }
      const b = webhookBody.safeParse(json);
      if (!b.success) return null;
      const type = b.data.event ?? b.data.type;
      if (!type) return null;
      const p = b.data.payload;
      const orderId = p.orderId ?? null;
      return {
        eventId: phonePeEventId(type, orderId ?? p.merchantOrderId ?? '', p.state ?? '', p.paymentDetails ?? []),
        type,
        merchantOrderId: p.merchantOrderId ?? p.originalMerchantOrderId ?? null,
        pgOrderId: orderId,
        payload: json,
      };
    },
  };
}
