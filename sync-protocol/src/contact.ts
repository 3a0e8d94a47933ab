import { z } from 'zod';
import { MSG } from './messages';
import { mobileSchema, optionalEmailSchema } from './common';

/** POST /api/generic/submit-contact-details (docs/admin.md). */
export const contactSchema = z.strictObject({
  name: z.string({ error: MSG.nameRequired }).trim().min(1, { error: MSG.nameRequired }).max(100),
  email: optionalEmailSchema,
  mobile: z.string({ error: MSG.mobileRequired }).min(1, { error: MSG.mobileRequired }).pipe(mobileSchema),
  description: z
    .string({ error: 'Description is required' })
    .trim()
    .min(1, { error: 'Description is required' })
    .max(5000, { error: 'Description is too long' }),
});

/** GET /api/generic/contact-messages — the back office's list of messages from the Contact page. */
export const contactMessageQuerySchema = z.strictObject({
  q: z.string().trim().max(100).optional().default(''),
  limit: z.coerce.number().int().min(1).max(100).optional().default(30),
  offset: z.coerce.number().int().min(0).optional().default(0),
});
export type ContactMessage = { id: string; name: string; email: string | null; mobile: string; description: string; createdAt: number };
