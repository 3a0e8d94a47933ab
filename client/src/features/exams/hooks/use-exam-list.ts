import { useCallback } from 'react';
import { combineLatest, map } from 'rxjs';
import type { QuestionSetDoc } from '../../../../../sync-protocol/src/sync/question-set';
import type { ReplicaDatabase } from '../../../db/database';
import { useReplicaQuery } from '../../../db/use-replica-query';

export type ExamListItem = {
  set: Omit<QuestionSetDoc, '_deleted'>;
  /** `onDevice`: the questions are stored here; `downloading`: not yet. */
  availability: 'onDevice' | 'downloading';
};

/**
 * The learner's question sets from the local replica (they are there offline), newest publish
 * time first, each with whether its questions are already on this device.
 */
export function useExamList() {
  const query = useCallback(
    (db: ReplicaDatabase) =>
      combineLatest([db.question_set.find({ sort: [{ pts: 'desc' }, { id: 'asc' }] } as never).$, db.qs_detail.find().$]).pipe(
        map(([sets, details]) => {
          const stored = new Set(details.map((d) => d.id));
          return sets.map((s): ExamListItem => ({ set: s.toJSON() as ExamListItem['set'], availability: stored.has(s.id) ? 'onDevice' : 'downloading' }));
        }),
      ),
    [],
  );
  return useReplicaQuery(query);
}
