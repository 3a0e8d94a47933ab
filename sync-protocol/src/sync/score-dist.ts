import { z } from 'zod';
import { MAX_BINS } from '../score-dist';

/** A histogram as two lists: what the server keeps, and what a device of protocol 1.0 pulls. */
const histogram = z.strictObject({
  /** Distinct marks, ascending. */
  m: z.array(z.number()).max(MAX_BINS),
  /** Learners with each of them. */
  c: z.array(z.number().int().min(1)).max(MAX_BINS),
});

/**
 * Most characters of one encoded histogram: a bound for the schema, far above any real one
 * (a few hundred characters for 10,000 learners; an outlier costs a bin at most ~40).
 */
export const MAX_HISTOGRAM_CHARS = MAX_BINS * 40;

/** A histogram as it replicates: one base64url string, exact (score-dist-code.ts encodeHistogram). */
const histogramCode = z
  .string()
  .max(MAX_HISTOGRAM_CHARS)
  .regex(/^[A-Za-z0-9_-]*$/);

/**
 * Store `score_dist` (pull only; docs/live-tests.md "Provisional rank on the device"): a set's
 * score distribution over its ranked results, once it has MIN_RANKED of them; `id` is the set's.
 * A device ranks its own score in it until the server's rank arrives. Its histograms go in their
 * compact exact form ("The compact form"); RxDB schema version 1.
 */
export const scoreDistDocSchema = z.strictObject({
  id: z.string().max(64),
  /** Learners counted. */
  n: z.number().int().min(0),
  /** Total marks. */
  t: histogramCode,
  /** Marks per section, by section name (none for a set without sections). */
  s: z.record(z.string(), histogramCode),
  /** When it was built, server clock (ms). */
  at: z.number().int(),
  _deleted: z.boolean(),
});
export type ScoreDistDoc = z.infer<typeof scoreDistDocSchema>;

/**
 * The same document with each histogram as two lists, as a device whose app speaks protocol
 * 1.0 pulls it and holds it (its RxDB schema version 0; docs/live-tests.md "Older apps").
 */
export const scoreDistListsDocSchema = scoreDistDocSchema.extend({ t: histogram, s: z.record(z.string(), histogram) });
export type ScoreDistListsDoc = z.infer<typeof scoreDistListsDocSchema>;

/** The protocol minor version from which a device pulls the compact form (version.ts PROTOCOL_VERSION). */
export const COMPACT_DIST_SINCE_MINOR = 1;

/** Whether a device that sent this protocol version (X-Sync-Protocol) reads the compact form; an older app gets the lists it knows. */
export function readsCompactDist(protocol: string | undefined): boolean {
  const minor = Number(protocol?.split('.')[1]);
  return Number.isInteger(minor) && minor >= COMPACT_DIST_SINCE_MINOR;
}
