import type { TFunction } from 'i18next';

/**
 * Seconds as the result screens show a time taken (docs/exams.md "Time taken"): "42 s" under a
 * minute, "3 min 5 s" from a minute on — the same words on the summary, the parts, the questions
 * and My results.
 */
export function durationText(seconds: number, t: TFunction<'exam'>): string {
  const s = Math.max(0, Math.round(seconds));
  return s < 60 ? t('secondsShort', { s }) : t('minutesSeconds', { m: Math.floor(s / 60), s: s % 60 });
}
