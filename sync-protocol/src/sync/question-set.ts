import { z } from 'zod';

/** A part's name in other languages (language → name; English is the key). */
const names = z.record(z.string(), z.string());

const part = z.strictObject({
  /** Number of questions. */
  n: z.number().int().min(0),
  mpq: z.number(),
  /** Its questions × its marks per question (docs/exams.md "Total marks"). */
  tm: z.number(),
  nm: z.number(),
  o: z.number().int(),
  names: names.optional(),
});

const tagNames = z.array(z.string().max(200)).max(200);
export const setTagsSchema = z.strictObject({ s: tagNames, e: tagNames, c: tagNames });
export type SetTags = z.infer<typeof setTagsSchema>;
export const NO_SET_TAGS: SetTags = { s: [], e: [], c: [] };

/**
 * Store `question_set` (pull only): a set a person may see — for learners, published ones — with
 * its sections and marks but no questions (those are in `qs_detail`).
 */
export const questionSetDocSchema = z.strictObject({
  id: z.string().max(64),
  l: z.string(),
  mpq: z.number(),
  tm: z.number(),
  nm: z.number(),
  dur: z.number().int(),
  isM: z.boolean(),
  /** Free for everyone (docs/payments.md "Without a plan"): starting it uses none of a plan's allowance. */
  free: z.boolean(),
  /** Instructions (HTML, sanitised) in English. */
  inst: z.string(),
  /** Publish time, minutes since the epoch. */
  pts: z.number().int(),
  /** The main part's question count. */
  n: z.number().int().min(0),
  /** Sections with question counts; a section with sub-sections lists them under `sub`. */
  sections: z.record(
    z.string(),
    z.strictObject({
      ss: z.boolean(),
      n: z.number().int(),
      mpq: z.number(),
      tm: z.number(),
      nm: z.number(),
      o: z.number().int(),
      names: names.optional(),
      sub: z.record(z.string(), part).optional(),
    }),
  ),
  /**
   * Title and instructions in other languages (language → { l, inst }); a screen shows them
   * through set-text.ts, with English where one is missing (docs/exams.md).
   */
  trans: z.record(z.string(), z.strictObject({ l: z.string(), inst: z.string() })),
  /** Total marks of the whole set: every part's questions × marks per question. */
  total: z.number(),
  /** Total number of questions. */
  count: z.number().int(),
  updatedAt: z.number().int(),
  /**
   * Version of the set's questions: the server's detail revision, which grows whenever the set
   * or one of its questions changes. The `qs_detail` document carries the same number, so a
   * device sees when the questions it holds are older than the set it knows.
   */
  v: z.number().int().min(0),
  /**
   * The tags of the set's questions (docs/exams.md "Search": the exam list filters by tag offline), as the
   * questions name them: subjects (s), exams asked in (e) and classes (c), each sorted. Built when
   * the set is sent, so a question's change shows when the set is next saved or published. The
   * values are what the questions hold (tag ids, or names): the exam list labels them from the
   * local tag cache.
   */
  tags: setTagsSchema,
  _deleted: z.boolean(),
});
export type QuestionSetDoc = z.infer<typeof questionSetDocSchema>;
