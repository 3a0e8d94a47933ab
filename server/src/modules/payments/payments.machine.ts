import type { OrderStatus } from '@pm/protocol/order';
import type { ProviderOrderState } from './provider';

/*
 * An order's state machine (ARCHITECTURE decision 10; docs/payments.md, "The order state
 * machine"): its states, the events that move it, and what each event does in each state,
 * nothing else. Every event is decided here and applied by `applyTransition`
 * (order-transitions.ts), which writes the change, its activity entry and its effects.
 *
 * Events:
 *   initiated  the buyer is sent to the provider (initiatePayment)
 *   provider   the provider's answer, from its status API (the truth): asked after the
 *              redirect, for a webhook, or by the reconciliation job
 *   admin      an admin sets the status by hand (PATCH /api/order/status)
 *   expiry     an order no provider has heard of meets its expiry time
 *
 * Read top to bottom:
 *
 *   CREATED | PENDING ──initiated, before expiresAt──▶ PENDING
 *   CREATED | PENDING ──provider COMPLETED (amount right)──▶ PAID
 *   CREATED | PENDING ──provider FAILED──▶ FAILED            (EXPIRED once past expiresAt)
 *   CREATED | PENDING ──provider CANCELLED (the payer cancelled there)──▶ CANCELLED
 *   CREATED | PENDING ──provider PENDING, past expiresAt──▶ EXPIRED
 *   CREATED ──expiry, past expiresAt (never sent to a provider: nobody can have paid it)──▶ EXPIRED
 *   FAILED | EXPIRED | CANCELLED ──provider COMPLETED (amount right)──▶ PAID
 *        (a late success: money the provider took is honoured, never left hanging)
 *   CREATED | PENDING ──provider COMPLETED, wrong amount──▶ FAILED, the capture flagged REFUND_DUE
 *   PAID | REFUNDED: final for the provider's events; a further capture is recorded and
 *        flagged REFUND_DUE (the terms' double debit), the order does not change.
 *   any unpaid status ──admin──▶ the status the admin chose (PAID as a payment would)
 *   PAID ──admin──▶ PAID or REFUNDED; REFUNDED ──admin──▶ REFUNDED (a paid order never goes back)
 *
 * The decision only depends on the order as stored, the event and the time, so applying the
 * same provider answer twice, or answers in any order, ends in the same place (monotonic: PAID
 * is absorbing for the provider).
 */

/** Orders the provider may still move; PAID and REFUNDED never change through it. */
export const OPEN_STATUSES: readonly OrderStatus[] = ['CREATED', 'PENDING'];
const UNPAID_CLOSED: readonly OrderStatus[] = ['FAILED', 'EXPIRED', 'CANCELLED'];
const PAID_STATUSES: readonly OrderStatus[] = ['PAID', 'REFUNDED'];

export type MachineOrder = { status: OrderStatus; amount: number; expiresAt: number };

/** What happened to an order. */
export type OrderEvent =
  | { kind: 'initiated' }
  | { kind: 'provider'; state: ProviderOrderState; amount: number }
  | { kind: 'admin'; to: OrderStatus }
  | { kind: 'expiry' };

/** What follows from a change of status, besides the status itself (applyTransition runs it). */
export type Effect =
  /** Becomes PAID: a paidAt, the next receipt number and the plan's entitlement. */
  | 'paid'
  /** PAID → REFUNDED: the plan ends; a debit payment and its negative REFUND ledger entry. */
  | 'refunded';

export type MoveWhy = 'initiated' | 'completed' | 'provider-failed' | 'amount-mismatch' | 'payer-cancelled' | 'expired' | 'admin';
/**
 * Why the order stays as it is: `final` (paid or refunded: a provider's answer changes nothing,
 * initiating or an admin's step back is refused), `not-payable` (initiating a closed or expired
 * order is refused), `unchanged` (nothing happened that moves it).
 */
export type StayWhy = 'final' | 'not-payable' | 'unchanged';

/** The machine's decision: the status to write (null: none) and its effects. */
export type Transition = { to: OrderStatus; why: MoveWhy; effects: readonly Effect[] } | { to: null; why: StayWhy; effects: readonly Effect[] };

type Step = { to: OrderStatus; why: MoveWhy } | { to: null; why: StayWhy };
const move = (to: OrderStatus, why: MoveWhy): Step => ({ to, why });
const stay = (why: StayWhy): Step => ({ to: null, why });

export function decide(order: MachineOrder, event: OrderEvent, now: number): Transition {
  const step = stepOf(order, event, now);
  return { ...step, effects: effectsOf(order.status, step.to) };
}

function stepOf(order: MachineOrder, event: OrderEvent, now: number): Step {
  switch (event.kind) {
    case 'initiated':
      return onInitiated(order, now);
    case 'provider':
      return onProviderAnswer(order, event, now);
    case 'admin':
      return onAdminChange(order, event.to);
    case 'expiry':
      return onExpiry(order, now);
  }
}

/** Effects follow from the status moved from and to, whichever event moved it. */
function effectsOf(from: OrderStatus, to: OrderStatus | null): Effect[] {
  if (to === 'PAID' && from !== 'PAID') return ['paid'];
  if (to === 'REFUNDED' && from === 'PAID') return ['refunded'];
  return [];
}

/** The buyer may be sent to a provider while the order is open and not past its expiry. */
function onInitiated(order: MachineOrder, now: number): Step {
  if (PAID_STATUSES.includes(order.status)) return stay('final');
  return OPEN_STATUSES.includes(order.status) && now <= order.expiresAt ? move('PENDING', 'initiated') : stay('not-payable');
}

function onProviderAnswer(order: MachineOrder, answer: { state: ProviderOrderState; amount: number }, now: number): Step {
  const open = OPEN_STATUSES.includes(order.status);
  if (!open && !UNPAID_CLOSED.includes(order.status)) return stay('final');
  if (answer.state === 'COMPLETED') {
    // Not what the order costs: never PAID (the capture is flagged for refund when recorded).
    if (answer.amount !== order.amount) return open ? move('FAILED', 'amount-mismatch') : stay('unchanged');
    return move('PAID', 'completed');
  }
  if (!open) return stay('unchanged');
  // The payer's own cancel is what happened, also when the answer comes after the expiry time.
  if (answer.state === 'CANCELLED') return move('CANCELLED', 'payer-cancelled');
  const expired = now > order.expiresAt;
  if (answer.state === 'FAILED') return expired ? move('EXPIRED', 'expired') : move('FAILED', 'provider-failed');
  // The provider still waits for the buyer: only time ends that (PENDING never grants anything).
  return expired ? move('EXPIRED', 'expired') : stay('unchanged');
}

/**
 * An admin corrects an order (for example a payment the provider confirmed by other means). A
 * paid order never goes back: PAID only moves on to REFUNDED, and REFUNDED is final. Choosing
 * the status the order has is written again (and logged) like any other choice.
 */
function onAdminChange(order: MachineOrder, to: OrderStatus): Step {
  if (order.status === 'REFUNDED' && to !== 'REFUNDED') return stay('final');
  if (order.status === 'PAID' && to !== 'PAID' && to !== 'REFUNDED') return stay('final');
  return move(to, 'admin');
}

/**
 * An order no provider has heard of (initiated never ran) only expires. One a provider holds
 * (PENDING) waits for the provider's answer, which may still be a payment.
 */
function onExpiry(order: MachineOrder, now: number): Step {
  if (PAID_STATUSES.includes(order.status)) return stay('final');
  return order.status === 'CREATED' && now > order.expiresAt ? move('EXPIRED', 'expired') : stay('unchanged');
}

/** Whether an order can still be paid (initiatePayment, retryPayment): open and not past its expiry. */
export const payable = (order: MachineOrder, now: number) => decide(order, { kind: 'initiated' }, now).to !== null;
