import { Subject } from 'rxjs';

/*
 * Live tests' keys this browser holds outside the replica (docs/live-tests.md "The key schedule",
 * "The key at scale"): a key from a typed unlock code, and a key the sync stream carried at the
 * start (a KEY event, before the `live_key` document's pull lands). Each is kept in storage under
 * its test's id, so a reload before the pull (or offline) still opens the paper: a key opens
 * nothing but its own test's paper, which is public from the start.
 */

const KEPT = (qsid: string) => `pm-live-key:${qsid}`;

const kept = new Subject<{ qsid: string; key: string }>();

/** Keys as they are kept, from now on (the paper hook listens). */
export const liveKeyKept$ = kept.asObservable();

/** The key kept for `qsid`, if any. */
export function keptLiveKey(qsid: string): string | null {
  try {
    return localStorage.getItem(KEPT(qsid));
  } catch {
    return null;
  }
}

/** Keeps `key` for `qsid` and tells the screens that show its paper. */
export function keepLiveKey(qsid: string, key: string): void {
  try {
    localStorage.setItem(KEPT(qsid), key);
  } catch {
    // Storage full or refused: the paper opens for this visit all the same.
  }
  kept.next({ qsid, key });
}
