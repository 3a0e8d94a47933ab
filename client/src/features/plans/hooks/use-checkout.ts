import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { CreateOrderAnswer } from '@pm/protocol/payment';
import { useSession } from '@/hooks/use-session';
import { ApiError } from '@/lib/api-client';
import { notifyError } from '@/lib/notify';
import { createOrder } from '../api/create-order';
import { retryPayment } from '../api/retry-payment';
import { handOverPayment, type HandOverOutcome } from '@/lib/payments/hand-over';
import { confirmationPath } from '../lib/redirect';

/**
 * Buy Now and Retry (docs/payments.md "Prices come from the server"): an order from the server,
 * then the provider (lib/payments/hand-over: PhonePe's hosted page, or Razorpay Checkout over the
 * page and then the confirmation page). `busy` names what is running (a plan id, or the order
 * being retried) for the buttons' state.
 */
export function useCheckout() {
  const { t } = useTranslation('plan');
  const navigate = useNavigate();
  const session = useSession();
  const [busy, setBusy] = useState<string | null>(null);

  /** Hands the order to its provider; true when the learner is on their way (the button stays busy). */
  const pay = async (order: CreateOrderAnswer): Promise<boolean> => {
    const outcome = await handOverPayment(order, { payer: session, confirmationPath: (p) => confirmationPath(p), goTo: (path) => void navigate(path) });
    const message = HAND_OVER_MESSAGES[outcome];
    if (message) notifyError(t(message));
    return outcome === 'away';
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

/** What the learner is told when the hand-over stops here (none: nothing to say, or already said). */
const HAND_OVER_MESSAGES: Record<HandOverOutcome, 'amountMin' | 'failedToCreateOrder' | 'checkoutUnavailable' | 'paymentFailedRetry' | null> = {
  away: null,
  amount: 'amountMin',
  'no-checkout': 'failedToCreateOrder',
  'checkout-unavailable': 'checkoutUnavailable',
  closed: null,
  'initiate-failed': 'paymentFailedRetry',
  refused: null,
};
