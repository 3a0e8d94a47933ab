import { api } from '@/lib/api-client';

/** What Razorpay Checkout's handler receives (sync-protocol verifyRazorpaySchema). */
export type RazorpayHandlerResponse = {
  razorpay_order_id: string;
  razorpay_payment_id: string;
  razorpay_signature: string;
};

/** POST /api/payment/verifyRazorpayPayment (docs/api.md): the server checks the signature and the order. */
export function verifyRazorpayPayment(body: RazorpayHandlerResponse): Promise<{ success: boolean; msg?: string }> {
  return api('/payment/verifyRazorpayPayment', {
    method: 'POST',
    body: { razorpay_order_id: body.razorpay_order_id, razorpay_payment_id: body.razorpay_payment_id, razorpay_signature: body.razorpay_signature },
  });
}
