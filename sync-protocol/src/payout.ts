import { z } from 'zod';
import { idSchema } from './common';
import { MSG } from './messages';
import { hasUnsafeChars } from './text-rules';

/*
 * Payout accounts and withdrawals of the charity half (docs/charity.md "Payout accounts" and
 * "Withdrawals"): the request schemas the server parses and the client's forms share, and the
 * shapes of the answers. Every amount is integer paise; every time epoch milliseconds.
 */

export const PAYOUT_ACCOUNT_KINDS = ['BANK', 'VPA'] as const;
export type PayoutAccountKind = (typeof PAYOUT_ACCOUNT_KINDS)[number];
export const PAYOUT_ACCOUNT_STATUSES = ['PENDING', 'VERIFIED', 'FAILED'] as const;
export type PayoutAccountStatus = (typeof PAYOUT_ACCOUNT_STATUSES)[number];
/** Accounts one person keeps (docs/charity.md "Payout accounts"). */
export const MAX_PAYOUT_ACCOUNTS = 5;

/** Indian Financial System Code: four letters (the bank), 0, six letters or digits (the branch). */
export const IFSC_PATTERN = /^[A-Z]{4}0[A-Z0-9]{6}$/;
/** A bank account number: 9 to 18 digits. */
export const ACCOUNT_NUMBER_PATTERN = /^[0-9]{9,18}$/;
/** A UPI id (VPA): a handle, @, the provider. */
export const VPA_PATTERN = /^[a-zA-Z0-9._-]{2,256}@[a-zA-Z]{2,64}$/;

const plainName = z
  .string()
  .trim()
  .min(1)
  .max(120)
  .refine((v) => !hasUnsafeChars(v), { error: MSG.unsafeCharacters });

const bankFields = {
  kind: z.literal('BANK'),
  holderName: plainName,
  ifsc: z
    .string()
    .trim()
    .transform((v) => v.toUpperCase())
    .pipe(z.string().regex(IFSC_PATTERN, { error: MSG.payoutIfscFormat })),
  accountNumber: z.string().trim().regex(ACCOUNT_NUMBER_PATTERN, { error: MSG.payoutAccountNumberFormat }),
  accountNumberConfirm: z.string().trim(),
};
const vpaFields = {
  kind: z.literal('VPA'),
  holderName: plainName,
  vpa: z.string().trim().regex(VPA_PATTERN, { error: MSG.payoutVpaFormat }),
};

/** The account number entered twice must be the same (a typo would pay a stranger). */
const confirmed = <T extends { kind: string; accountNumber?: string; accountNumberConfirm?: string }>(v: T, ctx: z.core.$RefinementCtx<T>) => {
  if (v.kind === 'BANK' && v.accountNumber !== v.accountNumberConfirm) {
    ctx.addIssue({ code: 'custom', path: ['accountNumberConfirm'], message: MSG.payoutAccountNumberConfirm });
  }
};

/** POST /api/payout-account: a bank account (IFSC, the number twice) or a UPI id of the caller's own. */
export const payoutAccountCreateSchema = z
  .discriminatedUnion('kind', [z.strictObject(bankFields), z.strictObject(vpaFields)], { error: MSG.payoutKind })
  .superRefine(confirmed);
export type PayoutAccountCreate = z.output<typeof payoutAccountCreateSchema>;

/** POST /api/campaign/:id/payees (staff): the same, with the supplier's name as the campaign's need names it. */
export const payeeCreateSchema = z
  .discriminatedUnion('kind', [z.strictObject({ ...bankFields, supplierName: plainName }), z.strictObject({ ...vpaFields, supplierName: plainName })], { error: MSG.payoutKind })
  .superRefine(confirmed);
export type PayeeCreate = z.output<typeof payeeCreateSchema>;

/** A payout account as every answer shows it: never the full account number. */
export type PayoutAccount = {
  id: string;
  kind: PayoutAccountKind;
  holderName: string;
  ifsc?: string;
  accountLast4?: string;
  vpa?: string;
  supplierName?: string | null;
  campaignId?: string | null;
  status: PayoutAccountStatus;
  /** The name the bank or UPI provider has for the account (null until verified, or when it gave none). */
  verifiedName: string | null;
  /** Whether that name is the person's own (or the supplier's), ignoring case, spaces and titles. */
  nameMatches: boolean | null;
  createdAt: number;
  verifiedAt: number | null;
};

export const WITHDRAWAL_STATUSES = ['REQUESTED', 'APPROVED', 'PAYING', 'PAID', 'FAILED', 'REJECTED', 'CANCELLED'] as const;
export type WithdrawalStatus = (typeof WITHDRAWAL_STATUSES)[number];
/** The smallest withdrawal, paise (₹1). */
export const MIN_WITHDRAWAL_PAISE = 100;

const noteSchema = z
  .string()
  .trim()
  .max(2000)
  .refine((v) => !hasUnsafeChars(v, { multiline: true }), { error: MSG.unsafeCharacters });
const purposeText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .refine((v) => !hasUnsafeChars(v, { multiline: true }), { error: MSG.unsafeCharacters });

/** POST /api/campaign/:id/withdrawals: how much (paise), what it pays for, to which account. */
export const withdrawalCreateSchema = z.strictObject({
  amount: z.int().min(MIN_WITHDRAWAL_PAISE).max(Number.MAX_SAFE_INTEGER),
  purpose: z.strictObject({ en: purposeText(2000).pipe(z.string().min(1)), hi: purposeText(2000).default('') }),
  payoutAccountId: idSchema,
});
export type WithdrawalCreate = z.output<typeof withdrawalCreateSchema>;

/** POST /api/withdrawal/:id/approve: a note, and the approver's word that a name mismatch is known. */
export const withdrawalApproveSchema = z.strictObject({ note: noteSchema.optional(), acceptNameMismatch: z.boolean().optional() });
/** POST /api/withdrawal/:id/reject: the reason is required; the requester sees it. */
export const withdrawalRejectSchema = z.strictObject({ reason: noteSchema.pipe(z.string().min(1)) });

type Who = { id: string; name: string };

/** A withdrawal as its requester, the campaign's owner, staff and trustees read it. */
export type Withdrawal = {
  id: string;
  campaignId: string;
  campaignTitle: { en: string; hi: string };
  requester: Who;
  payee: PayoutAccount;
  amount: number;
  fromDomestic: number;
  fromForeign: number;
  purpose: { en: string; hi: string };
  status: WithdrawalStatus;
  approvals: { by: Who; at: number; note: string | null }[];
  reason: string | null;
  dueAt: number;
  overdue: boolean;
  payoutId: string | null;
  utr: string | null;
  failure: string | null;
  createdAt: number;
  paidAt: number | null;
  history: { action: string; from: WithdrawalStatus | null; to: WithdrawalStatus; note: string | null; actor: Who | null; at: number }[];
};

/** GET /api/campaign/:id/withdrawable. */
export type Withdrawable = {
  /** Domestic money the campaign holds: received, net of the share, less what was paid out. */
  domestic: number;
  /** The same for foreign contributions. */
  foreign: number;
  /** What open requests (requested, approved, paying) hold. */
  held: number;
  /** What a new request may ask for: domestic + foreign − held. */
  available: number;
  /** A withdrawal was paid and no update has said what it bought since: no new request until one does. */
  updateRequired: boolean;
};
