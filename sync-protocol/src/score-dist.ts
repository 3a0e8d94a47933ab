/*
 * A set's score distribution and the rank a device works out from it (docs/live-tests.md
 * "Provisional rank on the device"). Pure, shared by the server, which builds the distribution
 * from the results its GET /question/getRank counts, and the device, which ranks its own score in
 * it. The definitions are the server's `rank` (results.service.ts): rank = 1 + learners with more
 * marks (equal marks share a rank); percentile = the share of learners with the same or fewer
 * marks, to 2 decimals. The bins are exact marks (never ranges), so the two agree exactly; on the
 * wire each histogram is one string (score-dist-code.ts), decoded as exactly.
 */

import { decodeHistogram } from './score-dist-code';

/** Fewest ranked learners a set needs before its distribution is published (fewer would tell a learner others' marks). */
export const MIN_RANKED = 10;

/** Most bins a histogram may have (marks are kept to 4 decimals; a 1,000-question set at 4 marks each has 5,001 totals). */
export const MAX_BINS = 5001;

/** Distinct marks in ascending order (`m`), and how many learners have each (`c`). */
export type Histogram = { m: number[]; c: number[] };
/** A histogram as read (a replica's documents are read-only). */
type HistogramOf = { readonly m: readonly number[]; readonly c: readonly number[] };
/** A histogram, or its compact form as it replicates (score-dist-code.ts encodeHistogram). */
export type HistogramOrCode = HistogramOf | string;

/** The histogram itself, whichever form it came in. */
export const histogramIn = (h: HistogramOrCode): HistogramOf => (typeof h === 'string' ? decodeHistogram(h) : h);

export type ProvisionalRank = { rank: number; of: number; percentile: number };

/** The histogram of some learners' marks (one value per learner). */
export function histogramOf(values: Iterable<number>): Histogram {
  const counts = new Map<number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  const m = [...counts.keys()].sort((a, b) => a - b);
  return { m, c: m.map((v) => counts.get(v)!) };
}

/** Learners in a histogram. */
export const learnersIn = (h: HistogramOrCode) => histogramIn(h).c.reduce((a, b) => a + b, 0);

/**
 * The rank of `marks` among the learners of `h`, by the server's definitions. `counted`: the
 * learner is already one of them (their result reached the server before the distribution was
 * built); otherwise they are added, as the server will once their result arrives.
 */
export function rankIn(histogram: HistogramOrCode, marks: number, counted: boolean): ProvisionalRank {
  const h = histogramIn(histogram);
  let above = 0;
  let atOrBelow = 0;
  for (let i = 0; i < h.m.length; i++) {
    if (h.m[i]! > marks) above += h.c[i]!;
    else atOrBelow += h.c[i]!;
  }
  const self = counted ? 0 : 1;
  const of = above + atOrBelow + self;
  return { rank: above + 1, of, percentile: Math.round(((atOrBelow + self) / of) * 10_000) / 100 };
}

/** One ranked result as the distribution needs it: its total and its marks per part (`wos` the main part). */
export type RankedMarks = { totalMarks: number; marks: Record<string, number> };

/** The main part's key in `marks` (scoring.ts MAIN_PART; not imported, to keep this module's imports light on a device). */
const MAIN = 'wos';

/**
 * The distribution of a set's ranked results: the totals, and each section's marks when the set
 * has sections (the main part alone would repeat the totals).
 */
export function distributionOf(rows: readonly RankedMarks[]): { n: number; t: Histogram; s: Record<string, Histogram> } {
  const sections = new Set<string>();
  for (const r of rows) for (const k of Object.keys(r.marks)) if (k !== MAIN) sections.add(k);
  const s: Record<string, Histogram> = {};
  for (const name of [...sections].sort()) s[name] = histogramOf(rows.map((r) => r.marks[name] ?? 0));
  return { n: rows.length, t: histogramOf(rows.map((r) => r.totalMarks)), s };
}
