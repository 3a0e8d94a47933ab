import { and, count, desc, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import { type DonationListRow, type DonationQuote, type DonationStart, type DonationView, type ForeignSummaryRow, MAX_SHARE_BPS, splitDonation, splitForeignDonation } from '@pm/protocol/donation';
import { MSG } from '@pm/protocol/messages';
import type { Provider } from '@pm/protocol/payment';
import type { Deps, Principal } from '../../context';
import type { Conn } from '../../db/client';
import { containsText } from '../../db/dialect';
import { campaign, donation, ledgerEntry, payment, purchaseOrder, trust } from '../../db/schema';
import { first } from '../../db/transaction';
import type { Actor } from '../../lib/activity';
import { ACCOUNTS } from '../../lib/ledger';
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

type TrustRow = typeof trust.$inferSelect;

/**
 * The split a donor of `amount` paise is offered: a donor without an Indian passport gives a
 * foreign contribution, of which the trust keeps at most its cap (docs/charity.md "Foreign
 * contributions"); everyone else the trust's share (docs/charity.md "The split").
 */
function splitFor(t: TrustRow, amount: number, indianPassport: boolean) {
  return indianPassport ? { ...splitDonation(amount, t.shareBps), shareBps: t.shareBps } : splitForeignDonation(amount, t.shareBps, t.fcShareCapBps);
}

/** GET /api/donation/quote: the split before paying (paise), the donor's own (foreign or not). */
export async function quote(deps: Deps, input: { campaignId: string; amount: number; indianPassport: boolean }, now = Date.now()): Promise<{ success: true; data: DonationQuote }> {
  const { t } = await openCampaign(deps.db, input.campaignId, now);
  return {
    success: true,
    data: { ...splitFor(t, rupeesToPaise(input.amount), input.indianPassport), foreign: !input.indianPassport, trust: { name: t.name, fcraRegistered: t.fcraRegistered, fcShareCapBps: t.fcShareCapBps } },
  };
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
  const split = splitFor(t, rupeesToPaise(input.amount), input.indianPassport);
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
        country: input.indianPassport ? null : (input.country ?? null),
        anonymous: input.anonymous,
        shareBps: split.shareBps,
        share: split.share,
        toCampaign: split.toCampaign,
        createdAt: now,
      });
    },
    now,
  );
  return { ...answer, token: donationToken(deps.config, answer.id), split };
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
    foreign: !r.d.indianPassport,
    country: r.d.country,
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

/** A CSV cell: quoted when it holds a comma, a quote or a line break. */
const csvCell = (v: string) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
const csvOf = (head: readonly string[], lines: readonly (readonly string[])[]) => [head, ...lines].map((l) => l.map(csvCell).join(',')).join('\n') + '\n';
const rupeesOf = (paise: number) => (paise / 100).toFixed(2);
/** A day in India time, YYYY-MM-DD (receipts are dated in India time). */
const indiaDate = (ms: number) => new Date(ms + 5.5 * 3600_000).toISOString().slice(0, 10);

/** The financial year's paid donations, domestic or foreign, by trust and receipt number. */
async function paidDonationsOf(deps: Deps, fy: string, foreign: boolean) {
  return deps.db
    .select({ d: donation, amount: purchaseOrder.amount, title: campaign.titleEn, cause: campaign.cause })
    .from(donation)
    .innerJoin(purchaseOrder, eq(purchaseOrder.id, donation.orderId))
    .innerJoin(campaign, eq(campaign.id, donation.campaignId))
    .where(and(eq(donation.financialYear, fy), eq(purchaseOrder.status, 'PAID'), eq(donation.indianPassport, !foreign)))
    .orderBy(donation.trustId, donation.receiptSeq);
}

/**
 * GET /api/donation/export?fy: the financial year's paid donations from donors with an Indian
 * passport for the income-tax Form 10BD, as CSV in its column order: donor's unique
 * identification number, ID code, section code, unique identification number (our receipt
 * number), name, address, donation type, mode of receipt, amount (rupees). Cash is never a mode
 * here. Foreign contributions are not in it: they are reported apart (`foreign=1`, below).
 */
export async function exportDonations(deps: Deps, fy: string, foreign = false): Promise<string> {
  if (foreign) return exportForeignDonations(deps, fy);
  const rows = await paidDonationsOf(deps, fy, false);
  const head = ['ID Code', 'Unique Identification Number', 'Section Code', 'Unique Identification Number of the Donation', 'Name of donor', 'Address of donor', 'Donation Type', 'Mode of receipt', 'Amount of donation (Indian rupees)'];
  return csvOf(
    head,
    rows.map(({ d, amount }) => [d.pan ? 'PAN' : 'Other', d.pan ?? '', 'Section 80G', d.receiptNo ?? '', d.name, d.address ?? '', 'Specific grant', 'Electronic modes including account payee cheque/draft', rupeesOf(amount)]),
  );
}

/**
 * GET /api/donation/export?fy&foreign=1: the year's paid foreign contributions, for the trust's
 * foreign-contribution accounts and annual return (docs/charity.md "Foreign contributions"):
 * receipt number, date (India time), donor's name, address and country, amount (rupees), the
 * campaign and its purpose (the campaign's cause).
 */
async function exportForeignDonations(deps: Deps, fy: string): Promise<string> {
  const rows = await paidDonationsOf(deps, fy, true);
  const head = ['Receipt number', 'Date', 'Name of donor', 'Address of donor', 'Country', 'Amount (Indian rupees)', 'Campaign', 'Purpose'];
  return csvOf(
    head,
    rows.map(({ d, amount, title, cause }) => [d.receiptNo ?? '', indiaDate(d.paidAt ?? d.createdAt), d.name, d.address ?? '', d.country ?? '', rupeesOf(amount), `${title} (${d.campaignId})`, cause]),
  );
}

/**
 * GET /api/donation/foreign-summary?fy: per trust, the year's foreign contributions received
 * (refunds taken off), the share it kept of them and whether that is within its cap
 * (docs/charity.md "Foreign contributions"). Sums over the ledger.
 */
export async function foreignSummary(deps: Deps, fy: string): Promise<{ success: true; data: ForeignSummaryRow[] }> {
  const trusts = await deps.db.select().from(trust).orderBy(trust.createdAt);
  const sums = await deps.db
    .select({
      trustId: donation.trustId,
      received: sql<number>`coalesce(sum(case when ${ledgerEntry.account} = ${ACCOUNTS.gateway} then ${ledgerEntry.amount} else 0 end), 0)`,
      share: sql<number>`coalesce(-sum(case when ${ledgerEntry.account} like 'trust:%:fc-%' then ${ledgerEntry.amount} else 0 end), 0)`,
      donations: sql<number>`count(distinct case when ${ledgerEntry.kind} = 'DONATION' then ${donation.orderId} end)`,
    })
    .from(ledgerEntry)
    .innerJoin(donation, eq(donation.orderId, ledgerEntry.orderId))
    .where(and(eq(donation.financialYear, fy), eq(donation.indianPassport, false), inArray(ledgerEntry.kind, ['DONATION', 'SHARE_SPLIT', 'REFUND'])))
    .groupBy(donation.trustId);
  const byTrust = new Map(sums.map((r) => [r.trustId, r]));
  const data = trusts.map((t) => {
    const r = byTrust.get(t.id);
    const received = Number(r?.received ?? 0);
    const shareKept = Number(r?.share ?? 0);
    return {
      trust: { id: t.id, code: t.code, name: t.name, fcraRegistered: t.fcraRegistered },
      received,
      donations: Number(r?.donations ?? 0),
      shareKept,
      capBps: t.fcShareCapBps,
      // Integer arithmetic: share / received ≤ cap / 10000.
      withinCap: shareKept * 10000 <= received * t.fcShareCapBps,
    };
  });
  return { success: true, data };
}
