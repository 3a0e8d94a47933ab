import { z } from 'zod';
import { idSchema } from './common';
import { reportDateSchema } from './report-dates';

/**
 * A purchase order's life (ARCHITECTURE decision 10): CREATED → PENDING → PAID | FAILED |
 * EXPIRED, fed by the redirect, the webhook and status checks; a PAID order never goes back
 * (only an admin's REFUNDED follows it). CANCELLED is an admin's for an unpaid order.
 */
export const ORDER_STATUSES = ['CREATED', 'PENDING', 'PAID', 'FAILED', 'EXPIRED', 'CANCELLED', 'REFUNDED'] as const;
export const orderStatusSchema = z.enum(ORDER_STATUSES);
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** An order as the back office shows it. */
export type OrderRow = {
  id: string;
  createdAt: number;
  updatedAt: number;
  /** Rupees (the order's paise / 100), as the back office shows it. */
  amount: number;
  status: OrderStatus;
  plan: { id: string; code: string; name: { en: string; hi: string } } | null;
  person: { id: string; n: string; m: string } | null;
};

/** GET /api/order — the admin order list; page size 30 (docs/glossary.md "Fixed values"). */
export const orderQuerySchema = z.strictObject({
  status: orderStatusSchema.optional(),
  q: z.string().trim().max(100).optional().default(''),
  startDate: reportDateSchema('start').optional(),
  endDate: reportDateSchema('end').optional(),
  limit: z.coerce.number().int().min(1).max(100).optional().default(30),
  offset: z.coerce.number().int().min(0).optional().default(0),
});

/** PATCH /api/order/status. */
export const orderStatusUpdateSchema = z.strictObject({ id: idSchema, status: orderStatusSchema });
