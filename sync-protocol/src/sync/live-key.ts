import { z } from 'zod';
import { liveKeySchema } from '../live-test';

/**
 * Store `live_key` (pull only, owner only; docs/live-tests.md "The key schedule"): one document
 * per live test the learner registered for, id = the set's id. `key` is null until the server's
 * clock passes the start; from then on it is the test's key, which opens the paper the set's
 * `qs_detail.live` carries. The server gives the document a new revision at registration and at
 * the start (its release job), and the stream tells connected devices to pull it.
 */
export const liveKeyDocSchema = z.strictObject({
  id: z.string().min(1).max(64),
  /** The test's key (base64url), or null before the start. */
  key: liveKeySchema.nullable(),
  /** Start time, window (ms from the start) and result time, as in `qs_detail.live`. */
  start: z.number().int().min(0),
  win: z.number().int().min(0),
  res: z.number().int().min(0),
  /** Whether the learner asked for the unlock code by SMS at the start. */
  sms: z.boolean(),
  /** Server time of this document (ms). */
  updatedAt: z.number().int().min(0),
  _deleted: z.boolean(),
});
export type LiveKeyDoc = z.infer<typeof liveKeyDocSchema>;
