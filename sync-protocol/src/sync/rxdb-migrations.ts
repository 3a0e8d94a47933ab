import { encodeHistogram } from '../score-dist-code';
import type { AnyCollectionName } from './envelopes';

/*
 * Kept apart from rxdb-schemas.ts, which builds every zod document schema as it loads: a device
 * opening its replica needs only these (its RxDB schemas are written ahead, rxdb-schemas.json),
 * and building the schemas cost the exam list a long task on a phone (docs/benchmarks.md "bench:lighthouse").
 */

/**
 * Each collection's RxDB schema version; a device's older documents go through
 * `MIGRATIONS` when its database opens.
 * - question_set 1, qs_detail 1: `v`, the version of the set's questions.
 * - question_set 2: `free`, a set that uses no plan allowance (docs/payments.md "Without a plan").
 * - question_set 3: `tags`, its questions' subjects, exams and classes (docs/exams.md "Search").
 * - question_set 4: `trans` (title and instructions in other languages) and optional part
 *   `names`; its `tm` fields are the parts' questions × marks (docs/exams.md).
 * - ed_question_set 1: `trans` and optional part `names`, as the editor API's set.
 * - exam_result 1: `practice`, a result that is not the learner's first at its set (docs/exams.md "Answers and marking").
 * - exam_result 2: `receipt`, the server's receipt hash of the submission (docs/exams.md "Answers and marking", "Submission receipt").
 * - qs_detail 2, exam_result 3: `expl`, a question's explanation (optional, in every language),
 *   and the question type `n` (numerical); docs/exams.md "Explanations", "Numerical questions".
 * - ed_question 1: `expl`, and the type `n`.
 * - qs_detail 3: `live`, a live test's times and sealed paper (optional; docs/live-tests.md "The key schedule").
 * - live_key 0: the key of each live test the learner registered for (docs/live-tests.md).
 * - score_dist 1: each histogram one compact string instead of two lists (docs/live-tests.md
 *   "The compact form", "Older apps").
 */
export const SCHEMA_VERSIONS: Record<AnyCollectionName, number> = { tag: 0, question_set: 4, qs_detail: 3, test_summary: 0, exam_result: 3, entitlement: 0, live_key: 0, score_dist: 1, ed_question: 1, ed_question_set: 1 };

type Migration = (doc: Record<string, unknown>) => Record<string, unknown>;
type Lists = { m: number[]; c: number[] };

/**
 * A distribution held in the form of protocol 1.0 (two lists per histogram), re-encoded on the
 * device: the encoding is exact, so the rank it gives is the one it gave (docs/live-tests.md
 * "Older apps"). The device keeps its checkpoint; the next distribution of the set comes compact.
 */
function compactDistribution(doc: Record<string, unknown>): Record<string, unknown> {
  // RxDB runs this over the replication's record of the pulled documents too (its assumed
  // master states), so that a migrated document still counts as the server's and the next pull replaces it.
  const compact = (h: Lists | string) => (typeof h === 'string' ? h : encodeHistogram(h));
  const sections = Object.entries((doc.s ?? {}) as Record<string, Lists | string>).map(([name, h]) => [name, compact(h)]);
  return { ...doc, t: compact(doc.t as Lists | string), s: Object.fromEntries(sections) };
}
/**
 * RxDB migration strategies per collection, keyed by the version they migrate to. Documents
 * stored before `v` existed get 0 on both sides: the device cannot know more until the server
 * sends the set again. Results stored before `practice` existed get false until the server sends
 * them again (it re-sends every practice result once: results.service's replicatePracticeFlags).
 * Results stored before `receipt` existed get null: the server has no receipt for them either
 * (it computes one only as a submission arrives). Sets and results stored before explanations
 * keep their documents as they are (`expl` is optional there; the server sends them again when
 * a question changes); an editor's bank copy gets '' (no explanation) until the next pull.
 */
export const MIGRATIONS: Record<AnyCollectionName, Record<number, Migration>> = {
  tag: {},
  question_set: { 1: (doc) => ({ ...doc, v: 0 }), 2: (doc) => ({ ...doc, free: false }), 3: (doc) => ({ ...doc, tags: { s: [], e: [], c: [] } }),
    // English only until the server sends the set again (set-text.ts falls back to it).
    4: (doc) => ({ ...doc, trans: {} }),
  },
  // A set held before live tests is no live test: `live` is optional, the document stays as it is.
  qs_detail: { 1: (doc) => ({ ...doc, v: 0 }), 2: (doc) => doc, 3: (doc) => doc },
  test_summary: {},
  exam_result: { 1: (doc) => ({ ...doc, practice: false }), 2: (doc) => ({ ...doc, receipt: null }), 3: (doc) => doc },
  entitlement: {},
  live_key: {},
  score_dist: { 1: compactDistribution },
  ed_question: { 1: (doc) => ({ ...doc, expl: '' }) },
  ed_question_set: { 1: (doc) => ({ ...doc, trans: {} }) },
};
