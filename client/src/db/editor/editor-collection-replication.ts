import type { RxCollection } from 'rxdb';
import type { RxReplicationPullStreamItem } from 'rxdb';
import { replicateRxCollection, type RxReplicationState } from 'rxdb/plugins/replication';
import { Subject } from 'rxjs';
import type { EdPushAnswer } from '../../../../sync-protocol/src/sync/ed-question';
import type { EditorCollectionName, PullResponse } from '../../../../sync-protocol/src/sync/envelopes';
import { PROTOCOL_HEADER, PROTOCOL_VERSION } from '../../../../sync-protocol/src/version';
import type { EditorReplica, EditorReplicationOptions } from './editor-replica';
import { readText, REQUEST_STALL_MS, stallGuard } from '../sync/stall-guard';

/*
 * One editor collection replicated with /api/sync/v1/{name} by RxDB's protocol (issue 19 §5):
 * pulled by checkpoint, pushed with the assumed master state. The server's answer to a push is
 * `{conflicts, refused}` (sync-protocol ed-question.ts): conflicts go to the collection's conflict
 * handler (which keeps both versions, db/editor-replica.ts), refusals are kept in the replica's
 * state with their message, and rows the server stored leave the pending list.
 */

export type CollectionReplication<D> = {
  state: RxReplicationState<D, { rev: number }>;
  reSync(): void;
  awaitInSync(): Promise<void>;
  stop(): Promise<void>;
};

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
  const doFetch = opts.fetch ?? globalThis.fetch.bind(globalThis);
  async function request<T>(path: string, init: RequestInit = {}): Promise<T> {
    const token = opts.getToken();
    if (!token) throw new Error('not signed in');
    // Given up after REQUEST_STALL_MS without progress, as the learner's replication does: a
    // black-holed or half-open connection otherwise held the editor's uploads for good.
    const guard = stallGuard(REQUEST_STALL_MS);
    try {
      const res = await doFetch(`${opts.baseUrl}/api/sync/v1/${name}/${path}`, {
        ...init,
        cache: 'no-store',
        signal: guard.signal,
        headers: { accept: 'application/json', authorization: `Bearer ${token}`, [PROTOCOL_HEADER]: PROTOCOL_VERSION, ...(init.headers as Record<string, string>) },
      });
      guard.touch();
      const text = await readText(res, guard);
      if (!res.ok) throw new Error(`sync ${name}/${path} answered ${res.status}`);
      return JSON.parse(text) as T;
    } finally {
      guard.done();
    }
  }
  // The documents a push stored, as the server stored them: handed to the downstream as master
  // changes once the push is done (RxDB holds stream events while a push runs). A pull that ran
  // during the push passed those documents over (their upload was not confirmed yet) and moved its
  // checkpoint beyond them; without this the device would stay a version behind and its next
  // edit of the question would come back as a conflict with the editor's own upload.
  const stored$ = new Subject<RxReplicationPullStreamItem<D, { rev: number }>>();
  const state = replicateRxCollection<D, { rev: number }>({
    collection,
    replicationIdentifier: `pm-sync-v${PROTOCOL_VERSION.split('.')[0]}-${name}-${opts.baseUrl}`,
    live: opts.live ?? true,
    retryTime: opts.retryBaseMs ?? 2000,
    waitForLeadership: opts.waitForLeadership ?? true,
    autoStart: true,
    pull: {
      batchSize: opts.pullBatch ?? 500,
      handler: async (checkpoint, batchSize) => {
        const body = await request<PullResponse<D>>(`pull?rev=${checkpoint?.rev ?? 0}&limit=${batchSize}`);
        return { documents: body.documents as never[], checkpoint: body.checkpoint };
      },
      // An empty checkpoint leaves the pull's own where it is (RxDB stacks checkpoints).
      stream$: stored$.asObservable(),
    },
    push: {
      batchSize: 50,
      handler: async (rows) => {
        await opts.beforePush?.();
        const answer = await request<EdPushAnswer<D>>('push', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(rows) });
        const conflicted = new Set(answer.conflicts.map((d) => d.id));
        const refused = new Map(answer.refused.map((r) => [r.id, r.msg]));
        await replica.settle((s) => {
          const sent = new Set(rows.map((r) => r.newDocumentState.id));
          // Stored by the server: no longer pending. Conflicts leave pending in the conflict handler.
          s.pending = s.pending.filter((id) => !sent.has(id) || conflicted.has(id));
          for (const [id, msg] of refused) s.refused[id] = { id, msg, at: Date.now() };
        });
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

/** Resolves when `p` does, or after `ms` (whichever first). */
export const atMost = (p: Promise<unknown>, ms: number) => Promise.race([p.then(() => undefined), new Promise<void>((r) => setTimeout(r, ms))]);
