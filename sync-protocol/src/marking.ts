/*
 * The answer-matching rules, shared so that a device's result screen (and a practice set's
 * instant feedback) reads an answer exactly as the server scores it. The scoring itself —
 * marks, parts, totals, lateness — is the server's (server/src/modules/results/scoring.ts);
 * docs/exams.md "Answers and marking" states the rules in words.
 */

const DEVANAGARI_ZERO = 0x0966;

/**
 * Text of a fill-in answer as compared: Unicode NFC, Devanagari digits ०-९ read as 0-9, inner
 * whitespace collapsed to one space, trimmed, case-folded (upper then lower case, so ß and SS
 * meet), and NFC again (case mapping can decompose).
 */
export function normaliseText(s: string): string {
  return s
    .normalize('NFC')
    .replace(/[\u0966-\u096F]/g, (d) => String(d.charCodeAt(0) - DEVANAGARI_ZERO))
    .replace(/\s+/g, ' ')
    .trim()
    .toUpperCase()
    .toLowerCase()
    .normalize('NFC');
}

/** null, '', whitespace only, [] and lists of empty strings are no answer. */
export function isEmptyAnswer(ua: unknown): boolean {
  if (ua === null || ua === undefined) return true;
  if (typeof ua === 'string') return ua.trim() === '';
  if (Array.isArray(ua)) return ua.every((x) => typeof x !== 'string' || x.trim() === '');
  return true;
}

/**
 * Whether an answer of an attempt is evaluated (NTA): present, and saved as ANSWERED or
 * ANSWERED_MARKED. "Marked for review" (MARKED) or VISITED with something in it is not.
 */
export function isEvaluated(entry: { ua: unknown; status: string } | undefined): boolean {
  return !!entry && (entry.status === 'ANSWERED' || entry.status === 'ANSWERED_MARKED') && !isEmptyAnswer(entry.ua);
}

/** What matching needs of a question: its type and the accepted answers, normalised for f. */
export type AnswerKey = { qt: 'mcq1' | 'mcq2' | 'f' | 's'; accepted: ReadonlySet<string> };

/** The answer key of a question: for f its own accepted texts and those of its translations. */
export function answerKey(q: { qt: string; ca: string[]; trans?: Record<string, { ca?: string[] }> }): AnswerKey {
  const qt = q.qt as AnswerKey['qt'];
  if (qt === 'f') {
    const all = [...q.ca, ...Object.values(q.trans ?? {}).flatMap((t) => t.ca ?? [])];
    return { qt, accepted: new Set(all.map(normaliseText).filter(Boolean)) };
  }
  // Option keys are exact (translations repeat the same keys); s has no automatic key.
  return { qt, accepted: new Set(qt === 's' ? [] : q.ca) };
}

/**
 * Whether an (evaluated) answer is right: true / false for mcq1, mcq2 and f; null for s, which
 * an editor evaluates. mcq1: the one option key (a one-key list reads as that key); mcq2: the
 * chosen keys equal the correct keys exactly (order and repeats aside); f: the normalised text
 * equals one accepted answer.
 */
export function isRight(key: AnswerKey, ua: unknown): boolean | null {
  switch (key.qt) {
    case 'mcq1': {
      const k = typeof ua === 'string' ? ua : Array.isArray(ua) && ua.length === 1 ? ua[0] : undefined;
      return typeof k === 'string' && key.accepted.size === 1 && key.accepted.has(k);
    }
    case 'mcq2': {
      const chosen = new Set(typeof ua === 'string' ? [ua] : Array.isArray(ua) ? (ua as unknown[]).filter((x): x is string => typeof x === 'string') : []);
      if (chosen.size !== key.accepted.size) return false;
      for (const k of chosen) if (!key.accepted.has(k)) return false;
      return true;
    }
    case 'f':
      return typeof ua === 'string' && key.accepted.has(normaliseText(ua));
    case 's':
      return null;
  }
}
