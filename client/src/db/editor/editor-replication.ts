import type { RxCollection } from 'rxdb';
import type { RxReplicationPullStreamItem } from 'rxdb';
import { replicateRxCollection, type RxReplicationState } from 'rxdb/plugins/replication';
import { Subject } from 'rxjs';
import type { EdPushAnswer } from '@pm/protocol/sync/ed-question';
import type { EditorCollectionName } from '@pm/protocol/sync/envelopes';
import type { ServerClock } from '../sync/server-clock';
import { createSyncTransport, type SyncTransport } from '../sync/transport';
import type { EditorReplica, EdQuestion } from './editor-replica';

/*
 * One editor collection replicated with /api/sync/v1/{name} by RxDB's protocol (docs/replication.md,
 * "Offline authoring"): pulled by checkpoint, pushed with the assumed master state, over the sync
 * transport the learner's replication uses too (db/sync/transport.ts: stall guard, protocol
 * header, 401, token renewal, server clock). The server's answer to a push is `{conflicts,
 * refused}` (sync-protocol ed-question.ts): conflicts go to the collection's conflict handler
 * (which keeps both versions, db/editor/editor-replica.ts), refusals are kept in the replica's
 * state with their message, and rows the server stored leave the pending list.
 */

export type EditorReplicationOptions = {
  baseUrl: string;
  getToken: () => string | null;
  /** A response renewed the token it was sent with (the learner's replication is told the same). */
  onTokenRenewed?: (sent: string, fresh: string) => void;
  /** Fed with each response's X-Server-Time. */
  clock?: ServerClock;
  fetch?: typeof fetch;
  live?: boolean;
  waitForLeadership?: boolean;
  retryBaseMs?: number;
  /** Pull this often while live (the learner replica's stream does not carry editor changes). */
  pollMs?: number;
  /** Waited for before each push (images kept offline are uploaded before the questions naming them). */
  beforePush?: () => Promise<void>;
};

export type CollectionReplication<D> = {
  state: RxReplicationState<D, { rev: number }>;
  reSync(): void;
  awaitInSync(): Promise<void>;
  stop(): Promise<void>;
};

export type EditorReplication = CollectionReplication<EdQuestion>;

/**
 * Set once a replication's first full pull is done (RxDB's awaitInSync): its time is that moment,
 * its detail the questions then on the device. Read by scripts/bench-authoring.ts.
 */
export const MARK_EDITOR_IN_SYNC = 'pm:editor-replica-in-sync';

type Pushed<D> = { newDocumentState: D }[];

/** Takes a push's answer into the replica's state: what was stored is no longer pending, refusals are kept with their message. */
async function settlePush<D extends { id: string }>(replica: EditorReplica, rows: Pushed<D>, answer: EdPushAnswer<D>): Promise<void> {
  const conflicted = new Set(answer.conflicts.map((d) => d.id));
  const refused = new Map(answer.refused.map((r) => [r.id, r.msg]));
  await replica.settle((s) => {
    const sent = new Set(rows.map((r) => r.newDocumentState.id));
    // Stored by the server: no longer pending. Conflicts leave pending in the conflict handler.
    s.pending = s.pending.filter((id) => !sent.has(id) || conflicted.has(id));
    for (const [id, msg] of refused) s.refused[id] = { id, msg, at: Date.now() };
  });
}

export function replicateEditorCollection<D extends { id: string }>(
  replica: EditorReplica,
  name: EditorCollectionName,
  collection: RxCollection<D>,
  opts: EditorReplicationOptions & {
    pullBatch?: number;
    /** Waited for before each push (a set waits for the questions it names to be uploaded first). */
    beforePush?: () => Promise<void>;
  },
): CollectionReplication<D> {
  const transport: SyncTransport = createSyncTransport({ baseUrl: opts.baseUrl, getToken: opts.getToken, onTokenRenewed: opts.onTokenRenewed, fetch: opts.fetch, clock: opts.clock });
  // The documents a push stored, as the server stored them: handed to the downstream as master
  // changes once the push is done (RxDB holds stream events while a push runs). A pull that ran
  // during the push passed those documents over (their upload was not confirmed yet) and moved its
  // checkpoint beyond them; without this the device would stay a version behind and its next
  // edit of the question would come back as a conflict with the editor's own upload.
  const stored$ = new Subject<RxReplicationPullStreamItem<D, { rev: number }>>();
  const state = replicateRxCollection<D, { rev: number }>({
    collection,
    replicationIdentifier: transport.replicationIdentifier(name),
    live: opts.live ?? true,
    retryTime: opts.retryBaseMs ?? 2000,
    waitForLeadership: opts.waitForLeadership ?? true,
    autoStart: true,
    pull: {
      batchSize: opts.pullBatch ?? 500,
      handler: async (checkpoint, batchSize) => {
        const body = await transport.pull<D, { rev: number }>(name, checkpoint, batchSize);
        return { documents: body.documents as never[], checkpoint: body.checkpoint };
      },
      // An empty checkpoint leaves the pull's own where it is (RxDB stacks checkpoints).
      stream$: stored$.asObservable(),
    },
    push: {
      batchSize: 50,
      handler: async (rows) => {
        await opts.beforePush?.();
        const answer = await transport.push<EdPushAnswer<D>>(name, rows);
        await settlePush(replica, rows, answer);
        // The server gave what it stored new master states (versions): the next push assumes them.
        if (answer.stored?.length) setTimeout(() => stored$.next({ documents: answer.stored as never[], checkpoint: {} as { rev: number } }), 0);
        return answer.conflicts as never[];
      },
    },
  });
  // No resync before the first full pull is in: RxDB gives every document of one bulk write the
  // same write time, so a resync during the first pull rescans the whole download batch by batch
  // from its start (measured: in sync after 274 s instead of 62 s at 50,000 questions).
  let initialDone = false;
  void state.awaitInSync().then(
    () => (initialDone = true),
    () => undefined,
  );
  const reSync = () => {
    if (initialDone) state.reSync();
  };
  const timer = (opts.live ?? true) && opts.pollMs ? setInterval(reSync, opts.pollMs) : null;
  return {
    state,
    reSync,
    awaitInSync: () => state.awaitInSync().then(() => undefined),
    async stop() {
      if (timer) clearInterval(timer);
      stored$.complete();
      await state.cancel();
    },
  };
}

/** Live replication of `ed_question` with /api/sync/v1/ed_question (pull by checkpoint, push with the assumed master state). */
export function startEditorReplication(replica: EditorReplica, opts: EditorReplicationOptions): EditorReplication {
  const replication = replicateEditorCollection(replica, 'ed_question', replica.db.ed_question, { ...opts, pullBatch: 1000 });
  void replication.state
    .awaitInSync()
    .then(async () => {
      const at = performance.now();
      const docs = await replica.db.ed_question.count().exec();
      performance.mark(MARK_EDITOR_IN_SYNC, { startTime: at, detail: { docs } });
    })
    // Stopped or closed first (a logout): no mark.
    .catch(() => undefined);
  return replication;
}

/** Resolves when `p` does, or after `ms` (whichever first). */
export const atMost = (p: Promise<unknown>, ms: number) => Promise.race([p.then(() => undefined), new Promise<void>((r) => setTimeout(r, ms))]);
