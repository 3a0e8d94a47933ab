import { z } from 'zod';
import { tagKeySchema } from '../tag';

/** Store `tag` (pull only): every tag, its names per language. */
export const tagDocSchema = z.strictObject({
  id: z.string().max(80),
  key: tagKeySchema,
  tid: z.string().max(80),
  tags: z.record(z.string(), z.string()),
  /** Last change, server clock (ms). */
  uat: z.number().int(),
  _deleted: z.boolean(),
});
export type TagDoc = z.infer<typeof tagDocSchema>;
