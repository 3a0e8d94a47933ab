import { z } from 'zod';

/** The replicated collections every signed-in person's device holds, named as the spec's local stores (docs/replication.md). */
export const COLLECTIONS = ['tag', 'question_set', 'qs_detail', 'test_summary', 'exam_result', 'entitlement', 'live_key', 'score_dist'] as const;
export type CollectionName = (typeof COLLECTIONS)[number];

/**
 * Collections only question editors replicate (docs/authoring.md "Offline authoring"): the question bank and the question
 * sets, for authoring offline. The server refuses their pull and push to anyone without the QUESTION_EDITOR
 * permission; a learner's device never opens them.
 */
export const EDITOR_COLLECTIONS = ['ed_question', 'ed_question_set'] as const;
export type EditorCollectionName = (typeof EDITOR_COLLECTIONS)[number];
export type AnyCollectionName = CollectionName | EditorCollectionName;
export const collectionSchema = z.enum([...COLLECTIONS, ...EDITOR_COLLECTIONS]);
export const isEditorCollection = (name: AnyCollectionName): name is EditorCollectionName => (EDITOR_COLLECTIONS as readonly string[]).includes(name);

/**
 * What a guest's device replicates (docs/replication.md "Guests": anonymous users take exams): tags and
 * the sets guests may take (published, marked free), pulled without a login. A guest's attempts
 * stay on the device until the guest signs up or logs in.
 */
export const GUEST_COLLECTIONS = ['tag', 'question_set', 'qs_detail'] as const satisfies readonly CollectionName[];

/** Attempts travel from devices to the server, and editors' questions and sets; everything else is pull only. */
export const PUSHABLE: readonly AnyCollectionName[] = ['test_summary', 'ed_question', 'ed_question_set'];

/**
 * A checkpoint is a value of the server's one revision counter (ARCHITECTURE decision 2), never
 * a device clock: documents with a greater revision are newer than the checkpoint.
 */
export const checkpointSchema = z.strictObject({
  rev: z.number().int().min(0),
  /**
   * qs_detail only: what the person could download when the checkpoint was given (the server's
   * `downloadAccess`, docs/payments.md). When the person may download more now, the pull starts
   * again from the beginning, so that paid sets held back arrive.
   */
  g: z.string().max(8).optional(),
});
export type Checkpoint = z.infer<typeof checkpointSchema>;

/** GET /api/sync/v1/{collection}/pull?rev&limit */
export const pullQuerySchema = z.strictObject({
  rev: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(1000).default(200),
  /** The checkpoint's `g` (qs_detail); absent from a checkpoint made before it existed. */
  g: z.string().max(8).regex(/^[a-z]*$/).optional(),
});

/** Pull answer: documents after the checkpoint in revision order, and the next checkpoint. */
export type PullResponse<D> = { documents: D[]; checkpoint: Checkpoint };

/** Most rows one push may carry. */
export const MAX_PUSH_ROWS = 100;

/** One row of a push (RxDB's RxReplicationWriteToMasterRow). */
export function pushRowsSchema<S extends z.ZodType>(doc: S) {
  return z
    .array(
      z.strictObject({
        newDocumentState: doc,
        assumedMasterState: doc.nullable().optional(),
      }),
    )
    .min(1)
    .max(MAX_PUSH_ROWS);
}

/** Events of GET /api/sync/v1/stream (server-sent events, `data` is JSON). */
export type StreamEvent =
  /** These collections changed: pull them. */
  | { type: 'CHANGE'; collections: AnyCollectionName[] }
  /** Sent on every (re)connect: the client may have missed changes, pull everything. */
  | { type: 'RESYNC' }
  /**
   * A live test's key, sent at its start to its registered learners' connected devices before the
   * CHANGE of their `live_key` documents (docs/live-tests.md "The key at scale"): the paper opens
   * on the event, without waiting for the pull that a whole country's devices make at that minute.
   * Clients that do not know the type ignore it and get the key by the pull.
   */
  | { type: 'KEY'; qsid: string; key: string };

/** Sync requests carry this header; the server answers 426 to another major version. */
export { PROTOCOL_HEADER, PROTOCOL_VERSION, SERVER_TIME_HEADER } from '../version';
