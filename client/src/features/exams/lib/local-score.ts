import { answerKey, isRight } from '@pm/protocol/marking';
import { keyQuestion, type KeyQuestion, partsOf, score } from '@pm/protocol/scoring';
import type { ResultQuestion } from '@pm/protocol/sync/exam-result';
import type { TestQuestion } from '@pm/protocol/sync/qs-detail';
import type { StoredResult } from '../hooks/use-result-data';
import type { Attempt, Detail } from './test-engine';

/** A question with its correct answers, or null where the device was not given them (mocks). */
function withAnswers(q: TestQuestion | ResultQuestion): ResultQuestion | null {
  if (!q.ca) return null;
  return { ...q, ca: q.ca, trans: Object.fromEntries(Object.entries(q.trans).map(([l, t]) => [l, { ...t, ca: t.ca ?? [] }])) };
}

/** Whether an answer is right, by the server's own rules (sync-protocol/src/marking.ts). */
export function judge(q: TestQuestion | ResultQuestion, ua: string | string[]): boolean | null {
  const full = withAnswers(q);
  return full ? isRight(answerKey(full), ua) : null;
}

/**
 * A practice set's result worked out on the device (docs/exams.md "Answers and marking": practice sets may carry their
 * answers, so the result shows at once, offline), with the scoring the server uses
 * (sync-protocol/src/scoring.ts). The server's own result replaces it when it replicates.
 * Mock tests never carry answers, so for them this returns null; nor does a live test's sealed
 * paper, whatever the set (docs/live-tests.md "The key schedule": the answers come with the
 * results at the result time), and its stored detail holds no question to score.
 */
export function scoreLocally(detail: Detail, attempt: Attempt): StoredResult | null {
  if (detail.isM || detail.live) return null;
  const questions: ResultQuestion[] = [];
  for (const q of detail.questions) {
    const full = withAnswers(q);
    if (!full) return null;
    questions.push(full);
  }
  const keys = new Map<string, KeyQuestion>(questions.map((q) => [q.id, keyQuestion(q)]));
  const parts = partsOf({ q: detail.main.q, mpq: detail.main.mpq, nm: detail.main.nm, sections: detail.sections }, (id) => keys.get(id));
  const s = score(parts, attempt.answers);
  const submittedAt = attempt.submittedAt ?? attempt.updatedAt;
  return {
    id: `local-${attempt.id}`,
    qsid: detail.id,
    attemptId: attempt.id,
    marks: s.marks,
    outOf: s.outOf,
    userRes: s.userRes,
    totalMarks: s.totalMarks,
    total: s.total,
    questions,
    late: false,
    // Only the server knows which attempt it received first; buildResultView guesses meanwhile.
    practice: false,
    pending: s.pending,
    submittedAt,
    elapsed: attempt.elapsed ?? null,
    et: Math.floor(submittedAt / 1000),
    // The server's receipt comes with its own result; the device's is kept apart (db/attempts/receipts).
    receipt: null,
  };
}
