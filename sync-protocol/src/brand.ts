import { z } from 'zod';
import { idSchema } from './common';
import { MSG } from './messages';

export const brandCreateSchema = z.strictObject({
  name: z.string().trim().min(1, { error: MSG.brandNameRequired }).max(100),
  description: z.string().trim().max(1000).optional().default(''),
  /** Only web addresses: a javascript: or data: link must never reach an <img> or <a>. */
  logo: z.url({ protocol: /^https?$/, error: MSG.brandLogoUrl }).max(2000).nullable().optional(),
});
export const brandUpdateSchema = brandCreateSchema.extend({ id: idSchema });
