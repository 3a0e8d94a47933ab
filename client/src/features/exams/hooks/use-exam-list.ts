import { useCallback } from 'react';
import { combineLatest, map } from 'rxjs';
import type { QuestionSetDoc } from '../../../../../sync-protocol/src/sync/question-set';
import type { QsDetailDoc } from '../../../../../sync-protocol/src/sync/qs-detail';
import type { ReplicaDatabase } from '../../../db/database';
import { mediaUrlsOf } from '../../../lib/media-precache';
import { useReplicaQuery } from '../../../db/use-replica-query';

/**
 * Where a set's questions stand on this device: `onDevice` (stored and current), `downloading`
 * (not stored yet) or `changed` (stored, but the server has changed the set or one of its
 * questions since: the new version is on its way).
 */
export type Availability = 'onDevice' | 'downloading' | 'changed';

export type ExamListItem = {
  set: Omit<QuestionSetDoc, '_deleted'>;
  availability: Availability;
  /** The images of the set's stored questions (all must be in the media cache for it to be complete). */
  media: string[];
};

/** A set's availability from the version of the questions stored here (undefined: none). */
export function availabilityOf(setVersion: number, storedVersion: number | undefined): Availability {
  if (storedVersion === undefined) return 'downloading';
  return storedVersion < setVersion ? 'changed' : 'onDevice';
}

/**
 * The learner's question sets from the local replica (they are there offline), newest publish
 * time first, each with whether its questions are on this device and current.
 */
export function useExamList() {
  const query = useCallback(
    (db: ReplicaDatabase) =>
      combineLatest([db.question_set.find({ sort: [{ pts: 'desc' }, { id: 'asc' }] } as never).$, db.qs_detail.find().$]).pipe(
        map(([sets, details]) => {
          const stored = new Map(details.map((d) => [d.id, d]));
          return sets.map((s): ExamListItem => {
            const detail = stored.get(s.id);
            return {
              set: s.toJSON() as ExamListItem['set'],
              availability: availabilityOf(s.v, detail?.v),
              media: detail ? mediaUrlsOf(detail.toJSON() as QsDetailDoc) : [],
            };
          });
        }),
      ),
    [],
  );
  return useReplicaQuery(query);
}
