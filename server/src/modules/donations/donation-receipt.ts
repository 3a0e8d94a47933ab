import { createHmac, timingSafeEqual } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { ToWords } from 'to-words';
import type { DonationReceipt } from '@pm/protocol/donation';
import type { Deps } from '../../context';
import type { Conn } from '../../db/client';
import { campaign, donation, payment, purchaseOrder, trust } from '../../db/schema';
import { first } from '../../db/transaction';
import { siteUrl } from '../../lib/site-url';

/*
 * A donation's tax receipt (docs/charity.md "Receipts") and the link that opens a donation for
 * whoever holds it: the donor who started it (the answer to POST /donation carries it) and the
 * e-mail address given with it (the receipt mail carries it). Nobody else can make it: it is an
 * HMAC of the order id under the server's secret, so it needs no column and cannot be guessed.
 */

/** The token that opens one donation. */
export function donationToken(config: Pick<Deps['config'], 'jwtSecret'>, orderId: string): string {
  return createHmac('sha256', config.jwtSecret).update(`donation-link:${orderId}`).digest('base64url');
}

/** Whether `token` opens the donation `orderId` (compared in constant time). */
export function opensDonation(config: Pick<Deps['config'], 'jwtSecret'>, orderId: string, token: string | undefined): boolean {
  if (!token) return false;
  const want = Buffer.from(donationToken(config, orderId));
  const got = Buffer.from(token);
  return want.length === got.length && timingSafeEqual(want, got);
}

/** The address of a donation's own page, with its token. */
export function donationLink(config: Pick<Deps['config'], 'jwtSecret' | 'PUBLIC_URL'>, orderId: string): string {
  return siteUrl(config, `/donations/${encodeURIComponent(orderId)}?t=${donationToken(config, orderId)}`);
}

const words = {
  en: new ToWords({ localeCode: 'en-IN', converterOptions: { currency: true, ignoreZeroCurrency: false } }),
  hi: new ToWords({ localeCode: 'hi-IN', converterOptions: { currency: true, ignoreZeroCurrency: false } }),
};

/** Paise in words, Indian numbering (lakh, crore), in English and Hindi. */
export function amountInWords(paise: number): { en: string; hi: string } {
  const rupees = paise / 100;
  return { en: words.en.convert(rupees), hi: words.hi.convert(rupees) };
}

/** The receipt of a paid donation; null when it has none yet (not paid). */
export async function receiptOf(db: Conn, orderId: string): Promise<DonationReceipt | null> {
  const r = await first(
    db
      .select({ d: donation, amount: purchaseOrder.amount, t: trust, title: { en: campaign.titleEn, hi: campaign.titleHi } })
      .from(donation)
      .innerJoin(purchaseOrder, eq(purchaseOrder.id, donation.orderId))
      .innerJoin(trust, eq(trust.id, donation.trustId))
      .innerJoin(campaign, eq(campaign.id, donation.campaignId))
      .where(eq(donation.orderId, orderId)),
  );
  if (!r || !r.d.receiptNo || !r.d.financialYear || r.d.paidAt === null) return null;
  const paying = await first(
    db
      .select({ channel: payment.channel, details: payment.details })
      .from(payment)
      .where(and(eq(payment.orderId, orderId), eq(payment.status, 'SUCCESS'), eq(payment.isCredit, true)))
      .limit(1),
  );
  const details = paying?.details as { sandbox?: boolean } | null | undefined;
  return {
    receiptNo: r.d.receiptNo,
    financialYear: r.d.financialYear,
    trust: { name: r.t.name, address: r.t.address, registrationNo: r.t.registrationNo, pan: r.t.pan, approval80g: r.t.approval80g },
    donor: { name: r.d.name, address: r.d.address, pan: r.d.pan, email: r.d.email, mobile: r.d.mobile },
    campaign: { id: r.d.campaignId, title: r.title },
    amount: r.amount,
    amountInWords: amountInWords(r.amount),
    mode: paying?.channel ?? 'ONLINE',
    paidAt: r.d.paidAt,
    sandbox: details?.sandbox === true,
  };
}

const rupees = (paise: number) => `₹${(paise / 100).toFixed(2)}`;

/** The receipt by e-mail to the address given with the donation, in both languages, through the outbox. */
export async function sendReceiptMail(deps: Pick<Deps, 'outbox' | 'config' | 'db'>, orderId: string): Promise<void> {
  const r = await receiptOf(deps.db, orderId);
  if (!r) return;
  const link = donationLink(deps.config, orderId);
  const body = [
    `Receipt ${r.receiptNo} (financial year ${r.financialYear})`,
    `${r.trust.name.en}, ${r.trust.address}. Registration ${r.trust.registrationNo}, PAN ${r.trust.pan}, 80G approval ${r.trust.approval80g}.`,
    `Received with thanks from ${r.donor.name}${r.donor.pan ? ` (PAN ${r.donor.pan})` : ''} the sum of ${rupees(r.amount)} (${r.amountInWords.en}) by ${r.mode} on ${new Date(r.paidAt).toISOString().slice(0, 10)}, as a donation for "${r.campaign.title.en}".`,
    'No goods or services were given in return for this donation.',
    r.sandbox ? 'SANDBOX: this payment moved no money.' : '',
    `Your donation and its printable receipt: ${link}`,
    '',
    `रसीद ${r.receiptNo} (वित्तीय वर्ष ${r.financialYear})`,
    `${r.trust.name.hi || r.trust.name.en} ने ${r.donor.name} से ${rupees(r.amount)} (${r.amountInWords.hi}) का दान "${r.campaign.title.hi || r.campaign.title.en}" के लिए धन्यवाद सहित प्राप्त किया।`,
    'इस दान के बदले कोई वस्तु या सेवा नहीं दी गई।',
    `आपका दान और उसकी छापने योग्य रसीद: ${link}`,
  ]
    .filter((l, i, all) => l !== '' || all[i - 1] !== '')
    .join('\n');
  await deps.outbox.send({ channel: 'email', to: r.donor.email, subject: `Donation receipt ${r.receiptNo} / दान रसीद`, body });
}
