import { z } from 'zod';
import { idSchema } from './common';
import { parseNumericSpec } from './marking';
import { MSG } from './messages';
import { tidSchema } from './tag';

/**
 * Question types (docs/glossary.md "Questions"): single choice, multiple choice, fill in the blank, subjective; and
 * ours, `n` numerical (JEE's numerical-answer questions: a number, exact, within a tolerance or
 * in a range; docs/exams.md "Numerical questions").
 */
export const QUESTION_TYPES = ['mcq1', 'mcq2', 'f', 's', 'n'] as const;
export const questionTypeSchema = z.enum(QUESTION_TYPES);
export type QuestionType = z.infer<typeof questionTypeSchema>;

/** Difficulty '1' very easy … '5' very difficult, default '3'. */
export const difficultySchema = z.enum(['1', '2', '3', '4', '5']);
/**
 * Review states (docs/authoring.md): a new question is PENDING; a reviewer marks it REVIEWED, then
 * APPROVED, or REJECTED with a reason. Only APPROVED questions go into a published set.
 */
export const QUESTION_STATUSES = ['PENDING', 'REVIEWED', 'APPROVED', 'REJECTED'] as const;
export const questionStatusSchema = z.enum(QUESTION_STATUSES);
export type QuestionStatus = z.infer<typeof questionStatusSchema>;

/**
 * Which status may follow which (the same status is always allowed: a save that leaves it).
 * APPROVED only after REVIEWED; anything may go back to PENDING or be REJECTED; a REJECTED
 * question goes back to PENDING before it is reviewed again. A new question starts as if it were
 * PENDING.
 */
export const STATUS_NEXT: Record<QuestionStatus, readonly QuestionStatus[]> = {
  PENDING: ['PENDING', 'REVIEWED', 'REJECTED'],
  REVIEWED: ['REVIEWED', 'PENDING', 'APPROVED', 'REJECTED'],
  APPROVED: ['APPROVED', 'PENDING', 'REJECTED'],
  REJECTED: ['REJECTED', 'PENDING'],
};
export function canMoveStatus(from: QuestionStatus, to: QuestionStatus): boolean {
  return STATUS_NEXT[from].includes(to);
}

/** Size limit of a rejection reason. */
export const REASON_MAX = 500;

export const QUESTION_MSG = {
  correctAnswerMissing: 'Correct answer is missing.',
  optionBlank: 'Option cannot be blank',
  questionBlank: 'Question cannot be blank',
  notEnglish: 'Selected language should not be english',
  numericAnswer: MSG.numericAnswerInvalid,
} as const;

const richText = z.string().max(20_000);
const optionKey = z.string().regex(/^[a-z0-9]{1,8}$/);

export const questionTransSchema = z.strictObject({
  q: richText,
  ops: z.record(optionKey, richText),
  ca: z.array(z.string().max(500)).max(20),
  /** The explanation (worked solution) in this language; missing or blank shows the English one. */
  expl: richText.optional(),
  /**
   * Set by the server (docs/configuration.md "Machine translation"): the fingerprint (translate.ts englishSourceHash) of the
   * English this translation was made from or last reviewed against; when the English differs,
   * the translation is stale.
   */
  src: z.string().max(32).optional(),
  /** Set by the server: a machine translation (generateInDiffLang) no editor has saved yet. */
  mt: z.boolean().optional(),
  /**
   * Sent by the editor, never stored: the editor saved this translation having it on screen, so
   * it is reviewed against the English as saved now (no longer stale, no longer a draft).
   */
  reviewed: z.literal(true).optional(),
});

/**
 * A question (docs/glossary.md "Questions"). `c`, `s`, `t`, `e` hold tag ids (tid) of the groups c, s, t, e.
 * `ca` holds option keys for mcq1/mcq2, accepted texts for f and a model answer for s.
 */
const questionBase = z.strictObject({
  q: richText.min(1, { error: QUESTION_MSG.questionBlank }),
  ops: z.record(optionKey, richText).default({}),
  c: z.array(tidSchema).max(20).default([]),
  d: difficultySchema.default('3'),
  ca: z.array(z.string().max(500)).max(20),
  qt: questionTypeSchema.default('mcq1'),
  s: tidSchema.nullable().optional(),
  t: z.array(tidSchema).max(20).default([]),
  e: z.array(tidSchema).max(20).default([]),
  st: questionStatusSchema.default('PENDING'),
  trans: z.record(z.string().regex(/^[a-z]{2}$/), questionTransSchema).default({}),
  /** Why the question was rejected: required with st REJECTED, dropped with any other status. */
  reason: z.string().trim().max(REASON_MAX).nullable().optional(),
  /**
   * The explanation (worked solution) shown with the correct answer after the question is
   * answered: rich text, sanitised as `q`; '' for none. It travels with the correct answers and
   * never without them (docs/exams.md "Explanations").
   */
  expl: richText.default(''),
});

/**
 * Whether rich text shows nothing: no text once tags and non-breaking spaces are gone, and no
 * image (an option may be a picture alone).
 */
export function isBlankHtml(html: string): boolean {
  if (/<img\b/i.test(html)) return false;
  return (
    html
      .replace(/<[^>]*>/g, '')
      .replace(/&nbsp;|&#160;|\u00a0/gi, ' ')
      .trim() === ''
  );
}


/** Rules every saved question keeps (docs/exams.md "Rules of a save"). */
function checkQuestion(v: z.infer<typeof questionBase>, ctx: z.RefinementCtx) {
  if (isBlankHtml(v.q)) {
    ctx.addIssue({ code: 'custom', message: QUESTION_MSG.questionBlank, path: ['q'] });
    return;
  }
  if (v.ca.length === 0 || v.ca.some((a) => a.trim() === '')) {
    ctx.addIssue({ code: 'custom', message: 'Correct answer is missing.', path: ['ca'] });
    return;
  }
  // The base text is English (docs/exams.md "Rules of a save"); translations are other languages.
  if (Object.hasOwn(v.trans, 'en')) {
    ctx.addIssue({ code: 'custom', message: QUESTION_MSG.notEnglish, path: ['trans', 'en'] });
    return;
  }
  const keys = Object.keys(v.ops);
  if (v.qt === 'mcq1' || v.qt === 'mcq2') {
    if (keys.length < 2 || Object.values(v.ops).some(isBlankHtml)) {
      ctx.addIssue({ code: 'custom', message: 'Option cannot be blank', path: ['ops'] });
    }
    if (v.ca.some((k) => !keys.includes(k)) || (v.qt === 'mcq1' && v.ca.length !== 1)) {
      ctx.addIssue({ code: 'custom', message: 'Correct answer is missing.', path: ['ca'] });
    }
  } else if (keys.length > 0) {
    ctx.addIssue({ code: 'custom', message: 'Only multiple-choice questions have options', path: ['ops'] });
  }
  if (v.qt === 'n') {
    const bad = v.ca.findIndex((a) => parseNumericSpec(a) === null);
    if (bad >= 0) {
      ctx.addIssue({ code: 'custom', message: QUESTION_MSG.numericAnswer, path: ['ca', bad] });
      return;
    }
  }
  if (v.st === 'REJECTED' && !v.reason) {
    ctx.addIssue({ code: 'custom', message: MSG.rejectReasonRequired, path: ['reason'] });
    return;
  }
  for (const [lang, tr] of Object.entries(v.trans)) {
    const tk = Object.keys(tr.ops);
    if (tk.length !== keys.length || tk.some((k) => !keys.includes(k))) {
      ctx.addIssue({ code: 'custom', message: `Translation ${lang} must have the same options`, path: ['trans', lang] });
    }
    if ((v.qt === 'mcq1' || v.qt === 'mcq2') && tr.ca.some((k) => !keys.includes(k))) {
      ctx.addIssue({ code: 'custom', message: 'Correct answer is missing.', path: ['trans', lang, 'ca'] });
    }
  }
}

export const questionInputSchema = questionBase.superRefine(checkQuestion);
export type QuestionInput = z.input<typeof questionInputSchema>;

/** A question as stored and served. */
export const questionSchema = questionBase.extend({ id: idSchema }).superRefine(checkQuestion);
export type Question = z.infer<typeof questionSchema>;

/**
 * PATCH /api/question: the whole question with its id and `version`, the version the editor's
 * changes were made from (the `version` of the question as it was loaded). Required: a save
 * without it could not tell that another editor saved in between, and would overwrite their
 * change silently. A version that is no longer the current one is answered 409 with the current
 * question (docs/authoring.md, "Two editors at once").
 */
export const questionUpdateSchema = questionBase
  .extend({
    id: idSchema,
    version: z
      .number({ error: MSG.questionVersionRequired })
      .int({ error: MSG.questionVersionRequired })
      .min(1, { error: MSG.questionVersionRequired }),
  })
  .superRefine(checkQuestion);
export type QuestionUpdate = z.input<typeof questionUpdateSchema>;

/** A comma-separated query parameter; empty (`s=`) means "no filter" (docs/exams.md: the spec's client sends them empty). */
function commaList<S extends z.ZodType<unknown, string>>(item: S, max: number) {
  return z
    .string()
    .transform((v) => v.split(',').map((x) => x.trim()).filter(Boolean))
    .pipe(z.array(item).max(max))
    .optional();
}

/** Filters of the question list and its count (docs/exams.md); a comma list means "any of". */
const questionFilters = {
  s: commaList(tidSchema, 50),
  c: commaList(tidSchema, 50),
  t: commaList(tidSchema, 50),
  e: commaList(tidSchema, 50),
  qt: commaList(questionTypeSchema, QUESTION_TYPES.length),
  d: commaList(difficultySchema, 5),
  st: commaList(questionStatusSchema, 4),
  /**
   * Text search over the question, its options and answers in every language, markup ignored:
   * every word given must occur (three characters or more match anywhere in a word, through a
   * trigram index; shorter words match as substrings too).
   */
  search: z.string().trim().max(200).optional(),
  /**
   * docs/configuration.md "Machine translation": questions whose translation into a language is `missing`, `stale` (the English
   * changed since) or a machine `draft`, as `missing:hi`; empty is no filter.
   */
  tr: z
    .string()
    .regex(/^((missing|stale|draft):[a-z]{2})?$/, { error: 'Invalid translation filter' })
    .optional(),
};

/**
 * GET /api/question?l&o&qids&s&c&t&e&qt&d (docs/glossary.md "Fixed values"): the question list pages by 25; a test fetches
 * up to 1000 (`l=1000&o=0&qids=…`, answered in the order of `qids`). Without `l`, a page is 25
 * questions, or all the `qids` asked for.
 */
export const QUESTION_PAGE_SIZE = 25;
export const questionListQuerySchema = z.strictObject({
  l: z.coerce.number().int().min(1).max(1000).optional(),
  o: z.coerce.number().int().min(0).default(0),
  qids: commaList(idSchema, 1000),
  ...questionFilters,
});
export type QuestionListQuery = z.output<typeof questionListQuerySchema>;

/** GET /api/question/getQuestionsCount with the list's filters → `{ success, count }`. */
export const questionCountQuerySchema = z.strictObject({ qids: commaList(idSchema, 1000), ...questionFilters });

/** PATCH /api/question/updateStatus {id, st, reason}: a review step (STATUS_NEXT). */
export const questionStatusUpdateSchema = z
  .strictObject({ id: idSchema, st: questionStatusSchema, reason: z.string().trim().max(REASON_MAX).nullable().optional() })
  .refine((v) => v.st !== 'REJECTED' || Boolean(v.reason), { message: MSG.rejectReasonRequired, path: ['reason'] });

/** POST /api/question/restoreQuestionVersion {id, version}: the content of that version becomes a new version. */
export const questionRestoreSchema = z.strictObject({ id: idSchema, version: z.number().int().min(1) });

/** What a version holds: the question's fields as saved (no id, no times). */
export type QuestionVersionData = Omit<Question, 'id'>;

/**
 * GET /api/question/getQuestionHistory/{id} → `{ success, data: QuestionVersionEntry[] }`, newest
 * first. `action` is CREATE, UPDATE, STATUS or RESTORE (RESTORE names the version restored in
 * `restoredFrom`).
 */
export type QuestionVersionEntry = {
  version: number;
  action: 'CREATE' | 'UPDATE' | 'STATUS' | 'RESTORE';
  actor: { id: string | null; name: string | null };
  createdAt: number;
  restoredFrom?: number;
  data: QuestionVersionData;
};

/**
 * A question as the editor API answers it (GET /question/{id}, the list, POST/PATCH responses):
 * the stored fields plus `version`, times and who wrote it. `sets` (the editor's list only: the
 * single question is sent back whole as a PATCH body) names the live sets that hold it, with
 * whether each is published (learners see it) or a draft.
 */
export type QuestionView = Question & {
  version: number;
  createdAt: number;
  updatedAt: number;
  createdBy: string | null;
  updatedBy: string | null;
  sets?: { id: string; l: string; published: boolean; draft: boolean }[];
};
