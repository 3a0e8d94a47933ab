import { z } from 'zod';
import { idSchema } from './common';
import { partMarks } from './set-text';

const marks = z.number().min(0).max(100_000);

/** The question-set language list is Hindi and Marathi, English always there (docs/glossary.md "Languages"). */
export const SET_LANGUAGES = ['hi', 'mr'] as const;
const negative = z.number({ error: 'Negative marking should be a positive number' }).min(0, {
  error: 'Negative marking should be a positive number',
});

/**
 * A section's (or sub-section's) name in the set's other languages (docs/authoring.md "Set texts
 * in two languages"): the English name is the section's key; a blank translation is dropped.
 */
export const partNamesSchema = z
  .partialRecord(z.enum(SET_LANGUAGES), z.string().trim().max(80))
  .transform((m) => Object.fromEntries(Object.entries(m).filter(([, v]) => v !== undefined && v !== '')) as Partial<Record<(typeof SET_LANGUAGES)[number], string>>);

/**
 * A set's title and instructions in another language (English is `l` and `inst`, and required;
 * a translation is optional, and learners see English where it is missing).
 */
export const setTransSchema = z.partialRecord(
  z.enum(SET_LANGUAGES),
  z.strictObject({ l: z.string().trim().max(200).default(''), inst: z.string().max(50_000).default('') }),
);

/** A part of a set that holds questions: the main part, a section or a sub-section. */
export const subSectionSchema = z.strictObject({
  q: z.array(idSchema).max(1000).default([]),
  mpq: marks,
  tm: marks,
  nm: negative.default(0),
  o: z.number().int().min(0).default(0),
  names: partNamesSchema.optional(),
});

/** Names a section may not take (docs/exams.md "Rules of a save"). */
export const RESERVED_SECTION_NAMES = ['q', 'mpq', 'tm', 'nm', 'none'];

export const MAIN_SECTION_MSG =
  'Section with this name cannot be created. Add question without section. It is automatically added to main section.';
export const DUPLICATE_SECTION_MSG = 'Duplicate section name.';
export const INVALID_SECTION_MSG = 'Invalid section name';

export const sectionNameSchema = z
  .string()
  .trim()
  .min(1, { error: INVALID_SECTION_MSG })
  .max(80, { error: INVALID_SECTION_MSG })
  .refine((n) => !RESERVED_SECTION_NAMES.includes(n.toLowerCase()), { error: INVALID_SECTION_MSG })
  .refine((n) => n.toLowerCase() !== 'main', { error: MAIN_SECTION_MSG });

/**
 * Section (or sub-section) names of one map: each valid, and none twice once trimmed and
 * compared without case ("Reasoning" and "reasoning " are the same section to a learner).
 * JSON cannot repeat a key, so a duplicate can only come this way.
 */
function namedParts<S extends z.ZodType>(part: S) {
  return z
    .record(z.string().max(200), part)
    .superRefine((map, ctx) => {
      const seen = new Set<string>();
      for (const raw of Object.keys(map)) {
        const r = sectionNameSchema.safeParse(raw);
        if (!r.success) {
          ctx.addIssue({ code: 'custom', message: r.error.issues[0]?.message ?? INVALID_SECTION_MSG, path: [raw] });
          return;
        }
        const key = r.data.toLowerCase();
        if (seen.has(key)) {
          ctx.addIssue({ code: 'custom', message: DUPLICATE_SECTION_MSG, path: [raw] });
          return;
        }
        seen.add(key);
      }
    })
    .transform((map) => Object.fromEntries(Object.entries(map).map(([k, v]) => [k.trim(), v])) as Record<string, z.output<S>>);
}

/**
 * A named section (docs/glossary.md "Question sets"). A section with sub-sections (`ss`) carries no marks of its own
 * (docs/exams.md "Rules of a save"): its questions live in `sub`, keyed by sub-section name; marks sent for it are
 * stored as 0.
 */
export const sectionSchema = z.strictObject({
  ss: z.boolean().default(false),
  q: z.array(idSchema).max(1000).default([]),
  mpq: marks.default(0),
  tm: marks.default(0),
  nm: negative.default(0),
  o: z.number().int().min(0).default(0),
  names: partNamesSchema.optional(),
  sub: namedParts(subSectionSchema).optional(),
});

/** Default maximum of selected questions per section (docs/exams.md "Rules of a save"), when total marks do not set one. */
export const DEFAULT_MAX_QUESTIONS = 100;

/**
 * How many questions a part may hold (docs/exams.md "Rules of a save"): floor(total marks / marks per question). A part
 * whose total marks or marks per question are 0 sets no such bound, and the default maximum of
 * 100 applies. (The epsilon keeps 0.7 / 0.1 at 7, not 6.)
 */
export function allowedQuestions(tm: number, mpq: number): number {
  return tm > 0 && mpq > 0 ? Math.floor(tm / mpq + 1e-9) : DEFAULT_MAX_QUESTIONS;
}

/**
 * Total marks an editor typed that disagree with the part's questions × its marks per question
 * (docs/authoring.md "Total marks"); the part is named as the selection limit names it.
 */
export function totalMarksMessage(part: string | null, expected: number, n: number, mpq: number): string {
  return `Total marks of ${part ?? 'Main'} section should be ${expected} (questions × marks per question: ${n} × ${mpq}), or 0 to have them counted`;
}

/**
 * Whether a part's typed total disagrees with its questions: 0 means "count them" and never
 * disagrees; otherwise it must be questions × marks per question.
 */
export function totalDisagrees(tm: number, n: number, mpq: number): boolean {
  return tm !== 0 && Math.abs(tm - partMarks(n, mpq)) > 1e-6;
}

/** The selection limit's message (docs/exams.md "Rules of a save"); the main part is called Main. */
export function selectionLimitMessage(allowed: number, part: string | null): string {
  return `Only ${allowed} questions are allowed in ${part ?? 'Main'} section`;
}

export const questionSetBase = z.strictObject({
  l: z
    .string({ error: 'Question set cannot be saved without label' })
    .trim()
    .min(1, { error: 'Question set cannot be saved without label' })
    .max(200),
  mpq: marks.default(1),
  tm: marks.default(0),
  nm: negative.default(0),
  /** Duration in minutes; missing or 0 means 5400 seconds (docs/glossary.md "Fixed values"). */
  dur: z.number().int().min(0).max(24 * 60).default(0),
  isM: z.boolean().default(false),
  /** Free for everyone (docs/payments.md "Without a plan"): a learner without a plan may take it; it uses no allowance. */
  free: z.boolean().default(false),
  inst: z.string().max(50_000).default(''),
  q: z.array(idSchema).max(1000).default([]),
  sections: namedParts(sectionSchema).default({}),
  /** Publish time in minutes since the Unix epoch. */
  pts: z.number().int().min(0),
  /**
   * A draft is saved but never published (docs/authoring.md "Publishing and unpublishing"): it may hold questions that are not yet
   * approved and can be previewed by editors. Publishing (draft false) needs every question
   * APPROVED. Sets saved before drafts existed are not drafts.
   */
  draft: z.boolean().default(false),
  /** Languages besides English the set is offered in (docs/glossary.md "Languages"). */
  langs: z.array(z.enum(SET_LANGUAGES)).max(SET_LANGUAGES.length).default([]),
  /** Title and instructions in other languages (docs/authoring.md "Set texts in two languages"). */
  trans: setTransSchema.default({}),
});

type SetShape = z.infer<typeof questionSetBase>;

/** Every question id of a set, part by part (main, then sections, sub-sections inside). */
export function setQuestionIds(v: Pick<SetShape, 'q' | 'sections'>): string[] {
  const ids = [...v.q];
  for (const s of Object.values(v.sections)) {
    ids.push(...s.q);
    for (const sub of Object.values(s.sub ?? {})) ids.push(...sub.q);
  }
  return ids;
}

/** Every question id of a set, once each, in the order of setQuestionIds. */
export function distinctSetQuestionIds(v: Pick<SetShape, 'q' | 'sections'>): string[] {
  return [...new Set(setQuestionIds(v))];
}

function checkSet(v: SetShape, ctx: z.RefinementCtx) {
  if (v.q.length === 0 && Object.keys(v.sections).length === 0) {
    ctx.addIssue({ code: 'custom', message: 'Question set cannot be saved without any section', path: ['sections'] });
    return;
  }
  for (const [name, s] of Object.entries(v.sections)) {
    if (s.ss && (!s.sub || Object.keys(s.sub).length === 0 || s.q.length > 0)) {
      ctx.addIssue({ code: 'custom', message: `Section ${name} with sub-sections must keep its questions in them`, path: ['sections', name] });
      return;
    }
    if (!s.ss && s.sub) {
      ctx.addIssue({ code: 'custom', message: `Section ${name} has sub-sections but ss is false`, path: ['sections', name] });
      return;
    }
  }
  // Selection limit (docs/exams.md "Rules of a save"), part by part.
  const limit = (q: string[], tm: number, mpq: number, part: string | null, path: (string | number)[]) => {
    const allowed = allowedQuestions(tm, mpq);
    if (q.length > allowed) ctx.addIssue({ code: 'custom', message: selectionLimitMessage(allowed, part), path });
    return q.length <= allowed;
  };
  if (!limit(v.q, v.tm, v.mpq, null, ['q'])) return;
  for (const [name, s] of Object.entries(v.sections)) {
    if (!s.ss && !limit(s.q, s.tm, s.mpq, name, ['sections', name, 'q'])) return;
    for (const [subName, sub] of Object.entries(s.sub ?? {})) {
      if (!limit(sub.q, sub.tm, sub.mpq, subName, ['sections', name, 'sub', subName, 'q'])) return;
    }
  }
  // Total marks (docs/authoring.md "Total marks"): a set learners may see (not a draft) carries no
  // typed total that disagrees with its questions; a draft's total may still be a target.
  if (!v.draft) {
    const total = (q: string[], tm: number, mpq: number, part: string | null, path: (string | number)[]) => {
      if (totalDisagrees(tm, q.length, mpq)) ctx.addIssue({ code: 'custom', message: totalMarksMessage(part, partMarks(q.length, mpq), q.length, mpq), path });
      return !totalDisagrees(tm, q.length, mpq);
    };
    if (!total(v.q, v.tm, v.mpq, null, ['tm'])) return;
    for (const [name, s] of Object.entries(v.sections)) {
      if (!s.ss && !total(s.q, s.tm, s.mpq, name, ['sections', name, 'tm'])) return;
      for (const [subName, sub] of Object.entries(s.sub ?? {})) {
        if (!total(sub.q, sub.tm, sub.mpq, subName, ['sections', name, 'sub', subName, 'tm'])) return;
      }
    }
  }
  const seen = new Set<string>();
  for (const id of setQuestionIds(v)) {
    if (seen.has(id)) {
      ctx.addIssue({ code: 'custom', message: `Question ${id} is in this question set more than once`, path: ['q'] });
      return;
    }
    seen.add(id);
  }
}

/** A section with sub-sections carries no marks of its own (docs/exams.md "Rules of a save"). */
function normalise<T extends SetShape>(v: T): T {
  const sections = Object.fromEntries(
    Object.entries(v.sections).map(([name, s]) => [name, s.ss ? { ...s, mpq: 0, tm: 0, nm: 0 } : s]),
  );
  return { ...v, sections };
}

export const questionSetInputSchema = questionSetBase.superRefine(checkSet).transform(normalise);
export const questionSetSchema = questionSetBase.extend({ id: idSchema }).superRefine(checkSet).transform(normalise);
export type QuestionSet = z.infer<typeof questionSetSchema>;

/**
 * PATCH /api/question/updateQuestionSet: a set without `id` is created, one with an id updated
 * (the whole set is sent, as the editor's form holds it).
 */
export const questionSetSaveSchema = questionSetBase
  .extend({
    id: idSchema.optional(),
    /**
     * The editor's yes to "learners have taken this set": a save that changes the questions or
     * marks of a set with results is refused (409, MSG.setTakenNewVersion) unless this is true;
     * it then makes a new version and results keep the one they were scored against.
     */
    newVersion: z.boolean().optional(),
  })
  .superRefine(checkSet)
  .transform(normalise);
export type QuestionSetSave = z.input<typeof questionSetSaveSchema>;

/** PATCH /api/question/unpublishQuestionSet: the set to take away from learners. */
export const unpublishBodySchema = z.strictObject({ id: idSchema });

/** GET /api/question/getQuestionSetList?l&o (all sets when no page is asked for). */
export const questionSetListQuerySchema = z.strictObject({
  l: z.coerce.number().int().min(1).max(1000).default(1000),
  o: z.coerce.number().int().min(0).default(0),
});

/** Default exam time when a set has no duration (docs/glossary.md "Fixed values"). */
export const DEFAULT_EXAM_SECONDS = 5400;

/**
 * A set as the editor API answers it (getQuestionSet, getQuestionSetList, save): the stored
 * fields plus publication state, `version` and `taken` (how many results it has).
 */
export type QuestionSetView = QuestionSet & {
  published: boolean;
  version: number;
  taken: number;
  createdAt: number;
  updatedAt: number;
};
