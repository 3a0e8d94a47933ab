import { startTransition, useEffect, useState } from 'react';
import type { Observable } from 'rxjs';
import type { ReplicaDatabase } from '../core/database';
import { useReplica } from './replica-context';

export type ReplicaQueryResult<T> = {
  /** Undefined until the replica is open and the query has answered once. */
  data: T | undefined;
  /** True until then. */
  loading: boolean;
};

/**
 * Subscribes to a live RxDB query of the signed-in person's replica. `query` must be stable
 * across renders (wrap it in useCallback) and return an observable, e.g.
 * `(db) => db.question_set.find().$`.
 *
 * Each answer is drawn as a transition: React works through it in slices of a few milliseconds
 * and yields to the browser between them. A list of every set with its cards and pickers, drawn
 * in one task as the replica opens, held a phone's main thread for ~0.5 s at 4× CPU
 * (docs/benchmarks.md "bench:lighthouse": total blocking time); input in between is answered first.
 */
export function useReplicaQuery<T>(query: (db: ReplicaDatabase) => Observable<T>): ReplicaQueryResult<T> {
  const replica = useReplica();
  const [state, setState] = useState<{ db: ReplicaDatabase | null; query: unknown; data: T | undefined }>({ db: null, query: null, data: undefined });
  const db = replica?.db ?? null;

  useEffect(() => {
    if (!db) return;
    const sub = query(db).subscribe((data) => startTransition(() => setState({ db, query, data })));
    return () => sub.unsubscribe();
  }, [db, query]);

  const current = state.db === db && state.query === query;
  return { data: current ? state.data : undefined, loading: !current };
}
