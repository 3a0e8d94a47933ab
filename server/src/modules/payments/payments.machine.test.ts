import { describe, expect, test } from 'vitest';
import { ORDER_STATUSES, type OrderStatus } from '@pm/protocol/order';
import { decide, type OrderEvent, payable, type Transition } from './payments.machine';
import type { ProviderOrderState } from './provider';

const NOW = 1_700_000_000_000;
const PRICE = 15_000;
const EXPIRES = { 'in time': NOW + 60_000, 'past expiry': NOW - 1 } as const;
type Time = keyof typeof EXPIRES | 'any time';

const order = (status: OrderStatus, expiresAt: number) => ({ status, amount: PRICE, expiresAt });
const provider = (state: ProviderOrderState, amount = PRICE): OrderEvent => ({ kind: 'provider', state, amount });
const admin = (to: OrderStatus): OrderEvent => ({ kind: 'admin', to });

type Cells = [created: string, pending: string, paid: string, failed: string, expired: string, cancelled: string, refunded: string];

/*
 * The whole machine (docs/payments.md, "The order state machine"): one row per event and time
 * (the order before or past its expiry time; 'any time' is checked at both), one cell per
 * status in ORDER_STATUSES order. A cell reads 'NEXT why +effect…' for the status written and
 * what follows from it, or '= why' when the order stays as it is.
 */
const TABLE: [string, OrderEvent, Time, Cells][] = [
  ['initiated', { kind: 'initiated' }, 'in time',
    ['PENDING initiated', 'PENDING initiated', '= final', '= not-payable', '= not-payable', '= not-payable', '= final']],
  ['initiated', { kind: 'initiated' }, 'past expiry',
    ['= not-payable', '= not-payable', '= final', '= not-payable', '= not-payable', '= not-payable', '= final']],

  ['provider PENDING', provider('PENDING'), 'in time',
    ['= unchanged', '= unchanged', '= final', '= unchanged', '= unchanged', '= unchanged', '= final']],
  ['provider PENDING', provider('PENDING'), 'past expiry',
    ['EXPIRED expired', 'EXPIRED expired', '= final', '= unchanged', '= unchanged', '= unchanged', '= final']],
  // A late success is honoured: money the provider took is never left hanging.
  ['provider COMPLETED', provider('COMPLETED'), 'any time',
    ['PAID completed +paid', 'PAID completed +paid', '= final', 'PAID completed +paid', 'PAID completed +paid', 'PAID completed +paid', '= final']],
  // Not what the order costs: never PAID (the capture is recorded and flagged REFUND_DUE).
  ['provider COMPLETED, wrong amount', provider('COMPLETED', 100), 'any time',
    ['FAILED amount-mismatch', 'FAILED amount-mismatch', '= final', '= unchanged', '= unchanged', '= unchanged', '= final']],
  ['provider FAILED', provider('FAILED'), 'in time',
    ['FAILED provider-failed', 'FAILED provider-failed', '= final', '= unchanged', '= unchanged', '= unchanged', '= final']],
  ['provider FAILED', provider('FAILED'), 'past expiry',
    ['EXPIRED expired', 'EXPIRED expired', '= final', '= unchanged', '= unchanged', '= unchanged', '= final']],
  // The payer's own cancel is what happened, also when it is learnt after the expiry time.
  ['provider CANCELLED', provider('CANCELLED'), 'any time',
    ['CANCELLED payer-cancelled', 'CANCELLED payer-cancelled', '= final', '= unchanged', '= unchanged', '= unchanged', '= final']],

  // A paid order never goes back: PAID only moves on to REFUNDED, and REFUNDED is final.
  ['admin → CREATED', admin('CREATED'), 'any time',
    ['CREATED admin', 'CREATED admin', '= final', 'CREATED admin', 'CREATED admin', 'CREATED admin', '= final']],
  ['admin → PENDING', admin('PENDING'), 'any time',
    ['PENDING admin', 'PENDING admin', '= final', 'PENDING admin', 'PENDING admin', 'PENDING admin', '= final']],
  ['admin → PAID', admin('PAID'), 'any time',
    ['PAID admin +paid', 'PAID admin +paid', 'PAID admin', 'PAID admin +paid', 'PAID admin +paid', 'PAID admin +paid', '= final']],
  ['admin → FAILED', admin('FAILED'), 'any time',
    ['FAILED admin', 'FAILED admin', '= final', 'FAILED admin', 'FAILED admin', 'FAILED admin', '= final']],
  ['admin → EXPIRED', admin('EXPIRED'), 'any time',
    ['EXPIRED admin', 'EXPIRED admin', '= final', 'EXPIRED admin', 'EXPIRED admin', 'EXPIRED admin', '= final']],
  ['admin → CANCELLED', admin('CANCELLED'), 'any time',
    ['CANCELLED admin', 'CANCELLED admin', '= final', 'CANCELLED admin', 'CANCELLED admin', 'CANCELLED admin', '= final']],
  ['admin → REFUNDED', admin('REFUNDED'), 'any time',
    ['REFUNDED admin', 'REFUNDED admin', 'REFUNDED admin +refunded', 'REFUNDED admin', 'REFUNDED admin', 'REFUNDED admin', 'REFUNDED admin']],

  // Only an order no provider has heard of expires by itself; one a provider holds waits for its answer.
  ['expiry', { kind: 'expiry' }, 'in time',
    ['= unchanged', '= unchanged', '= final', '= unchanged', '= unchanged', '= unchanged', '= final']],
  ['expiry', { kind: 'expiry' }, 'past expiry',
    ['EXPIRED expired', '= unchanged', '= final', '= unchanged', '= unchanged', '= unchanged', '= final']],
];

/** A cell as the decision it stands for. */
function decisionOf(cell: string): Transition {
  const [head, why, ...effects] = cell.split(' ');
  return { to: head === '=' ? null : head, why, effects: effects.map((e) => e.slice(1)) } as Transition;
}

const CASES = TABLE.flatMap(([label, event, time, cells]) =>
  ORDER_STATUSES.flatMap((status, i) =>
    (time === 'any time' ? (['in time', 'past expiry'] as const) : [time]).map((at) => ({ status, label, at, event, cell: cells[i]! })),
  ),
);

describe('the order state machine', () => {
  test.each(CASES)('$status, $label, $at → $cell', ({ status, at, event, cell }) => {
    expect(decide(order(status, EXPIRES[at]), event, NOW)).toEqual(decisionOf(cell));
  });

  test('the table covers every status with every event: each provider answer, each status an admin may choose', () => {
    expect(new Set(TABLE.map(([, e]) => e.kind))).toEqual(new Set(['initiated', 'provider', 'admin', 'expiry']));
    const answers = TABLE.flatMap(([, e]) => (e.kind === 'provider' ? [e.state] : []));
    expect(new Set(answers)).toEqual(new Set(['PENDING', 'COMPLETED', 'FAILED', 'CANCELLED']));
    const chosen = TABLE.flatMap(([, e]) => (e.kind === 'admin' ? [e.to] : []));
    expect(new Set(chosen)).toEqual(new Set(ORDER_STATUSES));
    for (const [label, , , cells] of TABLE) expect(cells, label).toHaveLength(ORDER_STATUSES.length);
  });

  test('applying the same provider answer again changes nothing (monotonic)', () => {
    for (const { status, at, event } of CASES) {
      if (event.kind !== 'provider') continue;
      const first = decide(order(status, EXPIRES[at]), event, NOW);
      if (first.to) expect(decide(order(first.to, EXPIRES[at]), event, NOW).to, `${status} ${event.state} ${at}`).toBeNull();
    }
  });

  test('payable means open and in time', () => {
    const payableNow = ORDER_STATUSES.filter((s) => payable(order(s, EXPIRES['in time']), NOW));
    expect(payableNow).toEqual(['CREATED', 'PENDING']);
    expect(ORDER_STATUSES.filter((s) => payable(order(s, EXPIRES['past expiry']), NOW))).toEqual([]);
  });
});
