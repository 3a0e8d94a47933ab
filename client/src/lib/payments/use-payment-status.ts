import { useEffect, useState } from 'react';
import type { PaymentStatusData, Provider } from '@pm/protocol/payment';
import { ApiError } from '../api-client';
import { checkPaymentStatus } from './check-payment-status';

/** A payment still PENDING at the provider is asked again every 3 s, for up to a minute. */
export const PENDING_POLL_MS = 3000;
export const PENDING_MAX_CHECKS = 60_000 / PENDING_POLL_MS;

/** 0 verifying (loader), 1 success, -1 failed. */
export type ConfirmationState = 0 | 1 | -1;

/** What the status check said about the order, for the page to name what was bought. */
export type Bought = Pick<PaymentStatusData, 'plan' | 'amount'> | null;

/**
 * An order's outcome as its confirmation page shows it (docs/payments.md "Where the buyer comes
 * back to"), for a plan and a donation alike: the provider's status, asked again while it is
 * open. `cancelled` tells a payment the payer cancelled apart within the failed state
 * (docs/payments.md, "Cancelled payments").
 */
export function usePaymentStatus(provider: Provider, orderId: string) {
  const [state, setState] = useState<ConfirmationState>(0);
  const [pending, setPending] = useState(false);
  const [cancelled, setCancelled] = useState(false);
  const [bought, setBought] = useState<Bought>(null);

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let checks = 0;
    const check = async () => {
      checks += 1;
      let outcome: 'paid' | 'pending' | 'failed' | 'cancelled';
      try {
        const answer = await checkPaymentStatus(provider, orderId);
        // docs/api.md: the answer's success decides; a status still open at the provider is asked again.
        const status = answer.data?.status;
        const open = status === 'PENDING' || status === 'CREATED';
        outcome = answer.success ? 'paid' : open ? 'pending' : status === 'CANCELLED' ? 'cancelled' : 'failed';
        if (!stopped && answer.data && typeof answer.data.amount === 'number') setBought({ plan: answer.data.plan ?? null, amount: answer.data.amount });
      } catch (e) {
        // No answer at all (offline for a moment) is not a failed payment: ask again.
        outcome = e instanceof ApiError && e.status === 0 ? 'pending' : 'failed';
      }
      if (stopped) return;
      if (outcome === 'pending' && checks < PENDING_MAX_CHECKS) {
        setPending(true);
        timer = setTimeout(() => void check(), PENDING_POLL_MS);
        return;
      }
      setCancelled(outcome === 'cancelled');
      setState(outcome === 'paid' ? 1 : -1);
    };
    void check();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [orderId, provider]);

  return { state, pending, cancelled, bought };
}
