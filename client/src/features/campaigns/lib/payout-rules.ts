import { ACCOUNT_NUMBER_PATTERN, IFSC_PATTERN, MIN_WITHDRAWAL_PAISE, VPA_PATTERN } from '@pm/protocol/payout';
import { ApiError } from '@/lib/api-client';
import type { NewPayoutAccount, PayoutAccount } from '../api/payouts';
import { parseRupees } from './donation-rules';

/*
 * The payout forms' rules, on the server's own patterns (sync-protocol payout.ts; docs/charity.md
 * "Payout accounts"), so that a mistake is shown on its field before anything is sent; the server
 * checks again and its refusal lands on the field it names (`fieldOfRefusal`).
 */

/** What the account form holds as typed; `kind` picks the fields that count. */
export type AccountValues = {
  kind: 'BANK' | 'VPA';
  supplierName: string;
  holderName: string;
  ifsc: string;
  accountNumber: string;
  accountNumberConfirm: string;
  vpa: string;
};

export const emptyAccount = (): AccountValues => ({ kind: 'VPA', supplierName: '', holderName: '', ifsc: '', accountNumber: '', accountNumberConfirm: '', vpa: '' });

/** Error keys of the payout namespace; the inputs translate them, so they follow a change of language. */
export type AccountErrorKey =
  | 'form.errors.supplierName'
  | 'form.errors.holderName'
  | 'form.errors.ifsc'
  | 'form.errors.accountNumber'
  | 'form.errors.accountNumberConfirm'
  | 'form.errors.vpa';

/** The field rules; a bank field counts only for a bank account, the UPI id only for UPI. */
export function accountRules(withSupplier: boolean) {
  return {
    supplierName: (v: string): AccountErrorKey | null => (!withSupplier || v.trim() ? null : 'form.errors.supplierName'),
    holderName: (v: string): AccountErrorKey | null => (v.trim() ? null : 'form.errors.holderName'),
    ifsc: (v: string, all: AccountValues): AccountErrorKey | null => (all.kind !== 'BANK' || IFSC_PATTERN.test(v.trim().toUpperCase()) ? null : 'form.errors.ifsc'),
    accountNumber: (v: string, all: AccountValues): AccountErrorKey | null => (all.kind !== 'BANK' || ACCOUNT_NUMBER_PATTERN.test(v.trim()) ? null : 'form.errors.accountNumber'),
    accountNumberConfirm: (v: string, all: AccountValues): AccountErrorKey | null =>
      all.kind !== 'BANK' || v.trim() === all.accountNumber.trim() ? null : 'form.errors.accountNumberConfirm',
    vpa: (v: string, all: AccountValues): AccountErrorKey | null => (all.kind !== 'VPA' || VPA_PATTERN.test(v.trim()) ? null : 'form.errors.vpa'),
  };
}

/** The form's values as POST /payout-account takes them. */
export function accountBody(v: AccountValues): NewPayoutAccount {
  const holderName = v.holderName.trim();
  if (v.kind === 'VPA') return { kind: 'VPA', holderName, vpa: v.vpa.trim() };
  return { kind: 'BANK', holderName, ifsc: v.ifsc.trim().toUpperCase(), accountNumber: v.accountNumber.trim(), accountNumberConfirm: v.accountNumberConfirm.trim() };
}

/**
 * The field a server refusal names, among `fields`, or null. A refused body's `msg` starts with
 * the field's name ("ifsc must be …", "payoutAccountId: …", "purpose.en …"; docs/security.md
 * "Smaller points"); the longest name is tried first, so that
 * `accountNumberConfirm …` is not taken for `accountNumber`.
 */
export function fieldOfRefusal<F extends string>(error: unknown, fields: readonly F[]): F | null {
  if (!(error instanceof ApiError) || error.status >= 500) return null;
  const raw = (error.body as { msg?: unknown } | undefined)?.msg;
  const msg = typeof raw === 'string' ? raw : error.msg;
  const byLength = [...fields].sort((a, b) => b.length - a.length);
  return byLength.find((f) => msg === f || [' ', '.', ':'].some((after) => msg.startsWith(`${f}${after}`))) ?? null;
}

/** The account as a person recognises it, never the whole number: "•••• 6789 · SBIN0001234" or the UPI id. */
export function maskedAccount(account: Pick<PayoutAccount, 'kind' | 'accountLast4' | 'ifsc' | 'vpa'>): string {
  if (account.kind === 'VPA') return account.vpa ?? '';
  return [`•••• ${account.accountLast4 ?? ''}`, account.ifsc].filter(Boolean).join(' · ');
}

/** Whether the bank's name for the account differs from the person's (or the supplier's) own. */
export const nameDiffers = (account: Pick<PayoutAccount, 'nameMatches' | 'verifiedName'>) => account.nameMatches === false && account.verifiedName !== null;

/** The typed rupees as paise, or null when it is not an amount. */
export function rupeesTextToPaise(text: string): number | null {
  const rupees = parseRupees(text);
  return rupees === null ? null : Math.round(rupees * 100);
}

export type AmountErrorKey = 'withdraw.errors.amount' | 'withdraw.errors.amountMin' | 'withdraw.errors.amountMax';

/** The amount's rule: rupees with at most two decimals, at least ₹1, at most what is available. */
export function withdrawalAmountError(text: string, available: number): AmountErrorKey | null {
  const paise = rupeesTextToPaise(text);
  if (paise === null) return 'withdraw.errors.amount';
  if (paise < MIN_WITHDRAWAL_PAISE) return 'withdraw.errors.amountMin';
  if (paise > available) return 'withdraw.errors.amountMax';
  return null;
}

/** A figure of the person view (GET /Person: rupees, maybe with paise) as paise. */
export const personRupeesToPaise = (rupees: number) => Math.round(rupees * 100);
