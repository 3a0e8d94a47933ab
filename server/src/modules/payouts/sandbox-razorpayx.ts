import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { AppEnv } from '#server/context';
import type { Config } from '#server/env';
import { type FetchLike, hmacSha256Hex, safeEqual } from '../payments/providers/common';
import { sandboxPage } from './sandbox-razorpayx-page';

/*
 * The local RazorpayX (docs/charity.md "Payout accounts", "Withdrawals"; docs/configuration.md
 * "Payouts"): the outside system, running inside our server under /sandbox/razorpayx (outside
 * /api), speaking the protocol razorpayx.ts describes, so that development and the tests run the
 * real adapter's code with no network. Its state is in memory (another system, not our database).
 *
 * Its rules, deterministic (documented in docs/configuration.md "Payouts"):
 * - a bank account number ending 0000, or a UPI id starting `invalid`, is `invalid`;
 * - a holder name starting `Mismatch` is registered to someone else (SANDBOX_OTHER_NAME); any
 *   other account is registered to the name entered;
 * - a payout whose paise end in 13 (₹x.13) fails; any other is processed, each
 *   `settleAfterMs` after it was made, with a signed webhook to our /api/webhook/razorpayx;
 * - the developer page /sandbox/razorpayx lists the payouts, with Fail and Reverse buttons that
 *   send the webhook;
 * - a payout asked for again with the same X-Payout-Idempotency key is the same payout.
 */

export const RAZORPAYX_SANDBOX_PATH = '/sandbox/razorpayx';
/** The origin of in-process requests to the sandbox and from it; never resolved or dialled. */
const ORIGIN = 'http://sandbox.internal';
export const RAZORPAYX_SANDBOX_BASE_URL = ORIGIN + RAZORPAYX_SANDBOX_PATH;
/** Where its webhooks go: our payout webhook route. */
export const RAZORPAYX_WEBHOOK_PATH = '/api/webhook/razorpayx';
/** The registered name of an account whose holder name starts with "Mismatch". */
export const SANDBOX_OTHER_NAME = 'Rakesh Kumar Verma';
/** Delays before each webhook delivery attempt; a non-2xx answer moves on to the next. */
const DELIVERY_DELAYS_MS = [0, 100, 500, 2000];

type Payout = {
  id: string;
  fund_account_id: string;
  amount: number;
  currency: 'INR';
  mode: string;
  purpose: string;
  reference_id: string | null;
  narration: string | null;
  notes: Record<string, unknown>;
  status: 'processing' | 'processed' | 'failed' | 'reversed';
  utr: string | null;
  status_details: { reason: string; description: string } | null;
  created_at: number;
};
type FundAccount = { id: string; contact_id: string; account_type: 'bank_account' | 'vpa'; name: string; number: string };

export type RazorpayXSandbox = {
  credentials: { keyId: string; keySecret: string; accountNumber: string; webhookSecret: string };
  contacts: Map<string, { id: string; name: string }>;
  fundAccounts: Map<string, FundAccount>;
  validations: Map<string, { id: string; fundAccountId: string }>;
  payouts: Map<string, Payout>;
  /** Idempotency key → payout id. */
  byKey: Map<string, string>;
  /** How long after it is made a payout is processed (or fails). */
  settleAfterMs: number;
  appFetch: ((req: Request) => Response | Promise<Response>) | null;
  /** Settlements and webhook deliveries still running. */
  inflight: Set<Promise<unknown>>;
};

export function createRazorpayXSandbox(): RazorpayXSandbox {
  return {
    credentials: {
      keyId: 'rzp_test_payouts_sandbox',
      keySecret: randomBytes(24).toString('base64url'),
      accountNumber: '7878780080316316',
      webhookSecret: randomBytes(24).toString('base64url'),
    },
    contacts: new Map(),
    fundAccounts: new Map(),
    validations: new Map(),
    payouts: new Map(),
    byKey: new Map(),
    settleAfterMs: 300,
    appFetch: null,
    inflight: new Set(),
  };
}

/** The sandbox runs unless this installation pays out through RazorpayX itself (or not at all). */
export const payoutSandboxEnabled = (config: Pick<Config, 'PAYOUT_PROVIDER'>) => config.PAYOUT_PROVIDER === 'sandbox';

/** A fetch through the app in-process (the adapter's calls to the sandbox). */
export function payoutSandboxFetch(sb: RazorpayXSandbox): FetchLike {
  return async (input, init) => {
    if (!sb.appFetch) throw new Error('the RazorpayX sandbox is not mounted on this app');
    return sb.appFetch(new Request(input, init));
  };
}

const newId = (prefix: string) => `${prefix}_${randomBytes(7).toString('hex')}`;

// --- The protocol's rules -------------------------------------------------------------------

/** A validation's results by the sandbox's rules. */
function validationResults(fa: FundAccount) {
  const invalid = fa.account_type === 'bank_account' ? fa.number.endsWith('0000') : fa.number.toLowerCase().startsWith('invalid');
  if (invalid) return { account_status: 'invalid', registered_name: null };
  return { account_status: 'active', registered_name: fa.name.startsWith('Mismatch') ? SANDBOX_OTHER_NAME : fa.name };
}

function validationView(sb: RazorpayXSandbox, v: { id: string; fundAccountId: string }, completed: boolean) {
  const fa = sb.fundAccounts.get(v.fundAccountId)!;
  return {
    id: v.id,
    entity: 'fund_account.validation',
    fund_account: { id: fa.id, entity: 'fund_account', account_type: fa.account_type },
    status: completed ? 'completed' : 'created',
    amount: 100,
    currency: 'INR',
    results: completed ? validationResults(fa) : { account_status: null, registered_name: null },
  };
}

const payoutView = (p: Payout) => ({ entity: 'payout', ...p });

/** The webhook of a payout's new status, signed with the sandbox's webhook secret. */
function webhookOf(sb: RazorpayXSandbox, p: Payout): { headers: Record<string, string>; body: string } {
  const body = JSON.stringify({
    entity: 'event',
    account_id: 'acc_sandbox',
    event: `payout.${p.status}`,
    contains: ['payout'],
    payload: { payout: { entity: payoutView(p) } },
    created_at: Math.floor(Date.now() / 1000),
  });
  return { headers: { 'content-type': 'application/json', 'x-razorpay-signature': hmacSha256Hex(sb.credentials.webhookSecret, body), 'x-razorpay-event-id': newId('evt') }, body };
}

const sleep = (ms: number) => new Promise<void>((resolve) => (ms <= 0 ? resolve() : setTimeout(resolve, ms).unref()));

function track(sb: RazorpayXSandbox, run: Promise<unknown>) {
  sb.inflight.add(run);
  void run.finally(() => sb.inflight.delete(run));
}

/** Sends a payout's webhook, again after a non-2xx answer, a few times. Resolves to the last status. */
export function sendWebhook(sb: RazorpayXSandbox, p: Payout, delivery = webhookOf(sb, p)): Promise<number> {
  const run = (async () => {
    let status = 0;
    for (const delay of DELIVERY_DELAYS_MS) {
      await sleep(delay);
      try {
        const res = await sb.appFetch!(new Request(ORIGIN + RAZORPAYX_WEBHOOK_PATH, { method: 'POST', headers: delivery.headers, body: delivery.body }));
        status = res.status;
        await res.text();
      } catch {
        status = 0;
      }
      if (status >= 200 && status < 300) break;
    }
    return status;
  })();
  track(sb, run);
  return run;
}

/** A processing payout settles by the rules (paise ending 13 fail), with its webhook. */
function settleLater(sb: RazorpayXSandbox, p: Payout) {
  const run = (async () => {
    await sleep(sb.settleAfterMs);
    if (p.status !== 'processing') return;
    if (p.amount % 100 === 13) fail(p, 'beneficiary_bank_rejected', 'The beneficiary bank rejected the payout (sandbox: paise ending 13)');
    else Object.assign(p, { status: 'processed', utr: `SBX${Date.now().toString().slice(-9)}${randomBytes(2).toString('hex').toUpperCase()}` });
    await sendWebhook(sb, p);
  })();
  track(sb, run);
}

function fail(p: Payout, reason: string, description: string) {
  Object.assign(p, { status: 'failed', utr: null, status_details: { reason, description } });
}

/** The developer page's buttons (and tests): fail a processing payout, or reverse a processed one; sends the webhook. */
export function changePayout(sb: RazorpayXSandbox, id: string, to: 'failed' | 'reversed'): Payout | null {
  const p = sb.payouts.get(id);
  if (!p) return null;
  if (to === 'failed' && p.status === 'processing') fail(p, 'sandbox_failed', 'Failed from the sandbox page');
  else if (to === 'reversed' && p.status === 'processed') Object.assign(p, { status: 'reversed', status_details: { reason: 'sandbox_reversed', description: 'Returned by the beneficiary bank (sandbox page)' } });
  else return null;
  void sendWebhook(sb, p);
  return p;
}

// --- The HTTP side --------------------------------------------------------------------------

const errorJson = (c: Context, status: 400 | 401 | 404, description: string) => c.json({ error: { code: 'BAD_REQUEST_ERROR', description } }, status);

const contactBody = z.looseObject({ name: z.string().min(1), type: z.string().optional(), reference_id: z.string().optional() });
const fundAccountBody = z.union([
  z.looseObject({ contact_id: z.string(), account_type: z.literal('bank_account'), bank_account: z.looseObject({ name: z.string().min(1), ifsc: z.string(), account_number: z.string().min(1) }) }),
  z.looseObject({ contact_id: z.string(), account_type: z.literal('vpa'), vpa: z.looseObject({ address: z.string().min(3) }) }),
]);
const validationBody = z.looseObject({ account_number: z.string(), fund_account: z.looseObject({ id: z.string() }), amount: z.number().int().optional() });
const payoutBody = z.looseObject({
  account_number: z.string(),
  fund_account_id: z.string(),
  amount: z.number().int().min(100),
  currency: z.literal('INR'),
  mode: z.enum(['IMPS', 'NEFT', 'RTGS', 'UPI']),
  purpose: z.string(),
  reference_id: z.string().max(40).optional(),
  narration: z.string().max(30).optional(),
  notes: z.record(z.string(), z.unknown()).optional(),
});

/** Mounts the sandbox on the app: its API (basic auth, as RazorpayX's), its page and the page's buttons. */
export function sandboxRazorpayXRoutes(app: Hono<AppEnv>, sb: RazorpayXSandbox, appFetch: (req: Request) => Response | Promise<Response>): void {
  sb.appFetch = appFetch;
  const r = new Hono<AppEnv>();
  r.use(bodyLimit({ maxSize: 64 * 1024, onError: (c) => errorJson(c, 400, 'Body too large') }));
  r.use((c, next) => {
    c.header('Cache-Control', 'no-store');
    return next();
  });
  r.use('/v1/*', async (c, next) => {
    const expected = `Basic ${Buffer.from(`${sb.credentials.keyId}:${sb.credentials.keySecret}`).toString('base64')}`;
    if (!safeEqual(c.req.header('authorization'), expected)) return errorJson(c, 401, 'The api key provided is invalid');
    return next();
  });
  const body = async <T extends z.ZodType>(c: Context, schema: T) => schema.safeParse(await c.req.json().catch(() => null));

  r.post('/v1/contacts', async (c) => {
    const b = await body(c, contactBody);
    if (!b.success) return errorJson(c, 400, 'The name field is required');
    const contact = { id: newId('cont'), name: b.data.name };
    sb.contacts.set(contact.id, contact);
    return c.json({ entity: 'contact', ...contact, type: b.data.type ?? null, reference_id: b.data.reference_id ?? null, active: true }, 201);
  });

  r.post('/v1/fund_accounts', async (c) => {
    const b = await body(c, fundAccountBody);
    if (!b.success) return errorJson(c, 400, 'The fund account is not valid');
    const contact = sb.contacts.get(b.data.contact_id);
    if (!contact) return errorJson(c, 400, 'The contact id provided does not exist');
    const fa: FundAccount =
      b.data.account_type === 'bank_account'
        ? { id: newId('fa'), contact_id: contact.id, account_type: 'bank_account', name: b.data.bank_account.name, number: b.data.bank_account.account_number }
        : { id: newId('fa'), contact_id: contact.id, account_type: 'vpa', name: contact.name, number: b.data.vpa.address };
    sb.fundAccounts.set(fa.id, fa);
    return c.json({ id: fa.id, entity: 'fund_account', contact_id: fa.contact_id, account_type: fa.account_type, active: true }, 201);
  });

  r.post('/v1/fund_accounts/validations', async (c) => {
    const b = await body(c, validationBody);
    if (!b.success || b.data.account_number !== sb.credentials.accountNumber) return errorJson(c, 400, 'The account number is invalid');
    if (!sb.fundAccounts.has(b.data.fund_account.id)) return errorJson(c, 400, 'The fund account id provided does not exist');
    const v = { id: newId('fav'), fundAccountId: b.data.fund_account.id };
    sb.validations.set(v.id, v);
    return c.json(validationView(sb, v, false), 201);
  });

  // A validation completes by the time it is first asked for.
  r.get('/v1/fund_accounts/validations/:id', (c) => {
    const v = sb.validations.get(c.req.param('id'));
    return v ? c.json(validationView(sb, v, true)) : errorJson(c, 404, 'The id provided does not exist');
  });

  r.post('/v1/payouts', async (c) => {
    const key = c.req.header('x-payout-idempotency');
    if (!key) return errorJson(c, 400, 'X-Payout-Idempotency header is required');
    const b = await body(c, payoutBody);
    // Looked up after the body is read, with no await before the payout is kept under the key:
    // requests with one key at once make one payout.
    const known = sb.byKey.get(key);
    if (known) return c.json(payoutView(sb.payouts.get(known)!), 200);
    if (!b.success || b.data.account_number !== sb.credentials.accountNumber) return errorJson(c, 400, 'The payout request is not valid');
    if (!sb.fundAccounts.has(b.data.fund_account_id)) return errorJson(c, 400, 'The fund account id provided does not exist');
    const p: Payout = {
      id: newId('pout'),
      fund_account_id: b.data.fund_account_id,
      amount: b.data.amount,
      currency: 'INR',
      mode: b.data.mode,
      purpose: b.data.purpose,
      reference_id: b.data.reference_id ?? null,
      narration: b.data.narration ?? null,
      notes: b.data.notes ?? {},
      status: 'processing',
      utr: null,
      status_details: null,
      created_at: Math.floor(Date.now() / 1000),
    };
    sb.payouts.set(p.id, p);
    sb.byKey.set(key, p.id);
    settleLater(sb, p);
    return c.json(payoutView(p), 200);
  });

  r.get('/v1/payouts/:id', (c) => {
    const p = sb.payouts.get(c.req.param('id'));
    return p ? c.json(payoutView(p)) : errorJson(c, 404, 'The id provided does not exist');
  });

  r.get('/v1/payouts', (c) => {
    const ref = c.req.query('reference_id');
    const items = [...sb.payouts.values()].filter((p) => ref === undefined || p.reference_id === ref).map(payoutView);
    return c.json({ entity: 'collection', count: items.length, items });
  });

  // The developer page and its buttons (a form each: no script, so the site's CSP holds).
  r.get('/', (c) => c.html(sandboxPage([...sb.payouts.values()].reverse(), sb.fundAccounts)));
  r.post('/payouts/:id/:to{fail|reverse}', (c) => {
    changePayout(sb, c.req.param('id'), c.req.param('to') === 'fail' ? 'failed' : 'reversed');
    return c.redirect(RAZORPAYX_SANDBOX_PATH, 303);
  });

  app.route(RAZORPAYX_SANDBOX_PATH, r);
}

/** What tests do with the sandbox: look inside it, change a payout, wait for its background work. */
export function payoutSandboxControl(sb: RazorpayXSandbox | null) {
  if (!sb) throw new Error('this app has no RazorpayX sandbox (PAYOUT_PROVIDER is not sandbox)');
  return {
    credentials: sb.credentials,
    payouts: () => [...sb.payouts.values()],
    change: (id: string, to: 'failed' | 'reversed') => changePayout(sb, id, to),
    /** Sends a payout's current webhook again (a redelivery); resolves to our answer's status. */
    redeliver: (id: string) => sendWebhook(sb, sb.payouts.get(id)!),
    /** Resolves once every settlement and webhook delivery started so far is done. */
    async idle() {
      while (sb.inflight.size > 0) await Promise.allSettled([...sb.inflight]);
    },
    set settleAfterMs(ms: number) {
      sb.settleAfterMs = ms;
    },
  };
}
