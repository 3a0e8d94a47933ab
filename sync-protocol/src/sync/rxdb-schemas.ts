import { z } from 'zod';
import { type AnyCollectionName, type CollectionName, type EditorCollectionName, isEditorCollection } from './envelopes';
import { edQuestionDocSchema } from './ed-question';
import { edQuestionSetDocSchema } from './ed-question-set';
import { entitlementDocSchema } from './entitlement';
import { examResultDocSchema } from './exam-result';
import { qsDetailDocSchema } from './qs-detail';
import { questionSetDocSchema } from './question-set';
import { tagDocSchema } from './tag';
import { testSummaryDocSchema } from './test-summary';

/** The zod schema of each replicated collection's documents. */
export const DOC_SCHEMAS = {
  tag: tagDocSchema,
  question_set: questionSetDocSchema,
  qs_detail: qsDetailDocSchema,
  test_summary: testSummaryDocSchema,
  exam_result: examResultDocSchema,
  entitlement: entitlementDocSchema,
} as const satisfies Record<CollectionName, z.ZodObject>;

/** The zod schema of each editor collection's documents (envelopes EDITOR_COLLECTIONS). */
export const EDITOR_DOC_SCHEMAS = {
  ed_question: edQuestionDocSchema,
  ed_question_set: edQuestionSetDocSchema,
} as const satisfies Record<EditorCollectionName, z.ZodObject>;

/** Local indexes a device queries by. */
const INDEXES: Partial<Record<AnyCollectionName, string[]>> = {
  test_summary: ['qsid'],
  exam_result: ['attemptId'],
};

/**
 * Each collection's RxDB schema version; a device's older documents go through
 * `MIGRATIONS` when its database opens.
 * - question_set 1, qs_detail 1: `v`, the version of the set's questions.
 * - question_set 2: `free`, a set that uses no plan allowance (issue 18 §4).
 * - question_set 3: `tags`, its questions' subjects, exams and classes (issue 20 §5).
 * - exam_result 1: `practice`, a result that is not the learner's first at its set (issue 16 §2).
 * - exam_result 2: `receipt`, the server's receipt hash of the submission (issue 21 §4).
 */
export const SCHEMA_VERSIONS: Record<AnyCollectionName, number> = { tag: 0, question_set: 3, qs_detail: 1, test_summary: 0, exam_result: 2, entitlement: 0, ed_question: 0, ed_question_set: 0 };

type Migration = (doc: Record<string, unknown>) => Record<string, unknown>;
/**
 * RxDB migration strategies per collection, keyed by the version they migrate to. Documents
 * stored before `v` existed get 0 on both sides: the device cannot know more until the server
 * sends the set again. Results stored before `practice` existed get false until the server sends
 * them again (it re-sends every practice result once: results.service's replicatePracticeFlags).
 * Results stored before `receipt` existed get null: the server has no receipt for them either
 * (it computes one only as a submission arrives).
 */
export const MIGRATIONS: Record<AnyCollectionName, Record<number, Migration>> = {
  tag: {},
  question_set: { 1: (doc) => ({ ...doc, v: 0 }), 2: (doc) => ({ ...doc, free: false }), 3: (doc) => ({ ...doc, tags: { s: [], e: [], c: [] } }) },
  qs_detail: { 1: (doc) => ({ ...doc, v: 0 }) },
  test_summary: {},
  exam_result: { 1: (doc) => ({ ...doc, practice: false }), 2: (doc) => ({ ...doc, receipt: null }) },
  entitlement: {},
  ed_question: {},
  ed_question_set: {},
};

/**
 * The RxDB JSON schema of a collection, derived from its zod document schema (CONVENTIONS rule
 * 3: the wire is defined once). `_deleted` is RxDB's own flag and not part of the stored schema;
 * the primary key `id` is bounded as RxDB requires. Bump its version in SCHEMA_VERSIONS (with a
 * migration in MIGRATIONS) whenever a document schema changes.
 */
export function rxSchemaOf(name: AnyCollectionName) {
  const zod = isEditorCollection(name) ? EDITOR_DOC_SCHEMAS[name] : DOC_SCHEMAS[name];
  const doc = (zod as z.ZodObject).omit({ _deleted: true });
  const json = z.toJSONSchema(doc, { io: 'output', unrepresentable: 'throw' }) as {
    properties: Record<string, Record<string, unknown>>;
    required?: string[];
  };
  const properties: Record<string, Record<string, unknown>> = { ...json.properties, id: { ...json.properties.id, type: 'string', maxLength: 64 } };
  for (const field of INDEXES[name] ?? []) {
    // RxDB needs indexed strings to be bounded too.
    properties[field] = { ...properties[field], maxLength: 64 };
  }
  return {
    title: name,
    version: SCHEMA_VERSIONS[name],
    primaryKey: 'id' as const,
    type: 'object' as const,
    properties,
    required: json.required ?? [],
    additionalProperties: false,
    ...(INDEXES[name] && { indexes: INDEXES[name] }),
  };
}
