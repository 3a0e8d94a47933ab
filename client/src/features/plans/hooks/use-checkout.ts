import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { CreateOrderAnswer } from '@pm/protocol/payment';
import { useSession } from '@/hooks/use-session';
import { ApiError } from '@/lib/api-client';
import { notifyError } from '@/lib/notify';
import { createOrder } from '../api/create-order';
import { initiatePayment } from '../api/initiate-payment';
import { retryPayment } from '../api/retry-payment';
import { verifyRazorpayPayment } from '../api/verify-razorpay-payment';
import { MIN_PAYMENT_AMOUNT } from '../lib/amount';
import { browser } from '../lib/browser';
import { openRazorpay } from '../lib/razorpay-checkout';
import { confirmationPath } from '../lib/redirect';

/** A PhonePe mobile number is the 10 digits without +91. */
const tenDigits = (mobile: string | undefined) => {
  const digits = (mobile ?? '').replace(/\D/g, '');
  return digits.length >= 10 ? digits.slice(-10) : undefined;
};

/**
 * Buy Now and Retry (docs/payments.md "Prices come from the server"): an order from the server, then the provider.
 * PhonePe: initiatePayment answers the hosted page the browser goes to, which comes back to the
 * confirmation page. Razorpay: Checkout opens over the page; its handler's signature is sent to
 * the server, then the confirmation page asks for the order's status (the provider is the truth).
 * `busy` names what is running (a plan id, or the order being retried) for the buttons' state.
 */
export function useCheckout() {
  const { t } = useTranslation('plan');
  const navigate = useNavigate();
  const session = useSession();
  const [busy, setBusy] = useState<string | null>(null);

  /** Hands the order to its provider; true when the learner is on their way (the button stays busy). */
  const pay = async (order: CreateOrderAnswer): Promise<boolean> => {
    const p = order.payment;
    // Starting a payment needs amount >= 1.
    if (!(Number.isFinite(p.amount) && p.amount >= MIN_PAYMENT_AMOUNT)) {
      notifyError(t('amountMin'));
      return false;
    }
    if (p.provider === 'razorpay') {
      if (!p.razorpay) {
        notifyError(t('failedToCreateOrder'));
        return false;
      }
      let response;
      try {
        response = await openRazorpay({
          ...p.razorpay,
          prefill: { name: session?.name, email: session?.email ?? undefined, contact: tenDigits(session?.mobile) },
        });
      } catch {
        notifyError(t('checkoutUnavailable'));
        return false;
      }
      if (!response) return false;
      // A refused signature is shown by the fetch wrapper; the confirmation page then asks the
      // provider, whose answer decides.
      await verifyRazorpayPayment(response).catch(() => undefined);
      void navigate(confirmationPath({ ...p, provider: 'razorpay' }));
      return true;
    }
    const origin = window.location.origin;
    try {
      const answer = await initiatePayment(p.provider, {
        merchantTransactionId: p.merchantTransactionId,
        amount: p.amount,
        merchantUserId: session?.id ?? 'anonymous',
        redirectUrl: `${origin}${confirmationPath(p)}`,
        redirectMode: 'REDIRECT',
        callbackUrl: `${origin}/api/phonepe/webhook`,
        ...(tenDigits(session?.mobile) && { mobileNumber: tenDigits(session?.mobile) }),
      });
      const url = answer.data?.instrumentResponse?.redirectInfo?.url;
      if (!answer.success || !url) {
        notifyError(t('paymentFailedRetry'));
        return false;
      }
      browser.assign(url);
      return true;
    } catch {
      // The fetch wrapper has shown the server's message.
      return false;
    }
  };

  const run = async (key: string, start: () => Promise<CreateOrderAnswer | null>) => {
    setBusy(key);
    const order = await start();
    const away = order ? await pay(order) : false;
    if (!away) setBusy(null);
  };

  /** Buy Now for a signed-in learner (the caller handled guests and the amount). */
  const buy = (plan: { id: string; code: string }) =>
    run(plan.id, async () => {
      try {
        return await createOrder(plan);
      } catch (e) {
        // 'Failed to create order', with the server's reason when it gave one.
        const reason = e instanceof ApiError ? e.msg : '';
        if (reason && reason !== t('failedToCreateOrder')) notifyError(reason, t('failedToCreateOrder'));
        else notifyError(t('failedToCreateOrder'));
        return null;
      }
    });

  /** Retry on the confirmation page: the server answers the order to pay (retryPayment, docs/payments.md). */
  const retry = (orderId: string) =>
    run(orderId, async () => {
      try {
        return await retryPayment(orderId);
      } catch {
        // The fetch wrapper has shown the server's message ('This order is already paid' …).
        return null;
      }
    });

  return { busy, buy, retry };
}
