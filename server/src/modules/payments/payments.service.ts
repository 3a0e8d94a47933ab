import { randomUUID } from 'node:crypto';
import { and, desc, eq, isNull, or } from 'drizzle-orm';
import { MSG } from '@pm/protocol/messages';
import type { OrderStatus } from '@pm/protocol/order';
import {
  type CreateOrderAnswer,
  type MyOrder,
  type MyPlan,
  ORDER_TTL_MS,
  type PaymentStatusData,
  type Provider,
  type Receipt,
  rupeesToPaise,
} from '@pm/protocol/payment';
import type { Deps, Principal } from '../../context';
import type { Conn, Tx } from '../../db/client';
import { payment, person, plan, purchaseOrder } from '../../db/schema';
import { insertionOrder } from '../../db/dialect';
import { first, transaction } from '../../db/transaction';
import { type Actor, logActivity } from '../../lib/activity';
import { AppError, badRequest, conflict, notFound } from '../../lib/errors';
import { siteOrigin, siteUrl } from '../../lib/site-url';
import { myPlan } from '../entitlements/entitlements.service';
import { announce, applyTransition, type ApplySource, machineOrder, runTransition } from './order-transitions';
import { orderRow } from './order-view';
import { decide, OPEN_STATUSES, payable } from './payments.machine';
import type { CreatedPayment, PaymentProvider, ProviderStatus } from './provider';

/*
 * Orders and payments (ARCHITECTURE decision 10; docs/payments.md). Every change of an order's
 * status is decided by payments.machine.ts and applied by `applyTransition`
 * (order-transitions.ts), inside one transaction with its activity entry and effects (and, for
 * a webhook, the payment_event row). The provider's status API is the truth: the redirect
 * (checkPaymentStatus), the webhook and the reconciliation job all ask it, then apply its
 * answer. Amounts are integer paise.
 */

type Order = typeof purchaseOrder.$inferSelect;

const actorOf = (p: Principal): Actor => ({ id: p.id, name: p.name });
const toRupees = (paise: number) => paise / 100;

/** 502 for a provider that failed; the adapter's own 502 (with its message) passes through. */
function providerUnavailable(deps: Deps, err: unknown, msg?: string): AppError {
  deps.log.warn({ err }, 'payment provider call failed');
  if (!msg && err instanceof AppError) return err;
  return new AppError('BAD_GATEWAY', msg ?? MSG.providerUnavailable);
}

function providerOf(deps: Deps, name?: string | null): PaymentProvider {
  const { providers } = deps.payments;
  return providers.get((name as Provider | null | undefined) ?? providers.defaultName);
}

/** A path of this site, for after the confirmation page; anything else (`//evil`, `https:`…) is '/'. */
export function safeRedirectPath(value: string | undefined): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return '/';
  // No control characters or whitespace a browser would strip before resolving the path.
  return /^[\x21-\x7e]+$/.test(value) ? value : '/';
}

/** The caller's own order; another learner's is "not found", never "forbidden" (no probing). */
async function ownOrder(db: Conn, who: Principal, where: { id?: string | undefined; pgOrderId?: string | undefined }): Promise<Order> {
  const conds = [eq(purchaseOrder.personId, who.id)];
  if (where.id) conds.push(eq(purchaseOrder.id, where.id));
  if (where.pgOrderId) conds.push(eq(purchaseOrder.pgOrderId, where.pgOrderId));
  const order = where.id || where.pgOrderId ? await first(db.select().from(purchaseOrder).where(and(...conds)).limit(1)) : undefined;
  if (!order) throw notFound(MSG.orderNotFound);
  return order;
}

function createAnswer(order: Order, checkout?: CreatedPayment['checkout']): CreateOrderAnswer {
  return {
    success: true,
    id: order.id,
    amt: order.amount,
    payment: {
      provider: order.provider as Provider,
      merchantTransactionId: order.id,
      amount: toRupees(order.amount),
      ...(checkout ? { razorpay: checkout } : {}),
    },
  };
}

type NewOrder = { personId: string | null; planId: string | null; kind: 'PLAN' | 'DONATION'; reference: string | null; amount: number; redirectUrl: string; retryOf: string | null };

/**
 * Inserts a CREATED order. Razorpay needs its own order before Checkout opens, so it is created
 * first (with our id as its receipt) and nothing is stored when that fails.
 */
async function insertOrder(deps: Deps, actor: Actor, input: NewOrder, now = Date.now(), within?: (tx: Tx, order: Order) => Promise<void>): Promise<CreateOrderAnswer> {
  const provider = providerOf(deps);
  const id = randomUUID();
  const expiresAt = now + ORDER_TTL_MS;
  let created: CreatedPayment | null = null;
  if (provider.name === 'razorpay') {
    try {
      created = await provider.createPayment({ merchantOrderId: id, amount: input.amount, redirectUrl: '/', expireAfterS: ORDER_TTL_MS / 1000 });
    } catch (err) {
      throw providerUnavailable(deps, err, MSG.failedToCreateOrder);
    }
  }
  const order = await transaction(deps.db, async (tx) => {
    const row = (await first(
      tx
        .insert(purchaseOrder)
        .values({ id, ...input, status: 'CREATED', provider: provider.name, pgOrderId: created?.pgOrderId ?? null, expiresAt, createdAt: now, updatedAt: now })
        .returning(),
    ))!;
    await logActivity(tx, { actor, action: 'CREATE', entity: 'order', entityId: id, newValue: row });
    await within?.(tx, row);
    return row;
  });
  return createAnswer(order, created?.checkout);
}

async function activePlan(db: Conn, idOrCode: string) {
  const p = await first(
    db
      .select()
      .from(plan)
      .where(and(or(eq(plan.id, idOrCode), eq(plan.code, idOrCode)), eq(plan.active, true)))
      .limit(1),
  );
  if (!p) throw notFound(MSG.planNotFound);
  return p;
}

/** POST /api/payment: an order for a plan at the server's price (the client's amount is ignored). */
export async function createPlanOrder(deps: Deps, who: Principal, input: { prodid: string; redirection_url?: string | undefined }) {
  const p = await activePlan(deps.db, input.prodid);
  return insertOrder(deps, actorOf(who), {
    personId: who.id,
    planId: p.id,
    kind: 'PLAN',
    reference: null,
    amount: rupeesToPaise(p.total),
    redirectUrl: safeRedirectPath(input.redirection_url),
    retryOf: null,
  });
}

/**
 * A DONATION order for another module (modules/donations): `within` writes that module's rows
 * in the order's own transaction. `personId` null: a guest's.
 */
export function createDonationOrderWith(deps: Deps, actor: Actor, input: { personId: string | null; reference: string; amount: number; redirectUrl?: string | undefined }, within: (tx: Tx, order: Order) => Promise<void>, now = Date.now()) {
  return insertOrder(deps, actor, { personId: input.personId, planId: null, kind: 'DONATION', reference: input.reference, amount: input.amount, redirectUrl: safeRedirectPath(input.redirectUrl), retryOf: null }, now, within);
}

/** POST /api/payment/createDummyOrder: a donation of the payer's own amount (rupees). */
export function createDonationOrder(deps: Deps, who: Principal, input: { poid?: string | undefined; amount: number; redirection_url?: string | undefined }) {
  return insertOrder(deps, actorOf(who), {
    personId: who.id,
    planId: null,
    kind: 'DONATION',
    reference: input.poid ?? null,
    amount: rupeesToPaise(input.amount),
    redirectUrl: safeRedirectPath(input.redirection_url),
    retryOf: null,
  });
}

/**
 * The payment-confirmation page the provider sends the browser back to (docs/payments.md "Where the buyer comes back to"), on the
 * configured site origin (PUBLIC_URL, lib/site-url.ts), never the request's Host: the client's
 * own address is taken only when it is on that origin.
 */
function confirmationUrl(deps: Deps, order: Order, requested: string | undefined): string {
  if (requested) {
    try {
      const u = new URL(requested);
      if (u.origin === siteOrigin(deps.config)) return u.toString();
    } catch {
      // Not an absolute address: ours below.
    }
  }
  const q = new URLSearchParams({ merchantTransactionId: order.id, amount: String(toRupees(order.amount)), redirection_url: order.redirectUrl });
  return siteUrl(deps.config, `/payment-confirmation?${q.toString()}`);
}

/** Refuses an order the machine would not send to a provider: 409 once paid, else 400. */
function payableOrder(order: Order, now: number): void {
  const t = decide(machineOrder(order), { kind: 'initiated' }, now);
  if (t.to === null) throw t.why === 'final' ? conflict(MSG.orderAlreadyPaid) : badRequestNotPayable();
}
const badRequestNotPayable = () => new AppError('BAD_REQUEST', MSG.orderNotPayable);

/** Checkout.js's title for Razorpay (the adapter's default merchant name). */
const RAZORPAY_CHECKOUT_NAME = 'Pariksha Mitra';

/**
 * Checkout's options for a Razorpay order we already hold: Razorpay takes several attempts on
 * one order, so the same order is opened again rather than a second one made (a payment on the
 * first would otherwise name an order id we no longer know).
 */
function razorpayOptions(deps: Deps, order: Order): CreatedPayment | null {
  const key = deps.config.RAZORPAY_KEY_ID;
  if (order.provider !== 'razorpay' || !order.pgOrderId || !key) return null;
  return { pgOrderId: order.pgOrderId, checkout: { key, order_id: order.pgOrderId, amount: order.amount, currency: 'INR', name: RAZORPAY_CHECKOUT_NAME } };
}

/**
 * Sends an order to a provider (initiatePayment): the provider's order for the ORDER's amount
 * (never the body's), then the machine's `initiated` event (CREATED → PENDING with the
 * provider's order id). An order another provider already holds cannot switch (its status would
 * be asked of the wrong one), and PhonePe takes a merchantOrderId once: an order already sent
 * there is paid again through retryPayment (a new order).
 */
async function startPayment(deps: Deps, actor: Actor, order: Order, provider: PaymentProvider, redirectUrl: string, mobileNumber: string | undefined, now: number) {
  if (order.pgOrderId && order.provider && order.provider !== provider.name) throw badRequestNotPayable();
  let created = provider.name === 'razorpay' ? razorpayOptions(deps, order) : null;
  if (!created) {
    if (order.pgOrderId) throw badRequestNotPayable();
    try {
      created = await provider.createPayment({
        merchantOrderId: order.id,
        amount: order.amount,
        redirectUrl,
        expireAfterS: Math.max(1, Math.floor((order.expiresAt - now) / 1000)),
        ...(mobileNumber ? { mobileNumber } : {}),
      });
    } catch (err) {
      throw providerUnavailable(deps, err);
    }
  }
  const event = { kind: 'initiated' as const, provider: provider.name, pgOrderId: created.pgOrderId };
  const started = await runTransition(deps, order.id, event, { via: 'initiate', actor }, now);
  // A webhook or status check may have settled the order while the provider answered.
  if (!started?.written) payableOrder(started?.order ?? order, now);
  return created;
}

/** POST /api/phonepe/initiatePayment: the hosted checkout page the browser goes to next. */
export async function initiatePayment(
  deps: Deps,
  who: Principal,
  providerName: Provider,
  input: { merchantTransactionId: string; redirectUrl?: string | undefined; mobileNumber?: string | undefined },
  now = Date.now(),
) {
  const order = await ownOrder(deps.db, who, { id: input.merchantTransactionId });
  return payOrder(deps, actorOf(who), order, providerName, input, now);
}

/**
 * Sends an order the caller may pay (checked by the caller: its owner, or a donation's token) to
 * the provider: PhonePe's hosted page to go to, or Razorpay's Checkout options.
 */
export async function payOrder(deps: Deps, actor: Actor, order: Order, providerName: Provider, input: { redirectUrl?: string | undefined; mobileNumber?: string | undefined }, now = Date.now()) {
  payableOrder(order, now);
  const provider = providerOf(deps, providerName);
  const created = await startPayment(deps, actor, order, provider, confirmationUrl(deps, order, input.redirectUrl), input.mobileNumber, now);
  if (providerName === 'razorpay') {
    if (!created.checkout) throw providerUnavailable(deps, new Error('razorpay gave no checkout options'));
    return { success: true as const, data: { razorpay: created.checkout } };
  }
  if (!created.redirectUrl) throw providerUnavailable(deps, new Error(`${provider.name} gave no redirect address`));
  return { success: true as const, data: { instrumentResponse: { redirectInfo: { url: created.redirectUrl } } } };
}

/** The order's status after asking its provider (a caller that may see it: checked by the caller). */
export async function orderStatus(deps: Deps, actor: Actor, order: Order, now = Date.now()) {
  return statusAnswer(deps.db, await refresh(deps, order, { via: 'check', actor }, now));
}

/** POST /api/razorpay/initiatePayment: Checkout's options (the Razorpay order is made if not yet). */
export async function razorpayCheckout(deps: Deps, who: Principal, input: { merchantTransactionId: string }, now = Date.now()) {
  const order = await ownOrder(deps.db, who, { id: input.merchantTransactionId });
  payableOrder(order, now);
  const provider = providerOf(deps, 'razorpay');
  const created = await startPayment(deps, actorOf(who), order, provider, confirmationUrl(deps, order, undefined), undefined, now);
  if (!created.checkout) throw providerUnavailable(deps, new Error('razorpay gave no checkout options'));
  return { success: true as const, data: { razorpay: created.checkout } };
}

/**
 * What checkPaymentStatus answers (docs/api.md: `success` decides the confirmation page's outcome),
 * with what was bought: the plan's name in both languages (never only its code), or null for a
 * donation, and the amount in paise (docs/payments.md).
 */
export async function statusAnswer(db: Conn, order: Order): Promise<{ success: boolean; msg: string; data: PaymentStatusData }> {
  const status = order.status as OrderStatus;
  const paid = status === 'PAID';
  const msg = paid ? MSG.paymentSuccessful : OPEN_STATUSES.includes(status) ? MSG.paymentPending : status === 'CANCELLED' ? MSG.paymentCancelled : MSG.paymentFailed;
  const bought = order.planId ? await first(db.select({ code: plan.code, name: plan.name }).from(plan).where(eq(plan.id, order.planId))) : undefined;
  return { success: paid, msg, data: { status, receiptNo: order.receiptNo, amount: order.amount, plan: bought ?? null } };
}

/**
 * An order no provider has heard of (never initiated) can only expire (the machine's `expiry`
 * event); one that would not expire yet is answered as it is, without a transaction.
 */
async function expireUnstarted(deps: Deps, order: Order, source: ApplySource, now: number): Promise<Order> {
  if (!decide(machineOrder(order), { kind: 'expiry' }, now).to) return order;
  return (await runTransition(deps, order.id, { kind: 'expiry' }, source, now))?.order ?? order;
}

/**
 * Asks the order's provider for the truth and applies it. PAID and REFUNDED orders are final and
 * answered from the database (a later capture on them arrives by webhook and is flagged there).
 */
export async function refresh(deps: Deps, order: Order, source: ApplySource, now = Date.now()): Promise<Order> {
  if (order.status === 'PAID' || order.status === 'REFUNDED') return order;
  if (!order.pgOrderId && order.status === 'CREATED') return expireUnstarted(deps, order, source, now);
  const provider = providerOf(deps, order.provider);
  let status: ProviderStatus;
  try {
    status = await provider.status(order.id, order.pgOrderId);
  } catch (err) {
    if (!(err instanceof AppError && err.code === 'NOT_FOUND')) throw providerUnavailable(deps, err);
    // The provider has no such order, so nobody has paid it: it waits like one without a payment
    // and expires at its expiry time (docs/payments.md); a late capture still makes it PAID.
    status = { state: 'PENDING', amount: order.amount, pgOrderId: null, payments: [] };
  }
  return (await runTransition(deps, order.id, { kind: 'provider', ...status }, source, now))?.order ?? order;
}

/** POST /api/{provider}/checkPaymentStatus and GET /api/payment/checkPayment: the caller's order. */
export async function checkStatus(deps: Deps, who: Principal, where: { id?: string | undefined; pgOrderId?: string | undefined }, now = Date.now()) {
  const order = await ownOrder(deps.db, who, where);
  return statusAnswer(deps.db, await refresh(deps, order, { via: 'check', actor: actorOf(who) }, now));
}

/**
 * POST /api/payment/verifyRazorpayPayment: Checkout's handler signature is checked first (in
 * constant time by the adapter; a bad one changes nothing), then Razorpay's status API decides.
 */
export async function verifyRazorpay(deps: Deps, who: Principal, input: { razorpay_order_id: string; razorpay_payment_id: string; razorpay_signature: string }, now = Date.now()) {
  const { providers } = deps.payments;
  const provider = providers.has('razorpay') ? providers.get('razorpay') : null;
  if (!provider?.verifyCheckoutSignature?.(input.razorpay_order_id, input.razorpay_payment_id, input.razorpay_signature)) {
    throw new AppError('BAD_REQUEST', MSG.invalidSignature);
  }
  const order = await ownOrder(deps.db, who, { pgOrderId: input.razorpay_order_id });
  return statusAnswer(deps.db, await refresh(deps, order, { via: 'checkout', actor: actorOf(who) }, now));
}

/**
 * POST /api/payment/retryPayment: a failed or expired order is paid again as a NEW order (same
 * plan at today's price, or the same donation), linked by retryOf; an order still payable is
 * answered again (CREATED, or a Razorpay order, which takes several attempts), except one PhonePe
 * already holds: PhonePe takes a merchantOrderId once, so that one gets a new order as well. A
 * paid order is refused (409). A cancelled one is paid again like a failed one: the payer changed
 * their mind at the provider and may change it back (docs/payments.md, "Cancelled payments").
 */
export async function retryPayment(deps: Deps, who: Principal, input: { id: string }, now = Date.now()): Promise<CreateOrderAnswer> {
  const old = await ownOrder(deps.db, who, { id: input.id });
  if (old.status === 'PAID' || old.status === 'REFUNDED') throw conflict(MSG.orderAlreadyPaid);
  if (payable(machineOrder(old), now)) {
    // Still payable: the same order again, unless PhonePe already has it (it takes an id once).
    const razorpay = razorpayOptions(deps, old);
    if (razorpay || old.status === 'CREATED') return createAnswer(old, razorpay?.checkout);
  }
  const base = { personId: who.id, reference: old.reference, redirectUrl: old.redirectUrl, retryOf: old.id };
  if (old.kind === 'DONATION' || !old.planId) {
    return insertOrder(deps, actorOf(who), { ...base, planId: null, kind: 'DONATION', amount: old.amount }, now);
  }
  const p = await activePlan(deps.db, old.planId);
  return insertOrder(deps, actorOf(who), { ...base, planId: p.id, kind: 'PLAN', amount: rupeesToPaise(p.total) }, now);
}

/**
 * PATCH /api/order/status: an admin corrects an order's state (for example a payment the provider
 * confirmed by other means), through the machine's `admin` event: a paid order never goes back
 * (PAID only moves on to REFUNDED, and REFUNDED is final), marking an unpaid order PAID does what
 * a payment does, and a refund ends the plan and writes the ledger's REFUND entry
 * (docs/payments.md, "The order state machine"). Logged with the order before and after, as the
 * back office shows it; answered with the order as it is now.
 */
export async function setOrderStatus(deps: Deps, who: Principal, input: { id: string; status: OrderStatus }) {
  const now = Date.now();
  const { applied, data } = await transaction(deps.db, async (tx) => {
    const applied = await applyTransition(tx, deps, input.id, { kind: 'admin', to: input.status }, { via: 'admin', actor: actorOf(who) }, now);
    if (!applied) throw notFound(MSG.orderNotFound);
    // Refused (a paid order never goes back), or moved under us by a webhook: the admin looks again.
    if (!applied.written) throw badRequest(MSG.paidOrderFinal);
    return { applied, data: await orderRow(tx, input.id) };
  });
  announce(deps, applied);
  return { success: true as const, msg: MSG.orderUpdated, data };
}

/** GET /api/payment/my: the caller's plan and orders (newest first). */
export async function myPayments(deps: Deps, who: Principal, now = Date.now()): Promise<{ success: true; data: { plan: MyPlan | null; orders: MyOrder[] } }> {
  const rows = await deps.db
    .select({
      id: purchaseOrder.id,
      createdAt: purchaseOrder.createdAt,
      amount: purchaseOrder.amount,
      status: purchaseOrder.status,
      provider: purchaseOrder.provider,
      planCode: plan.code,
      planName: plan.name,
      receiptNo: purchaseOrder.receiptNo,
      paidAt: purchaseOrder.paidAt,
    })
    .from(purchaseOrder)
    .leftJoin(plan, eq(plan.id, purchaseOrder.planId))
    .where(eq(purchaseOrder.personId, who.id))
    .orderBy(desc(purchaseOrder.createdAt), desc(insertionOrder(deps.db, purchaseOrder)))
    .limit(200);
  const orders: MyOrder[] = rows.map(({ planCode, planName, ...o }) => ({ ...o, plan: planCode && planName ? { code: planCode, name: planName } : null }));
  return { success: true, data: { plan: await myPlan(deps.db, who.id, now), orders } };
}

/** Whether a paying payment's details say that no money moved: the sandbox's, or the demo's seeded sales (db/seed.ts). */
function noMoneyMoved(details: unknown): boolean {
  if (details === null || typeof details !== 'object') return false;
  const d = details as Record<string, unknown>;
  return d.sandbox === true || d.demo === true;
}

/** GET /api/payment/receipt/:id: a paid order's receipt, for its buyer or an order admin. */
export async function receipt(deps: Deps, who: Principal, orderId: string): Promise<{ success: true; data: Receipt }> {
  const admin = who.permissions.has('SHOP_EDITOR') || who.permissions.has('UPDATE_ORDER');
  const row = await first(
    deps.db
      .select({ order: purchaseOrder, planCode: plan.code, planName: plan.name, buyerName: person.name, buyerMobile: person.mobile })
      .from(purchaseOrder)
      .leftJoin(plan, eq(plan.id, purchaseOrder.planId))
      .leftJoin(person, eq(person.id, purchaseOrder.personId))
      .where(eq(purchaseOrder.id, orderId)),
  );
  const o = row?.order;
  if (!row || !o || o.receiptNo === null || !['PAID', 'REFUNDED'].includes(o.status) || (!admin && o.personId !== who.id)) {
    throw notFound(MSG.receiptNotFound);
  }
  const paidBy = await first(
    deps.db
      .select({ transactionId: payment.transactionId, details: payment.details })
      .from(payment)
      .where(and(eq(payment.orderId, o.id), eq(payment.status, 'SUCCESS'), isNull(payment.flag)))
      .orderBy(payment.createdAt)
      .limit(1),
  );
  return {
    success: true,
    data: {
      receiptNo: o.receiptNo,
      orderId: o.id,
      paidAt: o.paidAt ?? o.updatedAt,
      // The installation's trust (docs/configuration.md: TRUST_NAME), the name every page shows.
      trust: { name: deps.config.TRUST_NAME, nameHi: deps.config.TRUST_NAME_HI, address: deps.config.TRUST_ADDRESS },
      buyer: { name: row.buyerName ?? '', mobile: row.buyerMobile },
      plan: row.planCode && row.planName ? { code: row.planCode, name: row.planName } : null,
      amount: o.amount,
      provider: o.provider ?? '',
      transactionId: paidBy?.transactionId ?? null,
      sandbox: noMoneyMoved(paidBy?.details),
    },
  };
}
