import { z } from 'zod';
import { idSchema } from './common';
import type { ExamResultDoc } from './sync/exam-result';
import { userAnswerSchema } from './sync/test-summary';

/** Most answers one submission may carry (a set holds at most 1000 questions per part). */
export const MAX_ANSWERS = 5000;

/**
 * POST /api/question/submitUserResponse {qsid, ures} (docs/exams.md; the names in docs/glossary.md): `ures` maps a
 * question id to the user's answer (an option key for mcq1, option keys for mcq2, text for f
 * and s; null or empty when unanswered).
 */
export const submissionSchema = z.strictObject({
  qsid: idSchema,
  ures: z
    .record(z.string().min(1).max(64), userAnswerSchema)
    .refine((m) => Object.keys(m).length <= MAX_ANSWERS, { error: 'Too many answers' }),
});
export type Submission = z.infer<typeof submissionSchema>;

/** GET /api/question/getExamResult?qsid and GET /api/question/getRank?qsid */
export const resultQuerySchema = z.strictObject({ qsid: idSchema });

/** GET /api/generic/getParticipantsCount?quesSetId → `{ success, p }` (docs/exams.md). */
export const participantsQuerySchema = z.strictObject({ quesSetId: idSchema });

/**
 * PATCH /api/question/evaluate {resultId, qid, mg}: an editor awards marks to an answered
 * subjective question, 0 ≤ mg ≤ the marks per question of its part.
 */
export const evaluateSchema = z.strictObject({
  resultId: z.string().min(1).max(64),
  qid: idSchema,
  mg: z.number({ error: 'Marks must be a number' }).finite(),
});

/**
 * The answer of getExamResult and submitUserResponse (docs/exams.md "Answers and marking"): the stored result
 * (the `exam_result` document's fields) with the set as `qs`; `msg` on submission;
 * `overLimit`: the attempt was counted past the learner's plan allowance (docs/payments.md "Without a plan"); it is
 * stored and scored all the same.
 */
export type ExamResultResponse = { success: true; msg?: string; qs: unknown; overLimit?: boolean } & Omit<ExamResultDoc, '_deleted'>;

/** GET /api/question/getRank?qsid → rank among the learners of the set, each by their first result (practice results never rank). */
export type RankResponse = { success: true; rank: number; of: number; percentile: number };

/** GET /api/question/getPendingEvaluations?qsid&l&o: results with answers awaiting an editor, oldest first. */
export const pendingQuerySchema = z.strictObject({
  qsid: idSchema.optional(),
  l: z.coerce.number().int().min(1).max(200).default(50),
  o: z.coerce.number().int().min(0).default(0),
});
