import type { Conn } from '../../db/client';

/*
 * What a campaign has raised, from whom, and its public ledger (docs/charity.md "The ledger").
 * These are sums over the ledger, never counters kept on the campaign. Until donations and the
 * ledger exist they are all zero and empty: the donations part replaces this file's functions
 * (same names and shapes) with queries over `ledger_entry`, and every reader of a campaign —
 * the public list and its sorts, a campaign's page, My campaigns, the approval queue — goes
 * through them.
 */

export type CampaignTotals = {
  /** Paise given to the campaign, the trust's share included. */
  raised: number;
  /** How many donations were paid to it. */
  donors: number;
};

/** A recent donation as a campaign's page lists it: the donor's name, or "Anonymous". */
export type RecentDonation = { name: string; amount: number; at: number };
/** A row of a campaign's public ledger. */
export type PublicLedgerRow = { kind: string; amount: number; at: number };

const NOTHING: CampaignTotals = { raised: 0, donors: 0 };

/** The totals of each campaign of `ids` (every id has an entry). */
export async function campaignTotals(_db: Conn, ids: readonly string[]): Promise<Map<string, CampaignTotals>> {
  return new Map(ids.map((id) => [id, NOTHING]));
}

/** A campaign's latest donations and its public ledger, for its page. */
export async function campaignMoney(_db: Conn, _id: string): Promise<{ recentDonations: RecentDonation[]; ledger: PublicLedgerRow[] }> {
  return { recentDonations: [], ledger: [] };
}
