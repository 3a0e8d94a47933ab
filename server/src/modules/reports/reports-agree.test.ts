import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ORDER_TTL_MS } from '@pm/protocol/payment';
import type { GlobalEarningsReport, OrdersByDateReport, TransactionsReport } from '@pm/protocol/report';
import { ledgerEntry, payment, purchaseOrder } from '../../db/schema';
import { ACCOUNTS, unbalanced } from '../../lib/ledger';
import { first } from '../../db/transaction';
import { type Harness, startHarness } from '../../test/harness';
import { type SandboxControl, sandboxControl } from '../payments/providers/sandbox-phonepe';
import { reconcilePending } from '../payments/reconcile';

/** The money between payers and us: the gateway account's legs (docs/charity.md "The ledger"). */
const gatewayLegs = () => h.deps.db.select().from(ledgerEntry).where(eq(ledgerEntry.account, ACCOUNTS.gateway));

/*
 * The three money reports (docs/admin.md, "What the reports count") read one source, the
 * payments ledger, so they agree to the paisa over any range. Orders are made through the real
 * app and the PhonePe sandbox: paid, failed, expired, cancelled, and paid then refunded by an
 * admin; the demo data (seeded relative to now, with refunds of its own) is inside the wider range.
 */

let h: Harness;
let sb: SandboxControl;
let learner: string;
let admin: string;
let from: number;
let to: number;

const MONTHLY = 15_000;
const DAY = 86_400_000;

async function pendingOrder(): Promise<string> {
  const r = await h.request('POST', '/payment', { token: learner, body: { prodid: 'ONE_MONTH_PLAN' } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  const id = r.body.id as string;
  const i = await h.request('POST', '/phonepe/initiatePayment', { token: learner, body: { merchantTransactionId: id, amount: 150 } });
  expect(i.status, JSON.stringify(i.body)).toBe(200);
  return id;
}
const statusOf = async (id: string) => (await first(h.deps.db.select().from(purchaseOrder).where(eq(purchaseOrder.id, id))))?.status;

beforeAll(async () => {
  h = await startHarness();
  sb = sandboxControl(h.deps.payments.sandbox);
  learner = await h.tokenOf('learner');
  admin = await h.tokenOf('admin');
  from = Date.now();
  const paid = await pendingOrder();
  await sb.complete(paid, 'PAY');
  const failed = await pendingOrder();
  await sb.complete(failed, 'FAIL');
  const cancelled = await pendingOrder();
  await sb.complete(cancelled, 'CANCEL');
  const refunded = await pendingOrder();
  await sb.complete(refunded, 'PAY');
  const expired = await pendingOrder();
  await h.deps.webhooks.drain();
  // Past its expiry with nobody paying: the reconciliation job expires it.
  sb.expire(expired);
  await reconcilePending(h.deps, Date.now() + ORDER_TTL_MS + 60_000);
  const r = await h.request('PATCH', '/order/status', { token: admin, body: { id: refunded, status: 'REFUNDED' } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  to = Date.now();
  expect([await statusOf(paid), await statusOf(failed), await statusOf(cancelled), await statusOf(refunded), await statusOf(expired)]).toEqual([
    'PAID',
    'FAILED',
    'CANCELLED',
    'REFUNDED',
    'EXPIRED',
  ]);
});
afterAll(async () => {
  await sb.idle();
  h.destroy();
});

type Reports = { sale: OrdersByDateReport; transactions: TransactionsReport; earnings: GlobalEarningsReport };

async function reports(start: number, end: number): Promise<Reports> {
  const q = `startDate=${start}&endDate=${end}`;
  const [sale, transactions, earnings] = await Promise.all([
    h.request('GET', `/report/getOrdersByDate?${q}`, { token: admin }),
    h.request('GET', `/report/transactions?${q}&limit=200`, { token: admin }),
    h.request('GET', `/report/globalEarnings?${q}&groupBy=day`, { token: admin }),
  ]);
  for (const r of [sale, transactions, earnings]) expect(r.status, JSON.stringify(r.body)).toBe(200);
  return { sale: sale.body.data, transactions: transactions.body, earnings: earnings.body.data };
}

/** Rupees to paise, exactly (the reports answer rupees with at most two decimals). */
const paise = (rupees: number) => Math.round(rupees * 100);

function expectAgreement({ sale, transactions, earnings }: Reports) {
  const t = transactions.totals;
  const e = earnings.totals;
  expect(paise(sale.totals.collected)).toBe(paise(t.credit));
  expect(paise(e.collected)).toBe(paise(t.credit));
  expect(paise(sale.totals.refunded)).toBe(paise(t.debit));
  expect(paise(e.refunded)).toBe(paise(t.debit));
  expect(paise(sale.totals.net)).toBe(paise(t.net));
  expect(paise(t.net)).toBe(paise(t.credit) - paise(t.debit));
  // The days add up to the totals, in every report.
  expect(sale.byDay.reduce((a, d) => a + paise(d.collected), 0)).toBe(paise(sale.totals.collected));
  expect(sale.byDay.reduce((a, d) => a + paise(d.refunded), 0)).toBe(paise(sale.totals.refunded));
  expect(earnings.rows.reduce((a, d) => a + paise(d.collected), 0)).toBe(paise(e.collected));
  expect(earnings.rows.reduce((a, d) => a + paise(d.refunded), 0)).toBe(paise(e.refunded));
}

describe('the sale report, the transaction report and the earning report agree to the paisa', () => {
  test('over the range of these orders: only money received counts, the refund is subtracted from net', async () => {
    const r = await reports(from, to);
    expectAgreement(r);
    // Received: the paid order and the refunded one (₹150 each); paid back: ₹150.
    expect(r.transactions.totals).toMatchObject({ credit: 300, debit: 150, net: 150 });
    expect(paise(r.transactions.totals.credit)).toBe(2 * MONTHLY);
    expect(r.sale.totals).toEqual({ count: 5, paidCount: 2, collected: 300, refunded: 150, net: 150 });
    expect(r.earnings.totals).toMatchObject({ collected: 300, refunded: 150 });
    // The refund is a debit row of the transaction report, beside the captures and the failure.
    expect(r.transactions.data.filter((p) => !p.isCredit).map((p) => [p.amount, p.status])).toEqual([[150, 'SUCCESS']]);
    expect(r.transactions.data.filter((p) => p.status === 'FAILED')).toHaveLength(1);
  });

  test('over a wider range, with the demo sales and their refunds, they still agree', async () => {
    const wide = await reports(from - 60 * DAY, to + DAY);
    expectAgreement(wide);
    const narrow = await reports(from, to);
    // The demo data has refunds of its own: the earning report no longer shows them as ₹0.
    expect(wide.earnings.totals.refunded).toBeGreaterThan(narrow.earnings.totals.refunded);
    expect(wide.transactions.totals.credit).toBeGreaterThan(narrow.transactions.totals.credit);
    // Every money row of the ledger in the range is counted, and nothing else.
    const rows = await gatewayLegs();
    const inRange = rows.filter((l) => l.createdAt >= from - 60 * DAY && l.createdAt <= to + DAY);
    expect(inRange.filter((l) => l.amount > 0).reduce((a, l) => a + l.amount, 0)).toBe(paise(wide.transactions.totals.credit));
    expect(-inRange.filter((l) => l.amount < 0).reduce((a, l) => a + l.amount, 0)).toBe(paise(wide.transactions.totals.debit));
  });

  test('a range ends inclusively to the millisecond, the same in every report', async () => {
    const last = (await gatewayLegs()).filter((l) => l.createdAt >= from).sort((a, b) => b.createdAt - a.createdAt)[0];
    if (!last) throw new Error('no ledger rows');
    const upToLast = await reports(from, last.createdAt);
    expectAgreement(upToLast);
    const beforeLast = await reports(from, last.createdAt - 1);
    expectAgreement(beforeLast);
    const moved = paise(upToLast.transactions.totals.net) - paise(beforeLast.transactions.totals.net);
    expect(moved).toBe((await gatewayLegs()).filter((l) => l.createdAt === last.createdAt).reduce((a, l) => a + l.amount, 0));
  });

  test('the ledger and the payment rows hold the same money', async () => {
    const pays = await h.deps.db.select().from(payment);
    const ledger = await gatewayLegs();
    const received = pays.filter((p) => p.status === 'SUCCESS' && p.isCredit).reduce((a, p) => a + p.amount, 0);
    const paidBack = pays.filter((p) => p.status === 'SUCCESS' && !p.isCredit).reduce((a, p) => a + p.amount, 0);
    expect(ledger.filter((l) => l.amount > 0).reduce((a, l) => a + l.amount, 0)).toBe(received);
    expect(-ledger.filter((l) => l.amount < 0).reduce((a, l) => a + l.amount, 0)).toBe(paidBack);
    // Double entry: every movement's legs sum to zero (docs/charity.md "The ledger").
    expect(await unbalanced(h.deps.db)).toEqual({ groups: [], total: 0 });
  });
});
