import { z } from 'zod';

const allowance = z.strictObject({
  /** How many the plans give (null: unlimited; 0 without a plan). */
  limit: z.number().int().min(0).nullable(),
  /** How many attempts the server has counted against them. */
  used: z.number().int().min(0),
});

/**
 * Store `entitlement` (pull only, owner only; docs/payments.md): one document per learner, id = the
 * person's id, saying what their paid plans allow now, so that the exam list shows what is left
 * and a test can be started offline within it. Rebuilt by the server whenever an order is paid,
 * an attempt is counted, or a plan period ends.
 *
 * Counting: starting a mock test (isM) or a practice exam (not isM) of a set that is not free
 * uses one; resuming the same attempt does not. A set an editor marks free uses nothing. The
 * device adds its own attempts that are not in `counted` yet; an attempt the server finds past
 * the allowance is stored anyway and listed in `overLimit`, never dropped.
 */
export const entitlementDocSchema = z.strictObject({
  id: z.string().min(1).max(64),
  /** The plan in force (the latest-ending paid plan), or null. */
  planCode: z.string().max(64).nullable(),
  planName: z.strictObject({ en: z.string().max(200), hi: z.string().max(200) }).nullable(),
  /** ms; null without a plan. */
  startsAt: z.number().int().min(0).nullable(),
  endsAt: z.number().int().min(0).nullable(),
  mock: allowance,
  practice: allowance,
  /** Attempt ids (test_summary ids) the server has counted in this period. */
  counted: z.array(z.string().max(64)).max(2000),
  /** Attempt ids that arrived past the allowance (stored and scored, shown as over the limit). */
  overLimit: z.array(z.string().max(64)).max(2000),
  /** Server time of this document (ms). */
  updatedAt: z.number().int().min(0),
  _deleted: z.boolean(),
});
export type EntitlementDoc = z.infer<typeof entitlementDocSchema>;
