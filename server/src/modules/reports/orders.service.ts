import { and, eq, sql } from 'drizzle-orm';
import { MSG } from '../../../../sync-protocol/src/messages';
import type { OrderStatus } from '../../../../sync-protocol/src/order';
import type { Deps, Principal } from '../../context';
import { ledgerEntry, payment, plan, purchaseOrder } from '../../db/schema';
import { takeTurns } from '../../db/dialect';
import { first, transaction } from '../../db/transaction';
import { logActivity } from '../../lib/activity';
import { badRequest, notFound } from '../../lib/errors';
import { endGrant, GRANT_COLLECTIONS, grantPlan } from '../entitlements/entitlements.service';
import { RECEIPT_NUMBERS } from '../payments/payments.service';
import { orderRow } from './reports.service';

/**
 * PATCH /api/order/status: an admin corrects an order's state (for example a payment the
 * provider confirmed by other means). Logged with the old and new order.
 *
 * A paid order never goes back (ARCHITECTURE decision 10): PAID only moves on to REFUNDED, which
 * writes the negative REFUND entry into the ledger, and REFUNDED is final. Marking an unpaid
 * order PAID does what a payment does: a paidAt, the next receipt number and the plan's
 * entitlement. One conditional write on the status read, so a webhook settling the order at the
 * same moment is not overwritten.
 */
export async function setStatus(deps: Deps, actor: Principal, input: { id: string; status: OrderStatus }) {
  const now = Date.now();
  const { data, grantedTo } = await transaction(deps.db, async (tx) => {
    const raw = await first(tx.select().from(purchaseOrder).where(eq(purchaseOrder.id, input.id)));
    const before = await orderRow(tx, input.id);
    if (!raw || !before) throw notFound(MSG.orderNotFound);
    const from = raw.status as OrderStatus;
    if (from === 'REFUNDED' && input.status !== 'REFUNDED') throw badRequest(MSG.paidOrderFinal);
    if (from === 'PAID' && input.status !== 'PAID' && input.status !== 'REFUNDED') throw badRequest(MSG.paidOrderFinal);
    const becomesPaid = input.status === 'PAID' && from !== 'PAID';
    if (becomesPaid) await takeTurns(tx, RECEIPT_NUMBERS);
    const changed = await first(
      tx
        .update(purchaseOrder)
        .set({
          status: input.status,
          updatedAt: now,
          ...(becomesPaid ? { paidAt: now, receiptNo: sql`(select coalesce(max(${purchaseOrder.receiptNo}), 0) + 1 from ${purchaseOrder})` } : {}),
        })
        .where(and(eq(purchaseOrder.id, input.id), eq(purchaseOrder.status, from)))
        .returning(),
    );
    // The order moved under us (a webhook): the admin looks again.
    if (!changed) throw badRequest(MSG.paidOrderFinal);
    let grantedTo: string | null = null;
    if (becomesPaid && changed.kind === 'PLAN' && changed.planId && changed.personId) {
      const bought = await first(tx.select({ code: plan.code }).from(plan).where(eq(plan.id, changed.planId)));
      if (bought && (await grantPlan(tx, { orderId: changed.id, personId: changed.personId, planCode: bought.code, paidAt: now }))) grantedTo = changed.personId;
    }
    if (from === 'PAID' && input.status === 'REFUNDED') {
      // A refunded plan ends from now; what it counted stays counted (docs/payments.md).
      const ended = await endGrant(tx, raw.id, now);
      if (ended) grantedTo = ended;
      // The money paid back is a debit payment beside its negative ledger entry, so that the
      // transaction report lists what every report counts (docs/admin.md, "What the reports count").
      const captured = await first(
        tx
          .select({ id: ledgerEntry.id, channel: payment.channel, provider: payment.provider })
          .from(ledgerEntry)
          .leftJoin(payment, eq(payment.id, ledgerEntry.paymentId))
          .where(and(eq(ledgerEntry.orderId, raw.id), eq(ledgerEntry.kind, 'CAPTURE')))
          .limit(1),
      );
      if (captured) {
        const refund = await first(
          tx
            .insert(payment)
            .values({
              amount: raw.amount,
              channel: captured.channel ?? 'UNKNOWN',
              transactionId: `refund:${raw.id}`,
              details: { refundOf: raw.id, by: actor.id },
              isCredit: false,
              orderId: raw.id,
              personId: raw.personId,
              status: 'SUCCESS',
              provider: captured.provider ?? raw.provider,
              createdAt: now,
              updatedAt: now,
            })
            .onConflictDoNothing()
            .returning({ id: payment.id }),
        );
        if (refund) await tx.insert(ledgerEntry).values({ id: `refund:${raw.id}`, orderId: raw.id, paymentId: refund.id, kind: 'REFUND', amount: -raw.amount, createdAt: now }).onConflictDoNothing();
      }
    }
    const after = await orderRow(tx, input.id);
    await logActivity(tx, { actor, action: 'UPDATE', entity: 'order', entityId: input.id, oldValue: before, newValue: after });
    return { data: after, grantedTo };
  });
  if (grantedTo) deps.events.emit({ collections: [...GRANT_COLLECTIONS], personId: grantedTo });
  return { success: true as const, msg: MSG.orderUpdated, data };
}
