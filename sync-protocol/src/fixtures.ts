import { z } from 'zod';
import { VPA_PATTERN } from './payout';
import { emailSchema, mobileSchema, passwordSchema } from './common';
import { permissionNameSchema } from './permission';
import { roleNameSchema } from './role';
import { tagSchema } from './tag';
import { questionSchema } from './question';
import { questionSetSchema } from './question-set';
import { planSchema } from './plan';
import { ORDER_STATUSES } from './order';
import { PAYMENT_STATUSES } from './payment';
import { CAMPAIGN_CAUSES, campaignStorySchema, campaignTitleSchema, needSchema, trustSchema } from './campaign';

/** Shapes of the JSON files under fixtures/, parsed when the database is seeded. */
export const permissionsFixtureSchema = z.array(
  z.strictObject({ permission: permissionNameSchema, description: z.string().min(1) }),
);
export const rolesFixtureSchema = z.array(
  z.strictObject({
    name: roleNameSchema,
    description: z.string().min(1),
    /** `"*"` grants every permission. */
    permissions: z.union([z.literal('*'), z.array(permissionNameSchema)]),
  }),
);
export const accountsFixtureSchema = z.array(
  z.strictObject({
    id: z.string().min(1),
    n: z.string().min(1),
    m: mobileSchema,
    e: emailSchema,
    password: passwordSchema,
    r: roleNameSchema,
    p: z.string().nullable(),
  }),
);
export const tagsFixtureSchema = z.array(tagSchema);
export const questionsFixtureSchema = z.array(questionSchema);
export const questionSetsFixtureSchema = z.array(questionSetSchema);
export const plansFixtureSchema = z.array(planSchema);

/**
 * Demo sales (fixtures/demo-sales.json): signups and plan orders placed `daysAgo` days before
 * the first start, so that the back office's reports show the last weeks. Demo members log in
 * with the password DEMO_MEMBER_PASSWORD.
 */
export const demoSalesFixtureSchema = z.strictObject({
  signups: z.array(
    z.strictObject({ id: z.string().min(1), n: z.string().min(1), m: mobileSchema, p: z.string().min(1).nullable(), daysAgo: z.number().int().min(0).max(365) }),
  ),
  orders: z.array(
    z.strictObject({
      person: z.string().min(1),
      plan: z.string().min(1),
      daysAgo: z.number().int().min(0).max(365),
      minute: z.number().int().min(0).max(1439),
      status: z.enum(ORDER_STATUSES),
      payments: z.array(
        z.strictObject({
          channel: z.string().min(1).max(40),
          transactionId: z.string().min(1).max(100),
          status: z.enum(PAYMENT_STATUSES),
          isCredit: z.boolean(),
        }),
      ),
    }),
  ),
});
export const DEMO_MEMBER_PASSWORD = 'member1234';

/**
 * The demo's charity (fixtures/demo-charity.json; docs/charity.md): its trust, and approved
 * campaigns ending `endsInDays` after the first start. Demo data only: a real installation's
 * trust has its own registration, PAN and 80G numbers, which receipts print.
 */
export const demoCharityFixtureSchema = z.strictObject({
  trusts: z.array(trustSchema.extend({ id: z.string().min(1) })),
  campaigns: z.array(
    z.strictObject({
      id: z.string().min(1),
      beneficiary: z.string().min(1),
      trust: z.string().min(1),
      title: campaignTitleSchema,
      story: campaignStorySchema,
      cause: z.enum(CAMPAIGN_CAUSES),
      need: needSchema,
      endsInDays: z.number().int().min(1).max(365),
      approvedBy: z.string().min(1),
    }),
  ),
  /** Verified payout accounts of demo people (docs/charity.md "Payout accounts"): a UPI id each. */
  payoutAccounts: z
    .array(z.strictObject({ id: z.string().min(1), person: z.string().min(1), holderName: z.string().min(1), vpa: z.string().regex(VPA_PATTERN) }))
    .default([]),
});
