import { and, count, desc, eq, gte, inArray, lte, or, type SQL, sql } from 'drizzle-orm';
import { alias, type SQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { OrderRow, OrderStatus } from '../../../../sync-protocol/src/order';
import type { PaymentStatus } from '../../../../sync-protocol/src/payment';
import {
  type EarningsFigures,
  type GlobalEarningsReport,
  IST_OFFSET_MS,
  type OrdersByDateReport,
  type PaymentRow,
  RETAINED_PERCENT,
  type TransactionsReport,
  type UsersByDateReport,
} from '../../../../sync-protocol/src/report';
import type { Conn } from '../../db/client';
import type { Deps } from '../../context';
import { ledgerEntry, payment, person, plan, purchaseOrder } from '../../db/schema';
import { calendarText, containsText, insertionOrder } from '../../db/dialect';
import { first } from '../../db/transaction';

/**
 * The database holds integer paise (issue 18); the reports API answers rupees, as the back office
 * shows them. Paise are integers, so the division is exact to the paisa.
 */
const money = (paise: number) => Math.round(paise) / 100;

/** The India-time calendar day (YYYY-MM-DD) of an epoch-ms column, in SQL. */
const istDay = (db: Conn, col: SQL | SQLiteColumn) => calendarText(db, col, 'day', IST_OFFSET_MS);
/** The India-time calendar month (YYYY-MM). */
const istMonth = (db: Conn, col: SQL | SQLiteColumn) => calendarText(db, col, 'month', IST_OFFSET_MS);

/** Orders joined with their plan and buyer, as OrderRow. */
async function orderRows(db: Conn, where: SQL | undefined, limit: number, offset = 0): Promise<OrderRow[]> {
  const rows = await db
    .select({
      id: purchaseOrder.id,
      createdAt: purchaseOrder.createdAt,
      updatedAt: purchaseOrder.updatedAt,
      amount: purchaseOrder.amount,
      status: purchaseOrder.status,
      planId: plan.id,
      planCode: plan.code,
      planName: plan.name,
      personId: person.id,
      personName: person.name,
      personMobile: person.mobile,
    })
    .from(purchaseOrder)
    .leftJoin(plan, eq(plan.id, purchaseOrder.planId))
    .leftJoin(person, eq(person.id, purchaseOrder.personId))
    .where(where)
    .orderBy(desc(purchaseOrder.createdAt), desc(insertionOrder(db, purchaseOrder)))
    .limit(limit)
    .offset(offset);
  return rows.map((r) => ({
      id: r.id,
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
      amount: money(r.amount),
      status: r.status as OrderStatus,
      plan: r.planId && r.planCode && r.planName ? { id: r.planId, code: r.planCode, name: r.planName } : null,
      person: r.personId && r.personName && r.personMobile ? { id: r.personId, n: r.personName, m: r.personMobile } : null,
    }));
}

/** GET /api/report/getOrdersByDate (spec §7): the sale report of the admin dashboard. */
export async function ordersByDate(deps: Deps, range: { startDate: number; endDate: number }): Promise<{ success: true; data: OrdersByDateReport }> {
  const where = and(gte(purchaseOrder.createdAt, range.startDate), lte(purchaseOrder.createdAt, range.endDate));
  const paid = sql`${purchaseOrder.status} = 'PAID'`;
  const totals = (await first(
    deps.db
      .select({
        count: count(),
        amount: sql<number>`coalesce(sum(${purchaseOrder.amount}), 0)`,
        paidCount: sql<number>`coalesce(sum(case when ${paid} then 1 else 0 end), 0)`,
        paidAmount: sql<number>`coalesce(sum(case when ${paid} then ${purchaseOrder.amount} else 0 end), 0)`,
      })
      .from(purchaseOrder)
      .where(where),
  )) ?? { count: 0, amount: 0, paidCount: 0, paidAmount: 0 };
  const day = istDay(deps.db, purchaseOrder.createdAt);
  const byDay = (
    await deps.db
      .select({
        day,
        count: count(),
        amount: sql<number>`coalesce(sum(${purchaseOrder.amount}), 0)`,
        paidAmount: sql<number>`coalesce(sum(case when ${paid} then ${purchaseOrder.amount} else 0 end), 0)`,
      })
      .from(purchaseOrder)
      .where(where)
      .groupBy(day)
      .orderBy(day)
  ).map((r) => ({ ...r, amount: money(r.amount), paidAmount: money(r.paidAmount) }));
  return {
    success: true,
    data: {
      orders: await orderRows(deps.db, where, 1000),
      totals: { count: totals.count, amount: money(totals.amount), paidCount: totals.paidCount, paidAmount: money(totals.paidAmount) },
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

export async function orderRow(db: Conn, id: string): Promise<OrderRow | undefined> {
  return (await orderRows(db, eq(purchaseOrder.id, id), 1))[0];
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
  const ok = sql`${payment.status} = 'SUCCESS'`;
  const t = (await first(
    deps.db
      .select({
        count: count(),
        credit: sql<number>`coalesce(sum(case when ${ok} and ${eq(payment.isCredit, true)} then ${payment.amount} else 0 end), 0)`,
        debit: sql<number>`coalesce(sum(case when ${ok} and ${eq(payment.isCredit, false)} then ${payment.amount} else 0 end), 0)`,
      })
      .from(payment)
      .leftJoin(person, eq(person.id, payment.personId))
      .where(where),
  )) ?? { count: 0, credit: 0, debit: 0 };
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
  return { success: true, data, total: t.count, totals: { count: t.count, credit: money(t.credit), debit: money(t.debit), net: money(t.credit - t.debit) }, channels };
}

/**
 * Collected, refunded, the retained share (spec §1: 6 percent) and what goes to the trust, from
 * paise: the share is rounded to the paisa once, and the trust gets the exact rest.
 */
function figures(count: number, collectedPaise: number, refundedPaise: number): EarningsFigures {
  const net = collectedPaise - refundedPaise;
  const retained = Math.round((net * RETAINED_PERCENT) / 100);
  return { count, collected: money(collectedPaise), refunded: money(refundedPaise), retained: money(retained), toTrust: money(net - retained) };
}

/**
 * GET /api/report/globalEarnings: money received and refunded by day or month, from the ledger
 * (ARCHITECTURE decision 10: the append-only ledger is the source of every total). CAPTURE
 * entries are collected, REFUND entries (negative) refunded; REFUND_DUE notes carry no money.
 */
export async function globalEarnings(
  deps: Deps,
  input: { startDate: number; endDate: number; groupBy: 'day' | 'month' },
): Promise<{ success: true; data: GlobalEarningsReport }> {
  const period = input.groupBy === 'month' ? istMonth(deps.db, ledgerEntry.createdAt) : istDay(deps.db, ledgerEntry.createdAt);
  const where = and(gte(ledgerEntry.createdAt, input.startDate), lte(ledgerEntry.createdAt, input.endDate), inArray(ledgerEntry.kind, ['CAPTURE', 'REFUND']));
  const rows = await deps.db
    .select({
      period,
      count: count(),
      collected: sql<number>`coalesce(sum(case when ${ledgerEntry.kind} = 'CAPTURE' then ${ledgerEntry.amount} else 0 end), 0)`,
      refunded: sql<number>`coalesce(sum(case when ${ledgerEntry.kind} = 'REFUND' then -${ledgerEntry.amount} else 0 end), 0)`,
    })
    .from(ledgerEntry)
    .where(where)
    .groupBy(period)
    .orderBy(period);
  const sum = rows.reduce((a, r) => ({ count: a.count + r.count, collected: a.collected + r.collected, refunded: a.refunded + r.refunded }), {
    count: 0,
    collected: 0,
    refunded: 0,
  });
  return {
    success: true,
    data: {
      rows: rows.map((r) => ({ period: r.period, ...figures(r.count, r.collected, r.refunded) })),
      totals: figures(sum.count, sum.collected, sum.refunded),
      retainedPercent: RETAINED_PERCENT,
    },
  };
}
