import type { OrderStatus } from '../../../../sync-protocol/src/order';
import type { ProviderOrderState } from './provider';

/*
 * An order's state machine (ARCHITECTURE decision 10; issue 18 §1), read top to bottom:
 *
 *   CREATED ──initiatePayment (the buyer is sent to the provider)──▶ PENDING
 *   CREATED | PENDING ──provider COMPLETED (amount right)──▶ PAID
 *   CREATED | PENDING ──provider FAILED──▶ FAILED            (EXPIRED once past expiresAt)
 *   CREATED | PENDING ──provider CANCELLED (the payer cancelled there)──▶ CANCELLED
 *   CREATED | PENDING ──provider PENDING, past expiresAt──▶ EXPIRED
 *   CREATED, never sent to a provider, past expiresAt ──▶ EXPIRED (nobody can have paid it)
 *   FAILED | EXPIRED | CANCELLED ──provider COMPLETED (amount right)──▶ PAID
 *        (a late success: money the provider took is honoured, never left hanging)
 *   CREATED | PENDING ──provider COMPLETED, wrong amount──▶ FAILED, the capture flagged REFUND_DUE
 *   PAID | REFUNDED: final for the provider's events; a further capture is recorded and
 *        flagged REFUND_DUE (the terms' double debit), the order does not change.
 *
 * The provider's status API is the truth (the service asks it before applying anything); the
 * decision below only depends on the order as stored and that answer, so applying the same
 * answer twice, or answers in any order, ends in the same place (monotonic: PAID is absorbing).
 */

/** What applying one provider answer does to the order's status. */
export type Transition =
  | { to: null; why: 'final' | 'unchanged' }
  | { to: 'PAID'; why: 'completed' }
  | { to: 'FAILED'; why: 'provider-failed' | 'amount-mismatch' }
  | { to: 'CANCELLED'; why: 'payer-cancelled' }
  | { to: 'EXPIRED'; why: 'expired' };

/** Orders the provider may still move; PAID and REFUNDED never change through it. */
export const OPEN_STATUSES: readonly OrderStatus[] = ['CREATED', 'PENDING'];
const UNPAID_CLOSED: readonly OrderStatus[] = ['FAILED', 'EXPIRED', 'CANCELLED'];

export type MachineOrder = { status: OrderStatus; amount: number; expiresAt: number };
export type MachineAnswer = { state: ProviderOrderState; amount: number };

export function decide(order: MachineOrder, answer: MachineAnswer, now: number): Transition {
  const open = OPEN_STATUSES.includes(order.status);
  if (!open && !UNPAID_CLOSED.includes(order.status)) return { to: null, why: 'final' };
  if (answer.state === 'COMPLETED') {
    // Not what the order costs: never PAID (the capture is flagged for refund by the service).
    if (answer.amount !== order.amount) return open ? { to: 'FAILED', why: 'amount-mismatch' } : { to: null, why: 'unchanged' };
    return { to: 'PAID', why: 'completed' };
  }
  if (!open) return { to: null, why: 'unchanged' };
  // The payer's own cancel is what happened, also when the answer comes after the expiry time.
  if (answer.state === 'CANCELLED') return { to: 'CANCELLED', why: 'payer-cancelled' };
  const expired = now > order.expiresAt;
  if (answer.state === 'FAILED') return expired ? { to: 'EXPIRED', why: 'expired' } : { to: 'FAILED', why: 'provider-failed' };
  // The provider still waits for the buyer: only time ends that (PENDING never grants anything).
  return expired ? { to: 'EXPIRED', why: 'expired' } : { to: null, why: 'unchanged' };
}

/** An order no provider has heard of (initiatePayment never ran): only its expiry moves it. */
export function decideUnstarted(order: MachineOrder, now: number): Transition {
  return order.status === 'CREATED' && now > order.expiresAt ? { to: 'EXPIRED', why: 'expired' } : { to: null, why: 'unchanged' };
}

/** Whether an order can still be paid (initiatePayment): open and not past its expiry. */
export const payable = (order: MachineOrder, now: number) => OPEN_STATUSES.includes(order.status) && now <= order.expiresAt;
