import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import { filter, firstValueFrom, timeout } from 'rxjs';
import { useReplica } from '@/db/learner/replica-context';
import { type AttemptLock, browserLockOptions, openAttemptLock, type OwnerState } from '@/db/attempts/attempt-lock';

/** Longest a new owner waits for the previous owner's last version to reach this tab's replica. */
const CATCH_UP_MS = 3000;


export type AttemptOwner = {
  /**
   * Null while no attempt is on screen. 'owner' only once the attempt this screen is given
   * (`shownVersion`) is the one the previous owner left: until then it stays 'taking-over'.
   */
  state: OwnerState | null;
  /**
   * Changes each time this tab becomes the owner with the attempt as the previous owner left it
   * on screen: the test screen starts again from that attempt (its question view keeps its answer
   * locally, so a screen started from an older copy would show the older answer).
   */
  epoch: number;
  takeOver(): void;
  /** Runs a write only while this tab owns the attempt (false, and nothing written, otherwise). */
  write(run: () => Promise<boolean>): Promise<boolean>;
};

/**
 * This tab's ownership of the attempt on screen (docs/exams.md "Two tabs, storage and eviction", db/attempts/attempt-lock): one tab of the
 * browser writes an attempt; the others show it read-only and can take it over. Giving it away
 * first puts the journal's stored changes into the attempt's document; taking it adopts what a
 * closed owner left in the journal and waits until this tab's replica shows the version the
 * previous owner handed over, so that nothing is computed against an older copy.
 */
export function useAttemptOwner(attemptId: string | null, shownVersion: number | null): AttemptOwner {
  const replica = useReplica();
  const [holder] = useState(() => new LockHolder());

  useEffect(() => {
    if (!attemptId || !replica) return;
    const { db, journal } = replica;
    const opened = openAttemptLock(attemptId, {
      ...browserLockOptions(),
      async beforeRelease() {
        await journal.flush();
        const doc = await db.test_summary.findOne(attemptId).exec();
        return doc?.updatedAt ?? null;
      },
      async afterAcquire(version) {
        await journal.adopt(attemptId);
        // (A lock closed meanwhile — the screen moved on — says nothing about the one on screen.)
        if (holder.lock === opened) holder.awaitVersion(version);
        if (version === null) return;
        await firstValueFrom(
          db.test_summary.findOne(attemptId).$.pipe(
            filter((d) => (d?.updatedAt ?? -1) >= version),
            timeout(CATCH_UP_MS),
          ),
        ).catch(() => {
          console.warn("attempt owner: the previous tab's last change did not arrive in time");
          if (holder.lock === opened) holder.awaitVersion(null);
        });
      },
    });
    holder.set(opened);
    return () => {
      holder.set(null);
      void opened.close();
    };
  }, [attemptId, replica, holder]);

  const lockState = useSyncExternalStore(holder.subscribe, holder.getState);
  const lockEpoch = useSyncExternalStore(holder.subscribe, holder.getEpoch);
  const awaited = useSyncExternalStore(holder.subscribe, holder.getAwaited);
  const takeOver = useCallback(() => void holder.lock?.takeOver(), [holder]);
  const write = useCallback((run: () => Promise<boolean>) => (holder.lock ? holder.lock.write(run) : Promise.resolve(false)), [holder]);
  // The lock is ours, but the screen's copy of the attempt (a query of its own, which may hear of
  // the previous owner's last write after the lock's own look-up did) is older: not yet.
  const behind = lockState === 'owner' && awaited !== null && (shownVersion ?? -1) < awaited;
  const state = behind ? 'taking-over' : lockState;
  return { state: attemptId ? state : null, epoch: lockEpoch * 2 + (behind ? 0 : 1), takeOver, write };
}

/** The lock of the attempt on screen, as an external store for React. */
class LockHolder {
  lock: AttemptLock | null = null;
  private epoch = 0;
  /** The version the previous owner handed over, until the screen is known to have caught up. */
  private awaited: number | null = null;

  /** The version this tab's screen must show before it is the owner's (null: nothing to wait for). */
  awaitVersion(version: number | null) {
    this.awaited = version;
    this.changed();
  }
  private stop: (() => void) | null = null;
  private readonly listeners = new Set<() => void>();

  set(lock: AttemptLock | null) {
    this.stop?.();
    this.stop = null;
    this.lock = lock;
    this.awaited = null;
    if (lock) {
      this.stop = lock.subscribe(() => {
        if (lock.getState() === 'owner') this.epoch++;
        this.changed();
      });
    }
    this.changed();
  }

  private changed() {
    for (const l of this.listeners) l();
  }

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  getState = (): OwnerState | null => this.lock?.getState() ?? null;
  getEpoch = (): number => this.epoch;
  getAwaited = (): number | null => this.awaited;
}
