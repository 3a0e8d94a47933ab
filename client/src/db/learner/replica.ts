import { removeRxDatabase } from 'rxdb';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import type { QsDetailDoc } from '../../../../sync-protocol/src/sync/qs-detail';
import { attemptsOwnedElsewhere } from '../attempts/attempt-lock';
import { createMediaPrecache } from '../../lib/media-precache';
import { getSession, renewToken } from '../../lib/session';
import { AttemptJournal } from '../attempts/attempt-journal';
import { databaseNameOf, editorDatabaseNameOf, openReplicaDatabase, type ReplicaDatabase } from '../core/database';
import { GUEST_ID, markGuestReplicaUsed } from './guest';
import { copyReceipt } from '../attempts/receipts';
import { startReplication, type Replication } from './replication';
import { serverClock } from '../sync/server-clock';
import { assessStorage, roomForImages } from './storage-check';
import { getStorageStatus, mediaStored, subscribeStorageStatus } from './storage-status';
import { resetSyncStatus, setSyncStatus, type SyncStatus } from '../sync/sync-status';
import { clearUnsentMarkers, forgetUnsent, missingFrom, readUnsent, recordLost, type UnsentEntry, unsentList, writeUnsent } from '../attempts/unsent-attempts';

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
 * The guest's replica (issue 20 §3, spec §6: anonymous users take exams): a database of its own
 * on the device (never a person's), holding tags and the free sets pulled without a login, and
 * the attempts a guest makes. They move into the person's database at sign-up or login
 * (moveGuestAttempts), and upload from there, scored once.
 */
export { GUEST_ID };

export async function openReplica(personId: string): Promise<ReplicaHandle> {
  const guest = personId === GUEST_ID;
  if (guest) markGuestReplicaUsed();
  performance.mark(MARK_OPEN);
  const store = AttemptJournal.openStore(databaseNameOf(personId));
  const db = await openReplicaDatabase(personId, { storage, multiInstance: true }).catch(async (err: unknown) => {
    (await store.catch(() => null))?.close();
    throw err;
  });
  // Changes of a test that a crash or a closed tab left in the journal go into their attempts
  // before anything reads them or replication uploads them.
  const journal = await AttemptJournal.open(db, { store, ownedElsewhere: () => attemptsOwnedElsewhere() });
  // "Waiting to upload" counts attempts not confirmed by the server and those with changes still
  // only in the journal, each once.
  let uploadIds: string[] = [];
  let journalIds: string[] = [];
  // Issue 21 §3: the attempts that were waiting to upload when this database was last open
  // (kept in localStorage, db/unsent-attempts). One missing from the database now was evicted,
  // unless the server has it: settled after the first full pull (a guest's never reach it).
  const remembered = readUnsent(db.name);
  const present = new Set((await db.test_summary.findByIds(remembered.map((e) => e.id)).exec()).keys());
  let unresolved: UnsentEntry[] = missingFrom(remembered, present);
  if (guest && unresolved.length > 0) {
    recordLost(db.name, unresolved);
    unresolved = [];
  }
  let attemptInfo = new Map<string, UnsentEntry>();
  // Written once replication has counted the waiting attempts (before, the list would be empty).
  let uploadsKnown = guest;
  const rememberUnsent = () => {
    if (uploadsKnown) writeUnsent(db.name, unsentList([...uploadIds, ...journalIds], attemptInfo, unresolved));
  };
  const unsentWatch = db.test_summary.find().$.subscribe((docs) => {
    attemptInfo = new Map(docs.map((d) => [d.id, { id: d.id, qsid: d.qsid, st: d.st }]));
    rememberUnsent();
  });
  const publishStatus = ({ pendingIds, ...patch }: Partial<SyncStatus> & { pendingIds?: string[] }) => {
    if (pendingIds) {
      uploadIds = pendingIds;
      uploadsKnown = true;
    }
    setSyncStatus({ ...patch, pending: new Set([...uploadIds, ...journalIds]).size });
    rememberUnsent();
  };
  const journalWatch = journal.subscribe(() => {
    journalIds = journal.waitingAttempts();
    publishStatus({});
  });
  // A guest's attempts all wait: for a login, after which they upload from the person's database.
  const guestAttempts = guest ? db.test_summary.find().$.subscribe((docs) => publishStatus({ pendingIds: docs.map((d) => d.id) })) : null;
  let replication: Replication | null = null;
  // The images of downloaded sets go into the service worker's cache as the sets arrive, so that a
  // test with images runs offline (issue 17 §2, lib/media-precache); in the background, never
  // holding up the replica.
  // Issue 21 §3: images are downloaded only when the storage pre-flight finds room for them.
  const media = createMediaPrecache({ guard: roomForImages, onDone: mediaStored, onFull: () => void roomForImages(1) });
  const requeueMedia = async () => {
    for (const doc of await db.qs_detail.find().exec()) void media.add(doc.toJSON() as QsDetailDoc);
  };
  // Room again (the learner freed space and came back): what was refused is downloaded now.
  let wasShort = false;
  const storageWatch = subscribeStorageStatus(() => {
    const short = getStorageStatus().verdict?.short ?? false;
    if (wasShort && !short) void requeueMedia().catch(() => undefined);
    wasShort = short;
  });
  const start = () => {
    replication = startReplication(db, {
      baseUrl: window.location.origin,
      guest,
      getToken: () => {
        const s = getSession();
        return s && s.id === personId ? s.token : null;
      },
      onTokenRenewed: renewToken,
      clock: serverClock,
      onStatus: publishStatus,
      pushDelayMs: 1000,
    });
    replication.states.qs_detail.received$.subscribe((doc) => {
      const detail = doc as unknown as QsDetailDoc;
      if (!detail._deleted) void media.add(detail);
    });
  };
  // Replication starts in a task of its own, after the handle is returned: the pages draw what is
  // on the device first, and setting up six replications does not lengthen the task that opened
  // the database (issue 20 §2: total blocking time).
  let firstStart: ReturnType<typeof setTimeout> | undefined = setTimeout(() => {
    firstStart = undefined;
    start();
    void replication!
      .awaitInSync()
      .then(async () => {
        performance.mark(MARK_IN_SYNC);
        // Remembered attempts still missing after the server's attempts came down: lost.
        if (unresolved.length > 0) {
          const back = new Set((await db.test_summary.findByIds(unresolved.map((e) => e.id)).exec()).keys());
          recordLost(db.name, missingFrom(unresolved, back));
          unresolved = [];
          rememberUnsent();
        }
        // Sets downloaded before (images that failed offline, a cleared cache): checked once per start.
        await assessStorage(db);
        await requeueMedia();
      })
      // Closed before that (a logout): nothing to do.
      .catch(() => undefined);
  }, 0);

  const onOnline = () => {
    setSyncStatus({ online: true });
    replication?.reSync();
  };
  const onOffline = () => setSyncStatus({ online: false, phase: 'offline' });
  const onVisible = () => {
    if (document.visibilityState === 'visible') replication?.reSync();
  };
  window.addEventListener('online', onOnline);
  window.addEventListener('offline', onOffline);
  document.addEventListener('visibilitychange', onVisible);

  // The first test on this device: ask for persistent storage.

  let closing: Promise<void> | null = null;
  return {
    personId,
    db,
    journal,
    syncNow() {
      // Not started yet: it is about to start, with the session as it is now.
      if (firstStart !== undefined) return;
      // A refused token left the push waiting a long backoff; a fresh start uploads at once.
      const old = replication;
      replication = null;
      void old?.stop().then(() => {
        if (!closing) start();
      });
    },
    close({ erase = false } = {}) {
      closing ??= (async () => {
        clearTimeout(firstStart);
        firstStart = undefined;
        window.removeEventListener('online', onOnline);
        window.removeEventListener('offline', onOffline);
        document.removeEventListener('visibilitychange', onVisible);
        storageWatch();
        unsentWatch.unsubscribe();
        guestAttempts?.unsubscribe();
        journalWatch();
        // The test's last changes go into the attempts (and, online, up) before the database closes.
        await journal.close().catch((err: unknown) => console.error('attempt journal: not applied at close', err));
        await replication?.stop();
        if (erase) {
          clearUnsentMarkers(db.name);
          await db.remove();
          await AttemptJournal.erase(db.name);
        } else await db.close();
        resetSyncStatus();
      })();
      return closing;
    },
  };
}

/** Erases a person's database when it is not open (logout with erase before it opened). */
export async function eraseReplica(personId: string): Promise<void> {
  await removeRxDatabase(databaseNameOf(personId), storage, true);
  // An editor's question bank too (issue 19 §5), when this person has one on the device.
  await removeRxDatabase(editorDatabaseNameOf(personId), storage, true);
  await AttemptJournal.erase(databaseNameOf(personId));
  clearUnsentMarkers(databaseNameOf(personId));
}

/**
 * Moves the attempts a guest made on this device into `target`, the person who has just signed
 * up or logged in (issue 20 §3): each attempt keeps its id, so the server stores and scores it
 * once whatever happens in between; it goes into the person's database first and leaves the
 * guest's only then (a crash between the two leaves a copy that the next move skips). The
 * guest's replica must be closed (its journal applied) before. Returns how many moved.
 */
export async function moveGuestAttempts(target: ReplicaHandle): Promise<number> {
  if (target.personId === GUEST_ID) return 0;
  const store = AttemptJournal.openStore(databaseNameOf(GUEST_ID));
  const guestDb = await openReplicaDatabase(GUEST_ID, { storage, multiInstance: true });
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
      // The receipt the guest was given at submit goes with the attempt (issue 21 §4).
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
