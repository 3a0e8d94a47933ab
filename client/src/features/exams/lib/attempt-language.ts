/**
 * The question language a learner last used in each attempt (the test screen's own language
 * picker), so that the result page shows the questions as they were read (docs/exams.md "The result page").
 *
 * Kept on this device only, in localStorage: the attempt document (`test_summary`) is a strict
 * wire schema shared with the server, and the language is a reading preference, not something the
 * server scores or checks. On another device the result opens in the interface language, and the
 * result page's own picker switches it either way.
 */

const KEY = 'pm:attempt-lang';
/** Enough for every recent attempt; the oldest entries go first. */
const MAX_ENTRIES = 200;

export type QuestionLanguage = 'en' | 'hi';

function read(): [string, QuestionLanguage][] {
  try {
    const raw = typeof localStorage === 'undefined' ? null : localStorage.getItem(KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    if (!Array.isArray(parsed)) return [];
    return parsed.filter((e): e is [string, QuestionLanguage] => Array.isArray(e) && typeof e[0] === 'string' && (e[1] === 'en' || e[1] === 'hi'));
  } catch {
    return [];
  }
}

/** Remembers the language an attempt is being read in (the last choice wins). */
export function rememberAttemptLanguage(attemptId: string, lang: string): void {
  if (lang !== 'en' && lang !== 'hi') return;
  const entries = read().filter(([id]) => id !== attemptId);
  entries.push([attemptId, lang]);
  try {
    localStorage.setItem(KEY, JSON.stringify(entries.slice(-MAX_ENTRIES)));
  } catch {
    // Storage full or unavailable: the result page falls back to the interface language.
  }
}

/** The language the attempt was taken in on this device, or null when not known here. */
export function attemptLanguage(attemptId: string): QuestionLanguage | null {
  return read().find(([id]) => id === attemptId)?.[1] ?? null;
}
