import { removeRxDatabase, type RxStorage } from 'rxdb';
import { BehaviorSubject } from 'rxjs';
import { editorDatabaseNameOf } from '@/db/core/database';
import { type EditorReplica, type EdQuestion, type EdQuestionSet, openEditorReplica } from '@/db/editor/editor-replica';
import { atMost, type CollectionReplication, type EditorReplication, replicateEditorCollection, startEditorReplication } from '@/db/editor/editor-replication';
import { getRxStorageLoggedMemory } from '@/db/core/logged-memory-storage';
import { closeAtLogout } from '@/db/core/logout-closers';
import { serverClock } from '@/db/sync/server-clock';
import { setSyncStatus } from '@/db/sync/sync-status';
import i18n from '@/lib/i18n';
import { notifyError } from '@/lib/notify';
import { getSession, hasPermissions, renewToken } from '@/lib/session';
import { uploadImage } from '../api/media';
import { uploadPendingImages } from './offline-media';

/*
 * The signed-in editor's replica of the question bank (db/editor/editor-replica.ts), opened the first
 * time an authoring screen asks for it — never for a learner, and never on a page outside
 * authoring (this module is part of the authoring chunks only). Another person's login closes the
 * previous one's.
 *
 * The bank is kept by the logged-memory storage (db/core/logged-memory-storage.ts: in memory, each
 * write one IndexedDB record), whose memory is the tab's own: ONE tab of the browser holds the
 * bank at a time, under a Web Lock. Another tab works with the server (the sync bar says so) and
 * takes the bank over when the holding tab closes. A bank kept by an earlier version of the app
 * (RxDB's Dexie storage) is carried over once: its unsent changes, conflicts and refusals.
 */

/** Pulls again this often while the page is open (the learner stream does not carry the bank). */
const POLL_MS = 30_000;

type Open = {
  personId: string;
  replica: EditorReplica;
  replication: EditorReplication;
  sets: CollectionReplication<EdQuestionSet>;
  dispose: () => void;
  /** Lets another tab take the bank (after the replica is closed). */
  unlock: () => void;
};
let current: Promise<Open> | null = null;
let currentPerson: string | null = null;
const storage = getRxStorageLoggedMemory();

/** Whether another tab of this browser holds the bank (this one then works online only). */
export const heldElsewhere$ = new BehaviorSubject(false);
class HeldElsewhere extends Error {}

/** The bank's Web Lock, held until `release` is called; null when another tab holds it. */
async function lockBank(personId: string): Promise<(() => void) | null> {
  // No Web Locks (an old browser): one tab is assumed.
  if (typeof navigator === 'undefined' || !navigator.locks) return () => undefined;
  let release = () => undefined as void;
  const held = new Promise<void>((r) => (release = r));
  const got = await new Promise<boolean>((answer) => {
    void navigator.locks
      .request(`${editorDatabaseNameOf(personId)}-bank`, { ifAvailable: true }, async (lock) => {
        answer(lock !== null);
        if (lock) await held;
      })
      .catch(() => answer(false));
  });
  return got ? release : null;
}

/**
 * Carries a bank kept by RxDB's Dexie storage (before the logged-memory storage) into the new
 * replica: the questions and sets changed on the device and not uploaded yet, and the conflicts
 * and refusals waiting for the editor. The rest comes down again with the replication. The old
 * database is deleted once its changes are in the new one.
 */
export async function carryOverDexieBank(personId: string, replica: EditorReplica): Promise<void> {
  const name = editorDatabaseNameOf(personId);
  const listed = typeof indexedDB.databases === 'function' ? await indexedDB.databases().catch(() => []) : [];
  const names = listed.map((d) => d.name ?? '').filter((n) => n.startsWith(`rxdb-dexie-${name}--`));
  if (names.length === 0) return;
  const { getRxStorageDexie } = await import('rxdb/plugins/storage-dexie');
  const dexie = getRxStorageDexie() as RxStorage<unknown, unknown>;
  const old = await openEditorReplica(personId, { storage: dexie, multiInstance: false });
  try {
    const { pending, conflicts, refused } = old.state();
    // With the deleted ones (a deletion not uploaded yet is carried over as a deletion).
    const docs = <D,>(found: D[]) => found.map((d) => d as D & { id: string; _deleted: boolean; _rev?: string; _meta?: unknown; _attachments?: unknown });
    const questions = docs(await old.db.ed_question.storageInstance.findDocumentsById(pending, true));
    const sets = docs(await old.db.ed_question_set.storageInstance.findDocumentsById(pending, true));
    for (const { _deleted, _rev: _r, _meta: _m, _attachments: _a, ...d } of questions) {
      await replica.save(d as EdQuestion);
      if (_deleted) await replica.remove(d.id);
    }
    for (const { _deleted, _rev: _r, _meta: _m, _attachments: _a, ...d } of sets) {
      await replica.saveSet(d as EdQuestionSet);
      if (_deleted) await replica.removeSet(d.id);
    }
    await replica.settle((s) => {
      for (const c of conflicts) s.conflicts[c.id] = c;
      for (const r of refused) s.refused[r.id] = r;
    });
  } finally {
    await old.close();
  }
  await removeRxDatabase(name, dexie);
  // RxDB empties Dexie's databases (and makes some while it does): all are deleted, so that
  // nothing is carried over twice.
  const left = (await indexedDB.databases()).map((d) => d.name ?? '').filter((n) => n.startsWith(`rxdb-dexie-${name}--`));
  await Promise.all(
    left.map(
      (n) =>
        new Promise<void>((resolve) => {
          const req = indexedDB.deleteDatabase(n);
          req.onsuccess = req.onerror = req.onblocked = () => resolve();
        }),
    ),
  );
}

async function uploadImagesFirst(): Promise<void> {
  const failed = await uploadPendingImages((file) => uploadImage(file, { silent: true }));
  // Refused by the server's check of the bytes (never the device's own answer): said once.
  if (failed.length > 0) notifyError(i18n.t('authoring-editor:image.notUploaded', { count: failed.length }));
}

async function openFor(personId: string): Promise<Open> {
  const unlock = await lockBank(personId);
  if (!unlock) {
    heldElsewhere$.next(true);
    throw new HeldElsewhere();
  }
  heldElsewhere$.next(false);
  let replica: EditorReplica;
  try {
    replica = await openEditorReplica(personId, { storage, multiInstance: false });
    await carryOverDexieBank(personId, replica).catch((err: unknown) => console.error('The earlier bank on this device could not be carried over', err));
  } catch (err) {
    unlock();
    throw err;
  }
  const options = {
    baseUrl: window.location.origin,
    getToken: () => {
      const s = getSession();
      return s && s.id === personId ? s.token : null;
    },
    // As the learner's replication: a renewed token is kept, and the server's clock is fed.
    onTokenRenewed: renewToken,
    clock: serverClock,
    pollMs: POLL_MS,
  };
  // Images added offline go up before the questions that show them (offline-media.ts).
  const replication = startEditorReplication(replica, { ...options, beforePush: uploadImagesFirst });
  // A set names questions: those saved on this device go up first (at most a minute's wait; the
  // server refuses a set naming a question it does not have, and the refusal is shown).
  const sets = replicateEditorCollection(replica, 'ed_question_set', replica.db.ed_question_set, {
    ...options,
    beforePush: () => atMost(replication.awaitInSync(), 60_000),
  });
  const again = () => {
    replication.reSync();
    sets.reSync();
  };
  const onVisible = () => document.visibilityState === 'visible' && again();
  window.addEventListener('online', again);
  document.addEventListener('visibilitychange', onVisible);
  // The shell's sync status counts the editor's unsent changes with the learner's.
  const counting = replica.state$.subscribe((s) => setSyncStatus({ editorPending: s.pending.length }));
  const unregister = closeAtLogout(async ({ erase }) => {
    const open = current;
    current = null;
    currentPerson = null;
    if (open) await closeOpen(open, erase);
  });
  return {
    personId,
    replica,
    replication,
    sets,
    dispose: () => {
      window.removeEventListener('online', again);
      document.removeEventListener('visibilitychange', onVisible);
      counting.unsubscribe();
      unregister();
      setSyncStatus({ editorPending: 0 });
    },
    unlock,
  };
}

/** The editor replica of the signed-in person, or null for anyone who is not a question editor. */
export function editorReplica(): Promise<EditorReplica | null> {
  const s = getSession();
  // No IndexedDB (an old browser, a private mode that refuses it): no bank on this device.
  if (!s || !hasPermissions(s, ['QUESTION_EDITOR']) || typeof indexedDB === 'undefined') return Promise.resolve(null);
  if (current && currentPerson === s.id) return current.then((o) => o.replica);
  const previous = current;
  currentPerson = s.id;
  current = (async () => {
    if (previous) await closeOpen(previous);
    return openFor(s.id);
  })();
  current.catch(() => {
    current = null;
    currentPerson = null;
  });
  // Held by another tab: this one works with the server (asked again on the next call).
  return current.then(
    (o) => o.replica,
    (err: unknown) => {
      if (err instanceof HeldElsewhere) return null;
      throw err;
    },
  );
}

async function closeOpen(p: Promise<Open>, erase = false) {
  const o = await p.catch(() => null);
  if (!o) return;
  o.dispose();
  await Promise.all([o.replication.stop(), o.sets.stop()]);
  try {
    if (erase) await o.replica.db.remove();
    else await o.replica.close();
  } finally {
    o.unlock();
  }
}

/** Whether the device is offline (then the bank is read from and written to the replica). */
export const isOffline = () => typeof navigator !== 'undefined' && navigator.onLine === false;
