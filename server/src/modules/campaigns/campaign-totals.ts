import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Conn } from '../../db/client';
import { donation, ledgerEntry } from '../../db/schema';
import { ACCOUNTS } from '../../lib/ledger';

/*
 * What a campaign has raised, from whom, and its public ledger (docs/charity.md "The ledger"):
 * sums over `ledger_entry`, never counters kept on the campaign. A donation's money is the
 * gateway's leg of its DONATION movement (the trust's share included) and, when refunded, of its
 * REFUND; the donation row says which campaign and donor an order is. Every reader of a campaign
 * (the public list and its sorts, a campaign's page, My campaigns, the approval queue) goes
 * through these functions.
 */

export type CampaignTotals = {
  /** Paise given to the campaign, the trust's share included, refunds taken off. */
  raised: number;
  /** Donations paid to it and not refunded. */
  donors: number;
};

/** A recent donation as a campaign's page lists it: the donor's name, or "Anonymous". */
export type RecentDonation = { name: string; amount: number; at: number };

/**
 * A row of a campaign's public ledger: one movement of its money, paise. `gross` what the donor
 * paid (negative for a refund), `share` the trust's share of it, `net` what reached the campaign;
 * a PAYOUT row (a withdrawal paid) has no donor, and its `net` is what left the campaign, negative.
 */
export type PublicLedgerRow = { kind: string; amount: number; gross: number; share: number; net: number; donor: string; at: number; foreign: boolean };

/** What a donor who chose so is shown as (the client translates it). */
export const ANONYMOUS = 'Anonymous';

/** The paying movements of campaigns' donations and their refunds (their gateway legs). */
const MONEY_KINDS = ['DONATION', 'REFUND'];

/** The totals of each campaign of `ids` (every id has an entry). */
export async function campaignTotals(db: Conn, ids: readonly string[]): Promise<Map<string, CampaignTotals>> {
  const out = new Map(ids.map((id) => [id, { raised: 0, donors: 0 }]));
  if (ids.length === 0) return out;
  const perOrder = await db
    .select({ campaignId: donation.campaignId, orderId: donation.orderId, gross: sql<number>`sum(${ledgerEntry.amount})` })
    .from(ledgerEntry)
    .innerJoin(donation, eq(donation.orderId, ledgerEntry.orderId))
    .where(and(inArray(donation.campaignId, [...ids]), eq(ledgerEntry.account, ACCOUNTS.gateway), inArray(ledgerEntry.kind, MONEY_KINDS)))
    .groupBy(donation.campaignId, donation.orderId);
  for (const r of perOrder) {
    const t = out.get(r.campaignId);
    const gross = Number(r.gross);
    if (!t || gross <= 0) continue;
    t.raised += gross;
    t.donors += 1;
  }
  return out;
}

/** The movements of a campaign's paid withdrawals and of the payouts the bank returned (docs/charity.md "Withdrawals"). */
const PAYOUT_KINDS = ['PAYOUT', 'PAYOUT_REVERSAL'];

/**
 * The campaign's paid withdrawals as public ledger rows, newest first: what left the campaign's
 * money (domestic and foreign together) as a negative `net`; a payout the bank returned, positive.
 * Donors read where their money went beside what they gave (docs/charity.md "The withdrawal screens").
 */
async function payoutRows(db: Conn, id: string): Promise<PublicLedgerRow[]> {
  const legs = await db
    .select({ groupId: ledgerEntry.groupId, kind: ledgerEntry.kind, amount: ledgerEntry.amount, at: ledgerEntry.createdAt })
    .from(ledgerEntry)
    .where(and(inArray(ledgerEntry.account, [ACCOUNTS.payout(id), ACCOUNTS.payoutForeign(id)]), inArray(ledgerEntry.kind, PAYOUT_KINDS)))
    .orderBy(desc(ledgerEntry.createdAt), ledgerEntry.groupId);
  const rows = new Map<string, PublicLedgerRow>();
  for (const l of legs) {
    const row = rows.get(l.groupId) ?? { kind: l.kind, amount: 0, gross: 0, share: 0, net: 0, donor: '', at: l.at, foreign: false };
    row.net -= l.amount;
    row.amount = row.net;
    rows.set(l.groupId, row);
  }
  return [...rows.values()];
}

/** A campaign's latest donations and its public ledger (newest first, at most `limit` each), for its page. */
export async function campaignMoney(db: Conn, id: string, limit = 50): Promise<{ recentDonations: RecentDonation[]; ledger: PublicLedgerRow[] }> {
  const legs = await db
    .select({
      groupId: ledgerEntry.groupId,
      kind: ledgerEntry.kind,
      account: ledgerEntry.account,
      amount: ledgerEntry.amount,
      at: ledgerEntry.createdAt,
      name: donation.name,
      anonymous: donation.anonymous,
    })
    .from(ledgerEntry)
    .innerJoin(donation, eq(donation.orderId, ledgerEntry.orderId))
    .where(and(eq(donation.campaignId, id), inArray(ledgerEntry.kind, MONEY_KINDS)))
    .orderBy(desc(ledgerEntry.createdAt), ledgerEntry.groupId);
  const rows = new Map<string, PublicLedgerRow>();
  for (const l of legs) {
    let row = rows.get(l.groupId);
    if (!row) {
      row = { kind: l.kind, amount: 0, gross: 0, share: 0, net: 0, donor: l.anonymous ? ANONYMOUS : l.name, at: l.at, foreign: false };
      rows.set(l.groupId, row);
    }
    if (l.account === ACCOUNTS.gateway) row.gross += l.amount;
    else if (l.account === ACCOUNTS.campaign(id)) row.net -= l.amount;
    else if (l.account === ACCOUNTS.campaignForeign(id)) {
      // A foreign contribution is marked as one; its donor is named as any other (docs/charity.md "Foreign contributions").
      row.net -= l.amount;
      row.foreign = true;
    }
    else if (l.account.startsWith('trust:')) row.share -= l.amount;
  }
  const donations = [...rows.values()].map((r) => ({ ...r, amount: r.gross }));
  const ledger = [...donations, ...(await payoutRows(db, id))].sort((a, b) => b.at - a.at).slice(0, limit);
  const recentDonations = donations
    .filter((r) => r.kind === 'DONATION')
    .slice(0, 10)
    .map((r) => ({ name: r.donor, amount: r.gross, at: r.at }));
  return { recentDonations, ledger };
}
