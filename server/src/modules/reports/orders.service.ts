import { eq } from 'drizzle-orm';
import { MSG } from '../../../../sync-protocol/src/messages';
import type { OrderStatus } from '../../../../sync-protocol/src/order';
import type { Deps, Principal } from '../../context';
import { purchaseOrder } from '../../db/schema';
import { logActivity } from '../../lib/activity';
import { notFound } from '../../lib/errors';
import { orderRow } from './reports.service';

/**
 * PATCH /api/order/status: an admin corrects an order's state (for example a payment the
 * provider confirmed by other means). Logged with the old and new order.
 */
export function setStatus(deps: Deps, actor: Principal, input: { id: string; status: OrderStatus }) {
  const data = deps.db.transaction((tx) => {
    const before = orderRow(tx, input.id);
    if (!before) throw notFound(MSG.orderNotFound);
    tx.update(purchaseOrder).set({ status: input.status, updatedAt: Date.now() }).where(eq(purchaseOrder.id, input.id)).run();
    const after = orderRow(tx, input.id);
    logActivity(tx, { actor, action: 'UPDATE', entity: 'order', entityId: input.id, oldValue: before, newValue: after });
    return after;
  });
  return { success: true as const, msg: MSG.orderUpdated, data };
}
