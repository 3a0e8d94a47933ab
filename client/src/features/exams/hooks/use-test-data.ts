import { useCallback } from 'react';
import { combineLatest, map } from 'rxjs';
import type { ReplicaDatabase } from '@/db/core/database';
import { useReplicaQuery } from '@/db/learner/use-replica-query';
import type { QuestionSetDoc } from '@pm/protocol/sync/question-set';
import type { Attempt, Detail } from '../lib/test-engine';

export type QuestionSet = Omit<QuestionSetDoc, '_deleted'>;

/** A set, its questions and the learner's attempts at it, live from the replica. */
export function useTestData(qsid: string | null) {
  const query = useCallback(
    (db: ReplicaDatabase) =>
      combineLatest([
        db.question_set.findOne(qsid ?? '').$,
        db.qs_detail.findOne(qsid ?? '').$,
        db.test_summary.find({ selector: { qsid: qsid ?? '' } }).$,
      ]).pipe(
        map(([set, detail, attempts]) => ({
          set: (set?.toJSON() as QuestionSet | undefined) ?? null,
          detail: (detail?.toJSON() as Detail | undefined) ?? null,
          attempts: attempts.map((a) => a.toJSON() as Attempt).sort((a, b) => b.st - a.st),
        })),
      ),
    [qsid],
  );
  return useReplicaQuery(query);
}
