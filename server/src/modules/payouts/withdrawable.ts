import { and, eq, inArray, max, sql } from 'drizzle-orm';
import type { Withdrawable } from '@pm/protocol/payout';
import type { Conn } from '../../db/client';
import { campaignUpdate, withdrawal } from '../../db/schema';
import { first } from '../../db/transaction';
import { ACCOUNTS, balances } from '../../lib/ledger';
import { HOLDING } from './withdrawals.machine';

/*
 * What a campaign may withdraw (docs/charity.md "Withdrawals"; the ledger's contract): domestic
 * money = what its account received (net of the share) less what its payout account paid out;
 * foreign likewise with the `:fc` accounts; less what open requests hold. Read inside the
 * transaction that writes a request, after the campaign's turn is taken, so that fifty requests
 * at once never hold more than there is.
 */

export type Funds = { domestic: number; foreign: number; heldDomestic: number; heldForeign: number };

export async function campaignFunds(db: Conn, campaignId: string): Promise<Funds> {
  const accounts = [ACCOUNTS.campaign(campaignId), ACCOUNTS.campaignForeign(campaignId), ACCOUNTS.payout(campaignId), ACCOUNTS.payoutForeign(campaignId)];
  const b = await balances(db, accounts);
  const held = await first(
    db
      .select({ d: sql<number>`coalesce(sum(${withdrawal.fromDomestic}), 0)`, f: sql<number>`coalesce(sum(${withdrawal.fromForeign}), 0)` })
      .from(withdrawal)
      .where(and(eq(withdrawal.campaignId, campaignId), inArray(withdrawal.status, [...HOLDING]))),
  );
  return {
    domestic: -b.get(accounts[0]!)! - b.get(accounts[2]!)!,
    foreign: -b.get(accounts[1]!)! - b.get(accounts[3]!)!,
    heldDomestic: Number(held?.d ?? 0),
    heldForeign: Number(held?.f ?? 0),
  };
}

/** What a new request may take from each kind of money. */
export const availableOf = (f: Funds) => ({ domestic: Math.max(0, f.domestic - f.heldDomestic), foreign: Math.max(0, f.foreign - f.heldForeign) });

/**
 * Whether the campaign owes an update: a withdrawal was paid and no update was posted after the
 * last one paid (docs/charity.md "Withdrawals": what the last withdrawal bought).
 */
export async function updateRequired(db: Conn, campaignId: string): Promise<boolean> {
  const paid = await first(db.select({ at: max(withdrawal.paidAt) }).from(withdrawal).where(and(eq(withdrawal.campaignId, campaignId), eq(withdrawal.status, 'PAID'))));
  const lastPaid = paid?.at == null ? null : Number(paid.at);
  if (lastPaid === null) return false;
  const update = await first(db.select({ at: max(campaignUpdate.createdAt) }).from(campaignUpdate).where(eq(campaignUpdate.campaignId, campaignId)));
  return update?.at == null || Number(update.at) <= lastPaid;
}

export async function withdrawableOf(db: Conn, campaignId: string): Promise<Withdrawable> {
  const f = await campaignFunds(db, campaignId);
  const a = availableOf(f);
  return { domestic: f.domestic, foreign: f.foreign, held: f.heldDomestic + f.heldForeign, available: a.domestic + a.foreign, updateRequired: await updateRequired(db, campaignId) };
}
