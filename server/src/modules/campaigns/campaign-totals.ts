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
 * paid (negative for a refund), `share` the trust's share of it, `net` what reached the campaign.
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
  const ledger = [...rows.values()].slice(0, limit).map((r) => ({ ...r, amount: r.gross }));
  const recentDonations = ledger
    .filter((r) => r.kind === 'DONATION')
    .slice(0, 10)
    .map((r) => ({ name: r.donor, amount: r.gross, at: r.at }));
  return { recentDonations, ledger };
}
