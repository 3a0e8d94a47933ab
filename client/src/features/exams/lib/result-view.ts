import type { TestQuestion } from '@pm/protocol/sync/qs-detail';
import type { ResultQuestion } from '@pm/protocol/sync/exam-result';
import { timeTaken } from '@pm/protocol/time-taken';
import type { StoredResult } from '../hooks/use-result-data';
import type { QuestionSet } from '../hooks/use-test-data';
import { type Attempt, type Detail, partsOf, slotsOf } from './test-engine';
import { setText } from '@pm/protocol/set-text';

/** Key of the main part in results (docs/glossary.md: "the main part under wos"). */
export const MAIN_PART = 'wos';

export type QuestionOutcome = {
  qid: string;
  /** Number of the question in the test (as the palette showed it). */
  n: number;
  question: ResultQuestion | TestQuestion | undefined;
  ua: string | string[] | null;
  ca: string[] | null;
  mg: number | null;
  verdict: 'correct' | 'incorrect' | 'unanswered' | 'pending';
  /** Seconds on screen (docs/exams.md "Time taken"). */
  timeS: number;
};

export type ResultView = {
  qsid: string;
  /** Scored by the server (else: a practice set scored on this device). */
  fromServer: boolean;
  submittedAt: number;
  totalMarks: number;
  total: number;
  answered: number;
  right: number;
  wrong: number;
  pending: number;
  late: boolean;
  /** Not the learner's first attempt at the set: practice, never ranked (docs/security.md "Times, ranking and sync quotas"). */
  practice: boolean;
  /** Seconds: the sum of the parts' (docs/exams.md "Time taken", sync-protocol/src/time-taken.ts). */
  timeS: number;
  /** Each part's `timeS` is the sum of its questions'. */
  parts: { key: string; label: string; marks: number; outOf: number; timeS: number; questions: QuestionOutcome[] }[];
};

type Data = { set: QuestionSet | null; detail: Detail | null; attempts: Attempt[]; results: StoredResult[] };

/**
 * What the result page shows, from a stored result and the attempt it scored: per part the marks
 * out of the part's maximum and per question the verdict, the answers and the time spent. The
 * verdict follows the marks: more than 0 is correct, less than 0 incorrect; 0 with an answer is
 * correct only where the part gives 0 marks per question, so it is decided by the correct
 * answers (`isRight`).
 */
export function buildResultView(
  data: Data,
  t: (key: 'main') => string,
  isRight: (q: ResultQuestion | TestQuestion, ua: string | string[]) => boolean | null,
  scoreLocally?: (detail: Detail, attempt: Attempt) => StoredResult | null,
  /** The learner's language: section names as the set gives them in it (set-text.ts). */
  lang = 'en',
): ResultView | null {
  const attempt = data.attempts.find((a) => a.status === 'SUBMITTED');
  if (!attempt) return null;
  const stored = data.results.find((r) => r.attemptId === attempt.id) ?? null;
  const local = !stored && data.detail && !data.detail.isM && scoreLocally ? scoreLocally(data.detail, attempt) : null;
  const result = stored ?? local;
  if (!result) return null;

  const byId = new Map<string, ResultQuestion | TestQuestion>((data.detail?.questions ?? []).map((q) => [q.id, q]));
  for (const q of result.questions) byId.set(q.id, q);
  const numbers = new Map<string, number>();
  if (data.detail) for (const s of slotsOf(partsOf(data.detail))) numbers.set(s.qid, s.n);

  let right = 0;
  let wrong = 0;
  let pending = 0;
  let answered = 0;
  const time = timeTaken(result.userRes, attempt.answers);
  const order = (key: string) => (key === MAIN_PART ? -1 : (data.detail?.sections[key]?.o ?? 0));
  const text = data.set ? setText(data.set, lang) : null;
  const parts = Object.entries(result.userRes)
    .filter(([, qs]) => Object.keys(qs).length > 0)
    .sort(([a], [b]) => order(a) - order(b) || a.localeCompare(b))
    .map(([key, qs]) => {
      const questions = Object.entries(qs)
        .map(([qid, r]): QuestionOutcome => {
          const question = byId.get(qid);
          const ua = r.ua;
          const has = ua !== null && !(Array.isArray(ua) && ua.length === 0) && ua !== '';
          let verdict: QuestionOutcome['verdict'];
          if (!has) verdict = 'unanswered';
          else if (r.mg === null) verdict = 'pending';
          else if (r.mg > 0) verdict = 'correct';
          else if (r.mg < 0) verdict = 'incorrect';
          else verdict = question && isRight(question, ua) ? 'correct' : 'incorrect';
          if (has) answered++;
          if (verdict === 'correct') right++;
          if (verdict === 'incorrect') wrong++;
          if (verdict === 'pending') pending++;
          const ca = question && 'ca' in question && question.ca ? question.ca : null;
          return { qid, n: numbers.get(qid) ?? 0, question, ua, ca, mg: r.mg, verdict, timeS: time.questions[qid] ?? 0 };
        })
        .sort((a, b) => a.n - b.n);
      return { key, label: key === MAIN_PART ? t('main') : text ? text.part(key) : key, marks: result.marks[key] ?? 0, outOf: result.outOf[key] ?? 0, timeS: time.parts[key] ?? 0, questions };
    });

  return {
    qsid: result.qsid,
    fromServer: stored !== null,
    submittedAt: result.submittedAt || attempt.submittedAt || attempt.updatedAt,
    totalMarks: result.totalMarks,
    total: result.total,
    answered,
    right,
    wrong,
    pending,
    late: result.late,
    // The server decides (its first scored result is ranked); until its result arrives, an
    // attempt after another submitted one on this device is practice.
    practice: stored ? stored.practice : data.results.length > 0 || data.attempts.some((a) => a.status === 'SUBMITTED' && a.id !== attempt.id),
    // Parts without questions are left out above; they took 0 s, so the total is still their sum.
    timeS: time.total,
    parts,
  };
}
