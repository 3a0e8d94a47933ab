import { describe, expect, test } from 'vitest';
import type { StoredResult } from '../hooks/use-result-data';
import { buildResultView } from './result-view';
import type { Attempt, Detail } from './test-engine';

/* docs/security.md "Times, ranking and sync quotas": a result that is not the learner's first at its set is practice, labelled as such. */

const detail: Detail = { id: 'qs', isM: true, main: { q: ['m1'], mpq: 1, tm: 1, nm: 0, o: 0 }, sections: {}, questions: [], v: 1 };

function attempt(id: string, st: number): Attempt {
  return { id, qsid: 'qs', st, sfs: st, lsq: null, index: 0, selectedSection: null, answers: {}, status: 'SUBMITTED', submittedAt: st + 1000, elapsed: 1000, updatedAt: st + 1000 };
}

function result(attemptId: string, practice: boolean): StoredResult {
  return {
    id: `r-${attemptId}`,
    qsid: 'qs',
    attemptId,
    marks: { wos: 0 },
    outOf: { wos: 1 },
    userRes: { wos: { m1: { ua: null, mg: 0 } } },
    totalMarks: 0,
    total: 1,
    questions: [],
    late: false,
    receipt: null,
    practice,
    pending: 0,
    submittedAt: 2000,
    elapsed: 1000,
    et: 2,
  };
}

const t = () => 'Main';
const isRight = () => null;

describe('practice attempts', () => {
  test('the server’s flag decides: its first result is ranked, a later one is practice', () => {
    const first = buildResultView({ set: null, detail, attempts: [attempt('a1', 1000)], results: [result('a1', false)] }, t, isRight);
    expect(first).toMatchObject({ fromServer: true, practice: false });
    const later = buildResultView({ set: null, detail, attempts: [attempt('a2', 5000), attempt('a1', 1000)], results: [result('a1', false), result('a2', true)] }, t, isRight);
    expect(later).toMatchObject({ fromServer: true, practice: true });
  });

  test('a result worked out on the device is practice when the learner submitted this set before', () => {
    const practiceSet = { ...detail, isM: false };
    const local = (_d: Detail, a: Attempt): StoredResult => ({ ...result(a.id, false), id: `local-${a.id}` });
    const only = buildResultView({ set: null, detail: practiceSet, attempts: [attempt('a1', 1000)], results: [] }, t, isRight, local);
    expect(only).toMatchObject({ fromServer: false, practice: false });
    const again = buildResultView({ set: null, detail: practiceSet, attempts: [attempt('a2', 5000), attempt('a1', 1000)], results: [result('a1', false)] }, t, isRight, local);
    expect(again).toMatchObject({ fromServer: false, practice: true });
  });
});

describe('the parts in the learner’s language (docs/exams.md "Set texts in two languages")', () => {
  const withSection: Detail = { ...detail, main: { ...detail.main, q: [] }, sections: { Reasoning: { ss: false, q: ['r1'], mpq: 2, tm: 2, nm: 0, o: 1 } } };
  const scored: StoredResult = { ...result('a1', false), marks: { wos: 0, Reasoning: 2 }, outOf: { wos: 0, Reasoning: 2 }, userRes: { wos: {}, Reasoning: { r1: { ua: 'a', mg: 2 } } } };
  const set = {
    id: 'qs', l: 'Reasoning test', mpq: 1, tm: 0, nm: 0, dur: 0, isM: true, free: false, inst: '', pts: 0, n: 0,
    sections: { Reasoning: { ss: false, n: 1, mpq: 2, tm: 2, nm: 0, o: 1, names: { hi: 'तर्कशक्ति' } } },
    trans: { hi: { l: 'तर्कशक्ति परीक्षा', inst: '' } }, total: 2, count: 1, updatedAt: 1, v: 1, tags: { s: [], e: [], c: [] },
  };
  const data = { set, detail: withSection, attempts: [attempt('a1', 1000)], results: [scored] };

  test('a section is named in Hindi where the set has it, in English otherwise; results stay keyed by the English name', () => {
    expect(buildResultView(data, t, isRight, undefined, 'hi')?.parts.map((p) => [p.key, p.label])).toEqual([['Reasoning', 'तर्कशक्ति']]);
    expect(buildResultView(data, t, isRight, undefined, 'en')?.parts.map((p) => [p.key, p.label])).toEqual([['Reasoning', 'Reasoning']]);
    expect(buildResultView({ ...data, set: null }, t, isRight, undefined, 'hi')?.parts.map((p) => p.label)).toEqual(['Reasoning']);
  });
});

describe('time taken (docs/exams.md "Time taken")', () => {
  test('the summary is the sum of the parts, each the sum of its questions, whatever the device’s elapsed says', () => {
    const two: Detail = { ...detail, main: { q: ['m1', 'm2'], mpq: 1, tm: 2, nm: 0, o: 0 }, sections: { S: { ss: false, q: ['s1'], mpq: 1, tm: 1, nm: 0, o: 1 } } };
    const a: Attempt = {
      ...attempt('a1', 1000),
      elapsed: 24_000,
      answers: { m1: { ua: null, status: 'VISITED', t: 1_400 }, m2: { ua: null, status: 'VISITED', t: 1_400 }, s1: { ua: null, status: 'VISITED', t: 179_600 } },
    };
    const r: StoredResult = { ...result('a1', false), userRes: { wos: { m1: { ua: null, mg: 0 }, m2: { ua: null, mg: 0 } }, S: { s1: { ua: null, mg: 0 } } } };
    const view = buildResultView({ set: null, detail: two, attempts: [a], results: [r] }, t, isRight)!;
    expect(view.parts.map((p) => p.questions.map((q) => q.timeS))).toEqual([[1, 1], [180]]);
    expect(view.parts.map((p) => p.timeS)).toEqual([2, 180]);
    expect(view.timeS).toBe(182);
  });
});
