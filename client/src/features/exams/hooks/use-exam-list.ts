import { useCallback } from 'react';
import { combineLatest, distinctUntilChanged, map } from 'rxjs';
import type { QuestionSetDoc } from '@pm/protocol/sync/question-set';
import type { QsDetailDoc } from '@pm/protocol/sync/qs-detail';
import type { LiveDetail } from '@pm/protocol/live-test';
import type { ReplicaDatabase } from '@/db/core/database';
import { mediaUrlsOf } from '@/lib/media-precache';
import { useReplicaQuery } from '@/db/learner/use-replica-query';

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
  /**
   * A live test's times, from its questions' document on this device (`qs_detail.live`), so the
   * list shows them offline (docs/live-tests.md "Live tests"); null for any other set, or while
   * the set's questions are not here.
   */
  live: LiveTimes | null;
};

/** When a live test starts, how long it may be started in, and when its results open (ms, server clock). */
export type LiveTimes = Pick<LiveDetail, 'start' | 'win' | 'res'>;

/** The times of a stored detail's live test, without its sealed paper. */
function liveTimesOf(detail: QsDetailDoc | undefined): LiveTimes | null {
  const live = detail?.live;
  return live ? { start: live.start, win: live.win, res: live.res } : null;
}

/** A set's availability from the version of the questions stored here (undefined: none). */
export function availabilityOf(setVersion: number, storedVersion: number | undefined): Availability {
  if (storedVersion === undefined) return 'downloading';
  return storedVersion < setVersion ? 'changed' : 'onDevice';
}

/**
 * The learner's question sets from the local replica (they are there offline), newest publish
 * time first, each with whether its questions are on this device and current.
 */
/** What one emission of the list is made from: a set and its stored questions, as RxDB documents. */
type Source = { id: string; revision: string; toJSON(): unknown; v: number };

/** One set's item, from its document and its stored questions' document (if any). */
function itemOf(set: Source, detail: Source | undefined): ExamListItem {
  const stored = detail?.toJSON() as QsDetailDoc | undefined;
  return {
    set: set.toJSON() as ExamListItem['set'],
    availability: availabilityOf(set.v, detail?.v),
    media: stored ? mediaUrlsOf(stored) : [],
    live: liveTimesOf(stored),
  };
}

/**
 * Builds the list's items from each emission of the two queries, keeping the item (and, when no
 * item changed, the whole array) of the previous emission where the set's and its questions'
 * revisions are the same: the page and its cards are memoised on them, so the many emissions
 * while the replica starts (docs/benchmarks.md "bench:lighthouse": blocking time on a phone) redraw only what changed.
 */
export function stableExamItems() {
  let previous: ExamListItem[] = [];
  let cache = new Map<string, { key: string; item: ExamListItem }>();
  return (sets: readonly Source[], details: readonly Source[]): ExamListItem[] => {
    const stored = new Map(details.map((d) => [d.id, d]));
    const next = new Map<string, { key: string; item: ExamListItem }>();
    const items = sets.map((s): ExamListItem => {
      const detail = stored.get(s.id);
      const key = `${s.revision}|${detail?.revision ?? ''}`;
      const kept = cache.get(s.id);
      const item = kept && kept.key === key ? kept.item : itemOf(s, detail);
      next.set(s.id, { key, item });
      return item;
    });
    cache = next;
    if (items.length === previous.length && items.every((item, i) => item === previous[i])) return previous;
    previous = items;
    return items;
  };
}

export function useExamList() {
  const query = useCallback((db: ReplicaDatabase) => {
    const toItems = stableExamItems();
    return combineLatest([db.question_set.find({ sort: [{ pts: 'desc' }, { id: 'asc' }] } as never).$, db.qs_detail.find().$]).pipe(
      map(([sets, details]) => toItems(sets as unknown as Source[], details as unknown as Source[])),
      distinctUntilChanged(),
    );
  }, []);
  return useReplicaQuery(query);
}
