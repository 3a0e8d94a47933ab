import { useCallback } from 'react';
import { combineLatest, map } from 'rxjs';
import type { ExamResultDoc } from '@pm/protocol/sync/exam-result';
import type { ScoreDistDoc } from '@pm/protocol/sync/score-dist';
import type { ReplicaDatabase } from '@/db/core/database';
import { sharedSet$ } from '@/db/learner/shared-sets';
import { useReplicaQuery } from '@/db/learner/use-replica-query';
import type { QuestionSet } from './use-test-data';
import type { Attempt, Detail } from '../lib/test-engine';

export type StoredResult = Omit<ExamResultDoc, '_deleted'>;
export type StoredDist = Omit<ScoreDistDoc, '_deleted'>;

/**
 * The set, its questions, the learner's attempts and results for it, and the set's score
 * distribution (docs/live-tests.md "Provisional rank on the device"), live from the replica.
 */
export function useResultData(qsid: string) {
  const query = useCallback(
    (db: ReplicaDatabase) =>
      combineLatest([
        db.question_set.findOne(qsid).$,
        db.qs_detail.findOne(qsid).$,
        db.test_summary.find({ selector: { qsid } }).$,
        db.exam_result.find({ selector: { qsid } }).$,
        sharedSet$(db, qsid),
        db.score_dist.findOne(qsid).$,
      ]).pipe(
        map(([set, detail, attempts, results, shared, dist]) => ({
          // A set handed over from another phone while the replica has none (db/learner/shared-sets.ts).
          set: (set?.toJSON() as QuestionSet | undefined) ?? shared?.set ?? null,
          detail: (detail?.toJSON() as Detail | undefined) ?? shared?.detail ?? null,
          attempts: attempts.map((a) => a.toJSON() as Attempt).sort((a, b) => b.st - a.st),
          results: results.map((r) => r.toJSON() as StoredResult),
          dist: (dist?.toJSON() as StoredDist | undefined) ?? null,
        })),
      ),
    [qsid],
  );
  return useReplicaQuery(query);
}
