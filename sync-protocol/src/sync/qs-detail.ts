import { z } from 'zod';
import { liveDetailSchema } from '../live-test';
import { QUESTION_TYPES } from '../question';

const transSchema = z.strictObject({
  q: z.string(),
  ops: z.record(z.string(), z.string()),
  /** Present only where correct answers may be shown (not for mock tests before submission). */
  ca: z.array(z.string()).optional(),
  /** The explanation in this language: only with the correct answers, and only when written. */
  expl: z.string().optional(),
});

/** A question as a device holds it for a test. */
export const testQuestionSchema = z.strictObject({
  id: z.string(),
  q: z.string(),
  ops: z.record(z.string(), z.string()),
  qt: z.enum(QUESTION_TYPES),
  d: z.string(),
  /** Correct answers: never for a mock test (ARCHITECTURE decision 4). */
  ca: z.array(z.string()).optional(),
  /**
   * The explanation (worked solution): exactly where `ca` is (it gives the answer away), and
   * only when the question has one (docs/exams.md "Explanations").
   */
  expl: z.string().optional(),
  trans: z.record(z.string(), transSchema),
});
export type TestQuestion = z.infer<typeof testQuestionSchema>;

const partQuestions = z.strictObject({ q: z.array(z.string()), mpq: z.number(), tm: z.number(), nm: z.number(), o: z.number().int() });

/**
 * Store `qs_detail` (pull only): everything a device needs to run one set offline — its parts in
 * order with their question ids, and the questions in every language.
 */
export const qsDetailDocSchema = z.strictObject({
  /** The set's id. */
  id: z.string().max(64),
  isM: z.boolean(),
  main: partQuestions,
  sections: z.record(
    z.string(),
    z.strictObject({ ss: z.boolean(), q: z.array(z.string()), mpq: z.number(), tm: z.number(), nm: z.number(), o: z.number().int(), sub: z.record(z.string(), partQuestions).optional() }),
  ),
  questions: z.array(testQuestionSchema),
  /**
   * A live test (docs/live-tests.md "The key schedule"): its times, and its questions sealed with
   * the test's key — `questions` is then empty until the device opens the paper.
   */
  live: liveDetailSchema.optional(),
  /** The server's detail revision these questions are from (`question_set.v` when current). */
  v: z.number().int().min(0),
  _deleted: z.boolean(),
});
export type QsDetailDoc = z.infer<typeof qsDetailDocSchema>;
