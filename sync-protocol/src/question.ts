import { z } from 'zod';
import { idSchema } from './common';
import { tidSchema } from './tag';

/** Question types (spec §9): single choice, multiple choice, fill in the blank, subjective. */
export const QUESTION_TYPES = ['mcq1', 'mcq2', 'f', 's'] as const;
export const questionTypeSchema = z.enum(QUESTION_TYPES);
export type QuestionType = z.infer<typeof questionTypeSchema>;

/** Difficulty '1' very easy … '5' very difficult, default '3'. */
export const difficultySchema = z.enum(['1', '2', '3', '4', '5']);
export const QUESTION_STATUSES = ['PENDING', 'APPROVED', 'REJECTED'] as const;

export const QUESTION_MSG = {
  correctAnswerMissing: 'Correct answer is missing.',
  optionBlank: 'Option cannot be blank',
  questionBlank: 'Question cannot be blank',
  notEnglish: 'Selected language should not be english',
} as const;

const richText = z.string().max(20_000);
const optionKey = z.string().regex(/^[a-z0-9]{1,8}$/);

export const questionTransSchema = z.strictObject({
  q: richText,
  ops: z.record(optionKey, richText),
  ca: z.array(z.string().max(500)).max(20),
});

/**
 * A question (spec §3). `c`, `s`, `t`, `e` hold tag ids (tid) of the groups c, s, t, e.
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
  st: z.enum(QUESTION_STATUSES).default('PENDING'),
  trans: z.record(z.string().regex(/^[a-z]{2}$/), questionTransSchema).default({}),
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


/** Rules every saved question keeps (spec §5 Question save). */
function checkQuestion(v: z.infer<typeof questionBase>, ctx: z.RefinementCtx) {
  if (isBlankHtml(v.q)) {
    ctx.addIssue({ code: 'custom', message: QUESTION_MSG.questionBlank, path: ['q'] });
    return;
  }
  if (v.ca.length === 0 || v.ca.some((a) => a.trim() === '')) {
    ctx.addIssue({ code: 'custom', message: 'Correct answer is missing.', path: ['ca'] });
    return;
  }
  // The base text is English (spec §4 Question editor); translations are other languages.
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

/** PATCH /api/question: the whole question with its id. */
export const questionUpdateSchema = questionSchema;

/** A comma-separated query parameter; empty (`s=`) means "no filter" (spec §7 sends them empty). */
function commaList<S extends z.ZodType<unknown, string>>(item: S, max: number) {
  return z
    .string()
    .transform((v) => v.split(',').map((x) => x.trim()).filter(Boolean))
    .pipe(z.array(item).max(max))
    .optional();
}

/** Filters of the question list and its count (spec §7); a comma list means "any of". */
const questionFilters = {
  s: commaList(tidSchema, 50),
  c: commaList(tidSchema, 50),
  t: commaList(tidSchema, 50),
  e: commaList(tidSchema, 50),
  qt: commaList(questionTypeSchema, 4),
  d: commaList(difficultySchema, 5),
  st: commaList(z.enum(QUESTION_STATUSES), 3),
};

/**
 * GET /api/question?l&o&qids&s&c&t&e&qt&d. §9: the question list pages by 25; a test fetches
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
