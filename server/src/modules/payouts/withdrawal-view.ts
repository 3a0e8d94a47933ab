import { asc, inArray } from 'drizzle-orm';
import type { Withdrawal, WithdrawalStatus } from '@pm/protocol/payout';
import type { Conn } from '../../db/client';
import { campaign, payoutAccount, type withdrawal, withdrawalApproval, withdrawalEvent } from '../../db/schema';
import { accountView } from './payout-accounts.service';
import { isOverdue } from './withdrawals.machine';

/*
 * A withdrawal as answers show it (docs/charity.md "Withdrawals"): with its campaign's title, its
 * payee (never the full account number), its approvals and its history, read for a page of rows
 * in a few queries.
 */

export type WithdrawalRow = typeof withdrawal.$inferSelect;

export async function withdrawalViews(db: Conn, rows: readonly WithdrawalRow[], now = Date.now()): Promise<Withdrawal[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [titles, accounts, approvals, events] = await Promise.all([
    db.select({ id: campaign.id, en: campaign.titleEn, hi: campaign.titleHi }).from(campaign).where(inArray(campaign.id, [...new Set(rows.map((r) => r.campaignId))])),
    db.select().from(payoutAccount).where(inArray(payoutAccount.id, [...new Set(rows.map((r) => r.payoutAccountId))])),
    db.select().from(withdrawalApproval).where(inArray(withdrawalApproval.withdrawalId, ids)).orderBy(asc(withdrawalApproval.createdAt), asc(withdrawalApproval.id)),
    db.select().from(withdrawalEvent).where(inArray(withdrawalEvent.withdrawalId, ids)).orderBy(asc(withdrawalEvent.createdAt), asc(withdrawalEvent.id)),
  ]);
  const titleOf = new Map(titles.map((t) => [t.id, { en: t.en, hi: t.hi }]));
  const accountOf = new Map(accounts.map((a) => [a.id, accountView(a)]));
  return rows.map((r) => ({
    id: r.id,
    campaignId: r.campaignId,
    campaignTitle: titleOf.get(r.campaignId) ?? { en: '', hi: '' },
    requester: { id: r.requesterId ?? '', name: r.requesterName },
    payee: accountOf.get(r.payoutAccountId)!,
    amount: r.amount,
    fromDomestic: r.fromDomestic,
    fromForeign: r.fromForeign,
    purpose: { en: r.purposeEn, hi: r.purposeHi },
    status: r.status as WithdrawalStatus,
    approvals: approvals.filter((a) => a.withdrawalId === r.id).map((a) => ({ by: { id: a.approverId, name: a.approverName }, at: a.createdAt, note: a.note })),
    reason: r.reason,
    dueAt: r.dueAt,
    overdue: isOverdue(r.status as WithdrawalStatus, r.dueAt, now),
    payoutId: r.payoutId,
    utr: r.utr,
    failure: r.failure,
    createdAt: r.createdAt,
    paidAt: r.paidAt,
    history: events
      .filter((e) => e.withdrawalId === r.id)
      .map((e) => ({
        action: e.action,
        from: e.fromStatus as WithdrawalStatus | null,
        to: e.toStatus as WithdrawalStatus,
        note: e.note,
        actor: e.actorId ? { id: e.actorId, name: e.actorName ?? '' } : null,
        at: e.createdAt,
      })),
  }));
}

export async function withdrawalView(db: Conn, row: WithdrawalRow): Promise<Withdrawal> {
  return (await withdrawalViews(db, [row]))[0]!;
}
