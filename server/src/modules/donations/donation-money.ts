import { and, eq, sql } from 'drizzle-orm';
import type { Deps } from '../../context';
import type { Tx } from '../../db/client';
import { takeTurns } from '../../db/dialect';
import { campaign, donation, purchaseOrder, trust } from '../../db/schema';
import { afterCommit, first } from '../../db/transaction';
import { ACCOUNTS, post as postMovement } from '../../lib/ledger';
import { financialYearOf } from '@pm/protocol/donation';
import type { OrderKindMoney } from '../payments/order-transitions';
import { sendReceiptMail } from './donation-receipt';

type Order = typeof purchaseOrder.$inferSelect;

/** Donations becoming paid take turns for their receipt number (max + 1 per trust and year). */
const DONATION_RECEIPTS = 'donation-receipt-number';

/**
 * What a donation order does with its money (docs/charity.md "The ledger", "Receipts"), wired in
 * compose.ts as Deps.orderKinds.DONATION. An order of kind DONATION without a donation row (the
 * spec's createDummyOrder: a gift to the trust, no campaign) is left to the default legs.
 */
export function donationMoney(deps: Pick<Deps, 'outbox' | 'log' | 'config' | 'db'>): OrderKindMoney {
  return {
    async capture(tx, order, paid, now) {
      const d = await donationOf(tx, order.id);
      if (!d || paid.amount !== order.amount) return false;
      const to = accountsOf(d);
      // The donation: what the donor gave, to the campaign and to the trust's share.
      await postMovement(tx, {
        groupId: `donation:${paid.paymentId}`,
        kind: 'DONATION',
        orderId: order.id,
        paymentId: paid.paymentId,
        legs: [
          { account: ACCOUNTS.gateway, amount: d.amount },
          { account: to.campaign, amount: -d.toCampaign },
          { account: to.share, amount: -d.share },
        ],
        at: now,
      });
      // The share split by use: the providers here report no fee of their own on a payment, so
      // the whole share is the trust's running costs (docs/charity.md "The split").
      await postMovement(tx, {
        groupId: `share:${paid.paymentId}`,
        kind: 'SHARE_SPLIT',
        orderId: order.id,
        paymentId: paid.paymentId,
        legs: [
          { account: to.share, amount: d.share },
          { account: to.running, amount: -d.share },
        ],
        at: now,
      });
      return true;
    },
    async paid(tx, order, now) {
      const numbered = await numberReceipt(tx, order, now);
      if (numbered) afterCommit(tx, () => void sendReceiptMail(deps, order.id).catch((err: unknown) => deps.log.error({ err, orderId: order.id }, 'donation receipt e-mail failed')));
    },
  };
}

/**
 * The accounts a donation's money goes to: a foreign contribution (a donor without an Indian
 * passport) to the campaign's and the trust's foreign-contribution accounts, which the law keeps
 * apart from all other money (docs/charity.md "Foreign contributions"); any other to the domestic ones.
 */
function accountsOf(d: { campaignId: string; trustId: string; indianPassport: boolean }) {
  return d.indianPassport
    ? { campaign: ACCOUNTS.campaign(d.campaignId), share: ACCOUNTS.trustShare(d.trustId), running: ACCOUNTS.trustRunning(d.trustId) }
    : { campaign: ACCOUNTS.campaignForeign(d.campaignId), share: ACCOUNTS.trustForeignShare(d.trustId), running: ACCOUNTS.trustForeignRunning(d.trustId) };
}

/** A donation's row with its order's amount. */
async function donationOf(tx: Tx, orderId: string) {
  return first(
    tx
      .select({
        orderId: donation.orderId,
        campaignId: donation.campaignId,
        trustId: donation.trustId,
        indianPassport: donation.indianPassport,
        share: donation.share,
        toCampaign: donation.toCampaign,
        amount: purchaseOrder.amount,
      })
      .from(donation)
      .innerJoin(purchaseOrder, eq(purchaseOrder.id, donation.orderId))
      .where(eq(donation.orderId, orderId)),
  );
}

/**
 * The receipt number of a donation that became paid: `<trust code>/<financial year>/<n>`, n in
 * sequence per trust and financial year (April–March, India time), in the order's transaction.
 * True when numbered now.
 */
async function numberReceipt(tx: Tx, order: Order, now: number): Promise<boolean> {
  const d = await first(
    tx
      .select({ trustId: donation.trustId, code: trust.code, receiptNo: donation.receiptNo })
      .from(donation)
      .innerJoin(trust, eq(trust.id, donation.trustId))
      .where(eq(donation.orderId, order.id)),
  );
  if (!d || d.receiptNo) return false;
  await takeTurns(tx, DONATION_RECEIPTS);
  const paidAt = order.paidAt ?? now;
  const fy = financialYearOf(paidAt);
  const last = await first(
    tx
      .select({ n: sql<number>`coalesce(max(${donation.receiptSeq}), 0)` })
      .from(donation)
      .where(and(eq(donation.trustId, d.trustId), eq(donation.financialYear, fy))),
  );
  const seq = Number(last?.n ?? 0) + 1;
  await tx
    .update(donation)
    .set({ financialYear: fy, receiptSeq: seq, receiptNo: `${d.code}/${fy}/${seq}`, paidAt })
    .where(eq(donation.orderId, order.id));
  return true;
}

/** The campaign a donation is for (its title), for views and receipts. */
export async function campaignTitleOf(tx: Tx, id: string) {
  return first(tx.select({ id: campaign.id, en: campaign.titleEn, hi: campaign.titleHi }).from(campaign).where(eq(campaign.id, id)));
}
