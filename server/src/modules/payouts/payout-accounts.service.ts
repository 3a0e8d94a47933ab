import { and, asc, count, eq, isNull, notInArray } from 'drizzle-orm';
import { MAX_PAYOUT_ACCOUNTS, type PayeeCreate, type PayoutAccount, type PayoutAccountCreate } from '@pm/protocol/payout';
import { MSG } from '@pm/protocol/messages';
import type { Deps, Principal } from '../../context';
import type { Conn } from '../../db/client';
import { takeTurns } from '../../db/dialect';
import { payoutAccount, withdrawal } from '../../db/schema';
import { first, transaction } from '../../db/transaction';
import { logActivity } from '../../lib/activity';
import { AppError, conflict, notFound } from '../../lib/errors';
import { campaignNotFound, isStaff, readableCampaign } from '../campaigns/campaign-access';
import { seesCampaignMoney } from './payout-access';
import type { PayoutDestination } from './payout-adapter';
import { namesMatch } from './name-match';
import { SETTLED } from './withdrawals.machine';

/*
 * Payout accounts (docs/charity.md "Payout accounts"): a person's own bank accounts and UPI ids
 * (at most MAX_PAYOUT_ACCOUNTS), and the supplier payees staff add to a campaign. Each is
 * verified through the payout adapter before the answer: written PENDING (the limit is counted
 * in that transaction), verified outside any transaction (a call to another system), then
 * written VERIFIED or FAILED with the registered name and whether it is the payee's.
 */

export type AccountRow = typeof payoutAccount.$inferSelect;

/** An account as answers show it: never the full account number. */
export function accountView(row: AccountRow): PayoutAccount {
  return {
    id: row.id,
    kind: row.kind as PayoutAccount['kind'],
    holderName: row.holderName,
    ...(row.kind === 'BANK' ? { ifsc: row.ifsc ?? '', accountLast4: row.accountLast4 ?? '' } : { vpa: row.vpa ?? '' }),
    supplierName: row.supplierName,
    campaignId: row.campaignId,
    status: row.status as PayoutAccount['status'],
    verifiedName: row.verifiedName,
    nameMatches: row.nameMatches,
    createdAt: row.createdAt,
    verifiedAt: row.verifiedAt,
  };
}

/** Where a verified account's money goes, for the adapter. */
export function destinationOf(row: AccountRow): PayoutDestination {
  return row.kind === 'BANK' ? { kind: 'BANK', name: row.holderName, ifsc: row.ifsc!, accountNumber: row.accountNumber! } : { kind: 'VPA', name: row.holderName, vpa: row.vpa! };
}

/** The adapter, or 409 where this installation has none (production without PAYOUT_PROVIDER). */
export function payoutAdapter(deps: Deps) {
  if (!deps.payouts.adapter) throw conflict(MSG.payoutsOff);
  return deps.payouts.adapter;
}

const actorOf = (p: Principal) => ({ id: p.id, name: p.name });

type Owner = { personId: string; campaignId: string | null; supplierName: string | null; expectedName: string };

/** The columns of a new account from its form. */
function columnsOf(input: PayoutAccountCreate | PayeeCreate) {
  return input.kind === 'BANK'
    ? { kind: 'BANK', holderName: input.holderName, ifsc: input.ifsc, accountNumber: input.accountNumber, accountLast4: input.accountNumber.slice(-4) }
    : { kind: 'VPA', holderName: input.holderName, vpa: input.vpa.toLowerCase() };
}

/** Writes the account PENDING; a person's own accounts take turns so that the limit holds under concurrent requests. */
async function insertPending(deps: Deps, p: Principal, owner: Owner, input: PayoutAccountCreate | PayeeCreate): Promise<AccountRow> {
  return transaction(deps.db, async (tx) => {
    if (owner.campaignId === null) {
      await takeTurns(tx, `payout-accounts:${owner.personId}`);
      const held = await first(tx.select({ n: count() }).from(payoutAccount).where(and(eq(payoutAccount.personId, owner.personId), isNull(payoutAccount.campaignId), isNull(payoutAccount.deletedAt))));
      if ((held?.n ?? 0) >= MAX_PAYOUT_ACCOUNTS) throw conflict(MSG.payoutAccountLimit);
    }
    const row = (await first(tx.insert(payoutAccount).values({ ...columnsOf(input), personId: owner.personId, campaignId: owner.campaignId, supplierName: owner.supplierName, status: 'PENDING' }).returning()))!;
    await logActivity(tx, { actor: actorOf(p), action: 'CREATE', entity: 'payout_account', entityId: row.id, newValue: accountView(row) });
    return row;
  });
}

/** Verifies the account through the adapter and writes the outcome. A provider that cannot be reached leaves nothing behind (502). */
async function verify(deps: Deps, p: Principal, row: AccountRow, expectedName: string): Promise<AccountRow> {
  const adapter = payoutAdapter(deps);
  let fund: Awaited<ReturnType<typeof adapter.fundAccount>>;
  let result: Awaited<ReturnType<typeof adapter.validate>>;
  try {
    fund = await adapter.fundAccount(destinationOf(row), row.id);
    result = await adapter.validate(fund.fundAccountId);
  } catch (err) {
    await transaction(deps.db, (tx) => tx.delete(payoutAccount).where(eq(payoutAccount.id, row.id)));
    throw err;
  }
  const now = Date.now();
  const status = result.state === 'valid' ? 'VERIFIED' : result.state === 'invalid' ? 'FAILED' : 'PENDING';
  const verifiedName = result.registeredName;
  return transaction(deps.db, async (tx) => {
    const done = (await first(
      tx
        .update(payoutAccount)
        .set({ status, verifiedName, nameMatches: namesMatch(verifiedName, expectedName), contactId: fund.contactId, fundAccountId: fund.fundAccountId, verifiedAt: status === 'PENDING' ? null : now })
        .where(eq(payoutAccount.id, row.id))
        .returning(),
    ))!;
    await logActivity(tx, { actor: actorOf(p), action: 'UPDATE', entity: 'payout_account', entityId: row.id, oldValue: { status: row.status }, newValue: { status, verifiedName, nameMatches: done.nameMatches } });
    return done;
  });
}

async function addAccount(deps: Deps, p: Principal, owner: Owner, input: PayoutAccountCreate | PayeeCreate) {
  payoutAdapter(deps);
  const pending = await insertPending(deps, p, owner, input);
  const row = await verify(deps, p, pending, owner.expectedName);
  return { success: true as const, msg: row.status === 'VERIFIED' ? MSG.payoutAccountVerified : MSG.payoutAccountNotVerified, data: accountView(row) };
}

/** POST /api/payout-account: one of the caller's own; the registered name is compared with theirs. */
export function createOwnAccount(deps: Deps, p: Principal, input: PayoutAccountCreate) {
  return addAccount(deps, p, { personId: p.id, campaignId: null, supplierName: null, expectedName: p.name }, input);
}

/** POST /api/campaign/:id/payees (staff): a supplier payee of the campaign; the registered name is compared with the supplier's. */
export async function createPayee(deps: Deps, p: Principal, campaignId: string, input: PayeeCreate) {
  await readableCampaign(deps.db, p, campaignId);
  return addAccount(deps, p, { personId: p.id, campaignId, supplierName: input.supplierName, expectedName: input.supplierName }, input);
}

/** GET /api/payout-account/mine: the caller's own accounts, oldest first. */
export async function myAccounts(deps: Deps, p: Principal) {
  const rows = await deps.db
    .select()
    .from(payoutAccount)
    .where(and(eq(payoutAccount.personId, p.id), isNull(payoutAccount.campaignId), isNull(payoutAccount.deletedAt)))
    .orderBy(asc(payoutAccount.createdAt), asc(payoutAccount.id));
  return { success: true as const, data: rows.map(accountView) };
}

/** GET /api/campaign/:id/payees: the campaign's supplier payees (its owner, staff and trustees). */
export async function campaignPayees(deps: Deps, p: Principal, campaignId: string) {
  const row = await readableCampaign(deps.db, p, campaignId);
  if (!seesCampaignMoney(p, row)) throw campaignNotFound();
  const rows = await deps.db
    .select()
    .from(payoutAccount)
    .where(and(eq(payoutAccount.campaignId, campaignId), isNull(payoutAccount.deletedAt)))
    .orderBy(asc(payoutAccount.createdAt), asc(payoutAccount.id));
  return { success: true as const, data: rows.map(accountView) };
}

/** An account row that is not removed, or undefined. */
export async function liveAccount(db: Conn, id: string): Promise<AccountRow | undefined> {
  return first(db.select().from(payoutAccount).where(and(eq(payoutAccount.id, id), isNull(payoutAccount.deletedAt))));
}

/**
 * DELETE /api/payout-account/:id: its owner (staff for a campaign's payee) removes it; 409 while
 * a withdrawal that is not settled (paid, rejected, cancelled) uses it. The row stays for the
 * withdrawals made to it.
 */
export async function removeAccount(deps: Deps, p: Principal, id: string) {
  await transaction(deps.db, async (tx) => {
    const row = await liveAccount(tx, id);
    const mayRemove = row && (row.campaignId === null ? row.personId === p.id : isStaff(p));
    if (!row || !mayRemove) throw notFound(MSG.payoutAccountNotFound);
    const open = await first(
      tx
        .select({ id: withdrawal.id })
        .from(withdrawal)
        .where(and(eq(withdrawal.payoutAccountId, id), notInArray(withdrawal.status, [...SETTLED])))
        .limit(1),
    );
    if (open) throw new AppError('CONFLICT', MSG.payoutAccountInUse, { withdrawalId: open.id });
    await tx.update(payoutAccount).set({ deletedAt: Date.now() }).where(eq(payoutAccount.id, id));
    await logActivity(tx, { actor: actorOf(p), action: 'DELETE', entity: 'payout_account', entityId: id, oldValue: accountView(row) });
  });
  return { success: true as const, msg: MSG.payoutAccountRemoved };
}


