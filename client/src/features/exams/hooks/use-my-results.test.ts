import { expect, test } from 'vitest';
import type { Attempt } from '../lib/test-engine';
import { myResultRows } from './use-my-results';
import type { StoredResult } from './use-result-data';

/* docs/exams.md "My results": every submitted attempt, newest first, from the replica alone. */

function attempt(id: string, qsid: string, st: number, answers: Attempt['answers'] = {}, status: Attempt['status'] = 'SUBMITTED'): Attempt {
  return { id, qsid, st, sfs: 0, lsq: null, index: 0, selectedSection: null, answers, status, submittedAt: st + 60_000, elapsed: 60_000, updatedAt: st + 60_000 };
}

function result(a: Attempt, practice: boolean, userRes: StoredResult['userRes']): StoredResult {
  return {
    id: `r-${a.id}`,
    qsid: a.qsid,
    attemptId: a.id,
    marks: { wos: 2 },
    outOf: { wos: 4 },
    userRes,
    totalMarks: 2,
    total: 4,
    questions: [],
    late: false,
    receipt: null,
    practice,
    pending: 0,
    submittedAt: a.submittedAt!,
    elapsed: 60_000,
    et: 0,
  };
}

const sets = new Map([['qs-a', 'Set A']]);

test('scored, waiting and practice attempts, newest first, with the time taken of the result page', () => {
  const first = attempt('a1', 'qs-a', 1_000, { q1: { ua: 'a', status: 'ANSWERED', t: 1_400 }, q2: { ua: null, status: 'VISITED', t: 1_400 } });
  const second = attempt('a2', 'qs-a', 500_000, { q1: { ua: 'b', status: 'ANSWERED', t: 9_600 } });
  const open = attempt('a3', 'qs-a', 900_000, {}, 'IN_PROGRESS');
  const rows = myResultRows({ sets, details: new Map(), attempts: [first, second, open], results: [result(first, false, { wos: { q1: { ua: 'a', mg: 2 }, q2: { ua: null, mg: 0 } } })] });
  expect(rows.map((r) => r.attemptId)).toEqual(['a2', 'a1']);
  expect(rows[1]).toMatchObject({ title: 'Set A', synced: true, practice: false, score: { got: 2, of: 4, local: false }, timeS: 2 });
  // Not on the server yet: no score (a mock), practice (after another attempt at the set), its own time.
  expect(rows[0]).toMatchObject({ synced: false, practice: true, score: null, timeS: 10 });
});

test('a result whose attempt is not on this device is listed from the result; an unknown set shows its id', () => {
  const elsewhere = attempt('b1', 'qs-gone', 2_000);
  const rows = myResultRows({ sets, details: new Map(), attempts: [], results: [result(elsewhere, true, { wos: {} })] });
  expect(rows).toEqual([
    { attemptId: 'b1', qsid: 'qs-gone', title: 'qs-gone', submittedAt: elsewhere.submittedAt, score: { got: 2, of: 4, local: false }, practice: true, synced: true, timeS: null },
  ]);
});
