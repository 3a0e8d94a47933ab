import dayjs from 'dayjs';
import {
  allowedQuestions,
  DUPLICATE_SECTION_MSG,
  type QuestionSetSave,
  type QuestionSetView,
  questionSetSaveSchema,
  sectionNameSchema,
  type SET_LANGUAGES,
  totalDisagrees,
  totalMarksMessage,
} from '@pm/protocol/question-set';
import { partMarks } from '@pm/protocol/set-text';

/*
 * The question-set form (docs/glossary.md "Question sets", docs/exams.md "Rules of a save") as the screen holds it: sections in a
 * list (their order is their position, and a name can be edited without re-keying a map), number
 * fields as Mantine's NumberInput gives them (a number, or the text being typed). `toSave` turns
 * it into the body of PATCH /api/question/updateQuestionSet, which questionSetSaveSchema checks
 * here as the server will.
 */

/** What a NumberInput holds: a number, or '' / '-' / '1.' while being typed. */
export type NumberValue = number | string;
export type SetLanguage = (typeof SET_LANGUAGES)[number];

export type PartMarks = { mpq: NumberValue; tm: NumberValue; nm: NumberValue };
/**
 * A sub-section (docs/glossary.md: mpq, tm, nm, o and its questions). `key` is the screen's own id;
 * `nameHi` its name in Hindi ('' for none: learners then see the English name).
 */
export type SubForm = PartMarks & { key: string; name: string; nameHi: string; q: string[] };
/** A section; with sub-sections (`ss`) its questions and marks are theirs. */
export type SectionForm = SubForm & { ss: boolean; subs: SubForm[] };
export type SetForm = PartMarks & {
  id: string | null;
  l: string;
  /** The title in Hindi ('' for none; docs/authoring.md "Set texts in two languages"). */
  lHi: string;
  dur: NumberValue;
  isM: boolean;
  /** Free for everyone (docs/payments.md "Without a plan"): learners without a plan may take it; it uses no allowance. */
  free: boolean;
  inst: string;
  /** The instructions in Hindi ('' for none). */
  instHi: string;
  /** The main part's questions. */
  q: string[];
  /** Publish time, minutes since the epoch (`pts`, docs/glossary.md "Question sets"). */
  pts: number;
  langs: SetLanguage[];
  draft: boolean;
  sections: SectionForm[];
};

let seq = 0;
/** A key for a new section or sub-section (React lists, drag and drop); never sent. */
export const partKey = (): string => `part-${++seq}`;

/** A number from a NumberInput's value; what is not (yet) a number counts as 0. */
export function num(v: NumberValue): number {
  if (typeof v === 'number') return Number.isFinite(v) ? v : 0;
  const n = Number(v);
  return v.trim() === '' || !Number.isFinite(n) ? 0 : n;
}

/** Minutes since the epoch, as pts holds a publish time (docs/glossary.md: date plus time of day). */
export function nowMinutes(now = Date.now()): number {
  return Math.floor(now / 60_000);
}
/** pts as the DateTimePicker's value (local time, 'YYYY-MM-DD HH:mm:ss'). */
export function ptsToPicker(pts: number): string {
  return dayjs(pts * 60_000).format('YYYY-MM-DD HH:mm:ss');
}
/** The DateTimePicker's value as pts; null when there is none. */
export function pickerToPts(value: string | null): number | null {
  if (!value) return null;
  const d = dayjs(value);
  return d.isValid() ? Math.floor(d.valueOf() / 60_000) : null;
}

/** A new set: a draft, published from now once published, 1 mark a question. */
export function emptyForm(now = Date.now()): SetForm {
  return { id: null, l: '', lHi: '', mpq: 1, tm: 0, nm: 0, dur: 0, isM: false, free: false, inst: '', instHi: '', q: [], pts: nowMinutes(now), langs: [], draft: true, sections: [] };
}

const byOrder = <T extends { o: number }>(entries: [string, T][]) => entries.sort(([a, x], [b, y]) => x.o - y.o || a.localeCompare(b));

/** The form of a stored set. */
export function toForm(v: QuestionSetView): SetForm {
  return {
    id: v.id,
    l: v.l,
    lHi: v.trans?.hi?.l ?? '',
    mpq: v.mpq,
    tm: v.tm,
    nm: v.nm,
    dur: v.dur,
    isM: v.isM,
    free: v.free,
    inst: v.inst,
    instHi: v.trans?.hi?.inst ?? '',
    q: [...v.q],
    pts: v.pts,
    langs: [...(v.langs ?? [])],
    draft: v.draft ?? false,
    sections: byOrder(Object.entries(v.sections)).map(([name, s]) => ({
      key: partKey(),
      name,
      nameHi: s.names?.hi ?? '',
      ss: s.ss,
      q: [...s.q],
      mpq: s.mpq,
      tm: s.tm,
      nm: s.nm,
      subs: byOrder(Object.entries(s.sub ?? {})).map(([subName, sub]) => ({
        key: partKey(),
        name: subName,
        nameHi: sub.names?.hi ?? '',
        q: [...sub.q],
        mpq: sub.mpq,
        tm: sub.tm,
        nm: sub.nm,
      })),
    })),
  };
}

/** A part's `names` for the save body: only when a Hindi name was written. */
const hindiName = (nameHi: string) => (nameHi.trim() ? { names: { hi: nameHi.trim() } } : {});

/** The save body (PATCH updateQuestionSet, docs/api.md); sections keyed by name, ordered by `o`. */
export function toSave(f: SetForm, opts: { draft: boolean; newVersion?: boolean }): QuestionSetSave {
  return {
    ...(f.id && { id: f.id }),
    l: f.l,
    mpq: num(f.mpq),
    tm: num(f.tm),
    nm: num(f.nm),
    dur: Math.trunc(num(f.dur)),
    isM: f.isM,
    free: f.free,
    inst: f.inst,
    q: f.q,
    pts: f.pts,
    langs: f.langs,
    // Hindi where the editor wrote some (old payloads without `trans` stay valid too).
    trans: f.lHi.trim() || f.instHi ? { hi: { l: f.lHi, inst: f.instHi } } : {},
    draft: opts.draft,
    sections: Object.fromEntries(
      f.sections.map((s, o) => [
        s.name,
        {
          ss: s.ss,
          q: s.ss ? [] : s.q,
          mpq: s.ss ? 0 : num(s.mpq),
          tm: s.ss ? 0 : num(s.tm),
          nm: s.ss ? 0 : num(s.nm),
          o,
          ...hindiName(s.nameHi),
          ...(s.ss && {
            sub: Object.fromEntries(s.subs.map((sub, so) => [sub.name, { q: sub.q, mpq: num(sub.mpq), tm: num(sub.tm), nm: num(sub.nm), o: so, ...hindiName(sub.nameHi) }])),
          }),
        },
      ]),
    ),
    ...(opts.newVersion && { newVersion: true }),
  };
}

/** One issue of a save, in the schema's English text (translated by set-messages). */
export type SaveIssue = { path: PropertyKey[]; message: string };

/**
 * The checks of docs/exams.md "Rules of a save" (and the section-name and selection-limit rules) as the
 * server runs them: questionSetSaveSchema. Two sections may not share a name, which a map cannot
 * show once keyed; that is checked on the list first. Returns the body to send, or the issues.
 */
export function checkSave(f: SetForm, opts: { draft: boolean; newVersion?: boolean }): { ok: true; body: QuestionSetSave } | { ok: false; issues: SaveIssue[] } {
  const dup: SaveIssue[] = [];
  const names = (list: { name: string }[], path: PropertyKey[]) => {
    const seen = new Set<string>();
    for (const { name } of list) {
      const k = name.trim().toLowerCase();
      if (seen.has(k)) dup.push({ path: [...path, name], message: DUPLICATE_SECTION_MSG });
      seen.add(k);
    }
  };
  names(f.sections, ['sections']);
  for (const s of f.sections) if (s.ss) names(s.subs, ['sections', s.name, 'sub']);
  const body = toSave(f, opts);
  const r = questionSetSaveSchema.safeParse(body);
  // The schema sees names that differ only in case or spaces as well: each issue once.
  const seen = new Set<string>();
  const issues = [...dup, ...(r.success ? [] : r.error.issues.map((i) => ({ path: i.path, message: i.message })))].filter((i) => {
    const k = JSON.stringify([i.path.map(String), i.message]);
    return !seen.has(k) && Boolean(seen.add(k));
  });
  if (issues.length > 0 || !r.success) return { ok: false, issues };
  // The schema's output: names trimmed, a section with sub-sections stripped of marks.
  return { ok: true, body: r.data };
}

/**
 * Whether a name can be given to a section (or a sub-section) among `others` (docs/exams.md "Rules of a save":
 * name): the English message of the rule it breaks, else null.
 */
export function sectionNameError(name: string, others: readonly string[]): string | null {
  const r = sectionNameSchema.safeParse(name);
  if (!r.success) return r.error.issues[0]?.message ?? null;
  const k = r.data.toLowerCase();
  return others.some((o) => o.trim().toLowerCase() === k) ? DUPLICATE_SECTION_MSG : null;
}

/** A part of the set that holds questions: Main, a section without sub-sections, or a sub-section. */
export type FormPart = {
  /** 'main', 's:<section key>' or 'u:<section key>:<sub key>'. */
  key: string;
  /** The name the selection-limit message uses: the section's or sub-section's, null for Main. */
  name: string | null;
  /** The section a sub-section belongs to. */
  section: string | null;
  q: string[];
  mpq: number;
  tm: number;
  nm: number;
  /** How many questions it may hold (docs/glossary.md "Fixed values"). */
  allowed: number;
};

/** The parts in test order: Main, then sections in order, a section's sub-sections in theirs. */
export function formParts(f: SetForm): FormPart[] {
  const part = (key: string, name: string | null, section: string | null, p: PartMarks & { q: string[] }): FormPart => ({
    key,
    name,
    section,
    q: p.q,
    mpq: num(p.mpq),
    tm: num(p.tm),
    nm: num(p.nm),
    allowed: allowedQuestions(num(p.tm), num(p.mpq)),
  });
  const parts = [part('main', null, null, f)];
  for (const s of f.sections) {
    if (s.ss) for (const sub of s.subs) parts.push(part(`u:${s.key}:${sub.key}`, sub.name, s.name, sub));
    else parts.push(part(`s:${s.key}`, s.name, null, s));
  }
  return parts;
}

/** The form with the questions of one part replaced. */
export function withPartQuestions(f: SetForm, key: string, q: string[]): SetForm {
  if (key === 'main') return { ...f, q };
  const [kind, sectionKey, subKey] = key.split(':');
  return {
    ...f,
    sections: f.sections.map((s) => {
      if (s.key !== sectionKey) return s;
      if (kind === 's') return { ...s, q };
      return { ...s, subs: s.subs.map((sub) => (sub.key === subKey ? { ...sub, q } : sub)) };
    }),
  };
}

/** Every question of the set, part by part. */
export function formQuestionIds(f: SetForm): string[] {
  return formParts(f).flatMap((p) => p.q);
}

/**
 * Marks of the whole set as learners see them: every part's questions × its marks per question
 * (docs/authoring.md "Total marks"), whatever total was typed.
 */
export function totalMarks(v: Pick<QuestionSetView, 'q' | 'mpq' | 'sections'>): number {
  let total = partMarks(v.q.length, v.mpq);
  for (const s of Object.values(v.sections)) {
    if (s.ss) for (const sub of Object.values(s.sub ?? {})) total += partMarks(sub.q.length, sub.mpq);
    else total += partMarks(s.q.length, s.mpq);
  }
  return Math.round(total * 100) / 100;
}

/**
 * A part's typed total that disagrees with its questions (docs/authoring.md "Total marks"): the
 * English message of the rule, else null. Shown at the field as the editor types; a set that is
 * not a draft cannot be saved with it (the schema refuses it, as the server does).
 */
export function totalMarksError(p: Pick<FormPart, 'name' | 'q' | 'mpq' | 'tm'>): string | null {
  return totalDisagrees(p.tm, p.q.length, p.mpq) ? totalMarksMessage(p.name, partMarks(p.q.length, p.mpq), p.q.length, p.mpq) : null;
}

export type SetState = 'draft' | 'scheduled' | 'published';
/** Draft, Scheduled (to be published at pts) or Published (learners see it). */
export function setState(v: Pick<QuestionSetView, 'draft' | 'published' | 'pts'>, now = Date.now()): SetState {
  if (v.draft) return 'draft';
  return v.published || v.pts * 60_000 <= now ? 'published' : 'scheduled';
}
