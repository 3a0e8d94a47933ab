import { z } from 'zod';
import { type AnyCollectionName, type CollectionName, type EditorCollectionName, isEditorCollection } from './envelopes';
import { SCHEMA_VERSIONS } from './rxdb-migrations';
import { edQuestionDocSchema } from './ed-question';
import { edQuestionSetDocSchema } from './ed-question-set';
import { entitlementDocSchema } from './entitlement';
import { examResultDocSchema } from './exam-result';
import { liveKeyDocSchema } from './live-key';
import { qsDetailDocSchema } from './qs-detail';
import { questionSetDocSchema } from './question-set';
import { scoreDistDocSchema } from './score-dist';
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
  live_key: liveKeyDocSchema,
  score_dist: scoreDistDocSchema,
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
