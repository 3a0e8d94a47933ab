import { z } from 'zod';
import { MSG } from './messages';
import type { OrderRow } from './order';
import { PAYMENT_STATUSES, type PaymentStatus } from './payment';
import { checkRange, reportDateSchema } from './report-dates';

export { IST_OFFSET_MS, MAX_REPORT_DAYS } from './report-dates';

/**
 * The terms: 6 percent of each donation is kept for gateway, bank and running costs. The
 * global earning report shows that share.
 */
export const RETAINED_PERCENT = 6;

/** GET /api/report/getOrdersByDate?startDate&endDate (epoch ms; docs/admin.md "Back office API"), also the user report and earnings. */
export const reportRangeSchema = z
  .strictObject({
    startDate: z.string({ error: MSG.invalidStartDate }).pipe(reportDateSchema('start')),
    endDate: z.string({ error: MSG.invalidEndDate }).pipe(reportDateSchema('end')),
  })
  .superRefine(checkRange);

/**
 * The sale report (admin dashboard): the orders placed in a date range, and the money of the
 * same range from the payments ledger (docs/admin.md, "What the reports count"): `collected` what
 * was received, `refunded` what was paid back, `net` the difference, in rupees to the paisa.
 * `paidCount` counts orders with money received in the range; failed, expired and cancelled
 * orders add no money.
 */
export type OrdersByDateReport = {
  /** Newest first, at most 1,000 (the totals cover them all). */
  orders: OrderRow[];
  totals: { count: number; paidCount: number; collected: number; refunded: number; net: number };
  /** Days (YYYY-MM-DD, India time) with orders placed or money moved, ascending. */
  byDay: { day: string; count: number; collected: number; refunded: number; net: number }[];
};

/** Signups of a range, per day and per referrer. */
export type UsersByDateReport = {
  total: number;
  byDay: { day: string; count: number }[];
  /** Most signups first, at most 50. */
  byReferrer: { referrer: { id: string; n: string; m: string } | null; count: number }[];
};

/** GET /api/report/transactions — payments with filters; page size 50. */
export const transactionQuerySchema = z
  .strictObject({
    startDate: reportDateSchema('start').optional(),
    endDate: reportDateSchema('end').optional(),
    status: z.enum(PAYMENT_STATUSES).optional(),
    channel: z.string().trim().min(1).max(40).optional(),
    type: z.enum(['credit', 'debit']).optional(),
    q: z.string().trim().max(100).optional().default(''),
    limit: z.coerce.number().int().min(1).max(200).optional().default(50),
    offset: z.coerce.number().int().min(0).optional().default(0),
  })
  .superRefine(checkRange);

export type PaymentRow = {
  id: string;
  createdAt: number;
  amount: number;
  channel: string;
  transactionId: string;
  isCredit: boolean;
  status: PaymentStatus;
  order: { id: string; status: string; plan: { code: string; name: { en: string; hi: string } } | null } | null;
  person: { id: string; n: string; m: string } | null;
};

export type TransactionsReport = {
  data: PaymentRow[];
  total: number;
  /**
   * count: every matching payment row; credit and debit: the ledger's money of the matching
   * payments (received, paid back), net their difference (docs/admin.md, "What the reports count").
   */
  totals: { count: number; credit: number; debit: number; net: number };
  /** Every channel present, for the filter. */
  channels: string[];
};

/** GET /api/report/globalEarnings. */
export const earningsQuerySchema = z
  .strictObject({
    startDate: z.string({ error: MSG.invalidStartDate }).pipe(reportDateSchema('start')),
    endDate: z.string({ error: MSG.invalidEndDate }).pipe(reportDateSchema('end')),
    groupBy: z.enum(['day', 'month']).optional().default('day'),
  })
  .superRefine(checkRange);

export type EarningsFigures = { count: number; collected: number; refunded: number; retained: number; toTrust: number };
/**
 * Where the money received in the range went, from the ledger's other legs (docs/charity.md "The
 * ledger"), rupees: `plans` plan sales, `campaigns` donations' net to campaigns, `trustRunning`,
 * `trustGatewayFee`, `trustBankFee` the trusts' share by use, `generalDonations` gifts to a trust
 * with no campaign, `refundsDue` double debits owed back. Refunds are taken off where they went.
 */
export const EARNING_ACCOUNTS = ['plans', 'campaigns', 'trustRunning', 'trustGatewayFee', 'trustBankFee', 'generalDonations', 'refundsDue'] as const;
export type EarningAccount = (typeof EARNING_ACCOUNTS)[number];
export type GlobalEarningsReport = {
  rows: (EarningsFigures & { period: string })[];
  totals: EarningsFigures;
  retainedPercent: number;
  byAccount: Record<EarningAccount, number>;
};
