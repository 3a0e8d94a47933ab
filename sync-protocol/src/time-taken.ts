/**
 * Time taken in a test, one definition for every screen (docs/exams.md "Time taken"): a question's
 * time is how long it was on screen (its `t`, ms of the device's monotonic clock summed over its
 * visits), counted in whole seconds; a part's time is the sum of its questions' seconds and the
 * attempt's the sum of its parts'. Rounding each question once, before anything is added up, is
 * what makes the figures shown add up exactly: summary = Σ parts = Σ questions.
 */

/** Seconds of a question's time on screen (ms), rounded to the nearest whole second. */
export function questionSeconds(ms: number | undefined | null): number {
  return ms && ms > 0 ? Math.round(ms / 1000) : 0;
}

export type TimeTaken = {
  /** Seconds of the whole attempt: the sum of `parts`. */
  total: number;
  /** Seconds per part (the keys of the result's `userRes`): the sum of its questions. */
  parts: Record<string, number>;
  /** Seconds per question id. */
  questions: Record<string, number>;
};

/**
 * Time taken of an attempt, per question, per part and in all, from the result's parts
 * (`userRes`: part → question id → …) and the attempt's answers (question id → `{ t }`). A
 * question the attempt never opened took 0 s; time on a question the result does not hold (taken
 * out of the set before scoring) is not counted, as the question is not shown.
 */
export function timeTaken(
  parts: Readonly<Record<string, Readonly<Record<string, unknown>>>>,
  answers: Readonly<Record<string, { t?: number } | undefined>>,
): TimeTaken {
  const byPart: Record<string, number> = {};
  const byQuestion: Record<string, number> = {};
  let total = 0;
  for (const [part, qs] of Object.entries(parts)) {
    let sum = 0;
    for (const qid of Object.keys(qs)) {
      const s = questionSeconds(answers[qid]?.t);
      byQuestion[qid] = s;
      sum += s;
    }
    byPart[part] = sum;
    total += sum;
  }
  return { total, parts: byPart, questions: byQuestion };
}
