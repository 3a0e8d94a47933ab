import { describe, expect, test } from 'vitest';
import type { StoredResult } from '../hooks/use-result-data';
import { buildResultView } from './result-view';
import type { Attempt, Detail } from './test-engine';

/* Issue 16 §2: a result that is not the learner's first at its set is practice, labelled as such. */

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
