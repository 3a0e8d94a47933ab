import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { PayoutAccount, Withdrawable, Withdrawal } from '@pm/protocol/payout';

/*
 * The payout routes of docs/charity.md "Payout accounts" and "Withdrawals": where a campaign's
 * money goes and how it gets there. Every amount is integer paise, every time milliseconds.
 * Reads are silent (each screen shows its own failure); the writes are silent too, because a form
 * shows its refusal on the field it names, and the lists say it beside the button pressed.
 */

type One<T> = { success: boolean; msg?: string; data: T };

/** The shapes are sync-protocol's payout.ts, shared with the server. */
export type { PayoutAccount, PayoutAccountKind, PayoutAccountStatus, Withdrawable, Withdrawal, WithdrawalStatus } from '@pm/protocol/payout';

export type NewBankAccount = { kind: 'BANK'; holderName: string; ifsc: string; accountNumber: string; accountNumberConfirm: string };
export type NewVpaAccount = { kind: 'VPA'; holderName: string; vpa: string };
export type NewPayoutAccount = NewBankAccount | NewVpaAccount;

export type WithdrawalRequest = { amount: number; purpose: { en: string; hi?: string }; payoutAccountId: string };

const enc = encodeURIComponent;

export const payoutKeys = {
  all: ['payouts'] as const,
  mine: ['payouts', 'accounts', 'mine'] as const,
  payees: (campaignId: string) => ['payouts', 'payees', campaignId] as const,
  withdrawable: (campaignId: string) => ['payouts', 'withdrawable', campaignId] as const,
  withdrawals: (campaignId: string) => ['payouts', 'withdrawals', campaignId] as const,
  queue: ['payouts', 'queue'] as const,
};

/** GET /payout-account/mine: the signed-in person's accounts. */
export function useMyPayoutAccounts(enabled = true) {
  return useQuery({ queryKey: payoutKeys.mine, queryFn: () => api<One<PayoutAccount[]>>('/payout-account/mine', { silent: true }), select: (r) => r.data, enabled });
}

/** POST /payout-account: verified through the bank before the answer (VERIFIED or FAILED). */
export const addPayoutAccount = (body: NewPayoutAccount) => api<One<PayoutAccount>>('/payout-account', { method: 'POST', body, silent: true });

export const deletePayoutAccount = (id: string) => api<{ success: boolean; msg?: string }>(`/payout-account/${enc(id)}`, { method: 'DELETE', silent: true });

/** GET /campaign/:id/payees: the suppliers staff named for the campaign (owner, staff, trustees). */
export function useCampaignPayees(campaignId: string, enabled = true) {
  return useQuery({ queryKey: payoutKeys.payees(campaignId), queryFn: () => api<One<PayoutAccount[]>>(`/campaign/${enc(campaignId)}/payees`, { silent: true }), select: (r) => r.data, enabled });
}

/** POST /campaign/:id/payees (staff): a supplier the campaign pays, verified like an account. */
export const addCampaignPayee = (campaignId: string, body: NewPayoutAccount & { supplierName: string }) =>
  api<One<PayoutAccount>>(`/campaign/${enc(campaignId)}/payees`, { method: 'POST', body, silent: true });

/** GET /campaign/:id/withdrawable. */
export function useWithdrawable(campaignId: string) {
  return useQuery({ queryKey: payoutKeys.withdrawable(campaignId), queryFn: () => api<One<Withdrawable>>(`/campaign/${enc(campaignId)}/withdrawable`, { silent: true }), select: (r) => r.data });
}

/** GET /campaign/:id/withdrawals: newest first as the server sends them. */
export function useCampaignWithdrawals(campaignId: string) {
  return useQuery({ queryKey: payoutKeys.withdrawals(campaignId), queryFn: () => api<One<Withdrawal[]>>(`/campaign/${enc(campaignId)}/withdrawals`, { silent: true }), select: (r) => r.data });
}

export const requestWithdrawal = (campaignId: string, body: WithdrawalRequest) =>
  api<One<Withdrawal>>(`/campaign/${enc(campaignId)}/withdrawals`, { method: 'POST', body, silent: true });

/** GET /withdrawal/queue (APPROVE_WITHDRAWAL): open and failed withdrawals, overdue first. */
export function useWithdrawalQueue() {
  return useQuery({ queryKey: payoutKeys.queue, queryFn: () => api<One<Withdrawal[]>>('/withdrawal/queue', { silent: true }), select: (r) => r.data });
}

/** A move on one withdrawal (docs/charity.md "Withdrawals": the state diagram). */
export type WithdrawalMove = 'approve' | 'reject' | 'cancel' | 'check' | 'retry';
export type WithdrawalMoveBody = { note?: string; acceptNameMismatch?: boolean } | { reason: string } | Record<string, never>;

export const moveWithdrawal = (id: string, move: WithdrawalMove, body: WithdrawalMoveBody = {}) =>
  api<One<Withdrawal>>(`/withdrawal/${enc(id)}/${move}`, { method: 'POST', body, silent: true });

/**
 * A person's money from the ledger (docs/charity.md "The ledger": `tac` collected, `aw`
 * withdrawable, `taw` withdrawn), as GET /Person gives them: rupees. Its key sits under the
 * profile's (['person', 'me']), so a refresh of the profile refreshes it too.
 */
/** A person's money as the Person view carries it, in rupees: collected, withdrawable, withdrawn, and what they paid us. */
export type PersonMoney = { tac: number; aw: number; taw: number; paidAmount: number };

export function useMyMoney(personId: string) {
  return useQuery({
    queryKey: ['person', 'me', personId, 'money'],
    queryFn: () => api<One<PersonMoney>>('/Person', { silent: true }),
    select: (r): PersonMoney => ({ tac: r.data.tac, aw: r.data.aw, taw: r.data.taw, paidAmount: r.data.paidAmount }),
  });
}
