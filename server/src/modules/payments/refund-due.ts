import { and, eq } from 'drizzle-orm';
import { MSG } from '@pm/protocol/messages';
import type { Deps, Principal } from '../../context';
import { lockRows } from '../../db/dialect';
import { payment, purchaseOrder } from '../../db/schema';
import { first, transaction } from '../../db/transaction';
import { logActivity } from '../../lib/activity';
import { conflict, notFound } from '../../lib/errors';
import { ACCOUNTS, post as postMovement } from '../../lib/ledger';

/*
 * Paying back a double debit (docs/charity.md "Moderation"): a capture that paid nothing (a
 * second capture of a paid order, a wrong amount) was recorded as money owed back, `gateway
 * +amount`, `refunds-due −amount`, and its payment flagged REFUND_DUE (order-transitions.ts
 * recordPayments). Staff pay it back: a movement of its own (kind REFUND_DUE_PAID) `refunds-due
 * +amount`, `gateway −amount`, a debit payment beside it (as a refund has, so that the transaction
 * report lists what it counts), and the flag becomes REFUNDED. The donation itself, and what it
 * gave the campaign, stay as they are: unlike an admin's REFUNDED of the order, which takes the
 * gift back out.
 */

/** POST /api/donation/:orderId/refund-due: every REFUND_DUE capture of the order paid back, at once. */
export async function payBackDoubleDebits(deps: Deps, p: Principal, orderId: string, now = Date.now()) {
  const paidBack = await transaction(deps.db, async (tx) => {
    await lockRows(tx, purchaseOrder, eq(purchaseOrder.id, orderId));
    const order = await first(tx.select({ id: purchaseOrder.id, personId: purchaseOrder.personId }).from(purchaseOrder).where(eq(purchaseOrder.id, orderId)));
    if (!order) throw notFound(MSG.donationNotFound);
    const owed = await tx
      .select()
      .from(payment)
      .where(and(eq(payment.orderId, orderId), eq(payment.flag, 'REFUND_DUE')));
    if (owed.length === 0) throw conflict(MSG.donationRefundDueNone);
    let total = 0;
    for (const capture of owed) {
      const marked = await first(
        tx
          .update(payment)
          .set({ flag: 'REFUNDED', updatedAt: now })
          .where(and(eq(payment.id, capture.id), eq(payment.flag, 'REFUND_DUE')))
          .returning({ id: payment.id }),
      );
      if (!marked) continue;
      const debit = (await first(
        tx
          .insert(payment)
          .values({
            amount: capture.amount,
            channel: capture.channel,
            transactionId: `refund-due:${capture.id}`,
            details: { refundOf: capture.id, by: p.id },
            isCredit: false,
            orderId,
            personId: order.personId,
            status: 'SUCCESS',
            provider: capture.provider,
            createdAt: now,
            updatedAt: now,
          })
          .returning({ id: payment.id }),
      ))!;
      await postMovement(tx, {
        groupId: `refund-due:${capture.id}`,
        kind: 'REFUND_DUE_PAID',
        orderId,
        paymentId: debit.id,
        legs: [
          { account: ACCOUNTS.refundsDue, amount: capture.amount },
          { account: ACCOUNTS.gateway, amount: -capture.amount },
        ],
        at: now,
      });
      await logActivity(tx, {
        actor: { id: p.id, name: p.name },
        action: 'UPDATE',
        entity: 'payment',
        entityId: capture.id,
        oldValue: { flag: 'REFUND_DUE' },
        newValue: { flag: 'REFUNDED', paidBack: capture.amount, debitPaymentId: debit.id },
      });
      total += capture.amount;
    }
    return total;
  });
  return { success: true as const, msg: MSG.donationRefundDuePaid, data: { orderId, paidBack } };
}
