import { paths } from '@/config/paths';

/**
 * Where the provider sends a donor back (initiatePayment's redirectUrl, docs/payments.md "Where
 * the buyer comes back to"): the order, the campaign it was for, the provider when it is not
 * PhonePe, and the receipt's token when the server gave one.
 */
export function donationConfirmationPath(order: { merchantTransactionId: string; provider?: string }, campaignId: string, token?: string): string {
  const q = new URLSearchParams({ merchantTransactionId: order.merchantTransactionId, campaign: campaignId });
  if (order.provider && order.provider !== 'phonepe') q.set('provider', order.provider);
  if (token) q.set('token', token);
  return `${paths.donationConfirmation}?${q.toString()}`;
}

export function donationReceiptPath(orderId: string, token?: string | null): string {
  return `${paths.donationReceipt}/${encodeURIComponent(orderId)}${token ? `?token=${encodeURIComponent(token)}` : ''}`;
}
