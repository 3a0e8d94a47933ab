import { useEffect, useEffectEvent, useState } from 'react';
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

/** One answer about an order: whether it is paid (the answer's `success`), its status, and what the page shows of it. */
export type StatusCheck<T> = { paid: boolean; status: string | undefined; data?: T | undefined };

type Outcome = 'paid' | 'pending' | 'failed' | 'cancelled';

function outcomeOf(check: StatusCheck<unknown>): Outcome {
  // docs/api.md: the answer's success decides; a status still open at the provider is asked again.
  const open = check.status === 'PENDING' || check.status === 'CREATED';
  return check.paid ? 'paid' : open ? 'pending' : check.status === 'CANCELLED' ? 'cancelled' : 'failed';
}

/**
 * An order's outcome as a confirmation page shows it (docs/payments.md "Where the buyer comes
 * back to"), whatever asks for it: `ask` is called again while the order is open, until it is
 * settled or a minute has passed; `key` names the order (a new key starts again). `cancelled`
 * tells a payment the payer cancelled apart within the failed state (docs/payments.md,
 * "Cancelled payments"); `data` is the last answer's.
 */
export function useOrderOutcome<T>(key: string, ask: () => Promise<StatusCheck<T>>) {
  const [state, setState] = useState<ConfirmationState>(0);
  const [pending, setPending] = useState(false);
  const [cancelled, setCancelled] = useState(false);
  const [data, setData] = useState<T | null>(null);
  const askNow = useEffectEvent(ask);

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let checks = 0;
    const check = async () => {
      checks += 1;
      let outcome: Outcome;
      try {
        const answer = await askNow();
        outcome = outcomeOf(answer);
        if (!stopped && answer.data !== undefined) setData(answer.data);
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
  }, [key]);

  return { state, pending, cancelled, data };
}

/** A plan's order, asked of its provider through checkPaymentStatus; `bought` names the plan and the amount. */
export function usePaymentStatus(provider: Provider, orderId: string) {
  const { data, ...rest } = useOrderOutcome<NonNullable<Bought>>(`${provider}:${orderId}`, async () => {
    const answer = await checkPaymentStatus(provider, orderId);
    const amount = answer.data?.amount;
    return { paid: answer.success, status: answer.data?.status, data: typeof amount === 'number' ? { plan: answer.data?.plan ?? null, amount } : undefined };
  });
  return { ...rest, bought: data };
}
