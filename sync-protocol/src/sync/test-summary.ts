import { z } from 'zod';

/** How a question stands in a test (docs/exams.md "Answers and marking"; NTA adds the two "marked for review" states). */
export const QUESTION_STATES = ['VISITED', 'ANSWERED', 'MARKED', 'ANSWERED_MARKED'] as const;

/** A user answer: one option key (mcq1), option keys (mcq2), or text (f, s). */
export const userAnswerSchema = z.union([z.string().max(5000), z.array(z.string().max(16)).max(20), z.null()]);

export const ATTEMPT_STATUSES = ['IN_PROGRESS', 'SUBMITTED'] as const;

/**
 * Store `test_summary` (pull and push, owner only): one attempt at a set. The id is chosen by the
 * device; the owner is taken from the token by the server, never from the document.
 */
export const testSummaryDocSchema = z.strictObject({
  id: z.string().min(8).max(64).regex(/^[A-Za-z0-9_-]+$/),
  qsid: z.string().max(64),
  /** Device start time (ms, on corrected server time). */
  st: z.number().int().min(0),
  /** When the server first saw this attempt (ms, server clock); 0 until then. */
  sfs: z.number().int().min(0),
  /** Last selected question key. */
  lsq: z.string().max(64).nullable(),
  index: z.number().int().min(0),
  selectedSection: z.string().max(80).nullable(),
  /**
   * Per question: the answer, its state, and `t`, the time spent on it (ms of the device's
   * monotonic clock, summed over visits).
   */
  answers: z.record(
    z.string().max(64),
    z.strictObject({ ua: userAnswerSchema, status: z.enum(QUESTION_STATES), t: z.number().int().min(0).max(864_000_000).optional() }),
  ),
  status: z.enum(ATTEMPT_STATUSES),
  /** Device time of submission (ms), when submitted. */
  submittedAt: z.number().int().min(0).nullable(),
  /**
   * Test time used so far (ms), measured with the device's monotonic clock (performance.now) and
   * summed over sessions, so a changed device clock cannot stretch it. Optional on the wire for
   * attempts stored before it existed.
   */
  elapsed: z.number().int().min(0).max(864_000_000).optional(),
  /** Device time of the last change (ms). */
  updatedAt: z.number().int().min(0),
  _deleted: z.boolean(),
});
export type TestSummaryDoc = z.infer<typeof testSummaryDocSchema>;

/**
 * An attempt as it starts (docs/exams.md): on the first question, nothing answered, not yet seen
 * by the server. The one definition for the device's test, the editor's preview and the server's
 * online submission; `now` is the start time on the caller's clock (the device's corrected one).
 */
export function newAttempt(id: string, qsid: string, now: number): Omit<TestSummaryDoc, '_deleted'> {
  return {
    id,
    qsid,
    st: now,
    sfs: 0,
    lsq: null,
    index: 0,
    selectedSection: null,
    answers: {},
    status: 'IN_PROGRESS',
    submittedAt: null,
    elapsed: 0,
    updatedAt: now,
  };
}
