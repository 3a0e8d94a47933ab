import { paths } from '@/config/paths';

/**
 * Where the confirmation page may send the learner: only a path of this site (the
 * confirmation page's redirection_url, default '/'). A full address, a protocol-relative
 * '//host' or '/\host' (which browsers read as another host) would make the page an open
 * redirect, so anything but a plain same-site path becomes '/'.
 */
export function safeRedirectPath(value: string | null | undefined): string {
  if (!value) return paths.home;
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return paths.home;
  // Control characters (a tab or newline inside '/\t/host') are dropped by URL parsers.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(value)) return paths.home;
  return value;
}

/** Where a paid plan sends the learner after the confirmation page: their profile shows My plan. */
export const AFTER_PAYMENT_PATH = paths.profile;

/**
 * The confirmation page's address for an order (initiatePayment's redirectUrl, docs/payments.md: carries
 * merchantTransactionId, amount and redirection_url). `provider` is added for Razorpay so that
 * the page asks that provider's status; PhonePe is the page's default.
 */
export function confirmationPath(order: { merchantTransactionId: string; amount: number; provider?: string }, redirection = AFTER_PAYMENT_PATH): string {
  const q = new URLSearchParams({ merchantTransactionId: order.merchantTransactionId, amount: String(order.amount), redirection_url: redirection });
  if (order.provider && order.provider !== 'phonepe') q.set('provider', order.provider);
  return `${paths.paymentConfirmation}?${q.toString()}`;
}
