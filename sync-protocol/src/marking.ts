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

/**
 * A numerical answer typed by a learner as a number (docs/exams.md "Numerical questions"):
 * Devanagari digits ०-९ read as 0-9, the minus sign − as -, spaces around it ignored; then an
 * optional sign and a decimal number with `.` as the decimal point (`12`, `-0.5`, `.5`, `3.`).
 * Anything else (a comma, an exponent, two points, a word) is not a number: null.
 */
export function parseNumber(s: string): number | null {
  const t = s
    .normalize('NFC')
    .replace(/[\u0966-\u096F]/g, (d) => String(d.charCodeAt(0) - DEVANAGARI_ZERO))
    .replace(/[\u2212\u2013]/g, '-')
    .trim();
  if (!/^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(t)) return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
}

/**
 * A learner's number as a device stores it: the text typed with Devanagari digits and the minus
 * sign − in ASCII, trimmed (`'−१२.५'` → `'-12.5'`); null when it is not a number (parseNumber).
 */
export function normaliseNumber(s: string): string | null {
  if (parseNumber(s) === null) return null;
  return s
    .normalize('NFC')
    .replace(/[\u0966-\u096F]/g, (d) => String(d.charCodeAt(0) - DEVANAGARI_ZERO))
    .replace(/[\u2212\u2013]/g, '-')
    .trim();
}

/** A numerical question's accepted answer: exactly `value`, `value` ± `tol`, or `min`..`max` (inclusive). */
export type NumericSpec = { min: number; max: number };

/**
 * One accepted answer of a numerical question (`ca` of qt `n`), written as GIFT writes it: `3`
 * (exact), `3:0.5` (3 with a tolerance of 0.5, so 2.5 to 3.5) or `1..5` (1 to 5); numbers as
 * `parseNumber` reads them. Null when it is none of these (a tolerance below 0, a range whose
 * end is below its start).
 */
export function parseNumericSpec(s: string): NumericSpec | null {
  const t = s.trim();
  const range = /^(.+?)\.\.(.+)$/.exec(t);
  if (range) {
    const min = parseNumber(range[1]!);
    const max = parseNumber(range[2]!);
    return min !== null && max !== null && min <= max ? { min, max } : null;
  }
  const tol = /^([^:]+):([^:]+)$/.exec(t);
  if (tol) {
    const v = parseNumber(tol[1]!);
    const d = parseNumber(tol[2]!);
    return v !== null && d !== null && d >= 0 ? { min: v - d, max: v + d } : null;
  }
  const v = parseNumber(t);
  return v === null ? null : { min: v, max: v };
}

/**
 * Whether a number is within an accepted answer, ends included. Decimal inputs are binary
 * fractions (0.3 + 0.1 is 0.4000000000000001), so the ends are widened by a billionth of the
 * magnitude: 3.5 is within `3:0.5`, 3.5001 is not.
 */
export function withinSpec(x: number, spec: NumericSpec): boolean {
  const eps = 1e-9 * Math.max(1, Math.abs(spec.min), Math.abs(spec.max));
  return x >= spec.min - eps && x <= spec.max + eps;
}

/** What matching needs of a question: its type and the accepted answers, normalised for f. */
export type AnswerKey = { qt: 'mcq1' | 'mcq2' | 'f' | 's' | 'n'; accepted: ReadonlySet<string>; numeric?: readonly NumericSpec[] };

/** The answer key of a question: for f its own accepted texts and those of its translations. */
export function answerKey(q: { qt: string; ca: string[]; trans?: Record<string, { ca?: string[] }> }): AnswerKey {
  const qt = q.qt as AnswerKey['qt'];
  if (qt === 'f') {
    const all = [...q.ca, ...Object.values(q.trans ?? {}).flatMap((t) => t.ca ?? [])];
    return { qt, accepted: new Set(all.map(normaliseText).filter(Boolean)) };
  }
  if (qt === 'n') {
    // Numbers are the same in every language: the question's own accepted answers only.
    const numeric = q.ca.map(parseNumericSpec).filter((x): x is NumericSpec => x !== null);
    return { qt, accepted: new Set(q.ca), numeric };
  }
  // Option keys are exact (translations repeat the same keys); s has no automatic key.
  return { qt, accepted: new Set(qt === 's' ? [] : q.ca) };
}

/**
 * Whether an (evaluated) answer is right: true / false for mcq1, mcq2 and f; null for s, which
 * an editor evaluates. mcq1: the one option key (a one-key list reads as that key); mcq2: the
 * chosen keys equal the correct keys exactly (order and repeats aside); f: the normalised text
 * equals one accepted answer; n: the number typed (parseNumber) is within one accepted answer
 * (exact, tolerance or range, parseNumericSpec), anything that is not a number is wrong.
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
    case 'n': {
      const x = typeof ua === 'string' ? parseNumber(ua) : null;
      return x !== null && (key.numeric ?? []).some((spec) => withinSpec(x, spec));
    }
    case 's':
      return null;
  }
}
