import { describe, expect, test } from 'vitest';
import { type Histogram, histogramOf, rankIn } from './score-dist';
import { decodeHistogram, encodeHistogram } from './score-dist-code';
import { round } from './scoring';
import { mulberry32 } from './seeded-random';

/*
 * The compact form of a histogram is exact (docs/live-tests.md "The compact form"): whatever
 * went in comes out, so the rank a device works out from it is the one the lists give, for
 * every score. Random histograms of every shape a set can give, and the odd ones a set never
 * gives (marks off the 4-decimal grid, huge counts).
 */


/** Marks per right answer and per wrong one that sets use (0.3333: a third, as an editor types it). */
const MARKINGS: [number, number][] = [
  [1, 0],
  [1, 0.25],
  [2, 0.5],
  [4, 1],
  [3, 1],
  [1, 0.3333],
  [2, 0.66],
  [1.5, 0.5],
];

/**
 * The totals of `learners` learners at a set of `questions` questions, each with a skill of their
 * own: right answers about skill × questions, wrong ones about half the rest (a normal spread
 * around both, so that a set's whole range of totals turns up).
 */
function totalsOf(random: () => number, questions: number, [right, wrong]: [number, number], learners: number): number[] {
  const mean = random();
  const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const clamp = (x: number, hi: number) => Math.min(hi, Math.max(0, Math.round(x)));
  return Array.from({ length: learners }, () => {
    const skill = Math.min(1, Math.max(0, mean + (random() - 0.5) * random()));
    const r = clamp(questions * skill + normal() * Math.sqrt(questions * skill * (1 - skill)), questions);
    const w = clamp(((questions - r) / 2) * (1 + normal() / 3), questions - r);
    return round(r * right - w * wrong);
  });
}

/**
 * Scores to rank: each bin, a step of 0.0001 and of 1 either side, and the values between bins
 * — every one for a histogram of up to 100 bins, an even spread of them beyond (a rank is a
 * walk over the bins, and 0.3333 marking gives thousands).
 */
function probes(h: Histogram): number[] {
  const every = Math.max(1, Math.floor(h.m.length / 100));
  const bins = new Set([...h.m.keys()].filter((i) => i % every === 0 || i === h.m.length - 1));
  const out = new Set<number>();
  for (const i of bins) {
    const m = h.m[i]!;
    out.add(m).add(round(m - 0.0001)).add(round(m + 0.0001)).add(round(m - 1)).add(round(m + 1));
    if (i > 0) out.add(round((m + h.m[i - 1]!) / 2));
  }
  return [...out];
}

function expectExact(h: Histogram, label: string) {
  const code = encodeHistogram(h);
  expect(code, label).toMatch(/^[A-Za-z0-9_-]*$/);
  const decoded = decodeHistogram(code);
  expect(decoded, label).toEqual(h);
  const scores = probes(h);
  const ranks = (of: Histogram, counted: boolean) => scores.map((marks) => [marks, rankIn(of, marks, counted)]);
  expect(ranks(decoded, true), label).toEqual(ranks(h, true));
  expect(ranks(decoded, false), label).toEqual(ranks(h, false));
  // And straight from the string, as a device ranks.
  const mine = scores[Math.floor(scores.length / 2)] ?? 0;
  expect(rankIn(code, mine, false), label).toEqual(rankIn(h, mine, false));
  return code;
}

describe('encode → decode gives back the histogram, and the same rank for every score', () => {
  test('random sets: 5 to 200 questions, every marking, 1 to 20,000 learners', () => {
    const random = mulberry32(44);
    for (let i = 0; i < 120; i++) {
      const questions = 5 + Math.floor(random() * 196);
      const marking = MARKINGS[Math.floor(random() * MARKINGS.length)]!;
      const learners = 1 + Math.floor(random() ** 2 * 20_000);
      expectExact(histogramOf(totalsOf(random, questions, marking, learners)), `set ${i}: ${questions} q at ${marking.join('/')}, ${learners} learners`);
    }
  });

  test('random marks and counts with no set behind them: any 4-decimal marks, counts up to millions', () => {
    const random = mulberry32(7);
    for (let i = 0; i < 100; i++) {
      const bins = 1 + Math.floor(random() * 300);
      const marks = new Set<number>();
      const scale = [1, 100, 10_000, 10_000_000][i % 4]!;
      while (marks.size < bins) marks.add(round((random() - 0.3) * scale));
      const m = [...marks].sort((a, b) => a - b);
      const c = m.map(() => 1 + Math.floor(random() ** 3 * [10, 1000, 5_000_000][i % 3]!));
      expectExact({ m, c }, `histogram ${i}`);
    }
  });

  test('the edges: no learner, one bin, negative marks only, marks off the 4-decimal grid', () => {
    expect(encodeHistogram({ m: [], c: [] })).toBe('');
    expectExact({ m: [], c: [] }, 'empty');
    expectExact({ m: [7], c: [1] }, 'one learner');
    expectExact({ m: [0], c: [10_000] }, 'everyone at 0');
    expectExact({ m: [-3, -2.5, -0.25], c: [4, 1, 9] }, 'negative');
    expectExact({ m: [0.1 + 0.2, 1, Math.PI], c: [2, 3, 1] }, 'off the grid');
    expectExact({ m: [-1e12, 1e-7, 5e15], c: [1, 2, 3] }, 'beyond the grid');
    expectExact({ m: [0, 1_000_000], c: [1, 1] }, 'two far apart');
  });

  test('a realistic 10,000-learner histogram of a 100-question set takes a few hundred characters', () => {
    const random = mulberry32(100);
    const h = histogramOf(totalsOf(random, 100, [2, 0.5], 10_000));
    const code = expectExact(h, '10,000 learners');
    // ~0.9 characters a bin, where the two lists take ~7 bytes a bin (docs/benchmarks.md "bench:score-dist").
    expect(code.length).toBeLessThan(h.m.length * 1.2);
    expect(JSON.stringify(h).length).toBeGreaterThan(h.m.length * 5);
  });
});

test('the encoder writes each of its three forms where it fits (the form is the first bits: 1 dense, 010 sparse, 011 raw)', () => {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const formOf = (h: Histogram) => {
    const first = alphabet.indexOf(encodeHistogram(h)[0]!);
    if (first >= 32) return 'dense';
    return ({ 2: 'sparse', 3: 'raw' } as Record<number, string>)[first >> 3] ?? 'unknown';
  };
  expect(formOf({ m: [0, 0.5, 1, 1.5, 2.5], c: [3, 8, 12, 7, 1] })).toBe('dense');
  expect(formOf({ m: [0, 0.0001, 3, 700, 5000], c: [1, 1, 1, 1, 1] })).toBe('sparse');
  expect(formOf({ m: [0.1 + 0.2, 1], c: [2, 3] })).toBe('raw');
});

describe('a string it did not write', () => {
  test('is refused, never read as some other histogram', () => {
    const code = encodeHistogram({ m: [0, 1, 2, 3], c: [5, 9, 4, 1] });
    expect(() => decodeHistogram(code.slice(0, 2))).toThrow(RangeError);
    expect(() => decodeHistogram(`${code.slice(0, -1)}!`)).toThrow(RangeError);
    expect(() => decodeHistogram('_'.repeat(20))).toThrow(RangeError);
  });
});
