import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Conn } from '../db/client';
import { campaign, ledgerEntry, purchaseOrder } from '../db/schema';

/*
 * The double-entry ledger (docs/charity.md "The ledger"). Every movement of money is a group of
 * rows (legs) sharing a group id whose amounts sum to zero, a debit positive and a credit
 * negative, written in the transaction that changes the order it belongs to. A correction is a new
 * group, never an edit. Balances, campaign totals and report figures are sums over these rows.
 */

/** The account names (docs/charity.md "The ledger"). */
export const ACCOUNTS = {
  /** Money the payment provider holds for us: debited by a capture, credited by a refund. */
  gateway: 'gateway',
  plans: 'revenue:plans',
  /** A donation to the trust with no campaign (an order of kind DONATION made by createDummyOrder). */
  generalDonations: 'donations:general',
  refundsDue: 'refunds-due',
  campaign: (id: string) => `campaign:${id}`,
  /** What a campaign received from foreign contributions, net of the trust's share: kept apart by law (docs/charity.md "Foreign contributions"). */
  campaignForeign: (id: string) => `campaign:${id}:fc`,
  /** What left a campaign's domestic money as payouts (docs/charity.md "Withdrawals"). */
  payout: (campaignId: string) => `payout:${campaignId}`,
  /** What left a campaign's foreign contributions as payouts. */
  payoutForeign: (campaignId: string) => `payout:${campaignId}:fc`,
  trustShare: (trustId: string) => `trust:${trustId}:share`,
  trustGatewayFee: (trustId: string) => `trust:${trustId}:gateway-fee`,
  trustBankFee: (trustId: string) => `trust:${trustId}:bank-fee`,
  trustRunning: (trustId: string) => `trust:${trustId}:running`,
  /** The trust's share of foreign contributions (capped: docs/charity.md "Foreign contributions"), before and after its split. */
  trustForeignShare: (trustId: string) => `trust:${trustId}:fc-share`,
  trustForeignRunning: (trustId: string) => `trust:${trustId}:fc-running`,
} as const;

export type LedgerKind = 'CAPTURE' | 'DONATION' | 'SHARE_SPLIT' | 'REFUND_DUE' | 'REFUND_DUE_PAID' | 'REFUND' | 'PAYOUT' | 'PAYOUT_REVERSAL';

export type Movement = {
  /** Unique per movement: posting the same group again writes nothing (a retried webhook). */
  groupId: string;
  kind: LedgerKind;
  orderId: string;
  paymentId?: string | null;
  legs: readonly { account: string; amount: number }[];
  at: number;
};

/** A movement whose legs do not balance, or with a leg that is not whole paise: a bug, never stored. */
export class UnbalancedMovement extends Error {}

/**
 * Writes one movement, all legs in one statement, on the caller's transaction. Refuses legs that
 * do not sum to zero. Idempotent by group id: true when written now, false when it was already.
 */
export async function post(tx: Conn, m: Movement): Promise<boolean> {
  const legs = m.legs.filter((l) => l.amount !== 0);
  if (legs.some((l) => !Number.isSafeInteger(l.amount))) throw new UnbalancedMovement(`${m.groupId}: amounts must be whole paise`);
  const sum = legs.reduce((a, l) => a + l.amount, 0);
  if (sum !== 0) throw new UnbalancedMovement(`${m.groupId}: legs sum to ${sum}, not 0`);
  if (legs.length === 0) return false;
  const rows = await tx
    .insert(ledgerEntry)
    .values(legs.map((l, i) => ({ id: `${m.groupId}:${i + 1}`, groupId: m.groupId, account: l.account, orderId: m.orderId, paymentId: m.paymentId ?? null, kind: m.kind, amount: l.amount, createdAt: m.at })))
    .onConflictDoNothing()
    .returning({ id: ledgerEntry.id });
  return rows.length > 0;
}

/** The balance of each of `accounts` (a debit balance positive), 0 for an account with no rows. */
export async function balances(db: Conn, accounts: readonly string[]): Promise<Map<string, number>> {
  const out = new Map(accounts.map((a) => [a, 0]));
  if (accounts.length === 0) return out;
  const rows = await db
    .select({ account: ledgerEntry.account, sum: sql<number>`coalesce(sum(${ledgerEntry.amount}), 0)` })
    .from(ledgerEntry)
    .where(inArray(ledgerEntry.account, [...accounts]))
    .groupBy(ledgerEntry.account);
  for (const r of rows) out.set(r.account, Number(r.sum));
  return out;
}

/** The movements of an order, each with its legs, oldest first. */
export async function movementsOfOrder(db: Conn, orderId: string) {
  return db.select().from(ledgerEntry).where(eq(ledgerEntry.orderId, orderId)).orderBy(ledgerEntry.createdAt, ledgerEntry.id);
}

/**
 * The ledger's own check (docs/charity.md "The ledger"): the groups whose legs do not sum to zero,
 * and the sum of every row. Both are empty and 0 in a sound ledger; the tests ask after every flow.
 */
export async function unbalanced(db: Conn): Promise<{ groups: string[]; total: number }> {
  const groups = await db
    .select({ groupId: ledgerEntry.groupId })
    .from(ledgerEntry)
    .groupBy(ledgerEntry.groupId)
    .having(sql`sum(${ledgerEntry.amount}) <> 0`);
  const total = await db.select({ sum: sql<number>`coalesce(sum(${ledgerEntry.amount}), 0)` }).from(ledgerEntry);
  return { groups: groups.map((g) => g.groupId), total: Number(total[0]?.sum ?? 0) };
}

/** Whether an order's group of `kind` exists already (a capture applied once). */
export async function hasMovement(db: Conn, orderId: string, kind: LedgerKind): Promise<boolean> {
  const r = await db
    .select({ id: ledgerEntry.id })
    .from(ledgerEntry)
    .where(and(eq(ledgerEntry.orderId, orderId), eq(ledgerEntry.kind, kind)))
    .limit(1);
  return r.length > 0;
}

/** A person's money as the Person document shows it, paise (docs/charity.md "The ledger"). */
export type PersonMoney = {
  /** What their campaigns received, net of the trust's share (`tac`). */
  collected: number;
  /** What left their campaigns as payouts (`taw`, total withdrawn). */
  withdrawn: number;
  /** What they paid us: plans and donations, refunds taken off (`paidAmount`). */
  paid: number;
};

/**
 * The money figures of each person of `ids`, summed from the ledger (never kept on the person):
 * collected is minus the balance of their campaigns' accounts, withdrawn the balance of their
 * campaigns' payout accounts, paid the gateway's legs of their orders.
 */
export async function personMoney(db: Conn, ids: readonly string[]): Promise<Map<string, PersonMoney>> {
  const out = new Map(ids.map((id) => [id, { collected: 0, withdrawn: 0, paid: 0 }]));
  if (ids.length === 0) return out;
  const campaigns = await db
    .select({
      personId: campaign.beneficiaryId,
      collected: sql<number>`coalesce(-sum(case when ${ledgerEntry.account} like 'campaign:%' then ${ledgerEntry.amount} else 0 end), 0)`,
      withdrawn: sql<number>`coalesce(sum(case when ${ledgerEntry.account} like 'payout:%' then ${ledgerEntry.amount} else 0 end), 0)`,
    })
    .from(campaign)
    .innerJoin(
      ledgerEntry,
      // A campaign's domestic and foreign-contribution accounts, received and paid out.
      sql`${ledgerEntry.account} in ('campaign:' || ${campaign.id}, 'campaign:' || ${campaign.id} || ':fc', 'payout:' || ${campaign.id}, 'payout:' || ${campaign.id} || ':fc')`,
    )
    .where(inArray(campaign.beneficiaryId, [...ids]))
    .groupBy(campaign.beneficiaryId);
  for (const r of campaigns) {
    const m = r.personId ? out.get(r.personId) : undefined;
    if (m) Object.assign(m, { collected: Number(r.collected), withdrawn: Number(r.withdrawn) });
  }
  const paid = await db
    .select({ personId: purchaseOrder.personId, paid: sql<number>`coalesce(sum(${ledgerEntry.amount}), 0)` })
    .from(ledgerEntry)
    .innerJoin(purchaseOrder, eq(purchaseOrder.id, ledgerEntry.orderId))
    .where(and(eq(ledgerEntry.account, ACCOUNTS.gateway), inArray(ledgerEntry.kind, ['CAPTURE', 'DONATION', 'REFUND']), inArray(purchaseOrder.personId, [...ids])))
    .groupBy(purchaseOrder.personId);
  for (const r of paid) {
    const m = r.personId ? out.get(r.personId) : undefined;
    if (m) m.paid = Number(r.paid);
  }
  return out;
}
