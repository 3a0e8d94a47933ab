import { describe, expect, test } from 'vitest';
import { distributionOf, histogramOf, learnersIn, rankIn } from './score-dist';

/** The server's definitions, written out as results.service rank's SQL computes them over a list of marks. */
function serverRank(all: number[], mine: number) {
  const above = all.filter((m) => m > mine).length;
  const atOrBelow = all.filter((m) => m <= mine).length;
  return { rank: above + 1, of: all.length, percentile: Math.round((atOrBelow / all.length) * 10_000) / 100 };
}

describe('histograms', () => {
  test('one bin per distinct mark, ascending, with its count', () => {
    expect(histogramOf([4, -0.5, 4, 0, 7.25, 4, 0])).toEqual({ m: [-0.5, 0, 4, 7.25], c: [1, 2, 3, 1] });
    expect(histogramOf([])).toEqual({ m: [], c: [] });
    expect(learnersIn(histogramOf([1, 1, 2]))).toBe(3);
  });

  test('sections get a histogram each (a learner without marks in one has 0 there); the main part none', () => {
    const d = distributionOf([
      { totalMarks: 3, marks: { wos: 0, Reasoning: 2, Hindi: 1 } },
      { totalMarks: 2, marks: { wos: 0, Reasoning: 2 } },
    ]);
    expect(d).toEqual({ n: 2, t: { m: [2, 3], c: [1, 1] }, s: { Hindi: { m: [0, 1], c: [1, 1] }, Reasoning: { m: [2], c: [2] } } });
    expect(distributionOf([{ totalMarks: 1, marks: { wos: 1 } }]).s).toEqual({});
  });
});

describe('the rank in a distribution is the server rank', () => {
  const cases: [string, number[], number][] = [
    ['one learner', [5], 5],
    ['ties share a rank', [8, 8, 8, 3, 10], 8],
    ['the lowest', [1, 2, 3, 4, 4], 1],
    ['negative and fractional marks', [-1.3333, 0, 2.6667, 2.6667, -0.6667], -0.6667],
    ['many learners', Array.from({ length: 5000 }, (_, i) => ((i * 7919) % 401) - 100), 37],
  ];
  test.each(cases)('%s: counted in the distribution', (_name, all, mine) => {
    expect(rankIn(histogramOf(all), mine, true)).toEqual(serverRank(all, mine));
  });
  test.each(cases)('%s: added to a distribution built without them', (_name, all, mine) => {
    const others = [...all];
    others.splice(others.indexOf(mine), 1);
    expect(rankIn(histogramOf(others), mine, false)).toEqual(serverRank(all, mine));
  });
  test('a score no one else has, into an empty distribution', () => {
    expect(rankIn(histogramOf([]), 3, false)).toEqual({ rank: 1, of: 1, percentile: 100 });
  });
});
