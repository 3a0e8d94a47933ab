import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { PaymentStatus } from '@pm/protocol/payment';
import type { TransactionsReport } from '@pm/protocol/report';
import { api } from '@/lib/api-client';

export const TRANSACTION_PAGE_SIZE = 50;
export type TransactionFilters = {
  startDate?: number | undefined;
  endDate?: number | undefined;
  status?: PaymentStatus | undefined;
  channel?: string | undefined;
  type?: 'credit' | 'debit' | undefined;
  q: string;
  offset: number;
};

/** GET /api/report/transactions with filters. */
export function getTransactions(f: TransactionFilters): Promise<{ success: boolean } & TransactionsReport> {
  return api('/report/transactions', {
    query: { startDate: f.startDate, endDate: f.endDate, status: f.status, channel: f.channel, type: f.type, q: f.q || undefined, limit: TRANSACTION_PAGE_SIZE, offset: f.offset },
  });
}
export const transactionsQueryOptions = (f: TransactionFilters) =>
  queryOptions({ queryKey: ['admin', 'transactions', f], queryFn: () => getTransactions(f), placeholderData: keepPreviousData });
export function useTransactions(f: TransactionFilters) {
  return useQuery(transactionsQueryOptions(f));
}
