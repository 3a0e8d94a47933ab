import { describe, expect, test } from 'vitest';
import { WITHDRAWAL_STATUSES, type WithdrawalStatus } from '@pm/protocol/payout';
import { HOLDING, isOverdue, MOVES, nextStatus, type WithdrawalMove } from './withdrawals.machine';

/** The diagram of withdrawals.machine.ts, written out: every allowed (move, from) and where it leads. */
const ALLOWED: Record<WithdrawalMove, Partial<Record<WithdrawalStatus, WithdrawalStatus>>> = {
  approve: { REQUESTED: 'APPROVED' },
  reject: { REQUESTED: 'REJECTED' },
  cancel: { REQUESTED: 'CANCELLED' },
  pay: { APPROVED: 'PAYING', FAILED: 'PAYING' },
  paid: { PAYING: 'PAID' },
  fail: { PAYING: 'FAILED' },
  reverse: { PAID: 'FAILED' },
};

describe('withdrawals.machine (docs/charity.md "Withdrawals")', () => {
  test.each(Object.keys(MOVES).flatMap((move) => WITHDRAWAL_STATUSES.map((from) => [move as WithdrawalMove, from] as const)))('%s from %s', (move, from) => {
    expect(nextStatus(from, move)).toBe(ALLOWED[move][from] ?? null);
  });

  test('a PAYING withdrawal is never paid again; REJECTED and CANCELLED are final', () => {
    expect(nextStatus('PAYING', 'pay')).toBeNull();
    for (const move of Object.keys(MOVES) as WithdrawalMove[]) {
      expect(nextStatus('REJECTED', move)).toBeNull();
      expect(nextStatus('CANCELLED', move)).toBeNull();
    }
  });

  test('money is held while requested, approved or paying; a failed one frees it', () => {
    expect([...HOLDING].sort()).toEqual(['APPROVED', 'PAYING', 'REQUESTED']);
  });

  test('overdue: past the due time and not paid, rejected or cancelled', () => {
    expect(isOverdue('REQUESTED', 10, 11)).toBe(true);
    expect(isOverdue('FAILED', 10, 11)).toBe(true);
    expect(isOverdue('REQUESTED', 10, 10)).toBe(false);
    for (const s of ['PAID', 'REJECTED', 'CANCELLED'] as const) expect(isOverdue(s, 10, 11)).toBe(false);
  });
});
