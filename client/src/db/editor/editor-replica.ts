import { createRxDatabase, type RxCollection, type RxConflictHandler, type RxDatabase, type RxStorage } from 'rxdb';
import { BehaviorSubject, type Observable } from 'rxjs';
import type { EdQuestionDoc } from '@pm/protocol/sync/ed-question';
import type { EdQuestionSetDoc } from '@pm/protocol/sync/ed-question-set';
import { RX_SCHEMAS } from '@pm/protocol/sync/rxdb-json-schemas';
import { MIGRATIONS } from '@pm/protocol/sync/rxdb-migrations';
import { editorDatabaseNameOf } from '../core/database';
import { deepEqual } from '../core/deep-equal';

/*
 * The editor's replica (docs/authoring.md "Offline authoring"): the question bank in a database of its own on an editor's
 * device (`pm-ed-…`, beside the person's learner replica), replicated with the server's
 * `ed_question` collection by RxDB's protocol. A learner never opens it, and the server refuses
 * it to anyone without QUESTION_EDITOR.
 *
 * Nothing an editor wrote is lost: a push the server answers with a conflict (another editor
 * saved the question first) keeps BOTH versions — the device takes the server's as its copy and
 * files its own under `conflicts` for the editor to choose or merge (`resolveConflict`); a push
 * the server's rules refuse is kept on the device with the message under `refused`.
 */

export type EdQuestion = Omit<EdQuestionDoc, '_deleted'>;
export type EdQuestionSet = Omit<EdQuestionSetDoc, '_deleted'>;
export type EditorCollections = { ed_question: RxCollection<EdQuestion>; ed_question_set: RxCollection<EdQuestionSet> };
export type EditorDatabase = RxDatabase<EditorCollections>;

/** Both sides of a conflict: the editor's own version and the server's, as they were then. */
export type QuestionConflict = { kind?: 'question'; id: string; mine: EdQuestionDoc; theirs: EdQuestionDoc; at: number };
/** The same for a question set (`ed_question_set`). */
export type SetConflict = { kind: 'set'; id: string; mine: EdQuestionSetDoc; theirs: EdQuestionSetDoc; at: number };
export type EditorConflict = QuestionConflict | SetConflict;
export const isSetConflict = (c: EditorConflict): c is SetConflict => c.kind === 'set';
/** A change the server's rules refused, with its message; the device still holds it. */
export type RefusedChange = { id: string; msg: string; at: number };

/** What the editor's device has not settled with the server yet. */
export type EditorSyncState = {
  /** Questions and sets changed on this device and not yet confirmed by the server. */
  pending: string[];
  conflicts: EditorConflict[];
  refused: RefusedChange[];
};

const STATE_KEY = 'ed-sync-state';
export type StoredState = { pending: string[]; conflicts: Record<string, EditorConflict>; refused: Record<string, RefusedChange> };

/** Local-documents plugin must be added by the caller's RxDB setup (database.ts adds it). */
export type EditorReplica = {
  db: EditorDatabase;
  /** What is not settled with the server (pending, conflicts, refused), as it changes. */
  state$: Observable<EditorSyncState>;
  state(): EditorSyncState;
  /** Saves a question on the device (created when its id is new); the replication uploads it. */
  save(doc: EdQuestion): Promise<void>;
  /** Deletes a question on the device; uploaded as a deletion. */
  remove(id: string): Promise<void>;
  /** Saves a question set on the device (created when its id is new); the replication uploads it. */
  saveSet(doc: EdQuestionSet): Promise<void>;
  /** Deletes a question set on the device; uploaded as a deletion. */
  removeSet(id: string): Promise<void>;
  /**
   * Settles a conflict: 'theirs' keeps the server's version; 'mine' or a merged document is
   * saved on top of the server's version (and uploaded as an ordinary change).
   */
  resolveConflict(id: string, choice: 'mine' | 'theirs' | EdQuestion | EdQuestionSet): Promise<void>;
  /** Drops a refused change from the list (the device's copy stays until it is saved again). */
  dismissRefused(id: string): Promise<void>;
  close(): Promise<void>;
  /** Changes the stored sync state (one writer at a time); the replication's push handler uses it. */
  settle(fn: (s: StoredState) => void): Promise<void>;
};

export async function openEditorReplica(personId: string, opts: { storage: RxStorage<unknown, unknown>; multiInstance?: boolean; name?: string }): Promise<EditorReplica> {
  const db = await createRxDatabase<EditorCollections>({
    name: opts.name ?? editorDatabaseNameOf(personId),
    storage: opts.storage,
    multiInstance: opts.multiInstance ?? true,
    eventReduce: true,
    localDocuments: true,
    closeDuplicates: true,
  });
  const subject = new BehaviorSubject<EditorSyncState>({ pending: [], conflicts: [], refused: [] });
  // One writer of the state at a time (conflicts arrive from the replication while the editor saves).
  let queue: Promise<unknown> = Promise.resolve();
  const readState = async (): Promise<StoredState> => {
    const d = await db.getLocal<StoredState>(STATE_KEY);
    return d ? (d.toJSON().data as StoredState) : { pending: [], conflicts: {}, refused: {} };
  };
  const publish = (s: StoredState) => subject.next({ pending: [...s.pending], conflicts: Object.values(s.conflicts), refused: Object.values(s.refused) });
  const update = (fn: (s: StoredState) => void) => {
    const next = queue.then(async () => {
      const s = await readState();
      fn(s);
      await db.upsertLocal(STATE_KEY, s);
      publish(s);
    });
    queue = next.catch(() => undefined);
    return next;
  };

  const conflictHandler: RxConflictHandler<EdQuestion> = {
    isEqual: (a, b) => deepEqual(a, b),
    resolve: async ({ newDocumentState: mine, realMasterState: theirs }) => {
      // The same document on both sides is no conflict: an upload of what the device had just
      // pulled (RxDB's upstream can read a pulled document before its master state is noted).
      if (deepEqual(mine, theirs)) return theirs;
      // The server's version becomes the device's copy; the editor's own is kept beside it.
      await update((s) => {
        s.conflicts[mine.id] = { id: mine.id, mine: mine as EdQuestionDoc, theirs: theirs as EdQuestionDoc, at: Date.now() };
        s.pending = s.pending.filter((id) => id !== mine.id);
      });
      return theirs;
    },
  };
  const setConflictHandler: RxConflictHandler<EdQuestionSet> = {
    isEqual: (a, b) => deepEqual(a, b),
    resolve: async ({ newDocumentState: mine, realMasterState: theirs }) => {
      if (deepEqual(mine, theirs)) return theirs;
      await update((s) => {
        s.conflicts[mine.id] = { kind: 'set', id: mine.id, mine: mine as EdQuestionSetDoc, theirs: theirs as EdQuestionSetDoc, at: Date.now() };
        s.pending = s.pending.filter((id) => id !== mine.id);
      });
      return theirs;
    },
  };
  await db.addCollections({
    ed_question: { schema: RX_SCHEMAS.ed_question as never, migrationStrategies: MIGRATIONS.ed_question as never, conflictHandler: conflictHandler as never },
    ed_question_set: { schema: RX_SCHEMAS.ed_question_set as never, migrationStrategies: MIGRATIONS.ed_question_set as never, conflictHandler: setConflictHandler as never },
  });
  publish(await readState());
  // Another tab of this editor changed the state.
  const localSub = db.getLocal$<StoredState>(STATE_KEY).subscribe((d) => {
    if (d) publish(d.toJSON().data as StoredState);
  });

  // The document first, then its place in the pending list: a reload between the two leaves a
  // written change not yet counted (the replication still uploads it), never a count without it.
  const save = async (doc: EdQuestion) => {
    await db.ed_question.upsert(doc);
    await update((s) => {
      if (!s.pending.includes(doc.id)) s.pending.push(doc.id);
      delete s.refused[doc.id];
    });
  };
  const saveSet = async (doc: EdQuestionSet) => {
    await db.ed_question_set.upsert(doc);
    await update((s) => {
      if (!s.pending.includes(doc.id)) s.pending.push(doc.id);
      delete s.refused[doc.id];
    });
  };

  return {
    db,
    state$: subject.asObservable(),
    state: () => subject.getValue(),
    save,
    async remove(id) {
      const found = await db.ed_question.findOne(id).exec();
      if (!found) return;
      await found.remove();
      await update((s) => {
        if (!s.pending.includes(id)) s.pending.push(id);
      });
    },
    saveSet,
    async removeSet(id) {
      const found = await db.ed_question_set.findOne(id).exec();
      if (!found) return;
      await found.remove();
      await update((s) => {
        if (!s.pending.includes(id)) s.pending.push(id);
      });
    },
    async resolveConflict(id, choice) {
      const c = (await readState()).conflicts[id];
      if (!c) return;
      if (choice !== 'theirs' && isSetConflict(c)) {
        const { _deleted: _d, ...mine } = c.mine;
        const chosen = choice === 'mine' ? mine : (choice as EdQuestionSet);
        // On top of the server's set: the upload's assumed master state is the server's.
        await saveSet({ ...chosen, id, version: c.theirs.version, published: c.theirs.published, taken: c.theirs.taken, updatedAt: Date.now() });
      } else if (choice !== 'theirs' && !isSetConflict(c)) {
        const { _deleted: _d, ...mine } = c.mine;
        const chosen = choice === 'mine' ? mine : (choice as EdQuestion);
        // On top of the server's version: the upload's assumed master state is the server's.
        await save({ ...chosen, id, version: c.theirs.version, updatedAt: Date.now() });
      }
      await update((st) => {
        delete st.conflicts[id];
      });
    },
    async dismissRefused(id) {
      await update((s) => {
        delete s.refused[id];
      });
    },
    async close() {
      localSub.unsubscribe();
      await queue;
      await db.close();
    },
    settle: update,
  };
}
