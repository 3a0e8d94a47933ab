import { asc, count, eq } from 'drizzle-orm';
import { MSG } from '../../../../sync-protocol/src/messages';
import type { z } from 'zod';
import type { productCreateSchema, ProductView } from '../../../../sync-protocol/src/plan';
import type { Conn } from '../../db/client';
import type { Deps, Principal } from '../../context';
import { plan, purchaseOrder } from '../../db/schema';
import { logActivity } from '../../lib/activity';
import { conflict, notFound } from '../../lib/errors';

type Input = z.output<typeof productCreateSchema>;

function view(db: Conn, p: typeof plan.$inferSelect): ProductView {
  const orders = db.select({ n: count() }).from(purchaseOrder).where(eq(purchaseOrder.planId, p.id)).get()?.n ?? 0;
  return { id: p.id, code: p.code, name: p.name, total: p.total, approx: p.approx, contents: p.contents, active: p.active, order: p.sortOrder, createdAt: p.createdAt, orders };
}

const values = (i: Input) => ({ code: i.code, name: i.name, total: i.total, approx: i.approx, contents: i.contents, active: i.active, sortOrder: i.order });

function assertFree(db: Conn, code: string, exceptId?: string) {
  const other = db.select({ id: plan.id }).from(plan).where(eq(plan.code, code)).get();
  if (other && other.id !== exceptId) throw conflict(MSG.productExists);
}

/** GET /api/product: every plan, inactive ones too, in the plan page's order. */
export function list(deps: Deps) {
  return { success: true as const, data: deps.db.select().from(plan).orderBy(asc(plan.sortOrder), asc(plan.code)).all().map((p) => view(deps.db, p)) };
}

export function create(deps: Deps, actor: Principal, input: Input) {
  const data = deps.db.transaction((tx) => {
    assertFree(tx, input.code);
    const row = tx.insert(plan).values(values(input)).returning().get();
    const v = view(tx, row);
    logActivity(tx, { actor, action: 'CREATE', entity: 'plan', entityId: row.id, newValue: v });
    return v;
  });
  return { success: true as const, msg: MSG.productCreated, data };
}

export function update(deps: Deps, actor: Principal, input: Input & { id: string }) {
  const data = deps.db.transaction((tx) => {
    const before = tx.select().from(plan).where(eq(plan.id, input.id)).get();
    if (!before) throw notFound(MSG.productNotFound);
    assertFree(tx, input.code, input.id);
    const row = tx.update(plan).set(values(input)).where(eq(plan.id, input.id)).returning().get();
    const v = view(tx, row);
    logActivity(tx, { actor, action: 'UPDATE', entity: 'plan', entityId: row.id, oldValue: view(tx, before), newValue: v });
    return v;
  });
  return { success: true as const, msg: MSG.productUpdated, data };
}

/** A plan that orders name is kept for the books: deactivate it instead. */
export function remove(deps: Deps, actor: Principal, id: string) {
  deps.db.transaction((tx) => {
    const before = tx.select().from(plan).where(eq(plan.id, id)).get();
    if (!before) throw notFound(MSG.productNotFound);
    const old = view(tx, before);
    if (old.orders > 0) throw conflict(MSG.productHasOrders);
    tx.delete(plan).where(eq(plan.id, id)).run();
    logActivity(tx, { actor, action: 'DELETE', entity: 'plan', entityId: id, oldValue: old });
  });
  return { success: true as const, msg: MSG.productDeleted };
}
