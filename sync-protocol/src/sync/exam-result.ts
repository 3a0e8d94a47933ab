import { z } from 'zod';
import { QUESTION_TYPES } from '../question';
import { userAnswerSchema } from './test-summary';

/** A translation of a question with its accepted answers. */
const resultTransSchema = z.strictObject({
  q: z.string(),
  ops: z.record(z.string(), z.string()),
  ca: z.array(z.string()),
  /** The explanation in this language, when written. */
  expl: z.string().optional(),
});

/**
 * A question as a result shows it: the shape of `qs_detail`'s test questions, always with the
 * correct answers (`ca`: option keys for mcq1/mcq2, accepted texts for f, a model answer for s),
 * in every language. Shown only after that learner has submitted (ARCHITECTURE decision 4).
 */
export const resultQuestionSchema = z.strictObject({
  id: z.string(),
  q: z.string(),
  ops: z.record(z.string(), z.string()),
  qt: z.enum(QUESTION_TYPES),
  d: z.string(),
  ca: z.array(z.string()),
  /**
   * The explanation (worked solution), when the question has one: like `ca`, it reaches a
   * mock test's learner only here, after their submission (docs/exams.md "Explanations").
   */
  expl: z.string().optional(),
  trans: z.record(z.string(), resultTransSchema),
});
export type ResultQuestion = z.infer<typeof resultQuestionSchema>;

/** Per part, per question: the answer taken for evaluation and the marks gained. */
export const userResSchema = z.record(
  z.string(),
  z.record(z.string(), z.strictObject({ ua: userAnswerSchema, mg: z.number().nullable() })),
);
export type UserRes = z.infer<typeof userResSchema>;

/**
 * Store `exam_result` (pull only): a scored attempt (docs/exams.md "Answers and marking"). Scoring happens on
 * the server (ARCHITECTURE decision 4); the result carries the correct answers. The marking
 * rules are in docs/exams.md ("Answers and marking").
 *
 * Parts: the main part is `wos`; every other key is a section name. A section with sub-sections
 * is one part here (its sub-sections summed), because learners see it as one section.
 */
export const examResultDocSchema = z.strictObject({
  id: z.string().max(64),
  qsid: z.string().max(64),
  attemptId: z.string().max(64),
  /** Marks obtained per part; the main part under `wos`. */
  marks: z.record(z.string(), z.number()),
  /** Most marks per part (its questions × its marks per question); same keys as `marks`. */
  outOf: z.record(z.string(), z.number()),
  /**
   * Per part, per question of the set: the answer taken for evaluation (null when unanswered or
   * not evaluated, e.g. marked for review without an answer) and the marks gained: negative for
   * a wrong answer under negative marking, 0 when unanswered, null while a subjective answer
   * awaits an editor's evaluation.
   */
  userRes: userResSchema,
  /** Marks obtained, all parts together (answers awaiting evaluation count 0 until evaluated). */
  totalMarks: z.number(),
  /** Most marks of the whole set. */
  total: z.number(),
  /** The set's questions in part order, with correct answers. */
  questions: z.array(resultQuestionSchema),
  /** Submitted after the duration plus the grace window; kept and scored all the same. */
  late: z.boolean(),
  /**
   * Not the learner's first submitted attempt at this set (the first the server scored): shown
   * as a practice attempt and never ranked (docs/exams.md "Answers and marking").
   */
  practice: z.boolean(),
  /** Answers awaiting an editor's evaluation. */
  pending: z.number().int().min(0),
  /**
   * Submission time (ms, device clock corrected by the server offset), bounded by the server:
   * never after the submission's arrival, never before the attempt's start or first sighting.
   */
  submittedAt: z.number().int(),
  /** Test time used (ms, device monotonic clock), when the device sent it. */
  elapsed: z.number().int().nullable(),
  /** End time, epoch seconds. */
  et: z.number().int(),
  /**
   * The receipt hash (sync-protocol/src/receipt.ts: SHA-256, 64 hex digits) the server computed
   * over the submission as it arrived, for the learner to compare with the receipt their device
   * kept (docs/exams.md "Answers and marking", "Submission receipt"). Null for results of submissions stored before receipts existed.
   */
  receipt: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .nullable(),
  _deleted: z.boolean(),
});
export type ExamResultDoc = z.infer<typeof examResultDocSchema>;
