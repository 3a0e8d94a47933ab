import type { AttemptJournal } from '../attempts/attempt-journal';
import { missingFrom, readUnsent, recordLost, type UnsentEntry, unsentList, writeUnsent } from '../attempts/unsent-attempts';
import type { ReplicaDatabase } from '../core/database';
import { setSyncStatus, type SyncStatus } from '../sync/sync-status';

/** A status change from the replication; with a pending count also the ids of the attempts it counts. */
export type ReplicationStatus = Partial<SyncStatus> & { pendingIds?: string[] };

export type WaitingUploads = {
  /** Passes the replication's status on to the sync status, with the attempts waiting to upload. */
  publishStatus(patch: ReplicationStatus): void;
  /** After the first full pull: remembered attempts still missing are recorded as lost. */
  settleMissing(): Promise<void>;
  stop(): void;
};

/**
 * "Waiting to upload": the attempts the server has not confirmed and those with changes still
 * only in the journal, each counted once. The list is also kept in localStorage
 * (db/attempts/unsent-attempts.ts), so that an attempt that was waiting when this database was
 * last open and is missing from it now is known as evicted (docs/offline-integrity.md "The
 * storage": reported, never silent) — unless the server has it, which is settled after the first
 * full pull. A guest's attempts never reach the server without a login: all of them wait, and one
 * missing is lost at once.
 */
export async function watchWaitingUploads(db: ReplicaDatabase, journal: AttemptJournal, guest: boolean): Promise<WaitingUploads> {
  let uploadIds: string[] = [];
  let journalIds: string[] = [];
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
  const publishStatus = ({ pendingIds, ...patch }: ReplicationStatus) => {
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
  return {
    publishStatus,
    async settleMissing() {
      if (unresolved.length === 0) return;
      const back = new Set((await db.test_summary.findByIds(unresolved.map((e) => e.id)).exec()).keys());
      recordLost(db.name, missingFrom(unresolved, back));
      unresolved = [];
      rememberUnsent();
    },
    stop() {
      unsentWatch.unsubscribe();
      guestAttempts?.unsubscribe();
      journalWatch();
    },
  };
}
