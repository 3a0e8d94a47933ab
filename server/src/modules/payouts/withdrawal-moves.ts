import { and, count, eq } from 'drizzle-orm';
import { MSG } from '@pm/protocol/messages';
import type { Deps, Principal } from '../../context';
import type { Conn } from '../../db/client';
import { campaign, payoutAccount, person, withdrawalApproval } from '../../db/schema';
import { afterCommit, first, transaction } from '../../db/transaction';
import { logActivity } from '../../lib/activity';
import { AppError, conflict, forbidden } from '../../lib/errors';
import { beneficiaryActive } from '../campaigns/campaign-access';
import { startPayout } from './withdrawal-payout';
import { notifyOutcome } from './withdrawal-notify';
import { applyMove, lockedWithdrawal, moveRefused, recordEvent } from './withdrawal-record';
import { readableWithdrawal } from './withdrawals.service';
import { type WithdrawalRow, withdrawalView } from './withdrawal-view';

/*
 * The people's moves of a withdrawal (docs/charity.md "Withdrawals"): two approvals by two
 * different holders of APPROVE_WITHDRAWAL (never the requester, never one person twice; a payee
 * whose registered name is not theirs needs the approver to say so), a rejection with its reason,
 * the requester's cancellation. The second approval starts the payout after its commit.
 */

/** Approvals a withdrawal needs. */
export const APPROVALS_NEEDED = 2;

const actorOf = (p: Principal) => ({ id: p.id, name: p.name });

/** The name a payee's registered name is compared with: the supplier's, or its owner's. */
async function expectedName(tx: Conn, account: typeof payoutAccount.$inferSelect): Promise<string> {
  if (account.campaignId !== null) return account.supplierName ?? account.holderName;
  const owner = account.personId ? await first(tx.select({ name: person.name }).from(person).where(eq(person.id, account.personId))) : undefined;
  return owner?.name ?? account.holderName;
}

/** 409 naming both names, unless the approver accepts the mismatch. */
async function checkName(tx: Conn, w: WithdrawalRow, accept: boolean | undefined) {
  const account = (await first(tx.select().from(payoutAccount).where(eq(payoutAccount.id, w.payoutAccountId))))!;
  if (account.nameMatches !== false || accept === true) return account.nameMatches === false;
  const registered = account.verifiedName ?? '';
  const payee = await expectedName(tx, account);
  throw new AppError('CONFLICT', `${MSG.withdrawalNameMismatch} (registered name: ${registered}; payee: ${payee})`, { registeredName: registered, payeeName: payee });
}

/**
 * POST /api/withdrawal/:id/approve: one approval; the second moves it to APPROVED, and after the
 * commit the payout starts (withdrawal-payout.ts). The row is locked for the transaction, so two
 * trustees approving at once are counted one after the other.
 */
export async function approveWithdrawal(deps: Deps, p: Principal, id: string, input: { note?: string | undefined; acceptNameMismatch?: boolean | undefined }) {
  const note = input.note || null;
  const { row, approved } = await transaction(deps.db, async (tx) => {
    const w = await lockedWithdrawal(tx, id);
    if (w.requesterId === p.id) throw forbidden(MSG.withdrawalOwnApproval);
    if (w.status !== 'REQUESTED') throw moveRefused(w.status);
    // Nothing is paid from a suspended beneficiary's campaign (docs/charity.md "Moderation").
    const c = await first(tx.select({ beneficiaryId: campaign.beneficiaryId }).from(campaign).where(eq(campaign.id, w.campaignId)));
    if (!(await beneficiaryActive(tx, c?.beneficiaryId ?? null))) throw conflict(MSG.campaignBeneficiarySuspended);
    const mine = await first(tx.select({ id: withdrawalApproval.id }).from(withdrawalApproval).where(and(eq(withdrawalApproval.withdrawalId, id), eq(withdrawalApproval.approverId, p.id))));
    if (mine) throw conflict(MSG.withdrawalApprovedTwice);
    const mismatchAccepted = await checkName(tx, w, input.acceptNameMismatch);
    const now = Date.now();
    await tx.insert(withdrawalApproval).values({ withdrawalId: id, approverId: p.id, approverName: p.name, note, acceptedMismatch: mismatchAccepted, createdAt: now });
    const n = (await first(tx.select({ n: count() }).from(withdrawalApproval).where(eq(withdrawalApproval.withdrawalId, id))))?.n ?? 0;
    if (n >= APPROVALS_NEEDED) return { row: await applyMove(tx, w, 'approve', actorOf(p), note, {}, now), approved: true };
    await recordEvent(tx, id, 'approve', 'REQUESTED', 'REQUESTED', note, actorOf(p), now);
    await logActivity(tx, { actor: actorOf(p), action: 'UPDATE', entity: 'withdrawal', entityId: id, oldValue: { approvals: n - 1 }, newValue: { approvals: n, mismatchAccepted, ...(note !== null && { note }) } });
    return { row: w, approved: false };
  });
  const after = approved ? await startPayout(deps, id, actorOf(p)) : row;
  return { success: true as const, msg: MSG.withdrawalApprovalRecorded, data: await withdrawalView(deps.db, after) };
}

/** POST /api/withdrawal/:id/reject (APPROVE_WITHDRAWAL): a requested withdrawal is refused, with its reason; the beneficiary is told. */
export async function rejectWithdrawal(deps: Deps, p: Principal, id: string, reason: string) {
  const row = await transaction(deps.db, async (tx) => {
    const w = await lockedWithdrawal(tx, id);
    const moved = await applyMove(tx, w, 'reject', actorOf(p), reason, { reason });
    afterCommit(tx, () => notifyOutcome(deps, moved, 'REJECTED'));
    return moved;
  });
  return { success: true as const, msg: MSG.withdrawalRejected, data: await withdrawalView(deps.db, row) };
}

/** POST /api/withdrawal/:id/cancel: the requester takes back a request no one has acted on yet. */
export async function cancelWithdrawal(deps: Deps, p: Principal, id: string) {
  await readableWithdrawal(deps.db, p, id);
  const row = await transaction(deps.db, async (tx) => {
    const w = await lockedWithdrawal(tx, id);
    if (w.requesterId !== p.id) throw forbidden();
    return applyMove(tx, w, 'cancel', actorOf(p), null);
  });
  return { success: true as const, msg: MSG.withdrawalCancelled, data: await withdrawalView(deps.db, row) };
}
