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
  q: richText.min(1),
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

/** Rules every saved question keeps (spec §5 Question save). */
function checkQuestion(v: z.infer<typeof questionBase>, ctx: z.RefinementCtx) {
  if (v.ca.length === 0 || v.ca.some((a) => a.trim() === '')) {
    ctx.addIssue({ code: 'custom', message: 'Correct answer is missing.', path: ['ca'] });
    return;
  }
  const keys = Object.keys(v.ops);
  if (v.qt === 'mcq1' || v.qt === 'mcq2') {
    if (keys.length < 2 || Object.values(v.ops).some((o) => o.replace(/<[^>]*>/g, '').trim() === '')) {
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
  }
}

export const questionInputSchema = questionBase.superRefine(checkQuestion);
export type QuestionInput = z.input<typeof questionInputSchema>;

/** A question as stored and served. */
export const questionSchema = questionBase.extend({ id: idSchema }).superRefine(checkQuestion);
export type Question = z.infer<typeof questionSchema>;
