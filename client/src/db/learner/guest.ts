import { useEffect, useSyncExternalStore } from 'react';

/**
 * The guest's own replica on this device (docs/replication.md "Guests"; db/learner/replica.ts GUEST_ID explains it). Its
 * id can never be a person's (ids are UUIDs or demo names): a small module, so the app shell can
 * name it without loading RxDB.
 */
export const GUEST_ID = '~guest';

/*
 * A visitor who is not signed in gets the guest replica only where it is used (the exam list and
 * the test: useGuestReplica), so that the home page, the login page and the other public pages do
 * not download the database code (docs/benchmarks.md "bench:bundle": bytes on a first visit).
 */
let wanted = false;
const listeners = new Set<() => void>();
const USED_KEY = 'pm-guest-used';

export const guestReplicaWanted = {
  subscribe(l: () => void) {
    listeners.add(l);
    return () => listeners.delete(l);
  },
  get: () => wanted,
};

/** A page a guest takes tests on asks for the guest replica (kept for the rest of the visit). */
export function useGuestReplica(signedOut: boolean): void {
  useEffect(() => {
    if (!signedOut || wanted) return;
    wanted = true;
    listeners.forEach((l) => l());
  }, [signedOut]);
}
export const useGuestReplicaWanted = () => useSyncExternalStore(guestReplicaWanted.subscribe, guestReplicaWanted.get, () => false);

/** Whether a guest replica was ever opened on this device (then a login looks for its attempts). */
export function guestReplicaUsed(): boolean {
  try {
    return localStorage.getItem(USED_KEY) === '1';
  } catch {
    return false;
  }
}
export function markGuestReplicaUsed(): void {
  try {
    localStorage.setItem(USED_KEY, '1');
  } catch {
    // No storage: then no guest replica either.
  }
}
