import { createContext, type ReactNode, startTransition, useCallback, useContext, useEffect, useRef, useState } from 'react';
import type * as ReplicaModuleNs from '../db/learner/replica';
import type { ReplicaHandle } from '../db/learner/replica';
import { ReplicaContext } from '../db/learner/replica-context';
import { GUEST_ID, guestReplicaUsed, useGuestReplicaWanted } from '../db/learner/guest';
import { runLogoutClosers } from '../db/core/logout-closers';
import { resetSyncStatus } from '../db/sync/sync-status';
import { useSession } from '../hooks/use-session';
import { nextTask } from '../lib/after-paint';

type ReplicaControl = {
  /** Closes the open replica before logout; `erase` removes this device's copy of it. */
  closeForLogout(opts: { erase: boolean }): Promise<void>;
};

const ReplicaControlContext = createContext<ReplicaControl>({ closeForLogout: async () => undefined });

export function useReplicaControl(): ReplicaControl {
  return useContext(ReplicaControlContext);
}

/**
 * Runs `fn` in a task after the first paint. Not "when idle": on a slow phone reopening a test
 * offline, idle time comes late and the learner would wait for their own answers.
 */
function afterPaint(fn: () => void): () => void {
  const id = window.setTimeout(fn, 0);
  return () => window.clearTimeout(id);
}

/** The replica closing last (a guest's, at login): the next one waits for it before taking its attempts. */
let lastClosing: Promise<void> = Promise.resolve();

type ReplicaModule = typeof ReplicaModuleNs;

/**
 * The replica's code (RxDB, Dexie, the replica's own), evaluated in steps, each in its own task:
 * evaluated at once it held a phone's main thread for ~250 ms at 4× CPU just as the exam list
 * was drawn (docs/benchmarks.md "bench:lighthouse": total blocking time). Each step evaluates only what the steps before
 * did not. The collections' zod document schemas are not among them: their RxDB schemas are
 * written ahead (sync-protocol rxdb-schemas.json) and their versions and migrations need no zod
 * (rxdb-migrations.ts).
 */
async function loadReplicaModule(): Promise<ReplicaModule> {
  await import('rxdb');
  await nextTask();
  await import('rxdb/plugins/storage-dexie');
  await nextTask();
  return import('../db/learner/replica');
}

/**
 * Opens the signed-in person's replica (ARCHITECTURE decision 6) after the shell has rendered —
 * or, for a guest, the guest's own (db/learner/guest.ts: free sets, attempts kept for a login;
 * docs/replication.md "Guests"). A login moves the guest's attempts into the person's replica once it is open.
 * RxDB and the replication are a lazy chunk, not part of the first visit. Another person's login
 * closes the previous one's database; a new token of the same person restarts the replication so
 * that attempts held back by an expired login upload at once.
 */
export function ReplicaProvider({ children }: { children: ReactNode }) {
  const session = useSession();
  const personId = session?.id ?? null;
  const token = session?.token ?? null;
  const [replica, setReplica] = useState<ReplicaHandle | null>(null);
  const current = useRef<ReplicaHandle | null>(null);

  // A visitor who is not signed in gets the guest's replica where a page asks for it (db/learner/guest.ts).
  const guestWanted = useGuestReplicaWanted();
  useEffect(() => {
    if (!personId && !guestWanted) return;
    const id = personId ?? GUEST_ID;
    let cancelled = false;
    // The replica this effect opens (null when it never started or failed): closed by the cleanup.
    let opened: Promise<ReplicaHandle | null> = Promise.resolve(null);
    const cancelIdle = afterPaint(() => {
      opened = loadReplicaModule()
        .then(async (m) => {
          const h = await m.openReplica(id);
          // A guest who has just signed up or logged in: their attempts move in (once the guest's
          // replica has closed and its journal is applied) and upload from here. In the
          // background: the person's own tests are there meanwhile.
          if (id !== GUEST_ID && guestReplicaUsed()) void lastClosing.then(() => m.moveGuestAttempts(h)).catch((err: unknown) => console.error('guest attempts not moved', err));
          return h;
        })
        .catch(() => {
          // IndexedDB unavailable (private mode on some browsers): the app still works online.
          resetSyncStatus();
          return null;
        });
      void opened.then((h) => {
        if (!h || cancelled) return;
        current.current = h;
        // As a transition: every page and control that reads the replica draws again with it,
        // in slices rather than one long task (docs/benchmarks.md "bench:lighthouse": total blocking time).
        startTransition(() => setReplica(h));
      });
    });
    return () => {
      cancelled = true;
      cancelIdle();
      lastClosing = opened
        .then((h) => {
          if (!h) return;
          if (current.current === h) current.current = null;
          return h.close();
        })
        .catch(() => undefined);
      setReplica(null);
    };
  }, [personId, guestWanted]);

  const lastToken = useRef(token);
  useEffect(() => {
    if (token && lastToken.current && token !== lastToken.current) current.current?.syncNow();
    lastToken.current = token;
  }, [token]);

  const closeForLogout = useCallback(async ({ erase }: { erase: boolean }) => {
    // An editor's question bank (docs/authoring.md "Offline authoring") closes (or is erased) with the replica.
    await runLogoutClosers({ erase });
    const h = current.current;
    if (h) {
      current.current = null;
      await h.close({ erase });
    } else if (erase && personId) {
      const m = await import('../db/learner/replica');
      await m.eraseReplica(personId).catch(() => undefined);
    }
  }, [personId]);

  return (
    <ReplicaControlContext.Provider value={{ closeForLogout }}>
      <ReplicaContext.Provider value={replica}>{children}</ReplicaContext.Provider>
    </ReplicaControlContext.Provider>
  );
}
