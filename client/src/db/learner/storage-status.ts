import type { StorageVerdict } from '../../lib/storage-preflight';

/**
 * The device's storage as the last pre-flight found it (docs/exams.md "Two tabs, storage and eviction", lib/storage-preflight), and
 * a counter of images put into the media cache, so that the exam list can tell which sets are
 * complete on the device. A tiny external store, like sync-status.
 */
export type StorageStatus = {
  verdict: StorageVerdict | null;
  /** Grows when images of downloaded sets were stored (or refused). */
  mediaVersion: number;
};

let status: StorageStatus = { verdict: null, mediaVersion: 0 };
const listeners = new Set<() => void>();

export function getStorageStatus(): StorageStatus {
  return status;
}

export function setStorageVerdict(verdict: StorageVerdict): void {
  const old = status.verdict;
  if (old && old.short === verdict.short && old.persisted === verdict.persisted && old.need === verdict.need && old.free === verdict.free) return;
  status = { ...status, verdict };
  for (const l of listeners) l();
}

export function mediaStored(): void {
  status = { ...status, mediaVersion: status.mediaVersion + 1 };
  for (const l of listeners) l();
}

export function subscribeStorageStatus(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
