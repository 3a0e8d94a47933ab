import { browser } from '@/lib/payments/browser';
import { type HandOverOutcome, type Payer, payInCheckout } from '@/lib/payments/hand-over';
import { verifyRazorpayPayment } from '@/lib/payments/verify-razorpay-payment';
import { type DonationStarted, payDonation } from '../api/donations';
import { donationConfirmationPath, rememberDonationToken } from './donation-paths';

/**
 * A started donation to its provider (docs/charity.md "API": POST /donation/:orderId/pay, which a
 * guest calls with the donation's token). The provider comes back to the donation's confirmation
 * page, an absolute address on this site that the server keeps (docs/payments.md "Where the
 * buyer comes back to"), with the token in it. PhonePe: the browser goes to the hosted page.
 * Razorpay: Checkout over the page, then `goTo` the confirmation, which asks the provider; the
 * signature is checked for a signed-in donor only (its route needs a login), which changes
 * nothing of the outcome.
 */
export async function handOverDonation(started: DonationStarted, { payer, signedIn, goTo }: { payer: Payer; signedIn: boolean; goTo: (path: string) => void }): Promise<HandOverOutcome> {
  rememberDonationToken(started.id, started.token);
  const confirmation = donationConfirmationPath(started.id, started.token);
  let answer;
  try {
    answer = await payDonation(started.id, { token: started.token, provider: started.payment.provider, redirectUrl: `${window.location.origin}${confirmation}` });
  } catch {
    return 'initiate-failed';
  }
  const checkout = answer.data?.razorpay;
  if (checkout) {
    const verify = signedIn ? (r: Parameters<typeof verifyRazorpayPayment>[0]) => verifyRazorpayPayment(r).then(() => undefined) : () => Promise.resolve();
    const paid = await payInCheckout(checkout, payer, verify);
    if (paid !== 'paid') return paid;
    goTo(confirmation);
    return 'away';
  }
  const url = answer.data?.instrumentResponse?.redirectInfo?.url;
  if (!answer.success || !url) return 'initiate-failed';
  browser.assign(url);
  return 'away';
}
