import { randomUUID } from 'node:crypto';
import { and, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import { MSG } from '../../../../sync-protocol/src/messages';
import type { OrderStatus } from '../../../../sync-protocol/src/order';
import {
  type CreateOrderAnswer,
  type MyOrder,
  type MyPlan,
  ORDER_TTL_MS,
  type PaymentStatusData,
  type Provider,
  type Receipt,
  rupeesToPaise,
} from '../../../../sync-protocol/src/payment';
import type { Deps, Principal } from '../../context';
import type { Conn, Tx } from '../../db/client';
import { ledgerEntry, payment, person, plan, purchaseOrder } from '../../db/schema';
import { insertionOrder, lockRows, takeTurns } from '../../db/dialect';
import { first, transaction } from '../../db/transaction';
import { type Actor, logActivity } from '../../lib/activity';
import { AppError, conflict, notFound } from '../../lib/errors';
import { siteOrigin, siteUrl } from '../../lib/site-url';
import { GRANT_COLLECTIONS, grantPlan, myPlan } from '../entitlements/entitlements.service';
import { decide, decideUnstarted, OPEN_STATUSES, payable, type Transition } from './payments.machine';
import type { CreatedPayment, PaymentProvider, ProviderPayment, ProviderStatus } from './provider';
import { providersFor } from './providers/index';

/*
 * Orders and payments (issue 18 §1; ARCHITECTURE decision 10). Every change of an order goes
 * through `applyIn` below, inside one transaction with its activity entry (and, for a webhook,
 * the payment_event row), and the transition itself is decided by payments.machine.ts. The
 * provider's status API is the truth: the redirect (checkPaymentStatus), the webhook and the
 * reconciliation job all ask it, then apply its answer. Amounts are integer paise.
 */

type Order = typeof purchaseOrder.$inferSelect;

/** Who or what fed the state machine, for the activity log. */
export type ApplySource = { via: 'check' | 'webhook' | 'reconcile' | 'checkout'; actor: Actor; eventId?: string };

export type Applied = { order: Order; transition: Transition; granted: boolean };

const actorOf = (p: Principal): Actor => ({ id: p.id, name: p.name });
const toRupees = (paise: number) => paise / 100;

/** 502 for a provider that failed; the adapter's own 502 (with its message) passes through. */
function providerUnavailable(deps: Deps, err: unknown, msg?: string): AppError {
  deps.log.warn({ err }, 'payment provider call failed');
  if (!msg && err instanceof AppError) return err;
  return new AppError('BAD_GATEWAY', msg ?? MSG.providerUnavailable);
}

function providerOf(deps: Deps, name?: string | null): PaymentProvider {
  const providers = providersFor(deps.config);
  return providers.get((name as Provider | null | undefined) ?? providers.defaultName);
}

/** A path of this site, for after the confirmation page; anything else (`//evil`, `https:`…) is '/'. */
export function safeRedirectPath(value: string | undefined): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return '/';
  // No control characters or whitespace a browser would strip before resolving the path.
  return /^[\x21-\x7e]+$/.test(value) ? value : '/';
}

function orderById(db: Conn, id: string): Promise<Order | undefined> {
  return first(db.select().from(purchaseOrder).where(eq(purchaseOrder.id, id)));
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

type NewOrder = { personId: string; planId: string | null; kind: 'PLAN' | 'DONATION'; reference: string | null; amount: number; redirectUrl: string; retryOf: string | null };

/**
 * Inserts a CREATED order. Razorpay needs its own order before Checkout opens, so it is created
 * first (with our id as its receipt) and nothing is stored when that fails.
 */
async function insertOrder(deps: Deps, actor: Actor, input: NewOrder, now = Date.now()): Promise<CreateOrderAnswer> {
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
 * The payment-confirmation page the provider sends the browser back to (spec §2, §7), on the
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

function payableOrder(order: Order, now: number): void {
  if (order.status === 'PAID' || order.status === 'REFUNDED') throw conflict(MSG.orderAlreadyPaid);
  if (!payable({ status: order.status as OrderStatus, amount: order.amount, expiresAt: order.expiresAt }, now)) throw badRequestNotPayable();
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
 * (never the body's), then CREATED → PENDING with the provider's order id, in one conditional
 * write. An order another provider already holds cannot switch (its status would be asked of the
 * wrong one), and PhonePe takes a merchantOrderId once: an order already sent there is paid
 * again through retryPayment (a new order).
 */
async function startPayment(deps: Deps, who: Principal, order: Order, provider: PaymentProvider, redirectUrl: string, mobileNumber: string | undefined, now: number) {
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
  const pgOrderId = created.pgOrderId;
  const started = await transaction(deps.db, async (tx) => {
    const row = await first(
      tx
        .update(purchaseOrder)
        .set({ status: 'PENDING', provider: provider.name, pgOrderId, updatedAt: Date.now() })
        .where(and(eq(purchaseOrder.id, order.id), inArray(purchaseOrder.status, [...OPEN_STATUSES])))
        .returning(),
    );
    // A webhook or status check may have settled the order while the provider answered.
    if (!row) return null;
    if (order.status !== 'PENDING') {
      await logActivity(tx, {
        actor: actorOf(who),
        action: 'UPDATE',
        entity: 'order',
        entityId: order.id,
        oldValue: { status: order.status },
        newValue: { status: row.status, provider: row.provider, pgOrderId: row.pgOrderId, via: 'initiate' },
      });
    }
    return row;
  });
  if (!started) payableOrder((await orderById(deps.db, order.id)) ?? order, now);
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
  payableOrder(order, now);
  const provider = providerOf(deps, providerName);
  const created = await startPayment(deps, who, order, provider, confirmationUrl(deps, order, input.redirectUrl), input.mobileNumber, now);
  if (!created.redirectUrl) throw providerUnavailable(deps, new Error(`${provider.name} gave no redirect address`));
  return { success: true as const, data: { instrumentResponse: { redirectInfo: { url: created.redirectUrl } } } };
}

/** POST /api/razorpay/initiatePayment: Checkout's options (the Razorpay order is made if not yet). */
export async function razorpayCheckout(deps: Deps, who: Principal, input: { merchantTransactionId: string }, now = Date.now()) {
  const order = await ownOrder(deps.db, who, { id: input.merchantTransactionId });
  payableOrder(order, now);
  const provider = providerOf(deps, 'razorpay');
  const created = await startPayment(deps, who, order, provider, confirmationUrl(deps, order, undefined), undefined, now);
  if (!created.checkout) throw providerUnavailable(deps, new Error('razorpay gave no checkout options'));
  return { success: true as const, data: { razorpay: created.checkout } };
}

/**
 * What checkPaymentStatus answers (spec §7: `success` decides the confirmation page's outcome),
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

// ---------------------------------------------------------------------------------------------
// Applying the provider's answer

/** Attempts as the provider lists them; a COMPLETED answer without a list counts as one capture. */
function attemptsOf(order: Order, status: ProviderStatus, now: number): ProviderPayment[] {
  if (status.payments.length > 0) return [...status.payments].sort((a, b) => a.at - b.at);
  if (status.state !== 'COMPLETED') return [];
  return [{ transactionId: status.pgOrderId ?? order.id, state: 'COMPLETED', amount: status.amount, channel: 'UNKNOWN', at: now }];
}

/**
 * A payment through the sandbox moved no money: its details say so (`sandbox: true`), and so does
 * its receipt (docs/security.md, "Production that cannot be fooled").
 */
function sandboxDetails(raw: unknown): Record<string, unknown> {
  return raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? { ...(raw as Record<string, unknown>), sandbox: true } : { sandbox: true, raw: raw ?? null };
}

/** Whether a paying payment's details say that no money moved: the sandbox's, or the demo's seeded sales (db/seed.ts). */
function noMoneyMoved(details: unknown): boolean {
  if (details === null || typeof details !== 'object') return false;
  const d = details as Record<string, unknown>;
  return d.sandbox === true || d.demo === true;
}

/**
 * Records the provider's finished attempts as Payment rows (spec §3), once each (unique
 * transactionId). A capture is the order's paying payment when the order is PAID and has none
 * yet and the amount is right; any other capture (a second one, a wrong amount, one for an order
 * that cannot be paid) is kept, put in the ledger as money received and flagged REFUND_DUE with
 * a zero-amount REFUND_DUE note beside it: the ledger keeps what was taken, the note what is owed
 * back, and the admin's refund later adds the negative REFUND entry.
 */
async function recordPayments(tx: Tx, deps: Deps, order: Order, status: ProviderStatus, provider: string, source: ApplySource, now: number): Promise<void> {
  const providers = providersFor(deps.config);
  const sandbox = providers.has(provider as Provider) && providers.sandboxed(provider as Provider);
  for (const p of attemptsOf(order, status, now)) {
    if (p.state === 'PENDING') continue;
    const details = sandbox ? sandboxDetails(p.raw) : (p.raw ?? null);
    const existing = await first(tx.select().from(payment).where(eq(payment.transactionId, p.transactionId)));
    const unpaid = p.state === 'FAILED' || p.state === 'CANCELLED';
    if (existing && (existing.orderId !== order.id || existing.status === 'SUCCESS' || unpaid)) continue;
    if (unpaid) {
      await tx
        .insert(payment)
        .values({ amount: p.amount, channel: p.channel, transactionId: p.transactionId, details, orderId: order.id, personId: order.personId, status: p.state, provider, createdAt: now, updatedAt: now })
        .onConflictDoNothing();
      continue;
    }
    const paying = await first(
      tx
        .select({ id: payment.id })
        .from(payment)
        .where(and(eq(payment.orderId, order.id), eq(payment.status, 'SUCCESS'), isNull(payment.flag)))
        .limit(1),
    );
    const flag = order.status === 'PAID' && !paying && p.amount === order.amount ? null : 'REFUND_DUE';
    const values = { amount: p.amount, channel: p.channel, details, status: 'SUCCESS', flag, provider, updatedAt: now };
    const row = existing
      ? await first(tx.update(payment).set(values).where(eq(payment.id, existing.id)).returning())
      : await first(tx.insert(payment).values({ ...values, transactionId: p.transactionId, orderId: order.id, personId: order.personId, createdAt: now }).returning());
    if (!row) continue;
    await tx.insert(ledgerEntry).values({ id: `capture:${row.id}`, orderId: order.id, paymentId: row.id, kind: 'CAPTURE', amount: p.amount, createdAt: now }).onConflictDoNothing();
    if (flag) {
      await tx.insert(ledgerEntry).values({ id: `refund-due:${row.id}`, orderId: order.id, paymentId: row.id, kind: 'REFUND_DUE', amount: 0, createdAt: now }).onConflictDoNothing();
      deps.log.warn({ orderId: order.id, transactionId: p.transactionId, amount: p.amount, orderAmount: order.amount, orderStatus: order.status }, 'capture flagged REFUND_DUE');
    }
    await logActivity(tx, {
      actor: source.actor,
      action: existing ? 'UPDATE' : 'CREATE',
      entity: 'payment',
      entityId: row.id,
      ...(existing ? { oldValue: existing } : {}),
      newValue: { ...row, via: source.via },
    });
  }
}

/** Orders becoming paid take turns for their receipt number (max + 1: db/dialect.ts takeTurns). */
export const RECEIPT_NUMBERS = 'receipt-number';

/**
 * Applies the provider's answer for one order inside the caller's transaction: the machine's
 * transition as one conditional write (`UPDATE … WHERE status = <as read> RETURNING`), the
 * receipt number (max + 1 in the same statement), the Payment rows and ledger entries, the plan's
 * entitlement, and the activity entry. Returns null for an unknown order.
 */
export async function applyIn(tx: Tx, deps: Deps, orderId: string, status: ProviderStatus, source: ApplySource, now = Date.now()): Promise<Applied | null> {
  // Answers for one order are applied one after another (PostgreSQL: the order's row, locked
  // until the commit; SQLite runs one transaction at a time): each sees what the previous wrote.
  await lockRows(tx, purchaseOrder, eq(purchaseOrder.id, orderId));
  const before = await orderById(tx, orderId);
  if (!before) return null;
  const transition = decide({ status: before.status as OrderStatus, amount: before.amount, expiresAt: before.expiresAt }, status, now);
  let order = before;
  let granted = false;
  if (transition.to) {
    const paying = transition.to === 'PAID' ? attemptsOf(before, status, now).find((p) => p.state === 'COMPLETED' && p.amount === before.amount) : undefined;
    const paidAt = paying && Number.isFinite(paying.at) && paying.at <= now ? paying.at : now;
    if (transition.to === 'PAID') await takeTurns(tx, RECEIPT_NUMBERS);
    const after = await first(
      tx
        .update(purchaseOrder)
        .set({
          status: transition.to,
          updatedAt: now,
          ...(status.pgOrderId && !before.pgOrderId ? { pgOrderId: status.pgOrderId } : {}),
          ...(transition.to === 'PAID'
            ? { paidAt, receiptNo: sql`(select coalesce(max(${purchaseOrder.receiptNo}), 0) + 1 from ${purchaseOrder})` }
            : {}),
        })
        .where(and(eq(purchaseOrder.id, orderId), eq(purchaseOrder.status, before.status)))
        .returning(),
    );
    if (after) {
      order = after;
      await logActivity(tx, {
        actor: source.actor,
        action: 'UPDATE',
        entity: 'order',
        entityId: orderId,
        oldValue: { status: before.status },
        newValue: { status: after.status, why: transition.why, via: source.via, receiptNo: after.receiptNo, paidAt: after.paidAt, ...(source.eventId ? { eventId: source.eventId } : {}) },
      });
      if (transition.why === 'amount-mismatch') {
        deps.log.warn({ orderId, orderAmount: before.amount, providerAmount: status.amount }, 'provider amount differs from the order: not paid');
      }
      if (after.status === 'PAID' && after.kind === 'PLAN' && after.planId && after.personId) {
        const bought = await first(tx.select({ code: plan.code }).from(plan).where(eq(plan.id, after.planId)));
        if (bought) granted = (await grantPlan(tx, { orderId, personId: after.personId, planCode: bought.code, paidAt: after.paidAt ?? now })) !== null;
      }
    }
  }
  await recordPayments(tx, deps, order, status, order.provider ?? 'unknown', source, now);
  return { order, transition, granted };
}

/** Tells the learner's devices (replication) about a plan the change granted. */
export function announce(deps: Deps, applied: Applied | null): void {
  if (applied?.granted && applied.order.personId) deps.events.emit({ collections: [...GRANT_COLLECTIONS], personId: applied.order.personId });
}

/** The state machine for one order and one provider answer, in its own transaction. */
export async function applyStatus(deps: Deps, orderId: string, status: ProviderStatus, source: ApplySource, now = Date.now()): Promise<Applied | null> {
  const applied = await transaction(deps.db, (tx) => applyIn(tx, deps, orderId, status, source, now));
  announce(deps, applied);
  return applied;
}

/** An order no provider knows (never initiated) can only expire. */
async function expireUnstarted(deps: Deps, order: Order, source: ApplySource, now: number): Promise<Order> {
  const t = decideUnstarted({ status: order.status as OrderStatus, amount: order.amount, expiresAt: order.expiresAt }, now);
  if (!t.to) return order;
  const to = t.to;
  return transaction(deps.db, async (tx) => {
    const after = await first(
      tx
        .update(purchaseOrder)
        .set({ status: to, updatedAt: now })
        .where(and(eq(purchaseOrder.id, order.id), eq(purchaseOrder.status, order.status)))
        .returning(),
    );
    if (!after) return (await orderById(tx, order.id)) ?? order;
    await logActivity(tx, { actor: source.actor, action: 'UPDATE', entity: 'order', entityId: order.id, oldValue: { status: order.status }, newValue: { status: to, why: t.why, via: source.via } });
    return after;
  });
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
  return (await applyStatus(deps, order.id, status, source, now))?.order ?? order;
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
  const providers = providersFor(deps.config);
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
  const open = OPEN_STATUSES.includes(old.status as OrderStatus);
  if (open && now <= old.expiresAt) {
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
