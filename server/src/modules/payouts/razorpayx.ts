import { z } from 'zod';
import { callProvider, type FetchLike, hmacSha256Hex, providerUnavailable, safeEqual } from '../payments/providers/common';
import { AppError } from '#server/lib/errors';
import { MSG } from '@pm/protocol/messages';
import type { CreatePayoutInput, FundAccount, PayoutAdapter, PayoutDestination, PayoutOutcome, PayoutResult, Validation } from './payout-adapter';

/*
 * RazorpayX Payouts (docs/charity.md "Payout accounts", "Withdrawals"; docs/configuration.md
 * "Payouts"), after razorpay.com/docs/api/x:
 *
 * - Every call uses HTTP basic auth key_id:key_secret on https://api.razorpay.com/v1.
 * - POST /v1/contacts {name, type, reference_id} → {id: 'cont_…'}; POST /v1/fund_accounts
 *   {contact_id, account_type: 'bank_account', bank_account: {name, ifsc, account_number}} or
 *   {contact_id, account_type: 'vpa', vpa: {address}} → {id: 'fa_…'}.
 * - POST /v1/fund_accounts/validations {account_number (ours, RAZORPAYX_ACCOUNT_NUMBER),
 *   fund_account: {id}, amount: 100, currency: 'INR'} → {id: 'fav_…', status: 'created'}; GET
 *   /v1/fund_accounts/validations/{id} until status is `completed` (or `failed`), then
 *   results.account_status (`active` or `invalid`) and results.registered_name.
 * - POST /v1/payouts with the header X-Payout-Idempotency {account_number, fund_account_id,
 *   amount, currency, mode: IMPS (bank) or UPI (VPA), purpose: 'payout', reference_id (our
 *   withdrawal's id), narration, notes} → the payout {id: 'pout_…', status queued|pending|
 *   processing|processed|failed|rejected|cancelled|reversed, utr, status_details}. The same key
 *   answers the same payout, never a second one. GET /v1/payouts/{id}; GET /v1/payouts?
 *   account_number&reference_id lists a withdrawal's payouts.
 * - Webhooks payout.processed, payout.failed, payout.reversed: X-Razorpay-Signature is hex
 *   HMAC-SHA256 of the raw body keyed with the webhook secret; the payout is payload.payout.entity.
 *   Deliveries are retried, so they come more than once and out of order.
 */

export const RAZORPAYX_BASE_URL = 'https://api.razorpay.com';
/** How often and how long a validation is asked for before the account stays PENDING. */
const VALIDATION_POLLS = 8;
const VALIDATION_POLL_MS = 750;

export type RazorpayXOptions = {
  baseUrl?: string;
  keyId: string;
  keySecret: string;
  accountNumber: string;
  webhookSecret: string;
  fetch?: FetchLike;
  /** Waits between validation polls (a test's or the sandbox's own: none). */
  sleep?: (ms: number) => Promise<void>;
};

const entityWithId = z.looseObject({ id: z.string().min(1) });
const validationEntity = z.looseObject({
  id: z.string().min(1),
  status: z.string(),
  results: z.looseObject({ account_status: z.string().nullish(), registered_name: z.string().nullish() }).nullish(),
});
const payoutEntity = z.looseObject({
  id: z.string().min(1),
  amount: z.number().int(),
  status: z.string(),
  reference_id: z.string().nullish(),
  utr: z.string().nullish(),
  notes: z.record(z.string(), z.unknown()).nullish(),
  failure_reason: z.string().nullish(),
  status_details: z.looseObject({ description: z.string().nullish(), reason: z.string().nullish() }).nullish(),
});
const payoutList = z.looseObject({ items: z.array(payoutEntity) });
const webhookBody = z.looseObject({ event: z.string(), payload: z.looseObject({ payout: z.looseObject({ entity: payoutEntity }).optional() }) });

/** RazorpayX's payout status in our words (payout-adapter.ts PayoutOutcome). */
export function payoutOutcome(status: string): PayoutOutcome {
  if (status === 'processed') return 'processed';
  if (status === 'reversed') return 'reversed';
  if (status === 'failed' || status === 'rejected' || status === 'cancelled') return 'failed';
  return 'pending';
}

/** A payout entity as our services read it. */
export function payoutResult(p: z.output<typeof payoutEntity>): PayoutResult {
  const key = p.notes?.payout_key;
  return {
    id: p.id,
    outcome: payoutOutcome(p.status),
    status: p.status,
    amount: p.amount,
    referenceId: p.reference_id ?? null,
    key: typeof key === 'string' ? key : null,
    utr: p.utr ?? null,
    failure: p.status_details?.description ?? p.failure_reason ?? (payoutOutcome(p.status) === 'failed' || p.status === 'reversed' ? p.status : null),
  };
}

/** The provider refused a request (a 4xx it will not change its mind on). */
function refused(path: string, status: number, json: unknown): AppError {
  const err = new AppError('BAD_GATEWAY', MSG.providerUnavailable);
  Object.defineProperty(err, 'cause', { value: new Error(`RazorpayX ${path} answered ${status}: ${JSON.stringify(json).slice(0, 300)}`), enumerable: false });
  return err;
}

/** The fund account body of a destination. */
function fundAccountBody(contactId: string, dest: PayoutDestination) {
  return dest.kind === 'BANK'
    ? { contact_id: contactId, account_type: 'bank_account', bank_account: { name: dest.name, ifsc: dest.ifsc, account_number: dest.accountNumber } }
    : { contact_id: contactId, account_type: 'vpa', vpa: { address: dest.vpa } };
}

export function createRazorpayXAdapter(opts: RazorpayXOptions): PayoutAdapter {
  const base = `${opts.baseUrl ?? RAZORPAYX_BASE_URL}/v1`;
  const fetchImpl: FetchLike = opts.fetch ?? ((input, init) => fetch(input, init));
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const auth = `Basic ${Buffer.from(`${opts.keyId}:${opts.keySecret}`).toString('base64')}`;

  async function call<T extends z.ZodType>(method: string, path: string, schema: T, body?: unknown, headers: Record<string, string> = {}): Promise<z.output<T>> {
    const init: RequestInit = { method, headers: { authorization: auth, accept: 'application/json', ...headers, ...(body !== undefined && { 'content-type': 'application/json' }) } };
    if (body !== undefined) init.body = JSON.stringify(body);
    const r = await callProvider(fetchImpl, `${base}${path}`, init);
    if (r.status < 200 || r.status >= 300) throw refused(path, r.status, r.json);
    const parsed = schema.safeParse(r.json);
    if (!parsed.success) throw providerUnavailable(parsed.error);
    return parsed.data;
  }

  async function validationOf(id: string): Promise<z.output<typeof validationEntity>> {
    return call('GET', `/fund_accounts/validations/${encodeURIComponent(id)}`, validationEntity);
  }

  return {
    async fundAccount(dest, referenceId): Promise<FundAccount> {
      const contact = await call('POST', '/contacts', entityWithId, { name: dest.name, type: 'vendor', reference_id: referenceId });
      const fa = await call('POST', '/fund_accounts', entityWithId, fundAccountBody(contact.id, dest));
      return { contactId: contact.id, fundAccountId: fa.id };
    },

    async validate(fundAccountId): Promise<Validation> {
      let v = await call('POST', '/fund_accounts/validations', validationEntity, { account_number: opts.accountNumber, fund_account: { id: fundAccountId }, amount: 100, currency: 'INR' });
      for (let i = 0; i < VALIDATION_POLLS && v.status !== 'completed' && v.status !== 'failed'; i++) {
        if (i > 0) await sleep(VALIDATION_POLL_MS);
        v = await validationOf(v.id);
      }
      if (v.status === 'failed') return { state: 'invalid', registeredName: null };
      if (v.status !== 'completed') return { state: 'pending', registeredName: null };
      return { state: v.results?.account_status === 'active' ? 'valid' : 'invalid', registeredName: v.results?.registered_name ?? null };
    },

    async createPayout(input: CreatePayoutInput): Promise<PayoutResult> {
      const body = {
        account_number: opts.accountNumber,
        fund_account_id: input.fundAccountId,
        amount: input.amount,
        currency: 'INR',
        mode: input.mode,
        purpose: 'payout',
        queue_if_low_balance: true,
        reference_id: input.referenceId,
        narration: input.narration,
        notes: { payout_key: input.key },
      };
      return payoutResult(await call('POST', '/payouts', payoutEntity, body, { 'X-Payout-Idempotency': input.key }));
    },

    async payout(id) {
      return payoutResult(await call('GET', `/payouts/${encodeURIComponent(id)}`, payoutEntity));
    },

    async findPayout(referenceId, key) {
      const list = await call('GET', `/payouts?account_number=${encodeURIComponent(opts.accountNumber)}&reference_id=${encodeURIComponent(referenceId)}`, payoutList);
      const found = list.items.map(payoutResult).find((p) => p.key === key);
      return found ?? null;
    },

    verifyWebhook(headers, rawBody) {
      return safeEqual(headers.get('x-razorpay-signature'), hmacSha256Hex(opts.webhookSecret, rawBody));
    },

    parseWebhook(rawBody) {
      let json: unknown;
      try {
        json = JSON.parse(rawBody);
      } catch {
        return null;
      }
      const b = webhookBody.safeParse(json);
      const entity = b.success ? b.data.payload.payout?.entity : undefined;
      if (!b.success || !entity) return null;
      return { event: b.data.event, payout: payoutResult(entity) };
    },
  };
}
