import { useCallback } from 'react';
import { combineLatest, map } from 'rxjs';
import { timeTaken } from '@pm/protocol/time-taken';
import type { ReplicaDatabase } from '@/db/core/database';
import { useReplicaQuery } from '@/db/learner/use-replica-query';
import type { Attempt, Detail } from '../lib/test-engine';
import { scoreLocally } from '../lib/local-score';
import type { StoredResult } from './use-result-data';

/** One submitted attempt of the learner, as My results lists it (docs/exams.md "My results"). */
export type MyResultRow = {
  attemptId: string;
  qsid: string;
  /** The set's title, or its id when the set is no longer on this device. */
  title: string;
  submittedAt: number;
  /** Marks and maximum: the server's result, or a practice set's worked out on this device; null until scored. */
  score: { got: number; of: number; local: boolean } | null;
  /** Not the learner's first attempt at the set (never ranked). */
  practice: boolean;
  /** The server holds the attempt: its result is on this device. */
  synced: boolean;
  /** Seconds (docs/exams.md "Time taken"); null when the attempt itself is not on this device. */
  timeS: number | null;
};

/** Rows from the replica's documents, newest submission first: the whole list works offline. */
export function myResultRows(input: { sets: Map<string, string>; details: Map<string, Detail>; attempts: Attempt[]; results: StoredResult[] }): MyResultRow[] {
  const byAttempt = new Map(input.results.map((r) => [r.attemptId, r]));
  const submitted = input.attempts.filter((a) => a.status === 'SUBMITTED');
  const at = (a: Attempt) => byAttempt.get(a.id)?.submittedAt || a.submittedAt || a.updatedAt;
  // Oldest first, to tell the first attempt at each set (ranked) from later ones (practice).
  const ordered = [...submitted].sort((a, b) => at(a) - at(b) || a.st - b.st);
  const seen = new Set<string>();
  const rows = ordered.map((a): MyResultRow => {
    const stored = byAttempt.get(a.id) ?? null;
    const detail = input.details.get(a.qsid);
    const local = !stored && detail ? scoreLocally(detail, a) : null;
    const result = stored ?? local;
    // The server decides which attempt ranks; until its result arrives, one after another
    // attempt at the same set on this device, or after a result of it, is practice.
    const practice = stored ? stored.practice : seen.has(a.qsid) || input.results.some((r) => r.qsid === a.qsid && r.attemptId !== a.id);
    seen.add(a.qsid);
    // Before a result arrives the attempt's own answers are its questions (one part).
    const time = timeTaken(result ? result.userRes : { all: a.answers }, a.answers);
    return {
      attemptId: a.id,
      qsid: a.qsid,
      title: input.sets.get(a.qsid) ?? a.qsid,
      submittedAt: at(a),
      score: result ? { got: result.totalMarks, of: result.total, local: !stored } : null,
      practice,
      synced: stored !== null,
      timeS: time.total,
    };
  });
  // A result whose attempt is not on this device (not pulled yet): listed from the result alone.
  const attempted = new Set(submitted.map((a) => a.id));
  for (const r of input.results) {
    if (attempted.has(r.attemptId)) continue;
    rows.push({
      attemptId: r.attemptId,
      qsid: r.qsid,
      title: input.sets.get(r.qsid) ?? r.qsid,
      submittedAt: r.submittedAt,
      score: { got: r.totalMarks, of: r.total, local: false },
      practice: r.practice,
      synced: true,
      timeS: null,
    });
  }
  return rows.sort((a, b) => b.submittedAt - a.submittedAt);
}

/** Every attempt the learner submitted, from the replica (docs/exams.md "My results"). */
export function useMyResults() {
  const query = useCallback(
    (db: ReplicaDatabase) =>
      combineLatest([db.question_set.find().$, db.qs_detail.find().$, db.test_summary.find({ selector: { status: 'SUBMITTED' } }).$, db.exam_result.find().$]).pipe(
        map(([sets, details, attempts, results]) =>
          myResultRows({
            sets: new Map(sets.map((s) => [s.id, s.l])),
            details: new Map(details.map((d) => [d.id, d.toJSON() as Detail])),
            attempts: attempts.map((a) => a.toJSON() as Attempt),
            results: results.map((r) => r.toJSON() as StoredResult),
          }),
        ),
      ),
    [],
  );
  return useReplicaQuery(query);
}
