import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { AppEnv } from '#server/context';
import type { Config } from '#server/env';
import { type FetchLike, safeEqual } from './common';
import { PHONEPE_EXPIRE_AFTER, PHONEPE_PATHS, phonePeWebhookAuthorization } from './phonepe';
import { devanagariFontFace } from '#server/lib/devanagari-face';

/*
 * The local PhonePe (ARCHITECTURE decision 9; docs/payments.md): the outside system, running inside
 * our server under /sandbox/phonepe (outside /api), speaking Standard Checkout v2 as phonepe.ts
 * describes it: the OAuth token, pay, order status, a hosted payment page, and webhooks with the
 * Authorization header. The PhonePe adapter runs against it unchanged, so development, the API
 * tests and the end-to-end tests exercise the real adapter code with no network.
 *
 * Its state is in memory, in the PhonePeSandbox object the composition root builds for an app
 * (compose.ts, `deps.payments.sandbox`): it is another system, not our database, and
 * a restart forgets it the way a real provider's UAT forgets nothing we rely on (our own order
 * rows and the status check are what count). Its client secret and webhook password are drawn
 * at random for each sandbox (createPhonePeSandbox), so nobody can forge its webhooks even when it runs in production
 * (PAYMENT_PROVIDER=sandbox).
 *
 * Where it differs from PhonePe, on purpose:
 * - the pay answer's redirectUrl is a path of this site (/sandbox/phonepe/pay/<orderId>): the
 *   sandbox cannot know the origin the browser uses, and a path works behind any proxy;
 * - the merchant's redirectUrl may be a path of this site as well as an absolute URL;
 * - an order left PENDING past its expireAt is FAILED (detailedErrorCode TXN_AUTO_FAILED) when
 *   next looked at; no webhook announces it (the merchant's reconciliation finds it);
 * - the error codes it gives are a few of PhonePe's: PAYMENT_ERROR (the buyer pressed Fail),
 *   USER_CANCEL (Cancel), TXN_NOT_COMPLETED/TXN_AUTO_FAILED (expired);
 * - paymentMode is 'UPI' for every attempt.
 */

/** Where the sandbox is mounted. */
export const SANDBOX_BASE_PATH = '/sandbox/phonepe';
/** The origin of in-process requests (to the sandbox and from it); never resolved or dialled. */
export const SANDBOX_ORIGIN = 'http://sandbox.internal';
/** Where the sandbox delivers its webhooks: our PhonePe webhook route (modules/payments). */
export const SANDBOX_WEBHOOK_PATH = '/api/phonepe/webhook';
/** The sandbox's access tokens live an hour, as PhonePe's do. */
const TOKEN_LIFE_S = 3600;
/** PhonePe's default when pay names no expireAfter. */
const DEFAULT_EXPIRE_AFTER_S = 1200;
/** Delays before each webhook delivery attempt; a non-2xx answer moves on to the next. */
const DELIVERY_DELAYS_MS = [0, 100, 500, 2000, 5000];
/** Orders kept before old finished ones are dropped (memory, in a long development session). */
const MAX_ORDERS = 10_000;
const DAY_MS = 24 * 3600_000;

export const SANDBOX_ERROR_CODES = {
  FAIL: { errorCode: 'PAYMENT_ERROR', detailedErrorCode: 'ZM' },
  CANCEL: { errorCode: 'USER_CANCEL', detailedErrorCode: 'USER_CANCELLED' },
  EXPIRED: { errorCode: 'TXN_NOT_COMPLETED', detailedErrorCode: 'TXN_AUTO_FAILED' },
} as const;

export type AppFetch = (req: Request) => Response | Promise<Response>;
export type SandboxOutcome = 'PAY' | 'FAIL' | 'CANCEL';

type Attempt = {
  transactionId: string;
  paymentMode: string;
  timestamp: number;
  amount: number;
  state: 'COMPLETED' | 'FAILED';
  errorCode?: string;
  detailedErrorCode?: string;
};

type SandboxOrder = {
  orderId: string;
  merchantOrderId: string;
  amount: number;
  expireAt: number;
  redirectUrl: string;
  metaInfo?: Record<string, string>;
  state: 'PENDING' | 'COMPLETED' | 'FAILED';
  errorCode?: string;
  detailedErrorCode?: string;
  paymentDetails: Attempt[];
  createdAt: number;
};

/** A webhook as the sandbox sends it; tests may send it again with `deliver`. */
export type SandboxDelivery = {
  /** A path of our app (SANDBOX_WEBHOOK_PATH). */
  url: string;
  headers: Record<string, string>;
  body: string;
  /** The last answer of the delivery with retries (when it was delivered). */
  result?: { status: number; attempts: number };
};

export type SandboxCredentials = {
  merchantId: string;
  clientId: string;
  clientSecret: string;
  clientVersion: string;
  webhookUser: string;
  webhookPassword: string;
};

/**
 * One running sandbox: its credentials, orders and tokens, and the app it is mounted on. Built by
 * createPhonePeSandbox (the composition root's `deps.payments.sandbox`); the functions below take it.
 */
export type PhonePeSandbox = {
  credentials: SandboxCredentials;
  orders: Map<string, SandboxOrder>;
  byOrderId: Map<string, SandboxOrder>;
  /** access token → expires_at (s). */
  tokens: Map<string, number>;
  tokenRequests: number;
  appFetch: AppFetch | null;
  /** Webhook deliveries still retrying in the background. */
  inflight: Set<Promise<unknown>>;
  /** The built client whose Devanagari face the hosted page names (CLIENT_DIR, or dist/ by default). */
  clientDir: string | undefined;
};

/** The sandbox runs unless this is a production installation that takes real payments. */
export function sandboxEnabled(config: Config): boolean {
  return config.NODE_ENV !== 'production' || config.PAYMENT_PROVIDER === 'sandbox';
}

/**
 * A new sandbox with fresh random secrets and no orders, mounted on no app yet
 * (sandboxPhonePeRoutes mounts it). Whether an installation has one at all is sandboxEnabled's
 * call, made by the caller (providers/index.ts createPaymentServices).
 */
export function createPhonePeSandbox(config: Pick<Config, 'CLIENT_DIR'>): PhonePeSandbox {
  return {
    credentials: {
      merchantId: 'PARIKSHAMITRASANDBOX',
      clientId: 'PARIKSHA_MITRA_SANDBOX',
      clientSecret: randomBytes(24).toString('base64url'),
      clientVersion: '1',
      webhookUser: 'pariksha_sandbox',
      webhookPassword: `wh${randomBytes(9).toString('hex')}`,
    },
    orders: new Map(),
    byOrderId: new Map(),
    tokens: new Map(),
    tokenRequests: 0,
    appFetch: null,
    inflight: new Set(),
    clientDir: config.CLIENT_DIR,
  };
}

/** The sandbox's merchant credentials (for the adapter pointed at it, providers/index.ts). */
export const sandboxCredentials = (sb: PhonePeSandbox): SandboxCredentials => sb.credentials;

/** The PhonePe base URL of the sandbox, for the adapter's in-process calls. */
export const SANDBOX_BASE_URL = SANDBOX_ORIGIN + SANDBOX_BASE_PATH;

/** A fetch that goes through the app in-process (the adapter's calls to the sandbox). */
export function sandboxFetch(sb: PhonePeSandbox): FetchLike {
  return async (input, init) => {
    if (!sb.appFetch) throw new Error('the PhonePe sandbox is not mounted on this app');
    return sb.appFetch(new Request(input, init));
  };
}

const id = (prefix: string) => `${prefix}${Date.now().toString(36).toUpperCase()}${randomBytes(6).toString('hex').toUpperCase()}`;

/** A PENDING order past its expiry is FAILED from then on. */
function settle(order: SandboxOrder, now = Date.now()): SandboxOrder {
  if (order.state === 'PENDING' && now >= order.expireAt) {
    order.state = 'FAILED';
    Object.assign(order, SANDBOX_ERROR_CODES.EXPIRED);
  }
  return order;
}

function prune(sb: PhonePeSandbox) {
  if (sb.orders.size < MAX_ORDERS) return;
  const cutoff = Date.now() - DAY_MS;
  for (const o of sb.orders.values()) {
    if (o.createdAt < cutoff && settle(o).state !== 'PENDING') {
      sb.orders.delete(o.merchantOrderId);
      sb.byOrderId.delete(o.orderId);
    }
  }
}

/** The order as the status API and the webhook payload show it. */
function orderView(sb: PhonePeSandbox, o: SandboxOrder, attempts: Attempt[] = o.paymentDetails) {
  return {
    merchantId: sb.credentials.merchantId,
    merchantOrderId: o.merchantOrderId,
    orderId: o.orderId,
    state: o.state,
    amount: o.amount,
    payableAmount: o.amount,
    feeAmount: 0,
    expireAt: o.expireAt,
    ...(o.metaInfo ? { metaInfo: o.metaInfo } : {}),
    ...(o.errorCode ? { errorCode: o.errorCode, detailedErrorCode: o.detailedErrorCode } : {}),
    paymentDetails: attempts.map((a) => ({ ...a })),
  };
}

/**
 * Moves a PENDING order to its outcome and returns the webhooks PhonePe would send. `captures`
 * above 1 (PAY only) takes the money more than once: a double capture, one
 * checkout.order.completed per capture, each listing the attempts so far. Null when the order is
 * no longer PENDING (a second press of a button changes nothing).
 */
function applyOutcome(sb: PhonePeSandbox, o: SandboxOrder, outcome: SandboxOutcome, captures = 1): SandboxDelivery[] | null {
  if (settle(o).state !== 'PENDING') return null;
  const now = Date.now();
  const deliveries: SandboxDelivery[] = [];
  if (outcome === 'PAY') {
    for (let i = 0; i < Math.max(1, captures); i++) {
      o.paymentDetails.push({ transactionId: id('OM'), paymentMode: 'UPI', timestamp: now + i, amount: o.amount, state: 'COMPLETED' });
    }
    o.state = 'COMPLETED';
    o.paymentDetails.forEach((_, i) => deliveries.push(webhook(sb, 'checkout.order.completed', o, o.paymentDetails.slice(0, i + 1))));
  } else {
    const codes = outcome === 'FAIL' ? SANDBOX_ERROR_CODES.FAIL : SANDBOX_ERROR_CODES.CANCEL;
    // Cancel leaves no payment attempt: the buyer never paid.
    if (outcome === 'FAIL') o.paymentDetails.push({ transactionId: id('OM'), paymentMode: 'UPI', timestamp: now, amount: o.amount, state: 'FAILED', ...codes });
    o.state = 'FAILED';
    Object.assign(o, codes);
    deliveries.push(webhook(sb, 'checkout.order.failed', o, o.paymentDetails));
  }
  return deliveries;
}

function webhook(sb: PhonePeSandbox, event: string, o: SandboxOrder, attempts: Attempt[]): SandboxDelivery {
  const { merchantId, merchantOrderId, orderId, state, amount, expireAt, paymentDetails, ...rest } = orderView(sb, o, attempts);
  const payload = { orderId, merchantId, merchantOrderId, state, amount, expireAt, ...pick(rest, ['metaInfo', 'errorCode', 'detailedErrorCode']), paymentDetails };
  return {
    url: SANDBOX_WEBHOOK_PATH,
    headers: {
      'content-type': 'application/json',
      authorization: phonePeWebhookAuthorization(sb.credentials.webhookUser, sb.credentials.webhookPassword),
    },
    body: JSON.stringify({ event, payload }),
  };
}

function pick(o: Record<string, unknown>, keys: string[]) {
  return Object.fromEntries(keys.filter((k) => o[k] !== undefined).map((k) => [k, o[k]]));
}

async function deliverOnce(sb: PhonePeSandbox, d: SandboxDelivery): Promise<{ status: number; body: string }> {
  if (!sb.appFetch) throw new Error('the PhonePe sandbox is not mounted on this app');
  const res = await sb.appFetch(new Request(SANDBOX_ORIGIN + d.url, { method: 'POST', headers: d.headers, body: d.body }));
  return { status: res.status, body: await res.text() };
}

const sleep = (ms: number) =>
  new Promise<void>((resolve) => {
    if (ms <= 0) return resolve();
    setTimeout(resolve, ms).unref();
  });

/** Delivers with PhonePe's persistence: again after a non-2xx answer or an error, a few times. */
function deliverWithRetries(sb: PhonePeSandbox, d: SandboxDelivery): Promise<SandboxDelivery> {
  const run = (async () => {
    let status = 0;
    let attempts = 0;
    for (const delay of DELIVERY_DELAYS_MS) {
      await sleep(delay);
      attempts++;
      try {
        status = (await deliverOnce(sb, d)).status;
      } catch {
        status = 0;
      }
      if (status >= 200 && status < 300) break;
    }
    d.result = { status, attempts };
    return d;
  })();
  sb.inflight.add(run);
  void run.finally(() => sb.inflight.delete(run));
  return run;
}

// --- The HTTP side -------------------------------------------------------------------------

const errorJson = (c: Context, status: 400 | 401 | 404 | 409, code: string, message: string) => c.json({ success: false, code, message }, status);

/** A merchant redirectUrl: an http(s) URL, or a path of this site (never //host, which leaves it). */
const redirectUrlSchema = z.string().min(1).max(2048).refine((u) => {
  if (u.startsWith('/')) return !u.startsWith('//') && !u.startsWith('/\\');
  try {
    const p = new URL(u).protocol;
    return p === 'https:' || p === 'http:';
  } catch {
    return false;
  }
}, 'redirectUrl must be an http(s) URL or a path');

/** PhonePe's pay request (phonepe.ts); merchantOrderId: at most 63 of letters, digits, _ and -. */
const payRequest = z.object({
  merchantOrderId: z.string().regex(/^[A-Za-z0-9_-]{1,63}$/),
  amount: z.number().int().min(100),
  expireAfter: z.number().int().min(PHONEPE_EXPIRE_AFTER.min).max(PHONEPE_EXPIRE_AFTER.max).optional(),
  metaInfo: z.record(z.string(), z.string().max(256)).optional(),
  prefillUserLoginDetails: z.object({ phoneNumber: z.string().optional() }).optional(),
  disablePaymentRetry: z.boolean().optional(),
  paymentFlow: z.object({
    type: z.literal('PG_CHECKOUT'),
    message: z.string().max(256).optional(),
    merchantUrls: z.object({ redirectUrl: redirectUrlSchema }),
  }),
});

const tokenRequest = z.object({
  client_id: z.string(),
  client_secret: z.string(),
  client_version: z.string(),
  grant_type: z.literal('client_credentials'),
});

const outcomeSchema = z.object({ outcome: z.enum(['PAY', 'FAIL', 'CANCEL']) });

/**
 * Mounts the sandbox on the app and remembers `appFetch`, through which the adapter reaches the
 * sandbox and the sandbox delivers its webhooks, in-process: dev, tests and e2e need no port.
 * An installation that takes real payments has no sandbox (sandboxEnabled), so nothing is
 * mounted there and /sandbox/phonepe/* is an unknown path (app.ts).
 */
export function sandboxPhonePeRoutes(app: Hono<AppEnv>, sb: PhonePeSandbox, appFetch: AppFetch): void {
  sb.appFetch = appFetch;
  const r = new Hono<AppEnv>();
  r.use(bodyLimit({ maxSize: 64 * 1024, onError: (c) => errorJson(c, 400, 'BAD_REQUEST', 'Body too large') }));
  // Answers of another system: never cached.
  r.use((c, next) => {
    c.header('Cache-Control', 'no-store');
    return next();
  });

  r.post(PHONEPE_PATHS.token, async (c) => {
    sb.tokenRequests++;
    const form = tokenRequest.safeParse(await c.req.parseBody().catch(() => ({})));
    const { clientId, clientSecret, clientVersion } = sb.credentials;
    const ok = form.success && form.data.client_id === clientId && form.data.client_version === clientVersion && safeEqual(form.data.client_secret, clientSecret);
    if (!ok) {
      // The SDK's tests show this answer for bad client credentials.
      return c.json({ code: 'INVALID_CLIENT', message: 'Bad_Request', data: { errorDescription: 'Client Authentication Failure' } }, 400);
    }
    const issuedAt = Math.floor(Date.now() / 1000);
    const expiresAt = issuedAt + TOKEN_LIFE_S;
    const token = randomBytes(24).toString('base64url');
    for (const [t, exp] of sb.tokens) if (exp <= issuedAt) sb.tokens.delete(t);
    sb.tokens.set(token, expiresAt);
    return c.json({
      access_token: token,
      encrypted_access_token: token,
      expires_in: null,
      issued_at: issuedAt,
      expires_at: expiresAt,
      session_expires_at: expiresAt,
      token_type: 'O-Bearer',
    });
  });

  // Every PG call carries `Authorization: O-Bearer <access_token>`.
  r.use('/checkout/*', async (c, next) => {
    const header = c.req.header('authorization') ?? '';
    const token = header.startsWith('O-Bearer ') ? header.slice('O-Bearer '.length) : '';
    const exp = sb.tokens.get(token);
    if (exp === undefined || exp <= Date.now() / 1000) return errorJson(c, 401, 'UNAUTHORIZED', 'Unauthorized');
    return next();
  });

  r.post(PHONEPE_PATHS.pay, async (c) => {
    const body = payRequest.safeParse(await c.req.json().catch(() => null));
    if (!body.success) return errorJson(c, 400, 'BAD_REQUEST', body.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
    const p = body.data;
    if (sb.orders.has(p.merchantOrderId)) return errorJson(c, 409, 'DUPLICATE_ORDER', 'merchantOrderId already used');
    prune(sb);
    const now = Date.now();
    const order: SandboxOrder = {
      orderId: id('OMO'),
      merchantOrderId: p.merchantOrderId,
      amount: p.amount,
      expireAt: now + (p.expireAfter ?? DEFAULT_EXPIRE_AFTER_S) * 1000,
      redirectUrl: p.paymentFlow.merchantUrls.redirectUrl,
      ...(p.metaInfo ? { metaInfo: p.metaInfo } : {}),
      state: 'PENDING',
      paymentDetails: [],
      createdAt: now,
    };
    sb.orders.set(order.merchantOrderId, order);
    sb.byOrderId.set(order.orderId, order);
    return c.json({ orderId: order.orderId, state: order.state, expireAt: order.expireAt, redirectUrl: `${SANDBOX_BASE_PATH}/pay/${order.orderId}` });
  });

  r.get('/checkout/v2/order/:merchantOrderId/status', (c) => {
    const o = sb.orders.get(c.req.param('merchantOrderId'));
    if (!o) return errorJson(c, 404, 'ORDER_NOT_FOUND', 'No order with this merchantOrderId');
    settle(o);
    // details=false (the default) lists only the latest attempt, as PhonePe does.
    const attempts = c.req.query('details') === 'true' ? o.paymentDetails : o.paymentDetails.slice(-1);
    return c.json(orderView(sb, o, attempts));
  });

  r.get('/pay/:orderId', (c) => {
    const o = sb.byOrderId.get(c.req.param('orderId'));
    if (!o) return c.html(page(sb, notFoundBody()), 404);
    return c.html(page(sb, orderBody(settle(o))));
  });

  r.post('/pay/:orderId', async (c) => {
    const o = sb.byOrderId.get(c.req.param('orderId'));
    if (!o) return c.html(page(sb, notFoundBody()), 404);
    const form = outcomeSchema.safeParse(await c.req.parseBody().catch(() => ({})));
    if (!form.success) return c.html(page(sb, orderBody(settle(o))), 400);
    const deliveries = applyOutcome(sb, o, form.data.outcome);
    // The webhooks go out on their own, as PhonePe's do; the browser goes back at once.
    for (const d of deliveries ?? []) void deliverWithRetries(sb, d);
    return c.redirect(o.redirectUrl, 302);
  });

  app.route(SANDBOX_BASE_PATH, r);
}

// --- The hosted page (English and Hindi; no script, so the site's CSP holds) -------------------

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
const rupees = (paise: number) => new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR' }).format(paise / 100);
/** An English text with its Hindi beside it. */
const both = (en: string, hi: string) => `${escapeHtml(en)} <span lang="hi">${escapeHtml(hi)}</span>`;

const STYLE =
  'body{font-family:system-ui,"Noto Sans Devanagari",sans-serif;max-width:30rem;margin:2rem auto;padding:0 1rem;color:#1f1f1f}' +
  'h1{font-size:1.4rem;color:#5f259f}dl{display:grid;grid-template-columns:auto 1fr;gap:.4rem 1rem}dt{font-weight:600}' +
  'form{display:flex;flex-wrap:wrap;gap:.6rem;margin-top:1.5rem}button{font:inherit;padding:.6rem 1rem;border-radius:.4rem;border:1px solid #5f259f;cursor:pointer}' +
  'button[value=PAY]{background:#5f259f;color:#fff}button[value=FAIL]{background:#fff;color:#b00020;border-color:#b00020}button[value=CANCEL]{background:#fff;color:#333;border-color:#999}' +
  '.note{color:#555;font-size:.9rem}';

/** The hosted page; its Hindi is drawn with the app's Devanagari face (lib/devanagari-face). */
function page(sb: PhonePeSandbox, body: string): string {
  const fontFace = devanagariFontFace(sb.clientDir);
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>PhonePe sandbox · फ़ोनपे सैंडबॉक्स</title><style>${fontFace}${STYLE}</style></head><body><main>` +
    `<h1>${both('PhonePe sandbox', 'फ़ोनपे सैंडबॉक्स')}</h1>` +
    `<p class="note">${both('A test payment page: no money moves.', 'परीक्षण भुगतान पेज: कोई पैसा नहीं कटता।')}</p>` +
    `${body}</main></body></html>`
  );
}

function notFoundBody(): string {
  return `<p>${both('Order not found.', 'ऑर्डर नहीं मिला।')}</p>`;
}

function orderBody(o: SandboxOrder): string {
  const details =
    `<dl><dt>${both('Amount', 'राशि')}</dt><dd>${escapeHtml(rupees(o.amount))}</dd>` +
    `<dt>${both('Order', 'ऑर्डर')}</dt><dd>${escapeHtml(o.merchantOrderId)}</dd></dl>`;
  if (o.state === 'PENDING') {
    return (
      details +
      `<form method="post" action="${SANDBOX_BASE_PATH}/pay/${encodeURIComponent(o.orderId)}">` +
      `<button type="submit" name="outcome" value="PAY">${both('Pay', 'भुगतान करें')}</button>` +
      `<button type="submit" name="outcome" value="FAIL">${both('Fail', 'विफल करें')}</button>` +
      `<button type="submit" name="outcome" value="CANCEL">${both('Cancel', 'रद्द करें')}</button></form>`
    );
  }
  const said =
    o.state === 'COMPLETED'
      ? both('This order is paid.', 'इस ऑर्डर का भुगतान हो चुका है।')
      : o.errorCode === SANDBOX_ERROR_CODES.CANCEL.errorCode
        ? both('This payment was cancelled.', 'यह भुगतान रद्द कर दिया गया।')
        : both('This order has failed or expired.', 'यह ऑर्डर विफल हो गया है या इसकी अवधि समाप्त हो गई है।');
  return `${details}<p>${said}</p><p><a href="${escapeHtml(o.redirectUrl)}">${both('Back to the merchant', 'व्यापारी के पास वापस जाएँ')}</a></p>`;
}

// --- The test control -----------------------------------------------------------------------

export type SandboxOrderView = ReturnType<typeof orderView>;

/**
 * What tests (and benchmarks) do in place of a buyer on the hosted page: finish an order, get
 * the webhooks it causes, send them again (also many at once), and look inside the sandbox.
 * Works on the sandbox it is given: an app's is `deps.payments.sandbox` (server/src/test/harness.ts's
 * `h.deps`), null where the installation has none, which is refused here.
 */
export function sandboxControl(sb: PhonePeSandbox | null) {
  if (!sb) throw new Error('this app has no PhonePe sandbox (sandboxEnabled is false for its configuration)');
  const find = (merchantOrderId: string) => {
    const o = sb.orders.get(merchantOrderId);
    if (!o) throw new Error(`the sandbox has no order ${merchantOrderId}`);
    return o;
  };
  return {
    credentials: sb.credentials,
    /**
     * As the buyer pressing Pay, Fail or Cancel. By default the webhooks are delivered (with
     * retries) before this resolves, and each delivery's `result` says how it went; with
     * `deliverWebhook: false` they are only returned. Throws when the order is not PENDING.
     */
    async complete(merchantOrderId: string, outcome: SandboxOutcome, opts: { deliverWebhook?: boolean; captures?: number } = {}): Promise<SandboxDelivery[]> {
      const deliveries = applyOutcome(sb, find(merchantOrderId), outcome, opts.captures);
      if (!deliveries) throw new Error(`the sandbox order ${merchantOrderId} is no longer PENDING`);
      if (opts.deliverWebhook !== false) for (const d of deliveries) await deliverWithRetries(sb, d);
      return deliveries;
    },
    /** One delivery attempt of a webhook, exactly as sent before; the app's answer. */
    deliver: (delivery: SandboxDelivery) => deliverOnce(sb, delivery),
    /** The order as the status API shows it (every attempt), or null. */
    order(merchantOrderId: string): SandboxOrderView | null {
      const o = sb.orders.get(merchantOrderId);
      return o ? orderView(sb, settle(o)) : null;
    },
    /** Moves the order's expiry to now: from then on it is FAILED unless already finished. */
    expire(merchantOrderId: string) {
      find(merchantOrderId).expireAt = Date.now();
    },
    /** Every access token stops working (the adapter must fetch a new one on the 401). */
    expireTokens() {
      sb.tokens.clear();
    },
    /** How many token requests the sandbox has answered. */
    tokenRequests: () => sb.tokenRequests,
    /** Resolves once the webhooks sent in the background (the hosted page's) are done. */
    async idle() {
      while (sb.inflight.size > 0) await Promise.allSettled([...sb.inflight]);
    },
  };
}
export type SandboxControl = ReturnType<typeof sandboxControl>;
