import { desc, eq, type SQL } from 'drizzle-orm';
import type { OrderRow, OrderStatus } from '@pm/protocol/order';
import type { Conn } from '../../db/client';
import { insertionOrder } from '../../db/dialect';
import { person, plan, purchaseOrder } from '../../db/schema';

/*
 * Orders as the back office shows them (OrderRow): the admin's order list and the sale report
 * read them, and an admin's change of an order logs them before and after (order-transitions.ts).
 * Here, beside the orders, so that the reports read from payments and never the other way round.
 */

/** The database holds integer paise; the back office shows rupees, exact to the paisa. */
const rupees = (paise: number) => Math.round(paise) / 100;

/** Orders joined with their plan and buyer, newest first. */
export async function orderRows(db: Conn, where: SQL | undefined, limit: number, offset = 0): Promise<OrderRow[]> {
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
    amount: rupees(r.amount),
    status: r.status as OrderStatus,
    plan: r.planId && r.planCode && r.planName ? { id: r.planId, code: r.planCode, name: r.planName } : null,
    person: r.personId && r.personName && r.personMobile ? { id: r.personId, n: r.personName, m: r.personMobile } : null,
  }));
}

/** One order as the back office shows it. */
export async function orderRow(db: Conn, id: string): Promise<OrderRow | undefined> {
  return (await orderRows(db, eq(purchaseOrder.id, id), 1))[0];
}
