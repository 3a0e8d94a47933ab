import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { atMost, type CollectionReplication, replicateEditorCollection } from '../../../db/editor-collection-replication';
import { type EditorReplica, type EditorReplication, type EdQuestionSet, openEditorReplica, startEditorReplication } from '../../../db/editor-replica';
import { closeAtLogout } from '../../../db/logout-closers';
import { setSyncStatus } from '../../../db/sync-status';
import i18n from '../../../lib/i18n';
import { notifyError } from '../../../lib/notify';
import { getSession, hasPermissions } from '../../../lib/session';
import { uploadImage } from '../api/media';
import { uploadPendingImages } from './offline-media';

/*
 * The signed-in editor's replica of the question bank (db/editor-replica.ts), opened the first
 * time an authoring screen asks for it — never for a learner, and never on a page outside
 * authoring (this module is part of the authoring chunks only). One per tab; another person's
 * login closes the previous one's.
 */

/** Pulls again this often while the page is open (the learner stream does not carry the bank). */
const POLL_MS = 30_000;

type Open = { personId: string; replica: EditorReplica; replication: EditorReplication; sets: CollectionReplication<EdQuestionSet>; dispose: () => void };
let current: Promise<Open> | null = null;
let currentPerson: string | null = null;
const storage = getRxStorageDexie();

async function uploadImagesFirst(): Promise<void> {
  const failed = await uploadPendingImages((file) => uploadImage(file, { silent: true }));
  // Refused by the server's check of the bytes (never the device's own answer): said once.
  if (failed.length > 0) notifyError(i18n.t('authoring-editor:image.notUploaded', { count: failed.length }));
}

async function openFor(personId: string): Promise<Open> {
  const replica = await openEditorReplica(personId, { storage });
  const options = {
    baseUrl: window.location.origin,
    getToken: () => {
      const s = getSession();
      return s && s.id === personId ? s.token : null;
    },
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
  return current.then((o) => o.replica);
}

async function closeOpen(p: Promise<Open>, erase = false) {
  const o = await p.catch(() => null);
  if (!o) return;
  o.dispose();
  await Promise.all([o.replication.stop(), o.sets.stop()]);
  if (erase) await o.replica.db.remove();
  else await o.replica.close();
}

/** Whether the device is offline (then the bank is read from and written to the replica). */
export const isOffline = () => typeof navigator !== 'undefined' && navigator.onLine === false;
