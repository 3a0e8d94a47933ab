import type { CreateOrderAnswer } from '@pm/protocol/payment';
import { MIN_PAYMENT_AMOUNT } from './amount';
import { browser } from './browser';
import { initiatePayment } from './initiate-payment';
import { openRazorpay } from './razorpay-checkout';
import { type RazorpayHandlerResponse, verifyRazorpayPayment } from './verify-razorpay-payment';

/** The payer as the provider's page is prefilled with. */
export type Payer = { id?: string; name?: string; email?: string | null; mobile?: string };

/**
 * How a hand-over ended: `away` the payer is on the provider's page or the confirmation page
 * (the caller's button stays busy); the others are reasons to stay, each told in the caller's
 * words (`closed`: the payer closed Razorpay Checkout; `refused`: the fetch wrapper has shown
 * the server's message).
 */
export type HandOverOutcome = 'away' | 'amount' | 'no-checkout' | 'checkout-unavailable' | 'closed' | 'initiate-failed' | 'refused';

/** A PhonePe mobile number is the 10 digits without +91. */
export const tenDigits = (mobile: string | undefined) => {
  const digits = (mobile ?? '').replace(/\D/g, '');
  return digits.length >= 10 ? digits.slice(-10) : undefined;
};

/** Razorpay Checkout's options as the server gives them (an order's `payment.razorpay`). */
export type CheckoutOptions = NonNullable<CreateOrderAnswer['payment']['razorpay']>;

/**
 * Razorpay Checkout over the page, prefilled with the payer, for an order the server opened
 * there: `paid` once its handler answered (then `verify` is awaited, its failure ignored: the
 * confirmation page asks the provider), `closed` when the payer closed it, or
 * `checkout-unavailable` when its script did not load.
 */
export async function payInCheckout(
  options: CheckoutOptions,
  payer: Payer | null,
  verify: (response: RazorpayHandlerResponse) => Promise<void>,
): Promise<'paid' | 'closed' | 'checkout-unavailable'> {
  let response;
  try {
    response = await openRazorpay({ ...options, prefill: { name: payer?.name, email: payer?.email ?? undefined, contact: tenDigits(payer?.mobile) } });
  } catch {
    return 'checkout-unavailable';
  }
  if (!response) return 'closed';
  await verify(response).catch(() => undefined);
  return 'paid';
}

/**
 * Hands a plan's order to its provider (docs/payments.md "Prices come from the server"; a
 * donation has a route of its own, POST /donation/:orderId/pay, that a guest may call). PhonePe: initiatePayment answers the hosted page the browser goes
 * to, which comes back to `confirmation`. Razorpay: Checkout opens over the page; its handler's
 * signature is sent to the server, then `goTo(confirmation)` (the provider is the truth there).
 */
export async function handOverPayment(
  order: Pick<CreateOrderAnswer, 'payment'>,
  { payer, confirmationPath, goTo }: { payer: Payer | null; confirmationPath: (p: CreateOrderAnswer['payment']) => string; goTo: (path: string) => void },
): Promise<HandOverOutcome> {
  const p = order.payment;
  // Starting a payment needs amount >= 1.
  if (!(Number.isFinite(p.amount) && p.amount >= MIN_PAYMENT_AMOUNT)) return 'amount';
  if (p.provider === 'razorpay') {
    if (!p.razorpay) return 'no-checkout';
    // A refused signature is shown by the fetch wrapper; the confirmation page then asks the
    // provider, whose answer decides.
    const paid = await payInCheckout(p.razorpay, payer, (response) => verifyRazorpayPayment(response).then(() => undefined));
    if (paid !== 'paid') return paid;
    goTo(confirmationPath({ ...p, provider: 'razorpay' }));
    return 'away';
  }
  const origin = window.location.origin;
  try {
    const mobile = tenDigits(payer?.mobile);
    const answer = await initiatePayment(p.provider, {
      merchantTransactionId: p.merchantTransactionId,
      amount: p.amount,
      merchantUserId: payer?.id ?? 'anonymous',
      redirectUrl: `${origin}${confirmationPath(p)}`,
      redirectMode: 'REDIRECT',
      callbackUrl: `${origin}/api/phonepe/webhook`,
      ...(mobile && { mobileNumber: mobile }),
    });
    const url = answer.data?.instrumentResponse?.redirectInfo?.url;
    if (!answer.success || !url) return 'initiate-failed';
    browser.assign(url);
    return 'away';
  } catch {
    return 'refused';
  }
}
