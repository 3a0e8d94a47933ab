import { describe, expect, test } from 'vitest';
import type { OrderStatus } from '../../../../sync-protocol/src/order';
import { decide, decideUnstarted, payable } from './payments.machine';

const NOW = 1_700_000_000_000;
const order = (status: OrderStatus, expiresAt = NOW + 60_000) => ({ status, amount: 15_000, expiresAt });
const paid = { state: 'COMPLETED' as const, amount: 15_000 };

describe('the order state machine', () => {
  test('PAID and REFUNDED never change, whatever the provider says', () => {
    for (const s of ['PAID', 'REFUNDED'] as const) {
      for (const state of ['PENDING', 'COMPLETED', 'FAILED'] as const) {
        expect(decide(order(s), { state, amount: 15_000 }, NOW)).toEqual({ to: null, why: 'final' });
      }
    }
  });

  test('a completed payment of the right amount pays any unpaid order (a late success is honoured)', () => {
    for (const s of ['CREATED', 'PENDING', 'FAILED', 'EXPIRED', 'CANCELLED'] as const) {
      expect(decide(order(s, NOW - 1), paid, NOW).to, s).toBe('PAID');
    }
  });

  test('a wrong amount is never PAID', () => {
    expect(decide(order('PENDING'), { state: 'COMPLETED', amount: 100 }, NOW)).toEqual({ to: 'FAILED', why: 'amount-mismatch' });
    expect(decide(order('FAILED'), { state: 'COMPLETED', amount: 100 }, NOW).to).toBeNull();
  });

  test('failure, expiry, and PENDING that changes nothing', () => {
    expect(decide(order('PENDING'), { state: 'FAILED', amount: 15_000 }, NOW).to).toBe('FAILED');
    expect(decide(order('PENDING', NOW - 1), { state: 'FAILED', amount: 15_000 }, NOW).to).toBe('EXPIRED');
    expect(decide(order('PENDING'), { state: 'PENDING', amount: 15_000 }, NOW).to).toBeNull();
    expect(decide(order('PENDING', NOW - 1), { state: 'PENDING', amount: 15_000 }, NOW).to).toBe('EXPIRED');
    expect(decide(order('FAILED'), { state: 'FAILED', amount: 15_000 }, NOW).to).toBeNull();
    expect(decide(order('EXPIRED'), { state: 'PENDING', amount: 15_000 }, NOW).to).toBeNull();
  });

  test('a payer who cancelled at the provider: CANCELLED, also past the expiry; a closed order stays as it is', () => {
    const cancelled = { state: 'CANCELLED' as const, amount: 15_000 };
    expect(decide(order('PENDING'), cancelled, NOW)).toEqual({ to: 'CANCELLED', why: 'payer-cancelled' });
    expect(decide(order('CREATED'), cancelled, NOW).to).toBe('CANCELLED');
    expect(decide(order('PENDING', NOW - 1), cancelled, NOW).to).toBe('CANCELLED');
    for (const s of ['FAILED', 'EXPIRED', 'CANCELLED'] as const) expect(decide(order(s), cancelled, NOW).to, s).toBeNull();
    for (const s of ['PAID', 'REFUNDED'] as const) expect(decide(order(s), cancelled, NOW)).toEqual({ to: null, why: 'final' });
  });

  test('applying the same answer again changes nothing (monotonic)', () => {
    const first = decide(order('PENDING'), paid, NOW);
    expect(first.to).toBe('PAID');
    expect(decide(order('PAID'), paid, NOW).to).toBeNull();
  });

  test('an order never sent to a provider only expires; payable means open and in time', () => {
    expect(decideUnstarted(order('CREATED', NOW - 1), NOW).to).toBe('EXPIRED');
    expect(decideUnstarted(order('CREATED'), NOW).to).toBeNull();
    expect(payable(order('CREATED'), NOW)).toBe(true);
    expect(payable(order('PENDING'), NOW)).toBe(true);
    expect(payable(order('PENDING', NOW - 1), NOW)).toBe(false);
    expect(payable(order('FAILED'), NOW)).toBe(false);
  });
});
