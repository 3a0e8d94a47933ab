import type { WithdrawalStatus } from '@pm/protocol/payout';

/*
 * A withdrawal's state machine (docs/charity.md "Withdrawals"): its states, the moves, nothing
 * else. The services apply a move as one conditional write of the status the withdrawal was read
 * with, with its history entry and its activity entry in the same transaction.
 *
 * Read top to bottom:
 *
 *   REQUESTED ──approve (the second of two trustees)──▶ APPROVED
 *   REQUESTED ──reject (a trustee, with a reason)──▶ REJECTED          (final)
 *   REQUESTED ──cancel (the requester)──▶ CANCELLED                    (final)
 *   APPROVED ──pay (the payout is sent, with a new idempotency key)──▶ PAYING
 *   FAILED ──pay (retry by staff: a new key; the failed payout is final at the bank)──▶ PAYING
 *   PAYING ──paid (the provider's answer, webhook or a status check)──▶ PAID
 *   PAYING ──fail (the same)──▶ FAILED
 *   PAID ──reverse (the bank returned the money)──▶ FAILED
 *
 * Anything else is refused (409) and changes nothing: a PAYING withdrawal is never sent again, a
 * PAID one never paid twice, a rejected or cancelled one never moves.
 */

export type WithdrawalMove = 'approve' | 'reject' | 'cancel' | 'pay' | 'paid' | 'fail' | 'reverse';

export const MOVES: Readonly<Record<WithdrawalMove, { from: readonly WithdrawalStatus[]; to: WithdrawalStatus }>> = {
  approve: { from: ['REQUESTED'], to: 'APPROVED' },
  reject: { from: ['REQUESTED'], to: 'REJECTED' },
  cancel: { from: ['REQUESTED'], to: 'CANCELLED' },
  pay: { from: ['APPROVED', 'FAILED'], to: 'PAYING' },
  paid: { from: ['PAYING'], to: 'PAID' },
  fail: { from: ['PAYING'], to: 'FAILED' },
  reverse: { from: ['PAID'], to: 'FAILED' },
};

/** The status a move leads to from `status`, or null when the move is not allowed from there. */
export function nextStatus(status: WithdrawalStatus, move: WithdrawalMove): WithdrawalStatus | null {
  const rule = MOVES[move];
  return rule.from.includes(status) ? rule.to : null;
}

/** Statuses whose money is held: not yet paid, and not given up (docs/charity.md "The ledger"). */
export const HOLDING: readonly WithdrawalStatus[] = ['REQUESTED', 'APPROVED', 'PAYING'];
/** Statuses the trustees' queue shows. */
export const QUEUED: readonly WithdrawalStatus[] = ['REQUESTED', 'APPROVED', 'PAYING', 'FAILED'];
/** Statuses past which nothing is due: a withdrawal in one of them is never overdue. */
export const SETTLED: readonly WithdrawalStatus[] = ['PAID', 'REJECTED', 'CANCELLED'];

/** Whether a withdrawal due at `dueAt` is overdue at `now`. */
export const isOverdue = (status: WithdrawalStatus, dueAt: number, now: number) => !SETTLED.includes(status) && now > dueAt;
