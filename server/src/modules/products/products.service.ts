import { asc, count, eq } from 'drizzle-orm';
import { MSG } from '@pm/protocol/messages';
import type { z } from 'zod';
import type { productCreateSchema, ProductView } from '@pm/protocol/plan';
import type { Conn } from '../../db/client';
import type { Deps, Principal } from '../../context';
import { plan, purchaseOrder } from '../../db/schema';
import { takeTurns } from '../../db/dialect';
import { first, transaction } from '../../db/transaction';
import { logActivity } from '../../lib/activity';
import { conflict, notFound } from '../../lib/errors';

type Input = z.output<typeof productCreateSchema>;

async function view(db: Conn, p: typeof plan.$inferSelect): Promise<ProductView> {
  const orders = (await first(db.select({ n: count() }).from(purchaseOrder).where(eq(purchaseOrder.planId, p.id))))?.n ?? 0;
  return { id: p.id, code: p.code, name: p.name, total: p.total, approx: p.approx, contents: p.contents, active: p.active, order: p.sortOrder, createdAt: p.createdAt, orders };
}

const values = (i: Input) => ({ code: i.code, name: i.name, total: i.total, approx: i.approx, contents: i.contents, active: i.active, sortOrder: i.order });

/** In the transaction that writes: writes of one code take turns (PostgreSQL), so the second answers 409. */
async function assertFree(db: Conn, code: string, exceptId?: string) {
  await takeTurns(db, `plan-code:${code}`);
  const other = await first(db.select({ id: plan.id }).from(plan).where(eq(plan.code, code)).limit(1));
  if (other && other.id !== exceptId) throw conflict(MSG.productExists);
}

/** GET /api/product: every plan, inactive ones too, in the plan page's order. */
export async function list(deps: Deps) {
  const rows = await deps.db.select().from(plan).orderBy(asc(plan.sortOrder), asc(plan.code));
  const data: ProductView[] = [];
  for (const p of rows) data.push(await view(deps.db, p));
  return { success: true as const, data };
}

export async function create(deps: Deps, actor: Principal, input: Input) {
  const data = await transaction(deps.db, async (tx) => {
    await assertFree(tx, input.code);
    const row = (await first(tx.insert(plan).values(values(input)).returning()))!;
    const v = await view(tx, row);
    await logActivity(tx, { actor, action: 'CREATE', entity: 'plan', entityId: row.id, newValue: v });
    return v;
  });
  return { success: true as const, msg: MSG.productCreated, data };
}

export async function update(deps: Deps, actor: Principal, input: Input & { id: string }) {
  const data = await transaction(deps.db, async (tx) => {
    const before = await first(tx.select().from(plan).where(eq(plan.id, input.id)));
    if (!before) throw notFound(MSG.productNotFound);
    await assertFree(tx, input.code, input.id);
    const row = (await first(tx.update(plan).set(values(input)).where(eq(plan.id, input.id)).returning()))!;
    const v = await view(tx, row);
    await logActivity(tx, { actor, action: 'UPDATE', entity: 'plan', entityId: row.id, oldValue: await view(tx, before), newValue: v });
    return v;
  });
  return { success: true as const, msg: MSG.productUpdated, data };
}

/** A plan that orders name is kept for the books: deactivate it instead. */
export async function remove(deps: Deps, actor: Principal, id: string) {
  await transaction(deps.db, async (tx) => {
    const before = await first(tx.select().from(plan).where(eq(plan.id, id)));
    if (!before) throw notFound(MSG.productNotFound);
    const old = await view(tx, before);
    if (old.orders > 0) throw conflict(MSG.productHasOrders);
    await tx.delete(plan).where(eq(plan.id, id));
    await logActivity(tx, { actor, action: 'DELETE', entity: 'plan', entityId: id, oldValue: old });
  });
  return { success: true as const, msg: MSG.productDeleted };
}
