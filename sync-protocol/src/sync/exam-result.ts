import { z } from 'zod';
import { userAnswerSchema } from './test-summary';

/**
 * Store `exam_result` (pull only): a scored attempt (spec §3 Exam result). Scoring happens on
 * the server (ARCHITECTURE decision 4); the result carries the correct answers.
 */
export const examResultDocSchema = z.strictObject({
  id: z.string().max(64),
  qsid: z.string().max(64),
  attemptId: z.string().max(64),
  /** Marks per part; the main part under `wos`. */
  marks: z.record(z.string(), z.number()),
  /** Per part, per question: the user's answer and marks gained (null while awaiting evaluation). */
  userRes: z.record(z.string(), z.record(z.string(), z.strictObject({ ua: userAnswerSchema, mg: z.number().nullable() }))),
  totalMarks: z.number(),
  /** End time, epoch seconds. */
  et: z.number().int(),
  _deleted: z.boolean(),
});
export type ExamResultDoc = z.infer<typeof examResultDocSchema>;
