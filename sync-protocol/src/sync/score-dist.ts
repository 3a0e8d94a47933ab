import { z } from 'zod';
import { MAX_BINS } from '../score-dist';

const histogram = z.strictObject({
  /** Distinct marks, ascending. */
  m: z.array(z.number()).max(MAX_BINS),
  /** Learners with each of them. */
  c: z.array(z.number().int().min(1)).max(MAX_BINS),
});

/**
 * Store `score_dist` (pull only; docs/live-tests.md "Provisional rank on the device"): a set's
 * score distribution over its ranked results, once it has MIN_RANKED of them; `id` is the set's.
 * A device ranks its own score in it until the server's rank arrives.
 */
export const scoreDistDocSchema = z.strictObject({
  id: z.string().max(64),
  /** Learners counted. */
  n: z.number().int().min(0),
  /** Total marks. */
  t: histogram,
  /** Marks per section, by section name (none for a set without sections). */
  s: z.record(z.string(), histogram),
  /** When it was built, server clock (ms). */
  at: z.number().int(),
  _deleted: z.boolean(),
});
export type ScoreDistDoc = z.infer<typeof scoreDistDocSchema>;
