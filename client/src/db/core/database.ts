import { addRxPlugin, createRxDatabase, type RxCollection, type RxDatabase, type RxStorage } from 'rxdb';
import { RxDBLocalDocumentsPlugin } from 'rxdb/plugins/local-documents';
import { RxDBMigrationSchemaPlugin } from 'rxdb/plugins/migration-schema';
import { COLLECTIONS, type CollectionName } from '@pm/protocol/sync/envelopes';
import type { EntitlementDoc } from '@pm/protocol/sync/entitlement';
import type { LiveKeyDoc } from '@pm/protocol/sync/live-key';
import type { ExamResultDoc } from '@pm/protocol/sync/exam-result';
import type { QsDetailDoc } from '@pm/protocol/sync/qs-detail';
import type { QuestionSetDoc } from '@pm/protocol/sync/question-set';
import { RX_SCHEMAS } from '@pm/protocol/sync/rxdb-json-schemas';
import { MIGRATIONS } from '@pm/protocol/sync/rxdb-migrations';
import type { ScoreDistDoc } from '@pm/protocol/sync/score-dist';
import type { TagDoc } from '@pm/protocol/sync/tag';
import type { TestSummaryDoc } from '@pm/protocol/sync/test-summary';
import { nextTask } from '../../lib/after-paint';
import { attemptConflictHandler } from '../attempts/attempt-conflicts';

addRxPlugin(RxDBLocalDocumentsPlugin);
addRxPlugin(RxDBMigrationSchemaPlugin);

/** A stored document: the wire document without RxDB's own `_deleted` flag. */
type Stored<D> = Omit<D, '_deleted'>;

export type ReplicaCollections = {
  tag: RxCollection<Stored<TagDoc>>;
  question_set: RxCollection<Stored<QuestionSetDoc>>;
  qs_detail: RxCollection<Stored<QsDetailDoc>>;
  test_summary: RxCollection<Stored<TestSummaryDoc>>;
  exam_result: RxCollection<Stored<ExamResultDoc>>;
  entitlement: RxCollection<Stored<EntitlementDoc>>;
  live_key: RxCollection<Stored<LiveKeyDoc>>;
  score_dist: RxCollection<Stored<ScoreDistDoc>>;
};
export type ReplicaDatabase = RxDatabase<ReplicaCollections>;
export type { CollectionName };

/**
 * The database name of a person (ARCHITECTURE decision 6: one local database per person). RxDB
 * names allow only [a-z0-9_$-] and must start with a letter, so the id is hex-encoded: every id
 * maps to its own name and no two ids collide, whatever characters they use.
 */
export function databaseNameOf(personId: string): string {
  const hex = Array.from(new TextEncoder().encode(personId), (b) => b.toString(16).padStart(2, '0')).join('');
  return `pm-${hex}`;
}

/**
 * The editor replica's database name (editor-replica.ts): the person's, with its own prefix. Here,
 * not there, so that the learner's replica can erase it at logout without loading the editor's code.
 */
export const editorDatabaseNameOf = (personId: string) => databaseNameOf(personId).replace(/^pm-/, 'pm-ed-');

export type OpenOptions = {
  storage: RxStorage<unknown, unknown>;
  /** Several tabs share the database and elect one leader for replication (browser default). */
  multiInstance?: boolean;
  /** Overrides the name (tests open two "devices" of one person in one process). */
  name?: string;
  /**
   * The collections to open (all of COLLECTIONS by default, as the app opens them). Tests that run
   * two devices in one process open fewer: RxDB's open-source core allows 13 open collections in
   * one JavaScript context, and every device holds its own.
   */
  collections?: readonly CollectionName[];
};

/** Opens (or creates) a person's replica with its replicated collections (COLLECTIONS). */
export async function openReplicaDatabase(personId: string, opts: OpenOptions): Promise<ReplicaDatabase> {
  const db = await createRxDatabase<ReplicaCollections>({
    name: opts.name ?? databaseNameOf(personId),
    storage: opts.storage,
    multiInstance: opts.multiInstance ?? true,
    eventReduce: true,
    localDocuments: true,
    // A second open of the same database in this JavaScript context (React strict mode, a fast
    // logout and login) closes the first instead of failing.
    closeDuplicates: true,
  });
  // A device's documents of an older schema version are migrated as the collections open. One
  // collection per task: added together, their schemas were prepared (normalised, sorted, hashed)
  // in one task of ~70 ms on a phone at 4× CPU as the exam list opened (docs/benchmarks.md "bench:lighthouse").
  for (const name of opts.collections ?? COLLECTIONS) {
    const collection = { schema: RX_SCHEMAS[name], migrationStrategies: MIGRATIONS[name], ...(name === 'test_summary' && { conflictHandler: attemptConflictHandler }) };
    await db.addCollections({ [name]: collection } as Parameters<ReplicaDatabase['addCollections']>[0]);
    await nextTask();
  }
  return db;
}
