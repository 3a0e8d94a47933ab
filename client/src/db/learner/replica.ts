import { removeRxDatabase } from 'rxdb';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import type { QsDetailDoc } from '@pm/protocol/sync/qs-detail';
import { createMediaPrecache } from '../../lib/media-precache';
import { getSession, renewToken } from '../../lib/session';
import { AttemptJournal } from '../attempts/attempt-journal';
import { attemptsOwnedElsewhere } from '../attempts/attempt-lock';
import { copyReceipt } from '../attempts/receipts';
import { clearUnsentMarkers, forgetUnsent } from '../attempts/unsent-attempts';
import { databaseNameOf, editorDatabaseNameOf, openReplicaDatabase, type ReplicaDatabase } from '../core/database';
import { serverClock } from '../sync/server-clock';
import { resetSyncStatus, setSyncStatus } from '../sync/sync-status';
import { GUEST_ID, markGuestReplicaUsed } from './guest';
import { startReplication, type Replication } from './replication';
import { assessStorage, roomForImages } from './storage-check';
import { getStorageStatus, mediaStored, subscribeStorageStatus } from './storage-status';
import { type ReplicationStatus, type WaitingUploads, watchWaitingUploads } from './waiting-uploads';

/**
 * The browser's replica of one signed-in person: the RxDB database (IndexedDB through Dexie) and
 * its live replication, tied to the window's online, offline and visibility events. This module
 * and RxDB are a lazy chunk that the app loads after the shell has rendered.
 */
export type ReplicaHandle = {
  personId: string;
  db: ReplicaDatabase;
  /** The write-ahead journal of test attempts (what an earlier session left is applied already). */
  journal: AttemptJournal;
  /** Pull now (also used after a new login of the same person, to upload what waited). */
  syncNow(): void;
  /** Stops replication and closes the database; `erase` deletes this device's copy as well. */
  close(opts?: { erase?: boolean }): Promise<void>;
};

const storage = getRxStorageDexie();

/** Performance marks around the first replication (read by scripts/bench-replica.ts). */
export const MARK_OPEN = 'pm:replica-open';
export const MARK_IN_SYNC = 'pm:replica-in-sync';

/**
 * The guest's replica (docs/replication.md "Guests": anonymous users take exams): a database of its own
 * on the device (never a person's), holding tags and the free sets pulled without a login, and
 * the attempts a guest makes. They move into the person's database at sign-up or login
 * (moveGuestAttempts), and upload from there, scored once.
 */
export { GUEST_ID };

/**
 * Opens the person's replica: the database with the journal's leftovers applied, the count of
 * attempts waiting to upload, the images of downloaded sets kept for offline use, and the live
 * replication (started in a task of its own), pulled again when the network comes back or the
 * page becomes visible.
 */
export async function openReplica(personId: string): Promise<ReplicaHandle> {
  const guest = personId === GUEST_ID;
  if (guest) markGuestReplicaUsed();
  performance.mark(MARK_OPEN);
  const { db, journal } = await openDatabaseWithJournal(personId);
  const waiting = await watchWaitingUploads(db, journal, guest);
  const images = keepImagesOfSets(db);
  const sync = startReplicationSoon(
    () => replicate(db, personId, guest, waiting.publishStatus, images.add),
    () => afterFirstSync(db, waiting, images),
  );
  const stopResyncing = resyncOnNetworkAndVisibility(sync.reSync);
  let closing: Promise<void> | null = null;
  return {
    personId,
    db,
    journal,
    syncNow: () => sync.restart(() => closing !== null),
    close({ erase = false } = {}) {
      closing ??= closeReplica({ db, journal, waiting, images, sync, stopResyncing }, erase);
      return closing;
    },
  };
}

/**
 * The database and its attempt journal. Changes of a test that a crash or a closed tab left in
 * the journal go into their attempts before anything reads them or replication uploads them
 * (docs/offline-integrity.md "The tab and the browser").
 */
async function openDatabaseWithJournal(personId: string): Promise<{ db: ReplicaDatabase; journal: AttemptJournal }> {
  const store = AttemptJournal.openStore(databaseNameOf(personId));
  const db = await openReplicaDatabase(personId, { storage, multiInstance: true }).catch(async (err: unknown) => {
    (await store.catch(() => null))?.close();
    throw err;
  });
  const journal = await AttemptJournal.open(db, { store, ownedElsewhere: () => attemptsOwnedElsewhere() });
  return { db, journal };
}

type SetImages = {
  /** Keeps the images of a set that came down. */
  add(detail: QsDetailDoc): void;
  /** Keeps the images of every set on the device (those refused or lost before are fetched again). */
  requeue(): Promise<void>;
  stop(): void;
};

/**
 * The images of downloaded sets go into the service worker's cache as the sets arrive, so that a
 * test with images runs offline (lib/media-precache); in the background, never holding up the
 * replica. They are downloaded only when the storage pre-flight finds room for them
 * (docs/offline-integrity.md "The storage"); room again (the learner freed space and came back):
 * what was refused is downloaded then.
 */
function keepImagesOfSets(db: ReplicaDatabase): SetImages {
  const media = createMediaPrecache({ guard: roomForImages, onDone: mediaStored, onFull: () => void roomForImages(1) });
  const requeue = async () => {
    for (const doc of await db.qs_detail.find().exec()) void media.add(doc.toJSON() as QsDetailDoc);
  };
  let wasShort = false;
  const stop = subscribeStorageStatus(() => {
    const short = getStorageStatus().verdict?.short ?? false;
    if (wasShort && !short) void requeue().catch(() => undefined);
    wasShort = short;
  });
  return { add: (detail) => void media.add(detail), requeue, stop };
}

/** The live replication of this person's collections with the server, as the signed-in session allows. */
function replicate(db: ReplicaDatabase, personId: string, guest: boolean, onStatus: (patch: ReplicationStatus) => void, onSetDownloaded: (detail: QsDetailDoc) => void): Replication {
  const replication = startReplication(db, {
    baseUrl: window.location.origin,
    guest,
    getToken: () => {
      const s = getSession();
      return s && s.id === personId ? s.token : null;
    },
    onTokenRenewed: renewToken,
    clock: serverClock,
    onStatus,
    pushDelayMs: 1000,
  });
  replication.states.qs_detail.received$.subscribe((doc) => {
    const detail = doc as unknown as QsDetailDoc;
    if (!detail._deleted) onSetDownloaded(detail);
  });
  return replication;
}

/** Once per opening, when the first full pull is in. */
async function afterFirstSync(db: ReplicaDatabase, waiting: WaitingUploads, images: SetImages): Promise<void> {
  performance.mark(MARK_IN_SYNC);
  // Remembered attempts still missing after the server's attempts came down: lost.
  await waiting.settleMissing();
  // Sets downloaded before (images that failed offline, a cleared cache): checked once per start.
  await assessStorage(db);
  await images.requeue();
}

type RunningReplication = {
  reSync(): void;
  /** Stops the replication and starts a fresh one (unless the replica is closing by then). */
  restart(closing: () => boolean): void;
  /** No first start any more (the replica is closing). */
  cancelFirstStart(): void;
  stop(): Promise<void>;
};

/**
 * Replication starts in a task of its own, after the handle is returned: the pages draw what is
 * on the device first, and setting up six replications does not lengthen the task that opened
 * the database (docs/benchmarks.md "bench:lighthouse": total blocking time).
 */
function startReplicationSoon(start: () => Replication, afterFirstSync: () => Promise<void>): RunningReplication {
  let replication: Replication | null = null;
  let firstStart: ReturnType<typeof setTimeout> | undefined = setTimeout(() => {
    firstStart = undefined;
    replication = start();
    void replication
      .awaitInSync()
      .then(afterFirstSync)
      // Closed before that (a logout): nothing to do.
      .catch(() => undefined);
  }, 0);
  return {
    reSync: () => replication?.reSync(),
    restart(closing) {
      // Not started yet: it is about to start, with the session as it is now.
      if (firstStart !== undefined) return;
      // A refused token left the push waiting a long backoff; a fresh start uploads at once.
      const old = replication;
      replication = null;
      void old?.stop().then(() => {
        if (!closing()) replication = start();
      });
    },
    cancelFirstStart() {
      clearTimeout(firstStart);
      firstStart = undefined;
    },
    stop: async () => replication?.stop(),
  };
}

/** Going online and the page becoming visible pull again; returns the unsubscribe. */
function resyncOnNetworkAndVisibility(reSync: () => void): () => void {
  const onOnline = () => {
    setSyncStatus({ online: true });
    reSync();
  };
  const onOffline = () => setSyncStatus({ online: false, phase: 'offline' });
  const onVisible = () => {
    if (document.visibilityState === 'visible') reSync();
  };
  window.addEventListener('online', onOnline);
  window.addEventListener('offline', onOffline);
  document.addEventListener('visibilitychange', onVisible);
  return () => {
    window.removeEventListener('online', onOnline);
    window.removeEventListener('offline', onOffline);
    document.removeEventListener('visibilitychange', onVisible);
  };
}

type OpenParts = { db: ReplicaDatabase; journal: AttemptJournal; waiting: WaitingUploads; images: SetImages; sync: RunningReplication; stopResyncing: () => void };

/** Stops replication and closes the database; `erase` deletes this device's copy as well. */
async function closeReplica({ db, journal, waiting, images, sync, stopResyncing }: OpenParts, erase: boolean): Promise<void> {
  sync.cancelFirstStart();
  stopResyncing();
  images.stop();
  waiting.stop();
  // The test's last changes go into the attempts (and, online, up) before the database closes.
  await journal.close().catch((err: unknown) => console.error('attempt journal: not applied at close', err));
  await sync.stop();
  if (erase) {
    clearUnsentMarkers(db.name);
    await db.remove();
    await AttemptJournal.erase(db.name);
  } else await db.close();
  resetSyncStatus();
}

/** Erases a person's database when it is not open (logout with erase before it opened). */
export async function eraseReplica(personId: string): Promise<void> {
  await removeRxDatabase(databaseNameOf(personId), storage, true);
  // An editor's question bank too (docs/authoring.md "Offline authoring"), when this person has one on the device.
  await removeRxDatabase(editorDatabaseNameOf(personId), storage, true);
  await AttemptJournal.erase(databaseNameOf(personId));
  clearUnsentMarkers(databaseNameOf(personId));
}

/**
 * Moves the attempts a guest made on this device into `target`, the person who has just signed
 * up or logged in (docs/replication.md "Guests"): each attempt keeps its id, so the server stores and scores it
 * once whatever happens in between; it goes into the person's database first and leaves the
 * guest's only then (a crash between the two leaves a copy that the next move skips). The
 * guest's replica must be closed (its journal applied) before. Returns how many moved.
 */
export async function moveGuestAttempts(target: ReplicaHandle): Promise<number> {
  if (target.personId === GUEST_ID) return 0;
  const store = AttemptJournal.openStore(databaseNameOf(GUEST_ID));
  // Only the attempts (and the database's local documents: receipts): the person's replica is
  // open beside it, and RxDB's open-source core allows 13 open collections in one page
  // (docs/replication.md "Collections on a device").
  const guestDb = await openReplicaDatabase(GUEST_ID, { storage, multiInstance: true, collections: ['test_summary'] });
  try {
    // What a closed tab left in the guest's journal goes into its attempts first.
    const journal = await AttemptJournal.open(guestDb, { store });
    await journal.close();
    let moved = 0;
    for (const doc of await guestDb.test_summary.find().exec()) {
      const data = doc.toJSON() as Record<string, unknown> & { id: string };
      if (!(await target.db.test_summary.findOne(data.id).exec())) {
        await target.db.test_summary.insert(data as never);
        moved++;
      }
      // The receipt the guest was given at submit goes with the attempt (docs/exams.md "Submission receipt").
      await copyReceipt(guestDb, target.db, data.id);
      await doc.remove();
      // Left the guest's database on purpose: not to be reported as evicted.
      forgetUnsent(guestDb.name, [data.id]);
    }
    if (moved > 0) target.syncNow();
    return moved;
  } finally {
    await guestDb.close();
  }
}
