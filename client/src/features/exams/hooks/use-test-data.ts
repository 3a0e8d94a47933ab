import { useCallback } from 'react';
import { combineLatest, map } from 'rxjs';
import type { ReplicaDatabase } from '@/db/core/database';
import { sharedSet$ } from '@/db/learner/shared-sets';
import { useReplicaQuery } from '@/db/learner/use-replica-query';
import type { QuestionSetDoc } from '@pm/protocol/sync/question-set';
import type { Attempt, Detail } from '../lib/test-engine';

export type QuestionSet = Omit<QuestionSetDoc, '_deleted'>;

/** A set, its questions and the learner's attempts at it, live from the replica (or a shared copy of the set, docs/live-tests.md). */
export function useTestData(qsid: string | null) {
  const query = useCallback(
    (db: ReplicaDatabase) =>
      combineLatest([
        db.question_set.findOne(qsid ?? '').$,
        db.qs_detail.findOne(qsid ?? '').$,
        db.test_summary.find({ selector: { qsid: qsid ?? '' } }).$,
        sharedSet$(db, qsid ?? ''),
      ]).pipe(
        map(([set, detail, attempts, shared]) => ({
          // A set handed over from another phone while the replica has none (db/learner/shared-sets.ts).
          set: (set?.toJSON() as QuestionSet | undefined) ?? shared?.set ?? null,
          detail: (detail?.toJSON() as Detail | undefined) ?? shared?.detail ?? null,
          attempts: attempts.map((a) => a.toJSON() as Attempt).sort((a, b) => b.st - a.st),
        })),
      ),
    [qsid],
  );
  return useReplicaQuery(query);
}
