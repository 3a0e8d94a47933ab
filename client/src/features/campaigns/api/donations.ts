import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CreateOrderAnswer } from '@pm/protocol/payment';
import { api } from '@/lib/api-client';
import type { DonationForm, DonationSplit } from './types';

/** GET /donation/quote?campaignId&amount (rupees): the split before paying, to the paisa (docs/charity.md "The split"). */
export function getDonationQuote(campaignId: string, amount: number): Promise<{ success: boolean; data: DonationSplit }> {
  return api('/donation/quote', { query: { campaignId, amount }, silent: true, background: true });
}

export const donationQuoteQueryOptions = (campaignId: string, amount: number) =>
  queryOptions({ queryKey: ['donation', 'quote', campaignId, amount], queryFn: () => getDonationQuote(campaignId, amount), select: (r) => r.data, staleTime: 60_000 });

export function useDonationQuote(campaignId: string, amount: number | null) {
  return useQuery({ ...donationQuoteQueryOptions(campaignId, amount ?? 0), enabled: amount !== null });
}

/**
 * POST /donation: the order and the split, as the payment step needs them (the `payment` of a
 * plan's order, docs/payments.md). `receiptToken`, when the server gives one, opens the receipt
 * without signing in (docs/charity.md "Receipts": the link e-mailed to the donor).
 */
export type DonationStarted = Pick<CreateOrderAnswer, 'id' | 'payment'> & { success: boolean; split?: DonationSplit; receiptToken?: string };

export function startDonation(form: DonationForm): Promise<DonationStarted> {
  return api('/donation', { method: 'POST', body: form });
}

/** A donation's receipt (docs/charity.md "Receipts"), as GET /donation/:orderId/receipt answers it. */
export type DonationReceipt = {
  receiptNo: string;
  orderId: string;
  paidAt: number;
  trust: { name: string; nameHi?: string; address?: string; registration?: string; pan?: string; approval80G?: string };
  donor: { name: string; address?: string | null; pan?: string | null };
  campaign?: { id: string; title: { en: string; hi: string } };
  /** Paise. */
  amount: number;
  amountInWords?: { en: string; hi: string } | string;
  mode?: string;
  sandbox?: boolean;
};

export function getDonationReceipt(orderId: string, token?: string): Promise<{ success: boolean; data: DonationReceipt }> {
  return api(`/donation/${encodeURIComponent(orderId)}/receipt`, { query: { token }, silent: true });
}

export function useDonationReceipt(orderId: string, token?: string) {
  return useQuery({ queryKey: ['donation', 'receipt', orderId, token ?? ''], queryFn: () => getDonationReceipt(orderId, token), select: (r) => r.data });
}
