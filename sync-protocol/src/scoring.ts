import { DEFAULT_EXAM_SECONDS } from './question-set';
import { type AnswerKey, answerKey, isEmptyAnswer, isEvaluated, isRight, normaliseText } from './marking';
import type { UserRes } from './sync/exam-result';

/*
 * The marking rules, as pure functions (docs/exams.md "Answers and marking" says the same in words).
 * Pure and shared with devices, which score practice sets themselves (docs/exams.md "Answers and marking"); matching one
 * answer (normalising, mcq keys) is in ./marking.ts.
 *
 * - Parts: the main part (key `wos`) uses the set's own mpq/nm; a section its own; a sub-section
 *   its own, and a section with sub-sections is reported as one part under the section's name
 *   (its sub-sections summed), since learners see it as one section.
 * - An answer is evaluated only when it is present (not null, '' or []) and its status is
 *   ANSWERED or ANSWERED_MARKED (NTA: "answered and marked for review" is evaluated; "marked for
 *   review" without a saved answer is not). An answer under VISITED or MARKED is not evaluated
 *   and is reported as unanswered (ua null): it was never saved as an answer.
 * - Right: +mpq. Wrong: −nm (nm is a positive number). Unanswered: 0.
 *   mcq1: the one option key equals the correct key. mcq2: the chosen keys equal the correct
 *   keys exactly (a partial or a larger choice is wrong). f: the normalised text equals one
 *   accepted answer of the question or of any of its translations. s: not auto-scored; mg is
 *   null ("awaiting evaluation") and it counts neither right nor wrong until an editor awards
 *   0…mpq marks.
 */

/** Key of the main part in marks / userRes (docs/glossary.md: "the main part under wos"). */
export const MAIN_PART = 'wos';

/** Time a submission may come after the duration without being late (network, a slow tap). */
export const GRACE_MS = 120_000;

/** A question as scoring needs it. `accepted` holds normalised texts (f) or option keys (mcq). */
export type KeyQuestion = AnswerKey & { id: string };

/** One part of a set with its marking and questions in order. */
export type ScoringPart = { key: string; mpq: number; nm: number; questions: KeyQuestion[] };

/** A submission's answers by question id (test_summary `answers`); `ua` was validated on the way in. */
export type Answers = Readonly<Record<string, { ua: unknown; status: string } | undefined>>;
type UserAnswer = UserRes[string][string]['ua'];

export type Score = {
  marks: Record<string, number>;
  outOf: Record<string, number>;
  userRes: UserRes;
  totalMarks: number;
  total: number;
  /** Answered subjective questions awaiting evaluation. */
  pending: number;
  /** Per answered subjective question: the most marks an editor may award (its part's mpq). */
  maxOf: Record<string, number>;
  right: number;
  wrong: number;
};

export { isEmptyAnswer, isEvaluated, isRight, normaliseText };

/** The accepted answers of a question: its own and those of its translations (sync-protocol/src/marking.ts). */
export function keyQuestion(q: { id: string; qt: string; ca: string[]; trans: Record<string, { ca?: string[] }> }): KeyQuestion {
  return { id: q.id, ...answerKey(q) };
}

/** Sums without binary noise (0.1 + 0.2): marks are kept to 4 decimals. */
export const round = (x: number) => Math.round(x * 10_000) / 10_000 + 0;

/** Scores a submission's answers against a set's parts. Answers to questions outside the set are ignored. */
export function score(parts: ScoringPart[], answers: Answers): Score {
  const marks: Record<string, number> = { [MAIN_PART]: 0 };
  const outOf: Record<string, number> = { [MAIN_PART]: 0 };
  const userRes: UserRes = { [MAIN_PART]: {} };
  const maxOf: Record<string, number> = {};
  let totalMarks = 0;
  let total = 0;
  let pending = 0;
  let right = 0;
  let wrong = 0;
  for (const part of parts) {
    marks[part.key] ??= 0;
    outOf[part.key] ??= 0;
    const res = (userRes[part.key] ??= {});
    for (const q of part.questions) {
      outOf[part.key]! += part.mpq;
      total += part.mpq;
      const entry = answers[q.id];
      if (!isEvaluated(entry)) {
        res[q.id] = { ua: null, mg: 0 };
        continue;
      }
      const ua = entry!.ua as UserAnswer;
      const verdict = isRight(q, ua);
      let mg: number | null;
      if (verdict === null) {
        mg = null;
        pending++;
        maxOf[q.id] = part.mpq;
      } else if (verdict) {
        mg = part.mpq;
        right++;
      } else {
        mg = part.nm > 0 ? -part.nm : 0;
        wrong++;
      }
      res[q.id] = { ua, mg };
      if (mg !== null) {
        marks[part.key]! += mg;
        totalMarks += mg;
      }
    }
  }
  for (const k of Object.keys(marks)) {
    marks[k] = round(marks[k]!);
    outOf[k] = round(outOf[k]!);
  }
  return { marks, outOf, userRes, totalMarks: round(totalMarks), total: round(total), pending, maxOf, right, wrong };
}

/**
 * What the server knows of a submitted attempt's times (docs/security.md "Times, ranking and sync quotas"; ARCHITECTURE decision 5):
 * the device's claims (`st`, `submittedAt`, `elapsed`) and its own sightings — when it first saw
 * the attempt (`firstSeen`, `attempt.server_first_seen`), whether that was before this
 * submission arrived (`seenBefore`: the attempt was then still in progress), the elapsed it
 * already stored for it (`seenElapsed`) and the arrival of the submission (`receivedAt`).
 */
export type SubmissionTimes = {
  st: number;
  submittedAt: number | null;
  elapsed: number | null;
  seenElapsed: number | null;
  firstSeen: number;
  seenBefore: boolean;
  receivedAt: number;
};

/** The start as the server bounds it: an attempt the server saw had started by then. */
export function boundedStart(t: Pick<SubmissionTimes, 'st' | 'firstSeen'>): number {
  return Math.min(t.st, t.firstSeen);
}

/**
 * The submission time as the server bounds it: never after its arrival, never before the
 * bounded start, and never before the first sighting of an attempt the server saw in progress
 * (it was not submitted then). A device clock in the year 2100 cannot make a result "latest".
 */
export function boundedSubmittedAt(t: Pick<SubmissionTimes, 'st' | 'submittedAt' | 'firstSeen' | 'seenBefore' | 'receivedAt'>): number {
  const earliest = t.seenBefore ? t.firstSeen : boundedStart(t);
  return Math.min(Math.max(t.submittedAt ?? t.receivedAt, earliest), t.receivedAt);
}

/**
 * Whether a submission is late: the time the test used is more than the duration (dur minutes ×
 * 60, 0 → 5400 s, docs/exams.md "Answers and marking") plus GRACE_MS. The time used is the largest of
 * 1. the device's monotonic test time (`elapsed`), and the elapsed the server already saw (test
 *    time never runs backwards);
 * 2. the wall time from the bounded start to the bounded submission — the test timer runs on
 *    the wall clock from `st`, so an honest device submits within the duration of its start.
 *    `st: 0` is therefore late, and so is a start moved after the server's first sighting.
 * When the device's monotonic claim is disproved by what the server saw (it sends no elapsed,
 * or less than it already reported), its submission time is not believed either: the
 * submission is taken to be its arrival.
 * Arriving late alone proves nothing: a learner offline for a day whose times are consistent
 * (st ≤ submittedAt ≤ arrival, submittedAt − st ≤ limit, elapsed ≤ limit) is on time. An
 * attempt first seen already submitted can only be judged by its device's claims, bounded as
 * above. A late submission is stored and scored all the same, and flagged.
 */
export function isLate(input: SubmissionTimes & { durMinutes: number }): boolean {
  const limit = (input.durMinutes > 0 ? input.durMinutes * 60 : DEFAULT_EXAM_SECONDS) * 1000 + GRACE_MS;
  const disproved = input.seenElapsed !== null && (input.elapsed === null || input.elapsed < input.seenElapsed);
  const end = disproved ? input.receivedAt : boundedSubmittedAt(input);
  const used = Math.max(input.elapsed ?? 0, input.seenElapsed ?? 0, end - boundedStart(input));
  return used > limit;
}

/** Parts of a set in the order learners see them: main, then sections by `o` (sub-sections by `o`). */
export function partsOf(
  set: {
    q: string[];
    mpq: number;
    nm: number;
    sections: Record<string, { ss: boolean; q: string[]; mpq: number; nm: number; o: number; sub?: Record<string, { q: string[]; mpq: number; nm: number; o: number }> }>;
  },
  question: (id: string) => KeyQuestion | undefined,
): ScoringPart[] {
  const pick = (ids: string[]) => ids.map(question).filter((q): q is KeyQuestion => q !== undefined);
  const parts: ScoringPart[] = [{ key: MAIN_PART, mpq: set.mpq, nm: set.nm, questions: pick(set.q) }];
  const byOrder = <T extends { o: number }>(m: Record<string, T>) => Object.entries(m).sort((a, b) => a[1].o - b[1].o || (a[0] < b[0] ? -1 : 1));
  for (const [name, s] of byOrder(set.sections)) {
    if (s.ss && s.sub) {
      for (const [, sub] of byOrder(s.sub)) parts.push({ key: name, mpq: sub.mpq, nm: sub.nm, questions: pick(sub.q) });
    } else {
      parts.push({ key: name, mpq: s.mpq, nm: s.nm, questions: pick(s.q) });
    }
  }
  return parts;
}
