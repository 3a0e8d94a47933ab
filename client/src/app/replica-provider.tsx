import { createContext, type ReactNode, useCallback, useContext, useEffect, useRef, useState } from 'react';
import type { ReplicaHandle } from '../db/replica';
import { ReplicaContext } from '../db/replica-context';
import { runLogoutClosers } from '../db/logout-closers';
import { resetSyncStatus } from '../db/sync-status';
import { useSession } from '../hooks/use-session';

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

/**
 * Opens the signed-in person's replica (ARCHITECTURE decision 6) after the shell has rendered:
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

  useEffect(() => {
    if (!personId) return;
    let cancelled = false;
    let handle: ReplicaHandle | null = null;
    const cancelIdle = afterPaint(() => {
      void import('../db/replica')
        .then((m) => m.openReplica(personId))
        .then((h) => {
          if (cancelled) return h.close();
          handle = h;
          current.current = h;
          setReplica(h);
        })
        .catch(() => {
          // IndexedDB unavailable (private mode on some browsers): the app still works online.
          resetSyncStatus();
        });
    });
    return () => {
      cancelled = true;
      cancelIdle();
      if (handle) {
        const h = handle;
        if (current.current === h) current.current = null;
        void h.close();
      }
      setReplica(null);
    };
  }, [personId]);

  const lastToken = useRef(token);
  useEffect(() => {
    if (token && lastToken.current && token !== lastToken.current) current.current?.syncNow();
    lastToken.current = token;
  }, [token]);

  const closeForLogout = useCallback(async ({ erase }: { erase: boolean }) => {
    // An editor's question bank (issue 19 §5) closes (or is erased) with the replica.
    await runLogoutClosers({ erase });
    const h = current.current;
    if (h) {
      current.current = null;
      await h.close({ erase });
    } else if (erase && personId) {
      const m = await import('../db/replica');
      await m.eraseReplica(personId).catch(() => undefined);
    }
  }, [personId]);

  return (
    <ReplicaControlContext.Provider value={{ closeForLogout }}>
      <ReplicaContext.Provider value={replica}>{children}</ReplicaContext.Provider>
    </ReplicaControlContext.Provider>
  );
}
