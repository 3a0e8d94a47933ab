import { useCallback } from 'react';
import { combineLatest, map, timer } from 'rxjs';
import type { ReplicaDatabase } from '@/db/core/database';
import { useReplica } from '@/db/learner/replica-context';
import { serverClock } from '@/db/sync/server-clock';
import { useReplicaQuery } from '@/db/learner/use-replica-query';
import { type Allowance, allowanceOf, type Entitlement, type GateAttempt, type GateSet } from '../lib/allowance';

/** A plan can end while the page is open: the allowance is worked out again this often. */
const RECHECK_MS = 60_000;

export type AllowanceData = {
  /** The learner's entitlement document (null before its first pull, or without any plan ever). */
  entitlement: Entitlement | null;
  allowance: Allowance;
  /** Sets with an unfinished attempt on this device: resuming one is never blocked. */
  resumable: Set<string>;
};

/** The learner's entitlement document, live from the replica (it is there offline). */
export function useEntitlement() {
  const personId = useReplica()?.personId ?? '';
  const query = useCallback(
    (db: ReplicaDatabase) => db.entitlement.findOne(personId).$.pipe(map((d) => (d?.toJSON() as Entitlement | undefined) ?? null)),
    [personId],
  );
  return useReplicaQuery(query);
}

/**
 * What the learner may start now (lib/allowance), from the replica only: the entitlement, the
 * sets and the attempts on this device, on server-corrected time.
 */
export function useAllowance() {
  const personId = useReplica()?.personId ?? '';
  const query = useCallback(
    (db: ReplicaDatabase) =>
      combineLatest([db.entitlement.findOne(personId).$, db.question_set.find().$, db.test_summary.find().$, timer(0, RECHECK_MS)]).pipe(
        map(([e, sets, attempts]): AllowanceData => {
          const entitlement = (e?.toJSON() as Entitlement | undefined) ?? null;
          const gateSets: GateSet[] = sets.map((s) => ({ id: s.id, isM: s.isM, free: s.free }));
          const gateAttempts: GateAttempt[] = attempts.map((a) => ({ id: a.id, qsid: a.qsid, st: a.st }));
          return {
            entitlement,
            allowance: allowanceOf(entitlement, gateSets, gateAttempts, serverClock.now()),
            resumable: new Set(attempts.filter((a) => a.status === 'IN_PROGRESS').map((a) => a.qsid)),
          };
        }),
      ),
    [personId],
  );
  return useReplicaQuery(query);
}
