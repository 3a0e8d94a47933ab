import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import type { WithdrawalCreate, WithdrawalStatus } from '@pm/protocol/payout';
import { MSG } from '@pm/protocol/messages';
import type { Deps, Principal } from '../../context';
import type { Conn } from '../../db/client';
import { takeTurns } from '../../db/dialect';
import { campaign, withdrawal } from '../../db/schema';
import { first, transaction } from '../../db/transaction';
import { logActivity } from '../../lib/activity';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../lib/errors';
import { addWorkingHours, parseHolidays } from '../../lib/working-time';
import { beneficiaryActive, isStaff, readableCampaign } from '../campaigns/campaign-access';
import type { CampaignRow } from '../campaigns/campaign-view';
import { approvesWithdrawals, seesCampaignMoney } from './payout-access';
import { type AccountRow, liveAccount } from './payout-accounts.service';
import { recordEvent } from './withdrawal-record';
import { type WithdrawalRow, withdrawalView, withdrawalViews } from './withdrawal-view';
import { availableOf, campaignFunds, updateRequired, withdrawableOf } from './withdrawable';
import { isOverdue, QUEUED } from './withdrawals.machine';

/*
 * Withdrawals (docs/charity.md "Withdrawals"): the request, the readers and what a campaign may
 * withdraw. The moves are in withdrawal-moves.ts, the payout in withdrawal-payout.ts.
 */

/** Campaigns money may be withdrawn from. */
const WITHDRAWING: readonly string[] = ['APPROVED', 'PAUSED', 'CLOSED'];
/** A withdrawal is due this many working hours after its request (lib/working-time.ts). */
export const DUE_WORKING_HOURS = 48;

export const rupees = (paise: number) => new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR' }).format(paise / 100);

/** 409 naming what the campaign can withdraw (paise in `available`). */
export const aboveAvailable = (available: number) => new AppError('CONFLICT', `${MSG.withdrawalAboveAvailable} (${rupees(available)})`, { available: String(available) });

/** GET /api/campaign/:id/withdrawable: the owner, staff and trustees. */
export async function getWithdrawable(deps: Deps, p: Principal, campaignId: string) {
  const row = await readableCampaign(deps.db, p, campaignId);
  if (!seesCampaignMoney(p, row)) throw notFound(MSG.campaignNotFound);
  return { success: true as const, data: await withdrawableOf(deps.db, campaignId) };
}

/** Whether the campaign's foreign contributions may pay this account: its beneficiary's own, or a supplier its need names. */
export function foreignMayPay(c: CampaignRow, account: AccountRow): boolean {
  if (account.campaignId === null) return account.personId !== null && account.personId === c.beneficiaryId;
  const supplier = account.supplierName?.trim().toLowerCase();
  return account.campaignId === c.id && !!supplier && c.need.some((n) => n.from?.trim().toLowerCase() === supplier);
}

/** The account a caller may ask a withdrawal to: the owner's own, or (staff) a payee of the campaign. */
async function payeeFor(db: Conn, p: Principal, c: CampaignRow, accountId: string): Promise<AccountRow> {
  const account = await liveAccount(db, accountId);
  const own = account?.campaignId === null && account.personId === p.id && c.beneficiaryId === p.id;
  const payee = account?.campaignId === c.id && isStaff(p);
  if (!account || !(own || payee)) throw badRequest(MSG.withdrawalAccountNotAllowed);
  if (account.status !== 'VERIFIED') throw conflict(MSG.withdrawalAccountUnverified);
  return account;
}

/**
 * POST /api/campaign/:id/withdrawals: the owner (to one of their verified accounts) or staff (to a
 * supplier payee of the campaign). The amount is checked against what the campaign may withdraw
 * in the transaction that writes the request, after the campaign's turn is taken (an advisory
 * lock on PostgreSQL; SQLite's transactions take turns anyway).
 */
export async function requestWithdrawal(deps: Deps, p: Principal, campaignId: string, input: WithdrawalCreate) {
  const c = await readableCampaign(deps.db, p, campaignId);
  if (c.beneficiaryId !== p.id && !isStaff(p)) throw forbidden();
  const account = await payeeFor(deps.db, p, c, input.payoutAccountId);
  const now = Date.now();
  const dueAt = addWorkingHours(now, DUE_WORKING_HOURS, parseHolidays(deps.config.WORKING_HOLIDAYS));
  const row = await transaction(deps.db, async (tx) => {
    await takeTurns(tx, `withdrawals:${campaignId}`);
    const current = (await first(tx.select().from(campaign).where(eq(campaign.id, campaignId))))!;
    if (!WITHDRAWING.includes(current.status)) throw new AppError('CONFLICT', MSG.withdrawalCampaignStatus, { status: current.status });
    // A suspended beneficiary's campaign keeps its money until the suspension is lifted (docs/charity.md "Moderation").
    if (!(await beneficiaryActive(tx, current.beneficiaryId))) throw conflict(MSG.campaignBeneficiarySuspended);
    if (await updateRequired(tx, campaignId)) throw conflict(MSG.withdrawalUpdateRequired);
    const free = availableOf(await campaignFunds(tx, campaignId));
    if (input.amount > free.domestic + free.foreign) throw aboveAvailable(free.domestic + free.foreign);
    // Domestic money first, then foreign (docs/charity.md "The ledger").
    const fromDomestic = Math.min(input.amount, free.domestic);
    const fromForeign = input.amount - fromDomestic;
    if (fromForeign > 0 && !foreignMayPay(current, account)) throw conflict(MSG.withdrawalForeignRefused);
    const created = (await first(
      tx
        .insert(withdrawal)
        .values({
          campaignId,
          requesterId: p.id,
          requesterName: p.name,
          payoutAccountId: account.id,
          amount: input.amount,
          fromDomestic,
          fromForeign,
          purposeEn: input.purpose.en,
          purposeHi: input.purpose.hi,
          status: 'REQUESTED',
          dueAt,
          createdAt: now,
          updatedAt: now,
        })
        .returning(),
    ))!;
    await recordEvent(tx, created.id, 'request', null, 'REQUESTED', null, { id: p.id, name: p.name }, now);
    await logActivity(tx, { actor: { id: p.id, name: p.name }, action: 'CREATE', entity: 'withdrawal', entityId: created.id, newValue: { campaignId, amount: input.amount, fromDomestic, fromForeign, payoutAccountId: account.id, status: 'REQUESTED' } });
    return created;
  });
  return { success: true as const, msg: MSG.withdrawalRequested, data: await withdrawalView(deps.db, row) };
}

/** Whether the caller reads this withdrawal: its requester, the campaign's owner, staff, trustees. */
async function readable(db: Conn, p: Principal, row: WithdrawalRow): Promise<boolean> {
  if (row.requesterId === p.id || approvesWithdrawals(p) || isStaff(p)) return true;
  const c = await first(db.select().from(campaign).where(eq(campaign.id, row.campaignId)));
  return !!c && seesCampaignMoney(p, c);
}

/** A withdrawal the caller may read, or 404. */
export async function readableWithdrawal(db: Conn, p: Principal, id: string): Promise<WithdrawalRow> {
  const row = await first(db.select().from(withdrawal).where(eq(withdrawal.id, id)));
  if (!row || !(await readable(db, p, row))) throw notFound(MSG.withdrawalNotFound);
  return row;
}

/** GET /api/withdrawal/:id. */
export async function getWithdrawal(deps: Deps, p: Principal, id: string) {
  return { success: true as const, data: await withdrawalView(deps.db, await readableWithdrawal(deps.db, p, id)) };
}

/** GET /api/withdrawal/mine: the caller's requests, newest first. */
export async function myWithdrawals(deps: Deps, p: Principal) {
  const rows = await deps.db.select().from(withdrawal).where(eq(withdrawal.requesterId, p.id)).orderBy(desc(withdrawal.createdAt), asc(withdrawal.id));
  return { success: true as const, data: await withdrawalViews(deps.db, rows) };
}

/** GET /api/campaign/:id/withdrawals: the campaign's, newest first (owner, staff, trustees). */
export async function campaignWithdrawals(deps: Deps, p: Principal, campaignId: string) {
  const c = await readableCampaign(deps.db, p, campaignId);
  if (!seesCampaignMoney(p, c)) throw notFound(MSG.campaignNotFound);
  const rows = await deps.db.select().from(withdrawal).where(eq(withdrawal.campaignId, campaignId)).orderBy(desc(withdrawal.createdAt), asc(withdrawal.id));
  return { success: true as const, data: await withdrawalViews(deps.db, rows) };
}

/** GET /api/withdrawal/queue (APPROVE_WITHDRAWAL): requested, approved, paying and failed ones; overdue first, then by due time. */
export async function withdrawalQueue(deps: Deps) {
  const now = Date.now();
  const rows = await deps.db
    .select()
    .from(withdrawal)
    .where(and(inArray(withdrawal.status, [...QUEUED])))
    .orderBy(asc(withdrawal.dueAt), asc(withdrawal.id));
  const overdue = (r: WithdrawalRow) => (isOverdue(r.status as WithdrawalStatus, r.dueAt, now) ? 0 : 1);
  // A stable sort: within each group the database's order (due time) stays.
  const sorted = [...rows].sort((a, b) => overdue(a) - overdue(b));
  return { success: true as const, data: await withdrawalViews(deps.db, sorted, now) };
}
