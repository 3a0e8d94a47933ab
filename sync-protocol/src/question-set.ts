import { z } from 'zod';
import { idSchema } from './common';

const marks = z.number().min(0).max(100_000);
const negative = z.number({ error: 'Negative marking should be a positive number' }).min(0, {
  error: 'Negative marking should be a positive number',
});

/** A part of a set that holds questions: the main part, a section or a sub-section. */
export const subSectionSchema = z.strictObject({
  q: z.array(idSchema).max(1000).default([]),
  mpq: marks,
  tm: marks,
  nm: negative.default(0),
  o: z.number().int().min(0).default(0),
});

/**
 * A named section (spec §3). A section with sub-sections (`ss`) carries no marks of its own
 * (spec §4): its questions live in `sub`, keyed by sub-section name.
 */
export const sectionSchema = z.strictObject({
  ss: z.boolean().default(false),
  q: z.array(idSchema).max(1000).default([]),
  mpq: marks.default(0),
  tm: marks.default(0),
  nm: negative.default(0),
  o: z.number().int().min(0).default(0),
  sub: z.record(z.string().trim().min(1).max(80), subSectionSchema).optional(),
});

/** Names a section may not take (spec §5 Section name). */
export const RESERVED_SECTION_NAMES = ['q', 'mpq', 'tm', 'nm', 'none'];

export const sectionNameSchema = z
  .string()
  .trim()
  .min(1, { error: 'Invalid section name' })
  .max(80)
  .refine((n) => !RESERVED_SECTION_NAMES.includes(n.toLowerCase()), { error: 'Invalid section name' })
  .refine((n) => n.toLowerCase() !== 'main', {
    error:
      'Section with this name cannot be created. Add question without section. It is automatically added to main section.',
  });

export const questionSetBase = z.strictObject({
  l: z
    .string({ error: 'Question set cannot be saved without label' })
    .trim()
    .min(1, { error: 'Question set cannot be saved without label' })
    .max(200),
  mpq: marks.default(1),
  tm: marks.default(0),
  nm: negative.default(0),
  /** Duration in minutes; missing or 0 means 5400 seconds (spec §5 Test). */
  dur: z.number().int().min(0).max(24 * 60).default(0),
  isM: z.boolean().default(false),
  inst: z.string().max(50_000).default(''),
  q: z.array(idSchema).max(1000).default([]),
  sections: z.record(sectionNameSchema, sectionSchema).default({}),
  /** Publish time in minutes since the Unix epoch. */
  pts: z.number().int().min(0),
});

function checkSet(v: z.infer<typeof questionSetBase>, ctx: z.RefinementCtx) {
  if (v.q.length === 0 && Object.keys(v.sections).length === 0) {
    ctx.addIssue({ code: 'custom', message: 'Question set cannot be saved without any section', path: ['sections'] });
  }
  for (const [name, s] of Object.entries(v.sections)) {
    if (s.ss && (!s.sub || Object.keys(s.sub).length === 0 || s.q.length > 0)) {
      ctx.addIssue({ code: 'custom', message: `Section ${name} with sub-sections must keep its questions in them`, path: ['sections', name] });
    }
    if (!s.ss && s.sub) {
      ctx.addIssue({ code: 'custom', message: `Section ${name} has sub-sections but ss is false`, path: ['sections', name] });
    }
  }
}

export const questionSetInputSchema = questionSetBase.superRefine(checkSet);
export const questionSetSchema = questionSetBase.extend({ id: idSchema }).superRefine(checkSet);
export type QuestionSet = z.infer<typeof questionSetSchema>;

/** Default exam time when a set has no duration (spec §9). */
export const DEFAULT_EXAM_SECONDS = 5400;
