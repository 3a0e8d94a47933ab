import { and, count, desc, eq, gt, gte, lt, lte, ne, or, type SQL, sql } from 'drizzle-orm';
import { alias, type SQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { OrderStatus } from '@pm/protocol/order';
import type { PaymentStatus } from '@pm/protocol/payment';
import {
  type EarningsFigures,
  type GlobalEarningsReport,
  IST_OFFSET_MS,
  type OrdersByDateReport,
  type PaymentRow,
  RETAINED_PERCENT,
  type TransactionsReport,
  type UsersByDateReport,
  EARNING_ACCOUNTS,
  type EarningAccount,
} from '@pm/protocol/report';
import type { Conn } from '../../db/client';
import type { Deps } from '../../context';
import { ledgerEntry, payment, person, plan, purchaseOrder } from '../../db/schema';
import { calendarText, containsText, insertionOrder } from '../../db/dialect';
import { first } from '../../db/transaction';
import { ACCOUNTS } from '../../lib/ledger';
import { orderRows } from '../payments/order-view';

/**
 * The database holds integer paise (docs/payments.md); the reports API answers rupees, as the back office
 * shows them. Paise are integers, so the division is exact to the paisa.
 */
const money = (paise: number) => Math.round(paise) / 100;
const rupeesOf = money;

/** The India-time calendar day (YYYY-MM-DD) of an epoch-ms column, in SQL. */
const istDay = (db: Conn, col: SQL | SQLiteColumn) => calendarText(db, col, 'day', IST_OFFSET_MS);
/** The India-time calendar month (YYYY-MM). */
const istMonth = (db: Conn, col: SQL | SQLiteColumn) => calendarText(db, col, 'month', IST_OFFSET_MS);

/**
 * Money that moved, from the ledger (docs/admin.md, "What the reports count"; docs/charity.md "The
 * ledger"): the `gateway` account's legs are the money between payers and us, a debit received
 * (a capture, a donation, a double debit), a credit paid back (a refund); every other leg only
 * says where inside the books the money went. Every money figure of every report is a sum of the
 * gateway's rows over `created_at` in the range (epoch ms, both ends inclusive), so the reports
 * agree to the paisa. Paise.
 */
const collectedSum = sql<number>`coalesce(sum(case when ${ledgerEntry.amount} > 0 then ${ledgerEntry.amount} else 0 end), 0)`;
const refundedSum = sql<number>`coalesce(sum(case when ${ledgerEntry.amount} < 0 then -${ledgerEntry.amount} else 0 end), 0)`;
const ledgerRange = (range: { startDate?: number | undefined; endDate?: number | undefined }) => [
  eq(ledgerEntry.account, ACCOUNTS.gateway),
  ...(range.startDate !== undefined ? [gte(ledgerEntry.createdAt, range.startDate)] : []),
  ...(range.endDate !== undefined ? [lte(ledgerEntry.createdAt, range.endDate)] : []),
];

/**
 * GET /api/report/getOrdersByDate (docs/api.md): the sale report of the admin dashboard. Orders are
 * those placed in the range (every status, for the table and the count); the money is the
 * ledger's over the same range: collected, refunded and net, and the paid orders are those with
 * money received in it. A failed, expired or cancelled order adds nothing.
 */
export async function ordersByDate(deps: Deps, range: { startDate: number; endDate: number }): Promise<{ success: true; data: OrdersByDateReport }> {
  const where = and(gte(purchaseOrder.createdAt, range.startDate), lte(purchaseOrder.createdAt, range.endDate));
  const orderCount = (await first(deps.db.select({ n: count() }).from(purchaseOrder).where(where)))?.n ?? 0;
  const moneyWhere = and(...ledgerRange(range));
  const money = (await first(
    deps.db
      .select({
        collected: collectedSum,
        refunded: refundedSum,
        paidCount: sql<number>`count(distinct case when ${ledgerEntry.amount} > 0 then ${ledgerEntry.orderId} end)`,
      })
      .from(ledgerEntry)
      .where(moneyWhere),
  )) ?? { collected: 0, refunded: 0, paidCount: 0 };
  const orderDay = istDay(deps.db, purchaseOrder.createdAt);
  const ordersPerDay = await deps.db.select({ day: orderDay, count: count() }).from(purchaseOrder).where(where).groupBy(orderDay);
  const moneyDay = istDay(deps.db, ledgerEntry.createdAt);
  const moneyPerDay = await deps.db.select({ day: moneyDay, collected: collectedSum, refunded: refundedSum }).from(ledgerEntry).where(moneyWhere).groupBy(moneyDay);
  const days = new Map<string, { count: number; collected: number; refunded: number }>();
  const dayOf = (d: string) => days.get(d) ?? days.set(d, { count: 0, collected: 0, refunded: 0 }).get(d)!;
  for (const r of ordersPerDay) dayOf(r.day).count += Number(r.count);
  for (const r of moneyPerDay) Object.assign(dayOf(r.day), { collected: Number(r.collected), refunded: Number(r.refunded) });
  const byDay = [...days.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([d, v]) => ({ day: d, count: v.count, collected: rupeesOf(v.collected), refunded: rupeesOf(v.refunded), net: rupeesOf(v.collected - v.refunded) }));
  const collected = Number(money.collected);
  const refunded = Number(money.refunded);
  return {
    success: true,
    data: {
      orders: await orderRows(deps.db, where, 1000),
      totals: { count: Number(orderCount), paidCount: Number(money.paidCount), collected: rupeesOf(collected), refunded: rupeesOf(refunded), net: rupeesOf(collected - refunded) },
      byDay,
    },
  };
}

/** GET /api/order — the admin order list with filters. */
export async function listOrders(
  deps: Deps,
  input: { status?: OrderStatus | undefined; q: string; startDate?: number | undefined; endDate?: number | undefined; limit: number; offset: number },
) {
  const conds: SQL[] = [];
  if (input.status) conds.push(eq(purchaseOrder.status, input.status));
  if (input.startDate !== undefined) conds.push(gte(purchaseOrder.createdAt, input.startDate));
  if (input.endDate !== undefined) conds.push(lte(purchaseOrder.createdAt, input.endDate));
  if (input.q) {
    const q = input.q;
    conds.push(or(containsText(deps.db, person.name, q), containsText(deps.db, person.mobile, q), containsText(deps.db, purchaseOrder.id, q)) as SQL);
  }
  const where = conds.length ? and(...conds) : undefined;
  const total = (await first(deps.db.select({ n: count() }).from(purchaseOrder).leftJoin(person, eq(person.id, purchaseOrder.personId)).where(where)))?.n ?? 0;
  return { success: true as const, data: await orderRows(deps.db, where, input.limit, input.offset), total };
}

/** GET /api/report/getUsersByDate: signups per day and per referrer. */
export async function usersByDate(deps: Deps, range: { startDate: number; endDate: number }): Promise<{ success: true; data: UsersByDateReport }> {
  const where = and(gte(person.createdAt, range.startDate), lte(person.createdAt, range.endDate));
  const total = (await first(deps.db.select({ n: count() }).from(person).where(where)))?.n ?? 0;
  const day = istDay(deps.db, sql`${person.createdAt}`);
  const byDay = await deps.db.select({ day, count: count() }).from(person).where(where).groupBy(day).orderBy(day);
  const referrer = alias(person, 'referrer');
  const byReferrer = (
    await deps.db
      .select({ id: referrer.id, n: referrer.name, m: referrer.mobile, count: count() })
      .from(person)
      .leftJoin(referrer, eq(referrer.id, person.parentId))
      .where(where)
      .groupBy(referrer.id)
      .orderBy(desc(count()), referrer.name)
      .limit(50)
  ).map((r) => ({ referrer: r.id && r.n && r.m ? { id: r.id, n: r.n, m: r.m } : null, count: r.count }));
  return { success: true, data: { total, byDay, byReferrer } };
}

/** GET /api/report/transactions: payments with filters and totals. */
export async function transactions(
  deps: Deps,
  input: {
    startDate?: number | undefined;
    endDate?: number | undefined;
    status?: PaymentStatus | undefined;
    channel?: string | undefined;
    type?: 'credit' | 'debit' | undefined;
    q: string;
    limit: number;
    offset: number;
  },
): Promise<{ success: true } & TransactionsReport> {
  const conds: SQL[] = [];
  if (input.startDate !== undefined) conds.push(gte(payment.createdAt, input.startDate));
  if (input.endDate !== undefined) conds.push(lte(payment.createdAt, input.endDate));
  if (input.status) conds.push(eq(payment.status, input.status));
  if (input.channel) conds.push(eq(payment.channel, input.channel));
  if (input.type) conds.push(eq(payment.isCredit, input.type === 'credit'));
  if (input.q) {
    const q = input.q;
    conds.push(or(containsText(deps.db, payment.transactionId, q), containsText(deps.db, person.name, q), containsText(deps.db, person.mobile, q)) as SQL);
  }
  const where = conds.length ? and(...conds) : undefined;
  const matching = (await first(deps.db.select({ n: count() }).from(payment).leftJoin(person, eq(person.id, payment.personId)).where(where)))?.n ?? 0;
  // The money of the matching payments is the ledger's (docs/admin.md, "What the reports count"):
  // credit what was received, debit what was paid back, both over the ledger's time.
  const moneyConds: SQL[] = [...ledgerRange(input)];
  if (input.status) moneyConds.push(eq(payment.status, input.status));
  if (input.channel) moneyConds.push(eq(payment.channel, input.channel));
  if (input.type) moneyConds.push(input.type === 'credit' ? gt(ledgerEntry.amount, 0) : lt(ledgerEntry.amount, 0));
  if (input.q) {
    const q = input.q;
    moneyConds.push(or(containsText(deps.db, payment.transactionId, q), containsText(deps.db, person.name, q), containsText(deps.db, person.mobile, q)) as SQL);
  }
  const t = (await first(
    deps.db
      .select({ credit: collectedSum, debit: refundedSum })
      .from(ledgerEntry)
      .leftJoin(payment, eq(payment.id, ledgerEntry.paymentId))
      .leftJoin(person, eq(person.id, payment.personId))
      .where(and(...moneyConds)),
  )) ?? { credit: 0, debit: 0 };
  const credit = Number(t.credit);
  const debit = Number(t.debit);
  const rows = await deps.db
    .select({
      id: payment.id,
      createdAt: payment.createdAt,
      amount: payment.amount,
      channel: payment.channel,
      transactionId: payment.transactionId,
      isCredit: payment.isCredit,
      status: payment.status,
      orderId: purchaseOrder.id,
      orderStatus: purchaseOrder.status,
      planCode: plan.code,
      planName: plan.name,
      personId: person.id,
      personName: person.name,
      personMobile: person.mobile,
    })
    .from(payment)
    .leftJoin(person, eq(person.id, payment.personId))
    .leftJoin(purchaseOrder, eq(purchaseOrder.id, payment.orderId))
    .leftJoin(plan, eq(plan.id, purchaseOrder.planId))
    .where(where)
    .orderBy(desc(payment.createdAt), desc(insertionOrder(deps.db, payment)))
    .limit(input.limit)
    .offset(input.offset);
  const data: PaymentRow[] = rows.map((r) => ({
    id: r.id,
    createdAt: r.createdAt,
    amount: money(r.amount),
    channel: r.channel,
    transactionId: r.transactionId,
    isCredit: r.isCredit,
    status: r.status as PaymentStatus,
    order: r.orderId
      ? { id: r.orderId, status: r.orderStatus ?? '', plan: r.planCode && r.planName ? { code: r.planCode, name: r.planName } : null }
      : null,
    person: r.personId && r.personName && r.personMobile ? { id: r.personId, n: r.personName, m: r.personMobile } : null,
  }));
  const channels = (await deps.db.selectDistinct({ c: payment.channel }).from(payment).orderBy(payment.channel)).map((r) => r.c);
  return { success: true, data, total: Number(matching), totals: { count: Number(matching), credit: money(credit), debit: money(debit), net: money(credit - debit) }, channels };
}

/**
 * Collected, refunded, the retained share (6 percent, docs/admin.md "What the reports count") and what goes to the trust, from
 * paise: the share is rounded to the paisa once, and the trust gets the exact rest.
 */
function figures(count: number, collectedPaise: number, refundedPaise: number): EarningsFigures {
  const net = collectedPaise - refundedPaise;
  const retained = Math.round((net * RETAINED_PERCENT) / 100);
  return { count, collected: money(collectedPaise), refunded: money(refundedPaise), retained: money(retained), toTrust: money(net - retained) };
}

/** The class of an account the earning report sums it under (docs/charity.md "The ledger"); null: not money received. */
function earningAccountOf(account: string): EarningAccount | null {
  if (account === ACCOUNTS.plans) return 'plans';
  if (account === ACCOUNTS.generalDonations) return 'generalDonations';
  if (account === ACCOUNTS.refundsDue) return 'refundsDue';
  if (account.startsWith('campaign:')) return 'campaigns';
  // The share of foreign contributions is running costs too (kept in accounts of its own: docs/charity.md "Foreign contributions").
  if (/^trust:.+:(fc-)?running$/.test(account)) return 'trustRunning';
  if (/^trust:.+:gateway-fee$/.test(account)) return 'trustGatewayFee';
  if (/^trust:.+:bank-fee$/.test(account)) return 'trustBankFee';
  return null;
}

/** Where the money of the range went: the credits of every account but the gateway, by class, rupees. */
async function byAccount(db: Conn, range: { startDate: number; endDate: number }): Promise<Record<EarningAccount, number>> {
  const rows = await db
    .select({ account: ledgerEntry.account, sum: sql<number>`coalesce(sum(${ledgerEntry.amount}), 0)` })
    .from(ledgerEntry)
    .where(and(ne(ledgerEntry.account, ACCOUNTS.gateway), gte(ledgerEntry.createdAt, range.startDate), lte(ledgerEntry.createdAt, range.endDate)))
    .groupBy(ledgerEntry.account);
  const out = Object.fromEntries(EARNING_ACCOUNTS.map((k) => [k, 0])) as Record<EarningAccount, number>;
  for (const r of rows) {
    const k = earningAccountOf(r.account);
    if (k) out[k] -= Number(r.sum);
  }
  return Object.fromEntries(EARNING_ACCOUNTS.map((k) => [k, money(out[k])])) as Record<EarningAccount, number>;
}

/**
 * GET /api/report/globalEarnings: money received and refunded by day or month, from the ledger
 * (the append-only ledger is the source of every total): the gateway's debits are collected, its
 * credits refunded.
 */
export async function globalEarnings(
  deps: Deps,
  input: { startDate: number; endDate: number; groupBy: 'day' | 'month' },
): Promise<{ success: true; data: GlobalEarningsReport }> {
  const period = input.groupBy === 'month' ? istMonth(deps.db, ledgerEntry.createdAt) : istDay(deps.db, ledgerEntry.createdAt);
  const where = and(...ledgerRange(input));
  const rows = await deps.db
    .select({
      period,
      count: count(),
      collected: collectedSum,
      refunded: refundedSum,
    })
    .from(ledgerEntry)
    .where(where)
    .groupBy(period)
    .orderBy(period);
  const sum = rows.reduce((a, r) => ({ count: a.count + Number(r.count), collected: a.collected + Number(r.collected), refunded: a.refunded + Number(r.refunded) }), {
    count: 0,
    collected: 0,
    refunded: 0,
  });
  return {
    success: true,
    data: {
      rows: rows.map((r) => ({ period: r.period, ...figures(Number(r.count), Number(r.collected), Number(r.refunded)) })),
      totals: figures(sum.count, sum.collected, sum.refunded),
      retainedPercent: RETAINED_PERCENT,
      byAccount: await byAccount(deps.db, input),
    },
  };
}
