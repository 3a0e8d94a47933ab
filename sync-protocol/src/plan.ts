import { z } from 'zod';

const bilingual = z.strictObject({ en: z.string().min(1).max(500), hi: z.string().min(1).max(500) });

/** A subscription plan (docs/payments.md "What a plan gives"). Prices are whole rupees; the charged amount is the total. */
export const planSchema = z.strictObject({
  code: z.string().regex(/^[A-Z_]+$/),
  name: bilingual,
  total: z.number().int().min(1),
  approx: bilingual,
  contents: z.array(bilingual).min(1).max(20),
  active: z.boolean().default(true),
  order: z.number().int().default(0),
});
export type Plan = z.infer<typeof planSchema>;

/** POST /api/product — a plan as the back office edits it (docs/admin.md: product = the plans). */
export const productCreateSchema = z.strictObject({
  code: z
    .string()
    .trim()
    .min(1)
    .max(40)
    .transform((v) => v.toUpperCase())
    .pipe(z.string().regex(/^[A-Z_]+$/, { error: 'Code may hold only letters and _' })),
  name: bilingual,
  total: z.number({ error: 'Price must be a whole number of rupees, at least 1' }).int({ error: 'Price must be a whole number of rupees, at least 1' }).min(1, { error: 'Price must be a whole number of rupees, at least 1' }).max(1_000_000),
  approx: bilingual,
  contents: z.array(bilingual).min(1).max(20),
  active: z.boolean().default(true),
  order: z.number().int().min(0).max(1000).default(0),
});
export const productUpdateSchema = productCreateSchema.extend({ id: z.string().min(1).max(64) });

/** A plan as the back office lists it. */
export type ProductView = {
  id: string;
  code: string;
  name: { en: string; hi: string };
  total: number;
  approx: { en: string; hi: string };
  contents: { en: string; hi: string }[];
  active: boolean;
  order: number;
  createdAt: number;
  /** How many orders name this plan (a plan with orders is deactivated, not deleted). */
  orders: number;
};
