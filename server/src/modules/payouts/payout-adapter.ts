/*
 * The payout adapter (`deps.payouts.adapter`; docs/charity.md "Payout accounts", "Withdrawals"):
 * what our services ask of whoever sends money to bank accounts and UPI ids. RazorpayX is the
 * reference protocol (razorpayx.ts); the local sandbox (sandbox-razorpayx.ts) speaks the same
 * protocol, and the same adapter code talks to both.
 */

/** Where money goes: a bank account (IFSC and number) or a UPI id, with the holder's name as entered. */
export type PayoutDestination = { kind: 'BANK'; name: string; ifsc: string; accountNumber: string } | { kind: 'VPA'; name: string; vpa: string };

/** The provider's contact and fund account for a destination. */
export type FundAccount = { contactId: string; fundAccountId: string };

/** A completed validation: whether the account exists and takes money, and the name it is registered to. */
export type Validation = { state: 'valid' | 'invalid' | 'pending'; registeredName: string | null };

/**
 * A payout's outcome in our words: `pending` (queued or processing at the bank), `processed`
 * (paid, with the bank's UTR), `failed` (final: the money never left), `reversed` (paid, then
 * returned by the bank).
 */
export type PayoutOutcome = 'pending' | 'processed' | 'failed' | 'reversed';

export type PayoutResult = {
  /** The provider's payout id. */
  id: string;
  outcome: PayoutOutcome;
  /** The provider's own status word. */
  status: string;
  amount: number;
  /** Our withdrawal's id. */
  referenceId: string | null;
  /** Our idempotency key of the payout (kept in its notes). */
  key: string | null;
  utr: string | null;
  failure: string | null;
};

/** A verified webhook delivery about a payout. */
export type PayoutEvent = { event: string; payout: PayoutResult };

export type CreatePayoutInput = {
  fundAccountId: string;
  amount: number;
  mode: 'IMPS' | 'UPI';
  /** Our withdrawal's id. */
  referenceId: string;
  /** The idempotency key: the same key never makes a second payout. */
  key: string;
  narration: string;
};

export type PayoutAdapter = {
  /** Creates the contact and fund account a destination is paid through. */
  fundAccount(dest: PayoutDestination, referenceId: string): Promise<FundAccount>;
  /** Validates a fund account (a penny drop or a UPI lookup), waiting a little for it to complete. */
  validate(fundAccountId: string): Promise<Validation>;
  createPayout(input: CreatePayoutInput): Promise<PayoutResult>;
  payout(id: string): Promise<PayoutResult>;
  /** The payout made for a withdrawal with this key, if the provider has one (a send whose answer was lost). */
  findPayout(referenceId: string, key: string): Promise<PayoutResult | null>;
  /** Whether a webhook delivery carries our webhook secret's signature of its raw body. */
  verifyWebhook(headers: Headers, rawBody: string): boolean;
  /** A verified delivery's payout event, or null when it is not about a payout. */
  parseWebhook(rawBody: string): PayoutEvent | null;
};
