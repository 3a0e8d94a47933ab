import type { QsDetailDoc, TestQuestion } from '@pm/protocol/sync/qs-detail';
import type { TestSummaryDoc } from '@pm/protocol/sync/test-summary';

export type Detail = Omit<QsDetailDoc, '_deleted'>;
export type Attempt = Omit<TestSummaryDoc, '_deleted'>;
export type AnswerEntry = Attempt['answers'][string];
export type UserAnswer = AnswerEntry['ua'];

/** The five NTA palette states; NOT_VISITED is simply "no entry yet". */
export type PaletteState = 'NOT_VISITED' | 'VISITED' | 'ANSWERED' | 'MARKED' | 'ANSWERED_MARKED';
export const PALETTE_STATES: PaletteState[] = ['ANSWERED', 'VISITED', 'NOT_VISITED', 'MARKED', 'ANSWERED_MARKED'];

/** A part of the test that holds questions: the main part, a section, or a sub-section. */
export type Part = {
  /** 'main', a section name, or 'section/sub-section'. */
  key: string;
  /** Section name for labels; null for the main part. */
  section: string | null;
  sub: string | null;
  qids: string[];
  mpq: number;
  nm: number;
};

/** A missing or zero duration means 5,400 seconds; minutes × 60 otherwise. */
export const DEFAULT_DURATION_S = 5400;
export function durationSeconds(dur: number | undefined | null): number {
  return dur && dur > 0 ? dur * 60 : DEFAULT_DURATION_S;
}

/**
 * The parts in test order: the main part first (it uses the set's own marks), then sections by
 * their order `o` (then name); a section with sub-sections contributes each sub-section in order.
 * Parts without questions are left out (sections without questions are hidden).
 */
export function partsOf(detail: Detail): Part[] {
  const parts: Part[] = [];
  if (detail.main.q.length > 0) parts.push({ key: 'main', section: null, sub: null, qids: detail.main.q, mpq: detail.main.mpq, nm: detail.main.nm });
  const sections = Object.entries(detail.sections).sort(([a, x], [b, y]) => x.o - y.o || a.localeCompare(b));
  for (const [name, s] of sections) {
    if (s.ss && s.sub) {
      const subs = Object.entries(s.sub).sort(([a, x], [b, y]) => x.o - y.o || a.localeCompare(b));
      for (const [subName, sub] of subs) {
        if (sub.q.length > 0) parts.push({ key: `${name}/${subName}`, section: name, sub: subName, qids: sub.q, mpq: sub.mpq, nm: sub.nm });
      }
    } else if (s.q.length > 0) {
      parts.push({ key: name, section: name, sub: null, qids: s.q, mpq: s.mpq, nm: s.nm });
    }
  }
  return parts;
}

/** One position in the test: part and question. */
export type Slot = { part: Part; qid: string; /** 1-based number across the whole test. */ n: number };

export function slotsOf(parts: Part[]): Slot[] {
  const slots: Slot[] = [];
  for (const part of parts) for (const qid of part.qids) slots.push({ part, qid, n: slots.length + 1 });
  return slots;
}

export function questionMap(detail: Detail): Map<string, TestQuestion> {
  return new Map(detail.questions.map((q) => [q.id, q]));
}

export function isAnswered(ua: UserAnswer | undefined): boolean {
  if (ua === null || ua === undefined) return false;
  if (Array.isArray(ua)) return ua.length > 0;
  return ua.trim() !== '';
}

export function paletteState(entry: AnswerEntry | undefined): PaletteState {
  return entry ? entry.status : 'NOT_VISITED';
}

/** Opening a question marks it visited unless it already has a state. */
export function visit(answers: Attempt['answers'], qid: string): Attempt['answers'] {
  if (answers[qid]) return answers;
  return { ...answers, [qid]: { ua: null, status: 'VISITED' } };
}

/**
 * A new answer is kept at once (nothing is lost). The state follows it: Answered with an answer,
 * back to Visited when every choice is removed; a review mark stays.
 */
export function answer(answers: Attempt['answers'], qid: string, ua: UserAnswer): Attempt['answers'] {
  const prev = answers[qid];
  const marked = prev?.status === 'MARKED' || prev?.status === 'ANSWERED_MARKED';
  const has = isAnswered(ua);
  const status = marked ? (has ? 'ANSWERED_MARKED' : 'MARKED') : has ? 'ANSWERED' : 'VISITED';
  return { ...answers, [qid]: { ...prev, ua: has ? ua : null, status } };
}

/** Clear Response: no answer, not answered, no review mark. */
export function clearResponse(answers: Attempt['answers'], qid: string): Attempt['answers'] {
  return { ...answers, [qid]: { ...answers[qid], ua: null, status: 'VISITED' } };
}

/** Mark for Review: Answered & Marked when answered, else Marked. */
export function markForReview(answers: Attempt['answers'], qid: string): Attempt['answers'] {
  const prev = answers[qid];
  return { ...answers, [qid]: { ...prev, ua: prev?.ua ?? null, status: isAnswered(prev?.ua) ? 'ANSWERED_MARKED' : 'MARKED' } };
}

/** Adds time spent on a question (ms). */
export function addTime(answers: Attempt['answers'], qid: string, ms: number): Attempt['answers'] {
  const prev = answers[qid] ?? { ua: null, status: 'VISITED' as const };
  return { ...answers, [qid]: { ...prev, t: Math.round((prev.t ?? 0) + Math.max(0, ms)) } };
}

export type Counts = Record<PaletteState, number>;

export function countStates(qids: string[], answers: Attempt['answers']): Counts {
  const c: Counts = { NOT_VISITED: 0, VISITED: 0, ANSWERED: 0, MARKED: 0, ANSWERED_MARKED: 0 };
  for (const q of qids) c[paletteState(answers[q])]++;
  return c;
}

/** Remaining seconds of an attempt started at `st` (server-corrected ms), never below zero. */
export function remainingSeconds(st: number, durationS: number, now: number): number {
  return Math.max(0, Math.ceil((st + durationS * 1000 - now) / 1000));
}

/**
 * Timer colour: green from half the time, orange below half, red under 900 s — and for
 * a test shorter than an hour red under a quarter of its time (docs/exams.md "The exam screens"):
 * by the 900 s alone, a test of 30 minutes or less (the free 15-minute practice set a guest
 * takes) had no orange and one of 15 minutes was red from its first second. From an hour up,
 * where 900 s is a quarter or less, this is the spec's rule as written.
 */
export function timerTone(remaining: number, durationS: number): 'green' | 'orange' | 'red' {
  if (remaining < Math.min(900, durationS / 4)) return 'red';
  if (remaining < durationS / 2) return 'orange';
  return 'green';
}

/** "1 Hour, 29 Min, 59 Sec" parts (at zero 0 Hour, 0 Min, 0 Sec). */
export function clockParts(seconds: number): { h: number; m: number; s: number } {
  const s = Math.max(0, Math.floor(seconds));
  return { h: Math.floor(s / 3600), m: Math.floor((s % 3600) / 60), s: s % 60 };
}

/** An attempt id of the device's choosing (RxDB primary key, [A-Za-z0-9_-]{8,64}). */
export function newAttemptId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
