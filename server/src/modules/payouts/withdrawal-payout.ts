import { and, eq, isNull } from 'drizzle-orm';
import { MSG } from '@pm/protocol/messages';
import type { Deps, Principal } from '../../context';
import { takeTurns } from '../../db/dialect';
import { payoutAccount, withdrawal } from '../../db/schema';
import { afterCommit, first, transaction } from '../../db/transaction';
import type { Actor } from '../../lib/activity';
import { unauthenticated } from '../../lib/errors';
import { ACCOUNTS, post as postMovement } from '../../lib/ledger';
import type { PayoutResult } from './payout-adapter';
import { destinationOf, payoutAdapter } from './payout-accounts.service';
import { notifyOutcome } from './withdrawal-notify';
import { applyMove, lockedWithdrawal, moveRefused } from './withdrawal-record';
import { type WithdrawalRow, withdrawalView } from './withdrawal-view';
import { availableOf, campaignFunds } from './withdrawable';
import { aboveAvailable, readableWithdrawal } from './withdrawals.service';

/*
 * Paying a withdrawal (docs/charity.md "Withdrawals"): an APPROVED one (or a FAILED one retried by
 * staff) moves to PAYING with a NEW idempotency key `<id>-<attempt>` in one transaction, then the
 * payout is sent with that key; a PAYING one is never sent again. The adapter's answer, the
 * webhook or a status check moves it to PAID (the PAYOUT movement in the same transaction) or
 * FAILED (its money is free again); a payout the bank returns after PAID posts a
 * PAYOUT_REVERSAL and moves it to FAILED. Every outcome is applied as a conditional move, and the
 * ledger's group ids are the payout key's, so a webhook delivered twice changes nothing twice.
 */

/** Moves the withdrawal to PAYING with a new key (a retry checks that its money is still free). */
async function toPaying(deps: Deps, id: string, actor: Actor) {
  return transaction(deps.db, async (tx) => {
    let w = await lockedWithdrawal(tx, id);
    if (w.status === 'FAILED') {
      // A failed withdrawal holds nothing: its money may have gone to another request since.
      await takeTurns(tx, `withdrawals:${w.campaignId}`);
      w = await lockedWithdrawal(tx, id);
      const free = availableOf(await campaignFunds(tx, w.campaignId));
      if (w.fromDomestic > free.domestic || w.fromForeign > free.foreign) throw aboveAvailable(free.domestic + free.foreign);
    }
    const attempt = w.attempt + 1;
    const key = `${w.id}-${attempt}`;
    const moved = await applyMove(tx, w, 'pay', actor, null, { attempt, payoutKey: key, payoutId: null, utr: null, failure: null });
    const account = (await first(tx.select().from(payoutAccount).where(eq(payoutAccount.id, w.payoutAccountId))))!;
    return { w: moved, key, account };
  });
}

/** The account's fund account at the provider: made now for an account verified without one (the demo data's). */
async function fundAccountOf(deps: Deps, account: typeof payoutAccount.$inferSelect): Promise<string> {
  if (account.fundAccountId) return account.fundAccountId;
  const made = await payoutAdapter(deps).fundAccount(destinationOf(account), account.id);
  await transaction(deps.db, (tx) =>
    tx
      .update(payoutAccount)
      .set({ contactId: made.contactId, fundAccountId: made.fundAccountId })
      .where(and(eq(payoutAccount.id, account.id), isNull(payoutAccount.fundAccountId))),
  );
  return made.fundAccountId;
}

/**
 * Starts the payout of an APPROVED (or FAILED, retried) withdrawal and applies the provider's
 * first answer. A send whose answer is lost leaves it PAYING: the webhook or a check settles it.
 */
export async function startPayout(deps: Deps, id: string, actor: Actor): Promise<WithdrawalRow> {
  const adapter = payoutAdapter(deps);
  const { w, key, account } = await toPaying(deps, id, actor);
  try {
    const fundAccountId = await fundAccountOf(deps, account);
    const result = await adapter.createPayout({
      fundAccountId,
      amount: w.amount,
      mode: account.kind === 'VPA' ? 'UPI' : 'IMPS',
      referenceId: w.id.slice(0, 40),
      key,
      narration: 'Pariksha Mitra payout',
    });
    return await applyPayoutResult(deps, id, key, result);
  } catch (err) {
    deps.log.error({ err, withdrawalId: id, key }, 'payout could not be sent; the webhook or a status check settles it');
    return w;
  }
}

/** The PAYOUT movement of a paid withdrawal (docs/charity.md "The ledger"), or its reversal. */
function payoutMovement(w: WithdrawalRow, key: string, paymentId: string | null, reversal: boolean, at: number) {
  const sign = reversal ? -1 : 1;
  return {
    groupId: `${reversal ? 'payout-reversal' : 'payout'}:${key}`,
    kind: reversal ? ('PAYOUT_REVERSAL' as const) : ('PAYOUT' as const),
    orderId: w.id,
    paymentId,
    legs: [
      { account: ACCOUNTS.payout(w.campaignId), amount: sign * w.fromDomestic },
      { account: ACCOUNTS.payoutForeign(w.campaignId), amount: sign * w.fromForeign },
      { account: ACCOUNTS.gateway, amount: -sign * w.amount },
    ],
    at,
  };
}

/**
 * Applies what the provider says of the payout made with `key`: nothing when that is no longer
 * the withdrawal's current payout (an earlier attempt's news) or when the withdrawal is already
 * where the news would move it.
 */
export async function applyPayoutResult(deps: Deps, id: string, key: string, result: PayoutResult): Promise<WithdrawalRow> {
  return transaction(deps.db, async (tx) => {
    const w = await lockedWithdrawal(tx, id);
    if (w.payoutKey !== key) return w;
    const now = Date.now();
    const known = w.payoutId === result.id ? w : ((await first(tx.update(withdrawal).set({ payoutId: result.id, updatedAt: now }).where(eq(withdrawal.id, id)).returning())) ?? w);
    if (result.outcome === 'processed' && w.status === 'PAYING') {
      const paid = await applyMove(tx, known, 'paid', null, result.utr, { paidAt: now, utr: result.utr }, now);
      await postMovement(tx, payoutMovement(paid, key, result.id, false, now));
      afterCommit(tx, () => notifyOutcome(deps, paid, 'PAID'));
      return paid;
    }
    if ((result.outcome === 'failed' || result.outcome === 'reversed') && w.status === 'PAYING') {
      const failed = await applyMove(tx, known, 'fail', null, result.failure, { failure: result.failure ?? result.status }, now);
      afterCommit(tx, () => notifyOutcome(deps, failed, 'FAILED'));
      return failed;
    }
    if (result.outcome === 'reversed' && w.status === 'PAID') {
      const reversed = await applyMove(tx, known, 'reverse', null, result.failure, { failure: result.failure ?? 'reversed' }, now);
      await postMovement(tx, payoutMovement(reversed, key, result.id, true, now));
      afterCommit(tx, () => notifyOutcome(deps, reversed, 'FAILED'));
      return reversed;
    }
    return known;
  });
}

/** POST /api/withdrawal/:id/check (staff): asks the provider about the current payout and applies its answer. */
export async function checkWithdrawal(deps: Deps, p: Principal, id: string) {
  const w = await readableWithdrawal(deps.db, p, id);
  const adapter = payoutAdapter(deps);
  let row = w;
  if (w.payoutKey && (w.status === 'PAYING' || w.status === 'PAID')) {
    const result = w.payoutId ? await adapter.payout(w.payoutId) : await adapter.findPayout(w.id.slice(0, 40), w.payoutKey);
    if (result) row = await applyPayoutResult(deps, id, w.payoutKey, result);
  }
  return { success: true as const, msg: MSG.withdrawalChecked, data: await withdrawalView(deps.db, row) };
}

/** POST /api/withdrawal/:id/retry (staff): a FAILED withdrawal is paid again with a new key; anything else is 409. */
export async function retryWithdrawal(deps: Deps, p: Principal, id: string) {
  const w = await readableWithdrawal(deps.db, p, id);
  if (w.status !== 'FAILED') throw moveRefused(w.status);
  payoutAdapter(deps);
  const row = await startPayout(deps, id, { id: p.id, name: p.name });
  return { success: true as const, msg: MSG.withdrawalRetried, data: await withdrawalView(deps.db, row) };
}

/**
 * POST /api/webhook/razorpayx: a payout's news, signed with the webhook secret (refused 401
 * otherwise). The withdrawal is found by its current payout's id, or by its reference and key
 * (a payout whose answer was lost); anything else is acknowledged and ignored.
 */
export async function payoutWebhook(deps: Deps, headers: Headers, rawBody: string) {
  const adapter = deps.payouts.adapter;
  if (!adapter?.verifyWebhook(headers, rawBody)) throw unauthenticated(MSG.invalidSignature);
  const event = adapter.parseWebhook(rawBody);
  if (!event) return { success: true as const };
  const p = event.payout;
  const byId = await first(deps.db.select().from(withdrawal).where(eq(withdrawal.payoutId, p.id)));
  const byRef = byId ?? (p.referenceId && p.key ? await first(deps.db.select().from(withdrawal).where(and(eq(withdrawal.id, p.referenceId), eq(withdrawal.payoutKey, p.key)))) : undefined);
  if (byRef?.payoutKey) await applyPayoutResult(deps, byRef.id, byRef.payoutKey, p);
  return { success: true as const };
}


