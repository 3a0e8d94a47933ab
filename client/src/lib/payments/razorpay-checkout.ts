import type { RazorpayHandlerResponse } from './verify-razorpay-payment';

/** Razorpay's Checkout script (their published integration); the CSP must allow it when Razorpay is configured. */
export const RAZORPAY_CHECKOUT_SRC = 'https://checkout.razorpay.com/v1/checkout.js';

/** The Checkout options we use (Razorpay's Standard Checkout: key, order_id, handler, prefill, modal). */
export type RazorpayOptions = {
  key: string;
  order_id: string;
  amount: number;
  currency: 'INR';
  name: string;
  description?: string;
  prefill?: { name?: string; email?: string; contact?: string };
  handler: (response: RazorpayHandlerResponse) => void;
  modal?: { ondismiss?: () => void };
};

type RazorpayInstance = { open(): void; on(event: 'payment.failed', cb: (response: unknown) => void): void };
type RazorpayConstructor = new (options: RazorpayOptions) => RazorpayInstance;

const razorpayOf = (): RazorpayConstructor | undefined => (window as unknown as { Razorpay?: RazorpayConstructor }).Razorpay;

let loading: Promise<RazorpayConstructor> | null = null;

/** Loads Checkout once, on demand: only a learner who pays with Razorpay downloads it. */
export function loadRazorpay(): Promise<RazorpayConstructor> {
  const ready = razorpayOf();
  if (ready) return Promise.resolve(ready);
  loading ??= new Promise<RazorpayConstructor>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = RAZORPAY_CHECKOUT_SRC;
    script.async = true;
    script.onload = () => {
      const ctor = razorpayOf();
      if (ctor) resolve(ctor);
      else reject(new Error('Razorpay Checkout did not load'));
    };
    script.onerror = () => reject(new Error('Razorpay Checkout did not load'));
    document.head.appendChild(script);
  }).catch((e: unknown) => {
    // A failed load may be retried on the next press.
    loading = null;
    throw e;
  });
  return loading;
}

/**
 * Opens Checkout for an order; resolves with the handler's response when the learner paid, or
 * null when they closed it (or the payment failed inside Checkout: Razorpay lets them retry
 * there, and closing it ends here).
 */
export async function openRazorpay(options: Omit<RazorpayOptions, 'handler' | 'modal'>): Promise<RazorpayHandlerResponse | null> {
  const Razorpay = await loadRazorpay();
  return new Promise((resolve) => {
    const checkout = new Razorpay({ ...options, handler: (response) => resolve(response), modal: { ondismiss: () => resolve(null) } });
    checkout.open();
  });
}
