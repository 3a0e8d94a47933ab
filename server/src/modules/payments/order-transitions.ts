import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { OrderStatus } from '@pm/protocol/order';
import type { Provider } from '@pm/protocol/payment';
import type { Deps } from '../../context';
import type { Tx } from '../../db/client';
import { lockRows, takeTurns } from '../../db/dialect';
import { ledgerEntry, payment, plan, purchaseOrder } from '../../db/schema';
import { first, transaction } from '../../db/transaction';
import { ACCOUNTS, post as postMovement } from '../../lib/ledger';
import { type Actor, logActivity } from '../../lib/activity';
import { endGrant, GRANT_COLLECTIONS, grantPlan } from '../entitlements/entitlements.service';
import { orderRow } from './order-view';
import { decide, type MachineOrder, type Transition } from './payments.machine';
import type { ProviderPayment, ProviderStatus } from './provider';

/*
 * Applying the order state machine (docs/payments.md, "The order state machine"). Every event
 * that moves an order (the buyer sent to the provider, the provider's answer, an admin's change,
 * the expiry of an order no provider holds) goes through `applyTransition`, inside one
 * transaction: the row is locked and read, payments.machine.ts decides, and the decision is
 * written as one conditional update (`UPDATE … WHERE status = <the status decided from>
 * RETURNING`, so two events can never both move the order from the same status), with its
 * activity entry and its effects (becoming PAID grants the plan; a refund ends it and writes the
 * ledger's REFUND entry). A provider's answer also records the provider's attempts as payments
 * and ledger entries, whatever it does to the order. Amounts are integer paise.
 */

type Order = typeof purchaseOrder.$inferSelect;

/** An event of the machine with what applying it needs. */
export type EventToApply =
  | { kind: 'initiated'; provider: string; pgOrderId: string }
  | ({ kind: 'provider' } & ProviderStatus)
  | { kind: 'admin'; to: OrderStatus }
  | { kind: 'expiry' };

/**
 * What an order kind other than a plan does with its money (wired in compose.ts, Deps.orderKinds;
 * a donation: modules/donations). `capture` posts the movements of a capture that pays the order,
 * its gateway leg included, and says whether it did (false: the default legs apply); `paid` runs
 * as the order becomes PAID, in the same transaction (a receipt number of its own).
 */
export type OrderKindMoney = {
  capture(tx: Tx, order: Order, paid: { paymentId: string; amount: number }, now: number): Promise<boolean>;
  paid?(tx: Tx, order: Order, now: number): Promise<void>;
};

/** Who or what fed the state machine, for the activity log. */
export type ApplySource = { via: 'check' | 'webhook' | 'reconcile' | 'checkout' | 'initiate' | 'admin'; actor: Actor; eventId?: string };

/**
 * What applying did: the order as it is now, the machine's decision, whether its status was
 * written (false: the machine kept it, or it moved under us), and whether the person's plan
 * changed (granted or ended: their devices are told, `announce`).
 */
export type Applied = { order: Order; transition: Transition; written: boolean; entitlementChanged: boolean };

/** Orders becoming paid take turns for their receipt number (max + 1: db/dialect.ts takeTurns). */
export const RECEIPT_NUMBERS = 'receipt-number';

/** What the machine reads of an order. */
export const machineOrder = (o: Order): MachineOrder => ({ status: o.status as OrderStatus, amount: o.amount, expiresAt: o.expiresAt });

function orderById(tx: Tx, id: string): Promise<Order | undefined> {
  return first(tx.select().from(purchaseOrder).where(eq(purchaseOrder.id, id)));
}

/**
 * Applies one event to one order inside the caller's transaction (the webhook inbox's, with the
 * event's `processed_at`). Returns null for an unknown order.
 */
export async function applyTransition(tx: Tx, deps: Deps, orderId: string, event: EventToApply, source: ApplySource, now = Date.now()): Promise<Applied | null> {
  // Events for one order are applied one after another (PostgreSQL: the order's row, locked
  // until the commit; SQLite runs one transaction at a time): each sees what the previous wrote.
  await lockRows(tx, purchaseOrder, eq(purchaseOrder.id, orderId));
  const before = await orderById(tx, orderId);
  if (!before) return null;
  const transition = decide(machineOrder(before), event, now);
  // An admin's change is logged as the back office shows the order, before and after.
  const shownBefore = event.kind === 'admin' && transition.to ? await orderRow(tx, orderId) : undefined;
  const after = transition.to ? await writeStatus(tx, before, transition.to, transition, event, now) : undefined;
  let entitlementChanged = false;
  if (after) {
    await logTransition(tx, before, after, transition, event, source, shownBefore);
    if (transition.why === 'amount-mismatch' && event.kind === 'provider') {
      deps.log.warn({ orderId, orderAmount: before.amount, providerAmount: event.amount }, 'provider amount differs from the order: not paid');
    }
    entitlementChanged = await runEffects(tx, deps, after, transition, source, now);
  }
  // The status was decided but the write matched nothing (it cannot while the row is locked, but
  // the write stays conditional): the order as it is now.
  const order = after ?? (transition.to ? ((await orderById(tx, orderId)) ?? before) : before);
  if (event.kind === 'provider') await recordPayments(tx, deps, order, event, order.provider ?? 'unknown', source, now);
  return { order, transition, written: after !== undefined, entitlementChanged };
}

/** applyTransition in a transaction of its own; the person's devices are told of a plan it changed. */
export async function runTransition(deps: Deps, orderId: string, event: EventToApply, source: ApplySource, now = Date.now()): Promise<Applied | null> {
  const applied = await transaction(deps.db, (tx) => applyTransition(tx, deps, orderId, event, source, now));
  announce(deps, applied);
  return applied;
}

/** Tells the person's devices (replication) about a plan the change granted or ended. */
export function announce(deps: Deps, applied: Applied | null): void {
  if (applied?.entitlementChanged && applied.order.personId) deps.events.emit({ collections: [...GRANT_COLLECTIONS], personId: applied.order.personId });
}

// ---------------------------------------------------------------------------------------------
// The conditional write

/**
 * The one write of a transition, on the status decided from. Becoming PAID also sets paidAt and
 * the next receipt number (max + 1 in the same statement, the turn taken first).
 */
async function writeStatus(tx: Tx, before: Order, to: OrderStatus, transition: Transition, event: EventToApply, now: number): Promise<Order | undefined> {
  const becomesPaid = transition.effects.includes('paid');
  if (becomesPaid) await takeTurns(tx, RECEIPT_NUMBERS);
  return first(
    tx
      .update(purchaseOrder)
      .set({
        status: to,
        updatedAt: now,
        ...columnsOf(before, event),
        ...(becomesPaid ? { paidAt: paidAtOf(before, event, now), receiptNo: sql`(select coalesce(max(${purchaseOrder.receiptNo}), 0) + 1 from ${purchaseOrder})` } : {}),
      })
      .where(and(eq(purchaseOrder.id, before.id), eq(purchaseOrder.status, before.status)))
      .returning(),
  );
}

/** What an event writes besides the status: the provider that holds the order, and its order id. */
function columnsOf(before: Order, event: EventToApply): Partial<Order> {
  if (event.kind === 'initiated') return { provider: event.provider, pgOrderId: event.pgOrderId };
  if (event.kind === 'provider' && event.pgOrderId && !before.pgOrderId) return { pgOrderId: event.pgOrderId };
  return {};
}

/** When the order was paid: the provider's paying capture's time (never in the future), else now. */
function paidAtOf(before: Order, event: EventToApply, now: number): number {
  if (event.kind !== 'provider') return now;
  const paying = attemptsOf(before, event, now).find((p) => p.state === 'COMPLETED' && p.amount === before.amount);
  return paying && Number.isFinite(paying.at) && paying.at <= now ? paying.at : now;
}

// ---------------------------------------------------------------------------------------------
// The activity entry

/** The order's activity entry, in the shape each event has always logged. */
async function logTransition(tx: Tx, before: Order, after: Order, transition: Transition, event: EventToApply, source: ApplySource, shownBefore: unknown): Promise<void> {
  const entry = { actor: source.actor, action: 'UPDATE' as const, entity: 'order', entityId: after.id, oldValue: { status: before.status } };
  switch (event.kind) {
    case 'initiated':
      // Sent to the provider again (Razorpay's Checkout reopened): not a change of state.
      if (before.status === after.status) return;
      return logActivity(tx, { ...entry, newValue: { status: after.status, provider: after.provider, pgOrderId: after.pgOrderId, via: source.via } });
    case 'provider':
      return logActivity(tx, {
        ...entry,
        newValue: { status: after.status, why: transition.why, via: source.via, receiptNo: after.receiptNo, paidAt: after.paidAt, ...(source.eventId ? { eventId: source.eventId } : {}) },
      });
    case 'expiry':
      return logActivity(tx, { ...entry, newValue: { status: after.status, why: transition.why, via: source.via } });
    case 'admin':
      return logActivity(tx, { ...entry, oldValue: shownBefore, newValue: await orderRow(tx, after.id) });
  }
}

// ---------------------------------------------------------------------------------------------
// Effects

/** Runs the transition's effects; true when the person's plan changed. */
async function runEffects(tx: Tx, deps: Deps, order: Order, transition: Transition, source: ApplySource, now: number): Promise<boolean> {
  let changed = false;
  if (transition.effects.includes('paid')) {
    changed = await grantBoughtPlan(tx, order, now);
    await deps.orderKinds[order.kind]?.paid?.(tx, order, now);
  }
  if (transition.effects.includes('refunded')) changed = (await refund(tx, order, source, now)) || changed;
  return changed;
}

/** The account an order's money goes to: the plans' revenue, or a donation to the trust with no campaign. */
function revenueAccountOf(order: Order): string {
  return order.kind === 'DONATION' ? ACCOUNTS.generalDonations : ACCOUNTS.plans;
}

/** A paid plan order grants its plan from the day it was paid (entitlements.service grantPlan). */
async function grantBoughtPlan(tx: Tx, order: Order, now: number): Promise<boolean> {
  if (order.kind !== 'PLAN' || !order.planId || !order.personId) return false;
  const bought = await first(tx.select({ code: plan.code }).from(plan).where(eq(plan.id, order.planId)));
  if (!bought) return false;
  return (await grantPlan(tx, { orderId: order.id, personId: order.personId, planCode: bought.code, paidAt: order.paidAt ?? now })) !== null;
}

/**
 * PAID → REFUNDED. A refunded plan ends from now; what it counted stays counted (docs/payments.md).
 * The money paid back is a debit payment beside its negative ledger entry, so that the transaction
 * report lists what every report counts (docs/admin.md, "What the reports count"). True when a
 * plan ended.
 */
async function refund(tx: Tx, order: Order, source: ApplySource, now: number): Promise<boolean> {
  const ended = await endGrant(tx, order.id, now);
  const captured = await first(
    tx
      .select({ id: ledgerEntry.id, channel: payment.channel, provider: payment.provider })
      .from(ledgerEntry)
      .leftJoin(payment, eq(payment.id, ledgerEntry.paymentId))
      .where(and(eq(ledgerEntry.orderId, order.id), inArray(ledgerEntry.kind, PAYING_KINDS), eq(ledgerEntry.account, ACCOUNTS.gateway)))
      .limit(1),
  );
  if (captured) {
    const debit = await first(
      tx
        .insert(payment)
        .values({
          amount: order.amount,
          channel: captured.channel ?? 'UNKNOWN',
          transactionId: `refund:${order.id}`,
          details: { refundOf: order.id, by: source.actor?.id },
          isCredit: false,
          orderId: order.id,
          personId: order.personId,
          status: 'SUCCESS',
          provider: captured.provider ?? order.provider,
          createdAt: now,
          updatedAt: now,
        })
        .onConflictDoNothing()
        .returning({ id: payment.id }),
    );
    if (debit) await postMovement(tx, { groupId: `refund:${order.id}`, kind: 'REFUND', orderId: order.id, paymentId: debit.id, legs: await reversalOf(tx, order), at: now });
  }
  return ended !== null;
}

/** The movements that paid an order (a flagged second capture is owed back on its own: REFUND_DUE). */
const PAYING_KINDS = ['CAPTURE', 'DONATION', 'SHARE_SPLIT'];

/**
 * The legs that undo what paid an order, one per account: every leg of its paying movements
 * negated and summed by account (docs/charity.md "The ledger": a refund is new rows, never an
 * edit). The sum of balanced movements negated is balanced.
 */
async function reversalOf(tx: Tx, order: Order): Promise<{ account: string; amount: number }[]> {
  const legs = await tx
    .select({ account: ledgerEntry.account, amount: ledgerEntry.amount })
    .from(ledgerEntry)
    .where(and(eq(ledgerEntry.orderId, order.id), inArray(ledgerEntry.kind, PAYING_KINDS)));
  const byAccount = new Map<string, number>();
  for (const l of legs) byAccount.set(l.account, (byAccount.get(l.account) ?? 0) - l.amount);
  return [...byAccount].map(([account, amount]) => ({ account, amount }));
}

// ---------------------------------------------------------------------------------------------
// The provider's attempts

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

/**
 * Records the provider's finished attempts as Payment rows, once each (unique
 * transactionId). A capture is the order's paying payment when the order is PAID and has none
 * yet and the amount is right; any other capture (a second one, a wrong amount, one for an order
 * that cannot be paid) is kept, put in the ledger as money received and owed back (the account
 * `refunds-due`), and flagged REFUND_DUE.
 */
async function recordPayments(tx: Tx, deps: Deps, order: Order, status: ProviderStatus, provider: string, source: ApplySource, now: number): Promise<void> {
  const { providers } = deps.payments;
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
    // Money received: from the gateway to what the order paid for (its kind's own movements,
    // a donation's), or, for a capture that paid nothing (flagged), to what is owed back
    // (docs/charity.md "The ledger").
    const kindMoney = flag ? undefined : deps.orderKinds[order.kind];
    if (!(await kindMoney?.capture(tx, order, { paymentId: row.id, amount: p.amount }, now))) await postMovement(tx, {
      groupId: `capture:${row.id}`,
      kind: flag ? 'REFUND_DUE' : 'CAPTURE',
      orderId: order.id,
      paymentId: row.id,
      legs: [
        { account: ACCOUNTS.gateway, amount: p.amount },
        { account: flag ? ACCOUNTS.refundsDue : revenueAccountOf(order), amount: -p.amount },
      ],
      at: now,
    });
    if (flag) {
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
