import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { DonationListRow, DonationQuote, DonationReceipt, DonationStart, DonationView } from '@pm/protocol/donation';
import type { CreateOrderAnswer, Provider } from '@pm/protocol/payment';
import { api } from '@/lib/api-client';
import { downloadFile } from '@/lib/download-file';
import type { CheckoutOptions } from '@/lib/payments/hand-over';

/*
 * The donation routes of docs/charity.md "API". A donation is followed by its donor signed in or
 * by the holder of its token (the answer to POST /donation, the link e-mailed with the receipt):
 * every read of one donation sends the token as `t` when there is one. Reads are silent: each
 * screen shows its own failure.
 */

type One<T> = { success: boolean; msg?: string; data: T };

/**
 * GET /donation/quote?campaignId&amount (rupees)&indianPassport: the split before paying, to the
 * paisa (docs/charity.md "The split"); a donor without an Indian passport gets the foreign
 * contribution's, the trust's share capped ("Foreign contributions"). Only `false` is sent: the
 * server's default is the domestic split.
 */
export function getDonationQuote(campaignId: string, amount: number, indianPassport = true): Promise<One<DonationQuote>> {
  return api('/donation/quote', { query: { campaignId, amount, indianPassport: indianPassport ? undefined : 'false' }, silent: true, background: true });
}

export const donationQuoteQueryOptions = (campaignId: string, amount: number, indianPassport = true) =>
  queryOptions({
    queryKey: ['donation', 'quote', campaignId, amount, indianPassport],
    queryFn: () => getDonationQuote(campaignId, amount, indianPassport),
    select: (r) => r.data,
    staleTime: 60_000,
  });

export function useDonationQuote(campaignId: string, amount: number | null, indianPassport = true) {
  return useQuery({ ...donationQuoteQueryOptions(campaignId, amount ?? 0, indianPassport), enabled: amount !== null });
}

/** POST /donation's 201: the DONATION order (as POST /payment answers a plan's), the split agreed and the donation's token. */
export type DonationStarted = Pick<CreateOrderAnswer, 'success' | 'id' | 'amt' | 'payment'> & {
  token: string;
  split: Pick<DonationQuote, 'amount' | 'share' | 'toCampaign' | 'shareBps'>;
};

/** Silent: a refusal (400, 403 foreign contribution, 409 closed, 404) is shown in the form. */
export function startDonation(body: DonationStart): Promise<DonationStarted> {
  return api('/donation', { method: 'POST', body, silent: true });
}

/** POST /donation/:orderId/pay: PhonePe's hosted page to go to, or Razorpay Checkout's options. */
export type DonationPayAnswer = {
  success: boolean;
  data?: { instrumentResponse?: { redirectInfo?: { url?: string } }; razorpay?: CheckoutOptions };
};

export function payDonation(orderId: string, body: { token?: string; provider?: Provider; redirectUrl?: string }): Promise<DonationPayAnswer> {
  return api(`/donation/${encodeURIComponent(orderId)}/pay`, { method: 'POST', body, silent: true });
}

/** GET /donation/:orderId?t: the donation, its payment asked of the provider while open; `success` says paid. */
export function getDonation(orderId: string, token?: string | null): Promise<One<DonationView>> {
  return api(`/donation/${encodeURIComponent(orderId)}`, { query: { t: token ?? undefined }, silent: true, background: true });
}

export function useDonation(orderId: string, token: string | null) {
  return useQuery({ queryKey: ['donation', 'one', orderId, token ?? ''], queryFn: () => getDonation(orderId, token), select: (r) => r.data });
}

/** GET /donation/:orderId/receipt?t: the receipt of a paid donation (409 before), with the link the e-mail carries. */
export type DonationReceiptAnswer = DonationReceipt & { link: string };

export function getDonationReceipt(orderId: string, token?: string | null): Promise<One<DonationReceiptAnswer>> {
  return api(`/donation/${encodeURIComponent(orderId)}/receipt`, { query: { t: token ?? undefined }, silent: true });
}

export function useDonationReceipt(orderId: string, token: string | null) {
  return useQuery({ queryKey: ['donation', 'receipt', orderId, token ?? ''], queryFn: () => getDonationReceipt(orderId, token), select: (r) => r.data });
}

/** GET /donation/mine: the signed-in person's donations, newest first. */
export function useMyDonations() {
  return useQuery({ queryKey: ['donation', 'mine'], queryFn: () => api<One<DonationView[]>>('/donation/mine', { silent: true }), select: (r) => r.data });
}

/** GET /donation/list (VIEW_REPORT): every donation with the donor's contact, newest first, paged. */
export type DonationListQuery = { q?: string; campaignId?: string; page: number; size: number };

export function listDonations({ q, campaignId, page, size }: DonationListQuery): Promise<{ success: boolean; data: DonationListRow[]; total: number }> {
  return api('/donation/list', { query: { q: q || undefined, campaignId: campaignId || undefined, page, size }, silent: true });
}

export function useDonationList(query: DonationListQuery) {
  return useQuery(queryOptions({ queryKey: ['donation', 'list', query], queryFn: () => listDonations(query), placeholderData: keepPreviousData }));
}

/**
 * GET /donation/export?fy=2026-27 (VIEW_REPORT): the year's Form 10BD CSV, or with `foreign` the
 * year's foreign contributions (docs/charity.md "Foreign contributions"), saved under the server's file name.
 */
export async function exportDonations(fy: string, foreign = false): Promise<void> {
  await downloadFile('/donation/export', foreign ? { fy, foreign: '1' } : { fy });
}

/** POST /donation/:orderId/refund-due (UPDATE_ORDER): a double debit paid back (docs/charity.md "Moderation"). */
export const payBackDoubleDebit = (orderId: string) =>
  api<{ success: boolean; msg: string; data: { orderId: string; paidBack: number } }>(`/donation/${encodeURIComponent(orderId)}/refund-due`, { method: 'POST', body: {} });
