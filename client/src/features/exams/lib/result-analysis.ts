import { type HistogramOrCode, type ProvisionalRank, rankIn } from '@pm/protocol/score-dist';
import type { ResultView } from './result-view';

/*
 * What the result page works out on the device, without the server (docs/live-tests.md
 * "Provisional rank on the device"): the rank of the learner's score in the set's published
 * distribution until the server's rank arrives, and an analysis of the marks the result page's
 * summary does not give (marks lost to negative marking, accuracy and time per section).
 */

/**
 * The learner's provisional rank: their total in the set's distribution (sync-protocol
 * score-dist.ts, the server's definitions). None for a practice attempt (it has no rank) or
 * without a published distribution. A result scored on this device has not reached the server,
 * so the learner is added to the distribution; a result from the server is taken as counted in it.
 * The replica holds the histogram in its compact form (docs/live-tests.md "The compact form"); one
 * that does not decode gives no provisional rank rather than a wrong one.
 */
export function provisionalRank(view: Pick<ResultView, 'practice' | 'fromServer' | 'totalMarks'>, dist: { readonly t: HistogramOrCode } | null | undefined): ProvisionalRank | null {
  if (view.practice || !dist) return null;
  try {
    return rankIn(dist.t, view.totalMarks, view.fromServer);
  } catch (err) {
    if (err instanceof RangeError) return null;
    throw err;
  }
}

export type PartAnalysis = {
  key: string;
  label: string;
  right: number;
  wrong: number;
  /** Right out of answered and judged, in percent; null when nothing was judged. */
  accuracy: number | null;
  /** Marks lost to negative marking (a positive number). */
  lost: number;
  /** Seconds per answered question; null when none was answered. */
  perAnswered: number | null;
};

export type ResultAnalysis = { lost: number; parts: PartAnalysis[] };

const sum = (xs: number[]) => Math.round(xs.reduce((a, b) => a + b, 0) * 10_000) / 10_000;

/** Per part and in all: what negative marking cost, accuracy, and time per answered question. */
export function analyseResult(view: Pick<ResultView, 'parts'>): ResultAnalysis {
  const parts = view.parts.map((p): PartAnalysis => {
    const right = p.questions.filter((q) => q.verdict === 'correct').length;
    const wrong = p.questions.filter((q) => q.verdict === 'incorrect').length;
    const answered = p.questions.filter((q) => q.verdict !== 'unanswered');
    return {
      key: p.key,
      label: p.label,
      right,
      wrong,
      accuracy: right + wrong > 0 ? Math.round((100 * right) / (right + wrong)) : null,
      lost: sum(p.questions.map((q) => (q.mg !== null && q.mg < 0 ? -q.mg : 0))),
      perAnswered: answered.length > 0 ? Math.round(sum(answered.map((q) => q.timeS)) / answered.length) : null,
    };
  });
  return { lost: sum(parts.map((p) => p.lost)), parts };
}
