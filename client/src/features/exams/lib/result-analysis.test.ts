import { describe, expect, test } from 'vitest';
import { histogramOf } from '@pm/protocol/score-dist';
import { analyseResult, provisionalRank } from './result-analysis';
import type { QuestionOutcome } from './result-view';

const q = (verdict: QuestionOutcome['verdict'], mg: number | null, timeS: number): QuestionOutcome => ({ qid: `q${Math.random()}`, n: 1, question: undefined, ua: null, ca: null, mg, verdict, timeS });

describe('provisional rank', () => {
  const dist = { t: histogramOf([10, 8, 8, 5, 3, 3, 2, 1, 0, -1]) };
  test('a result scored on this device is added to the distribution', () => {
    expect(provisionalRank({ practice: false, fromServer: false, totalMarks: 8 }, dist)).toEqual({ rank: 2, of: 11, percentile: 90.91 });
  });
  test("the server's result is taken as counted", () => {
    expect(provisionalRank({ practice: false, fromServer: true, totalMarks: 8 }, dist)).toEqual({ rank: 2, of: 10, percentile: 90 });
  });
  test('none for a practice attempt or without a distribution', () => {
    expect(provisionalRank({ practice: true, fromServer: false, totalMarks: 8 }, dist)).toBeNull();
    expect(provisionalRank({ practice: false, fromServer: false, totalMarks: 8 }, null)).toBeNull();
  });
});

test('analysis: marks lost to negative marking, accuracy and time per answered question, per part', () => {
  const a = analyseResult({
    parts: [
      { key: 'wos', label: 'Main', marks: 0, outOf: 0, timeS: 0, questions: [q('correct', 2, 30), q('incorrect', -0.5, 50), q('incorrect', -0.5, 10), q('unanswered', 0, 5)] },
      { key: 'Hindi', label: 'Hindi', marks: 0, outOf: 0, timeS: 0, questions: [q('unanswered', 0, 0), q('pending', null, 40)] },
    ],
  });
  expect(a.lost).toBe(1);
  expect(a.parts[0]).toEqual({ key: 'wos', label: 'Main', right: 1, wrong: 2, accuracy: 33, lost: 1, perAnswered: 30 });
  expect(a.parts[1]).toEqual({ key: 'Hindi', label: 'Hindi', right: 0, wrong: 0, accuracy: null, lost: 0, perAnswered: 40 });
});
