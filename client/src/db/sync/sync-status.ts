/**
 * What the sync status indicator shows (docs/replication.md "Sync status"). A tiny external store without RxDB, so the
 * indicator in the shell costs nothing until the replica (a lazy chunk) starts writing to it.
 */
export type SyncPhase =
  /** No replica yet (signed out, or the database is opening). */
  | 'idle'
  /** Requests are running. */
  | 'syncing'
  /** Everything known has been pulled and pushed. */
  | 'synced'
  /** The device or the server cannot be reached; retrying with backoff. */
  | 'offline'
  /** The server refused the token: the learner must sign in again before anything uploads. */
  | 'signed-out'
  /** The server answered with an error other than the above; retrying. */
  | 'error';

export type SyncStatus = {
  phase: SyncPhase;
  /** navigator.onLine, and false after a request failed for lack of network. */
  online: boolean;
  /** Attempts changed on this device and not yet confirmed by the server. */
  pending: number;
  /** An editor's questions changed on this device and not yet uploaded (docs/authoring.md "Offline authoring", db/editor/editor-replica). */
  editorPending: number;
  /** Device time (ms) of the last request round that succeeded, or null. */
  lastSync: number | null;
  /**
   * Attempts in an upload the server refused for want of a plan (402, docs/payments.md "Without a
   * plan"): they stay on the device and go up again with the backoff, once a plan covers them.
   */
  planRequired?: readonly string[];
};

const initial: SyncStatus = {
  phase: 'idle',
  online: typeof navigator === 'undefined' ? true : navigator.onLine,
  pending: 0,
  editorPending: 0,
  lastSync: null,
};

let status: SyncStatus = initial;
const listeners = new Set<() => void>();

export function getSyncStatus(): SyncStatus {
  return status;
}

export function setSyncStatus(patch: Partial<SyncStatus>): void {
  const next = { ...status, ...patch };
  if ((Object.keys(next) as (keyof SyncStatus)[]).every((k) => next[k] === status[k])) return;
  status = next;
  for (const l of listeners) l();
}

export function resetSyncStatus(): void {
  // The editor's own replica reports its count itself (it is not closed with the learner replica).
  setSyncStatus({ ...initial, editorPending: status.editorPending, online: typeof navigator === 'undefined' ? true : navigator.onLine });
}

/** Everything changed on this device and not yet uploaded: attempts and an editor's questions. */
export const waitingUploads = (s: SyncStatus) => s.pending + s.editorPending;

export function subscribeSyncStatus(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
