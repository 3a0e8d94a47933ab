import { z } from 'zod';

const bilingual = z.strictObject({ en: z.string().min(1).max(500), hi: z.string().min(1).max(500) });

/** A subscription plan (spec §9). Prices are whole rupees; the charged amount is the total. */
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
