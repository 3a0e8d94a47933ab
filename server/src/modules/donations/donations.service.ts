import { and, count, desc, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import { type DonationListRow, type DonationQuote, type DonationStart, type DonationView, MAX_SHARE_BPS, splitDonation } from '@pm/protocol/donation';
import { MSG } from '@pm/protocol/messages';
import type { Provider } from '@pm/protocol/payment';
import type { Deps, Principal } from '../../context';
import type { Conn } from '../../db/client';
import { containsText } from '../../db/dialect';
import { campaign, donation, payment, purchaseOrder, trust } from '../../db/schema';
import { first } from '../../db/transaction';
import type { Actor } from '../../lib/activity';
import { AppError, notFound } from '../../lib/errors';
import { beneficiaryActive } from '../campaigns/campaign-access';
import { createDonationOrderWith, orderStatus, payOrder } from '../payments/payments.service';
import { donationLink, donationToken, opensDonation, receiptOf } from './donation-receipt';

/*
 * Donations to a campaign (docs/charity.md "Donations"): the split shown before paying, a
 * DONATION order through the order machine and the payment adapters, from a guest or a signed-in
 * person, with the donation's own row in the order's transaction. What the money does once paid
 * is donation-money.ts's (the ledger, the receipt number).
 */

const rupeesToPaise = (rupees: number) => Math.round(rupees * 100);
/** Who acted, for the activity log: a guest has no person row, so no actor (the donation names the donor). */
const actorOf = (p: Principal | null): Actor => (p ? { id: p.id, name: p.name } : null);

/** The campaign and its trust, when the campaign takes donations now; else 409 (404 when none is public). */
async function openCampaign(db: Conn, id: string, now: number) {
  const r = await first(
    db
      .select({ c: { id: campaign.id, status: campaign.status, endsAt: campaign.endsAt, titleEn: campaign.titleEn, titleHi: campaign.titleHi, beneficiaryId: campaign.beneficiaryId }, t: trust })
      .from(campaign)
      .innerJoin(trust, eq(trust.id, campaign.trustId))
      .where(eq(campaign.id, id)),
  );
  // Drafts, submissions and refusals are not public: not found, as for the campaign's own page.
  if (!r || !['APPROVED', 'PAUSED', 'CLOSED'].includes(r.c.status)) throw notFound(MSG.campaignNotFound);
  // Paused, closed, ended, or its beneficiary suspended (docs/charity.md "Moderation"): the same
  // answer, which tells a donor nothing about the beneficiary's account.
  if (r.c.status !== 'APPROVED' || r.c.endsAt <= now || !(await beneficiaryActive(db, r.c.beneficiaryId))) throw new AppError('CONFLICT', MSG.donationCampaignClosed);
  if (r.t.shareBps < 0 || r.t.shareBps > MAX_SHARE_BPS) throw new Error(`trust ${r.t.id}: share ${r.t.shareBps} bps is above the FAQ's 10 %`);
  return r;
}

/** GET /api/donation/quote: the split before paying (paise). */
export async function quote(deps: Deps, input: { campaignId: string; amount: number }, now = Date.now()): Promise<{ success: true; data: DonationQuote }> {
  const { t } = await openCampaign(deps.db, input.campaignId, now);
  return { success: true, data: { ...splitDonation(rupeesToPaise(input.amount), t.shareBps), shareBps: t.shareBps, trust: { name: t.name, fcraRegistered: t.fcraRegistered } } };
}

/**
 * POST /api/donation: a DONATION order for the campaign and the donation's row (who gave, the
 * split agreed, the receipt's details), refused before any payment when the campaign takes no
 * donations or the donor holds no Indian passport and the trust is not registered for foreign
 * contributions. The answer carries the order as POST /api/payment's does, the split, and the
 * token that lets whoever started it pay and follow it without an account.
 */
export async function startDonation(deps: Deps, who: Principal | null, input: DonationStart, now = Date.now()) {
  const { c, t } = await openCampaign(deps.db, input.campaignId, now);
  // The foreign-contribution rule belongs to the trust, not to the card (docs/charity.md).
  if (!input.indianPassport && !t.fcraRegistered) throw new AppError('FORBIDDEN', MSG.donationForeignRefused);
  const split = splitDonation(rupeesToPaise(input.amount), t.shareBps);
  const answer = await createDonationOrderWith(
    deps,
    actorOf(who),
    { personId: who?.id ?? null, reference: c.id, amount: split.amount, redirectUrl: input.redirection_url },
    async (tx, order) => {
      await tx.insert(donation).values({
        orderId: order.id,
        campaignId: c.id,
        trustId: t.id,
        personId: who?.id ?? null,
        name: input.name,
        email: input.email.toLowerCase(),
        mobile: input.mobile.replace(/^\+91/, ''),
        pan: input.pan ?? null,
        address: input.address ?? null,
        indianPassport: input.indianPassport,
        anonymous: input.anonymous,
        shareBps: t.shareBps,
        share: split.share,
        toCampaign: split.toCampaign,
        createdAt: now,
      });
    },
    now,
  );
  return { ...answer, token: donationToken(deps.config, answer.id), split: { ...split, shareBps: t.shareBps } };
}

/** The donation's order when the caller may see it: its signed-in donor, or the holder of its token; else 404. */
async function ownDonation(deps: Deps, who: Principal | null, orderId: string, token: string | undefined) {
  const r = await first(
    deps.db
      .select({ order: purchaseOrder, d: donation, title: { en: campaign.titleEn, hi: campaign.titleHi } })
      .from(donation)
      .innerJoin(purchaseOrder, eq(purchaseOrder.id, donation.orderId))
      .innerJoin(campaign, eq(campaign.id, donation.campaignId))
      .where(eq(donation.orderId, orderId)),
  );
  const mine = r && ((who !== null && r.d.personId === who.id) || opensDonation(deps.config, orderId, token));
  if (!r || !mine) throw notFound(MSG.donationNotFound);
  return r;
}

function viewOf(r: { order: typeof purchaseOrder.$inferSelect; d: typeof donation.$inferSelect; title: { en: string; hi: string } }): DonationView {
  return {
    orderId: r.order.id,
    status: r.order.status,
    campaign: { id: r.d.campaignId, title: r.title },
    amount: r.order.amount,
    share: r.d.share,
    toCampaign: r.d.toCampaign,
    name: r.d.name,
    anonymous: r.d.anonymous,
    createdAt: r.d.createdAt,
    paidAt: r.d.paidAt,
    receiptNo: r.d.receiptNo,
  };
}

/** POST /api/donation/:orderId/pay: to the provider, as initiatePayment does for a plan. */
export async function payDonation(deps: Deps, who: Principal | null, orderId: string, input: { token?: string | undefined; provider?: Provider | undefined; redirectUrl?: string | undefined }, now = Date.now()) {
  const r = await ownDonation(deps, who, orderId, input.token);
  // A donation started before a pause, a close or a suspension is not paid after it: the campaign
  // must take donations when the donor goes to pay (docs/charity.md "Moderation").
  await openCampaign(deps.db, r.d.campaignId, now);
  const provider = input.provider ?? deps.payments.providers.defaultName;
  return payOrder(deps, actorOf(who), r.order, provider, { redirectUrl: input.redirectUrl, mobileNumber: r.d.mobile }, now);
}

/** GET /api/donation/:orderId?t: the donation and its payment's status (asked of the provider while open). */
export async function donationStatus(deps: Deps, who: Principal | null, orderId: string, token: string | undefined, now = Date.now()) {
  const r = await ownDonation(deps, who, orderId, token);
  const status = await orderStatus(deps, actorOf(who), r.order, now);
  // Read again only when asking the provider moved the order (it became paid: a receipt number).
  const fresh = status.data.status === r.order.status ? r : await ownDonation(deps, who, orderId, donationToken(deps.config, orderId));
  return { success: status.success, msg: status.msg, data: viewOf(fresh) };
}

/** GET /api/donation/mine: the signed-in person's donations, newest first. */
export async function myDonations(deps: Deps, who: Principal): Promise<{ success: true; data: DonationView[] }> {
  const rows = await deps.db
    .select({ order: purchaseOrder, d: donation, title: { en: campaign.titleEn, hi: campaign.titleHi } })
    .from(donation)
    .innerJoin(purchaseOrder, eq(purchaseOrder.id, donation.orderId))
    .innerJoin(campaign, eq(campaign.id, donation.campaignId))
    .where(eq(donation.personId, who.id))
    .orderBy(desc(donation.createdAt));
  return { success: true, data: rows.map(viewOf) };
}

/** GET /api/donation/:orderId/receipt?t: the receipt of a paid donation (409 before it is paid). */
export async function donationReceipt(deps: Deps, who: Principal | null, orderId: string, token: string | undefined) {
  await ownDonation(deps, who, orderId, token);
  const receipt = await receiptOf(deps.db, orderId);
  if (!receipt) throw new AppError('CONFLICT', MSG.donationNotPaid);
  return { success: true as const, data: { ...receipt, link: donationLink(deps.config, orderId) } };
}

/** GET /api/donation/list (VIEW_REPORT): every donation, newest first, with the donor's contact (staff only). */
export async function listDonations(deps: Deps, input: { campaignId?: string | undefined; q?: string | undefined; page: number; size: number }): Promise<{ success: true; data: DonationListRow[]; total: number }> {
  const conds: SQL[] = [];
  if (input.campaignId) conds.push(eq(donation.campaignId, input.campaignId));
  if (input.q) {
    const q = input.q;
    conds.push(or(containsText(deps.db, donation.name, q), containsText(deps.db, donation.email, q), containsText(deps.db, donation.mobile, q), containsText(deps.db, donation.receiptNo, q)) as SQL);
  }
  const where = conds.length ? and(...conds) : undefined;
  const total = (await first(deps.db.select({ n: count() }).from(donation).where(where)))?.n ?? 0;
  const rows = await deps.db
    .select({ order: purchaseOrder, d: donation, title: { en: campaign.titleEn, hi: campaign.titleHi } })
    .from(donation)
    .innerJoin(purchaseOrder, eq(purchaseOrder.id, donation.orderId))
    .innerJoin(campaign, eq(campaign.id, donation.campaignId))
    .where(where)
    .orderBy(desc(donation.createdAt), desc(donation.orderId))
    .limit(input.size)
    .offset((input.page - 1) * input.size);
  const owed = await refundsDueOf(deps.db, rows.map((r) => r.order.id));
  return { success: true, data: rows.map((r) => ({ ...viewOf(r), email: r.d.email, mobile: r.d.mobile, refundDue: owed.get(r.order.id) ?? 0 })), total: Number(total) };
}

/** Paise owed back on each of these orders: their captures flagged REFUND_DUE (docs/charity.md "Moderation"). */
async function refundsDueOf(db: Conn, orderIds: string[]): Promise<Map<string, number>> {
  if (orderIds.length === 0) return new Map();
  const rows = await db
    .select({ orderId: payment.orderId, owed: sql<number>`sum(${payment.amount})` })
    .from(payment)
    .where(and(inArray(payment.orderId, orderIds), eq(payment.flag, 'REFUND_DUE')))
    .groupBy(payment.orderId);
  return new Map(rows.map((r) => [r.orderId!, Number(r.owed)]));
}

/**
 * GET /api/donation/export?fy: the financial year's paid donations for the income-tax Form 10BD,
 * as CSV in its column order: donor's unique identification number, ID code, section code,
 * unique identification number (our receipt number), name, address, donation type, mode of
 * receipt, amount (rupees). Cash is never a mode here.
 */
export async function exportDonations(deps: Deps, fy: string): Promise<string> {
  const rows = await deps.db
    .select({ d: donation, amount: purchaseOrder.amount })
    .from(donation)
    .innerJoin(purchaseOrder, eq(purchaseOrder.id, donation.orderId))
    .where(and(eq(donation.financialYear, fy), eq(purchaseOrder.status, 'PAID')))
    .orderBy(donation.trustId, donation.receiptSeq);
  const cell = (v: string) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  const head = ['ID Code', 'Unique Identification Number', 'Section Code', 'Unique Identification Number of the Donation', 'Name of donor', 'Address of donor', 'Donation Type', 'Mode of receipt', 'Amount of donation (Indian rupees)'];
  const lines = rows.map(({ d, amount }) =>
    [d.pan ? 'PAN' : 'Other', d.pan ?? '', 'Section 80G', d.receiptNo ?? '', d.name, d.address ?? '', 'Specific grant', 'Electronic modes including account payee cheque/draft', (amount / 100).toFixed(2)].map(cell).join(','),
  );
  return [head.join(','), ...lines].join('\n') + '\n';
}
