import { z } from 'zod';
import type { OrderStatus } from './order';

/*
 * Plans that can be bought (docs/payments.md). Amounts on the wire and in the database are integer paise; the client's
 * price or amount is never used for a plan (the server's price list is).
 */

/**
 * A payment's states (a payment has a status; its values are ours). CANCELLED: an attempt
 * the provider reports as cancelled by the payer (docs/payments.md, "Cancelled payments").
 */
export const PAYMENT_STATUSES = ['PENDING', 'SUCCESS', 'FAILED', 'CANCELLED', 'REFUNDED'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/**
 * A payment row's flag: a second capture for an already paid order is recorded and flagged for
 * refund (the terms' only refund: a double debit); staff pay it back and it becomes REFUNDED
 * (modules/payments/refund-due.ts).
 */
export const PAYMENT_FLAGS = ['REFUND_DUE', 'REFUNDED'] as const;
export type PaymentFlag = (typeof PAYMENT_FLAGS)[number];

/** The payment providers (ARCHITECTURE decision 9): PhonePe Standard Checkout v2 and Razorpay. */
export const PROVIDERS = ['phonepe', 'razorpay'] as const;
export type Provider = (typeof PROVIDERS)[number];
export const providerSchema = z.enum(PROVIDERS);

/** Smallest payable amount (docs/payments.md: at least ₹1). */
export const MIN_AMOUNT_RUPEES = 1;
/** Largest amount one order may carry (₹1,00,000): a donation beyond it is a bank transfer. */
export const MAX_AMOUNT_RUPEES = 100_000;
/** An order not paid within this time expires (PhonePe's default expireAfter is 1200 s). */
export const ORDER_TTL_MS = 20 * 60_000;
/** Redirect after a successful payment (docs/glossary.md "Fixed values"). */
export const SUCCESS_REDIRECT_S = 6;

export const rupeesToPaise = (rupees: number) => Math.round(rupees * 100);

/**
 * What each plan grants for its period (docs/payments.md "What a plan gives"). `null` is unlimited. A plan the
 * back office creates with another code grants `DEFAULT_PLAN_RULE`.
 */
export type PlanRule = { months: number; mock: number | null; practice: number | null };
export const PLAN_RULES: Record<string, PlanRule> = {
  ANNUAL_PLAN: { months: 12, mock: null, practice: 24 },
  QUATERLY_MONTH_PLAN: { months: 3, mock: 20, practice: 6 },
  ONE_MONTH_PLAN: { months: 1, mock: 10, practice: 2 },
};
/**
 * The name shown for a plan whose row is gone (a plan with orders is never deleted, so this is
 * for old data only): a word in each language, never the internal code (docs/payments.md).
 */
export const UNNAMED_PLAN: { en: string; hi: string } = { en: 'Plan', hi: 'प्लान' };

export const DEFAULT_PLAN_RULE: PlanRule = { months: 1, mock: 0, practice: 0 };
export const planRuleOf = (code: string): PlanRule => PLAN_RULES[code] ?? DEFAULT_PLAN_RULE;

/** Money fields a client may send and the server ignores (docs/payments.md "Prices come from the server"). */
const ignoredMoney = {
  amount: z.unknown().optional(),
  amt: z.unknown().optional(),
  price: z.unknown().optional(),
  total: z.unknown().optional(),
};

/** A plan's id or code as a client names it. */
const planKey = z.string().trim().min(1).max(64);

/**
 * `product` of POST /api/payment: what is bought. The spec leaves its shape open: a string ('PLAN',
 * or the plan's code), or the plan object the client holds, of which only `id` and `code` are
 * read; its price and anything else in it are ignored (the price is the server's).
 */
const productSchema = z.union([planKey, z.looseObject({ id: planKey.optional(), code: planKey.optional() }).transform(({ id, code }) => ({ id, code }))]);

/**
 * POST /api/payment {prodid, product}: an order for a plan. prodid is the plan's id or code; a
 * client that sends only the plan object as `product` names the plan by its id or code.
 */
export const createOrderSchema = z
  .strictObject({
    prodid: planKey.optional(),
    product: productSchema.optional(),
    /** Where the confirmation page sends the learner afterwards (a path of this site). */
    redirection_url: z.string().max(500).optional(),
    ...ignoredMoney,
  })
  .transform((v, ctx) => {
    const prodid = v.prodid ?? (typeof v.product === 'object' ? (v.product.id ?? v.product.code) : undefined);
    if (prodid === undefined) {
      ctx.addIssue({ code: 'invalid_type', expected: 'string', input: undefined, path: ['prodid'] });
      return z.NEVER;
    }
    return { prodid, redirection_url: v.redirection_url };
  });

/**
 * A donation's amount in rupees: a number, or a string of digits with at most two more after a
 * decimal point ('51', '51.50'). Nothing else: not true, [1], '1e2', '0x10' or ' 5', which a
 * coercion would turn into numbers (docs/payments.md).
 */
const AMOUNT_TEXT = /^\d{1,9}(\.\d{1,2})?$/;
const donationAmount = z
  .union([z.number(), z.string().regex(AMOUNT_TEXT, { error: 'Invalid amount!!!' }).transform(Number)])
  .pipe(
    z
      .number()
      .finite({ error: 'Invalid amount!!!' })
      .min(MIN_AMOUNT_RUPEES, { error: 'Amount cannot be less than 1' })
      .max(MAX_AMOUNT_RUPEES, { error: 'Invalid amount!!!' }),
  );

/** POST /api/payment/createDummyOrder {poid, amount}: a donation to the trust of the payer's amount (rupees). */
export const createDummyOrderSchema = z.strictObject({
  poid: z.string().trim().min(1).max(64).optional(),
  amount: donationAmount,
  redirection_url: z.string().max(500).optional(),
});

/** GET /api/payment/checkPayment?order_id&payment_id&transaction_id&pg_order_id&channel */
export const checkPaymentQuerySchema = z.strictObject({
  order_id: z.string().trim().min(1).max(64).optional(),
  payment_id: z.string().trim().max(64).optional(),
  transaction_id: z.string().trim().max(64).optional(),
  pg_order_id: z.string().trim().max(64).optional(),
  channel: z.string().trim().max(32).optional(),
});

/** POST /api/payment/verifyRazorpayPayment: what Razorpay Checkout's handler receives. */
export const verifyRazorpaySchema = z.strictObject({
  razorpay_order_id: z.string().trim().min(1).max(64),
  razorpay_payment_id: z.string().trim().min(1).max(64),
  razorpay_signature: z.string().trim().regex(/^[0-9a-f]{64}$/i, { error: 'Invalid signature' }),
});

/** POST /api/payment/retryPayment {id}: pay a failed or expired order again (a new order, same plan). */
export const retryPaymentSchema = z.strictObject({
  id: z.string().trim().min(1).max(64),
  ...ignoredMoney,
});

/**
 * POST /api/{provider}/initiatePayment (docs/payments.md). The amount is checked ('Amount cannot
 * be less than 1') but the order's own amount is what is charged.
 */
export const initiatePaymentSchema = z.strictObject({
  merchantTransactionId: z.string().trim().min(1).max(63),
  amount: z.coerce.number({ error: 'Amount cannot be less than 1' }).min(MIN_AMOUNT_RUPEES, { error: 'Amount cannot be less than 1' }),
  merchantUserId: z.string().max(64).optional(),
  redirectUrl: z.string().max(1000).optional(),
  redirectMode: z.literal('REDIRECT').optional(),
  callbackUrl: z.string().max(1000).optional(),
  mobileNumber: z.string().max(20).optional(),
});

/** POST /api/{provider}/checkPaymentStatus {merchantTransactionId} */
export const checkPaymentStatusSchema = z.strictObject({
  merchantTransactionId: z.string().trim().min(1).max(63),
});

/** An order as its buyer sees it (My plan, receipts). */
export type MyOrder = {
  id: string;
  createdAt: number;
  /** Paise. */
  amount: number;
  status: string;
  provider: string | null;
  plan: { code: string; name: { en: string; hi: string } } | null;
  /** Sequential receipt number once paid. */
  receiptNo: number | null;
  paidAt: number | null;
};

/** The `data` of checkPaymentStatus, checkPayment and verifyRazorpayPayment answers. */
export type PaymentStatusData = {
  status: OrderStatus;
  /** Sequential receipt number once paid. */
  receiptNo: number | null;
  /** Paise. */
  amount: number;
  /** The plan bought (its name in both languages), or null for a donation. */
  plan: { code: string; name: { en: string; hi: string } } | null;
};

/** A plan the learner holds (GET /api/payment/my). */
export type MyPlan = {
  planCode: string;
  name: { en: string; hi: string };
  startsAt: number;
  endsAt: number;
  mock: { limit: number | null; used: number };
  practice: { limit: number | null; used: number };
};

/** GET /api/payment/receipt/{orderId}: a paid order's receipt (its buyer, or an admin). */
export type Receipt = {
  receiptNo: number;
  orderId: string;
  paidAt: number;
  /** The installation's trust (docs/configuration.md: TRUST_NAME, TRUST_NAME_HI, TRUST_ADDRESS). */
  trust: { name: string; nameHi: string; address: string };
  buyer: { name: string; mobile: string | null };
  plan: { code: string; name: { en: string; hi: string } } | null;
  /** Paise. */
  amount: number;
  provider: string;
  transactionId: string | null;
  /** Paid through the payment sandbox (or a demo sale): no money was taken, and the receipt says SANDBOX. */
  sandbox: boolean;
};

/** POST /api/payment answer (docs/payments.md: success, id, amt and payment fields). */
export type CreateOrderAnswer = {
  success: true;
  /** The order id; also the merchantTransactionId sent to the provider. */
  id: string;
  /** Paise. */
  amt: number;
  payment: {
    provider: Provider;
    merchantTransactionId: string;
    /** Rupees, for the initiatePayment call (docs/payments.md names `amount`). */
    amount: number;
    /** Razorpay Checkout's options (razorpay only). */
    razorpay?: { key: string; order_id: string; amount: number; currency: 'INR'; name: string };
  };
};

/**
 * `ms` plus `months` calendar months (UTC), the day clamped to the target month's last day
 * (31 January + 1 month = 28 or 29 February): a plan's period.
 */
export function addMonths(ms: number, months: number): number {
  const d = new Date(ms);
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d.getTime();
}
