import { parseNumericSpec } from '@pm/protocol/marking';
import {
  isBlankHtml,
  type QuestionInput,
  type QuestionStatus,
  type QuestionType,
  type QuestionView,
} from '@pm/protocol/question';
import type { TestQuestion } from '@pm/protocol/sync/qs-detail';

/*
 * The question editor's form (docs/glossary.md "Questions", docs/exams.md "Rules of a save") as plain
 * data and pure functions, so that every rule is one function a test can call.
 */

/** The languages a question is written in (docs/glossary.md "Languages"): the base text is English, Hindi is a translation. */
export type EditLang = 'en' | 'hi';
export const TRANSLATION_LANG = 'hi';
export type Difficulty = '1' | '2' | '3' | '4' | '5';
export const DIFFICULTIES: readonly Difficulty[] = ['1', '2', '3', '4', '5'];
/**
 * A translation in the form. `src` and `mt` (docs/configuration.md "Machine translation": the English it was made from, a machine
 * draft) are kept as loaded, to show whether it is stale; they are never sent back (the server
 * keeps them), and editing the translation drops them.
 */
export type Translation = { q: string; ops: Record<string, string>; ca: string[]; expl?: string; src?: string; mt?: boolean };

export type QuestionForm = {
  id: string | null;
  q: string;
  /** Option key → rich text, in the order shown (keys are letters, never integer-like, so insertion order holds). */
  ops: Record<string, string>;
  /** Option keys for mcq1/mcq2, accepted texts for f, the model answer for s. */
  ca: string[];
  qt: QuestionType;
  d: Difficulty;
  c: string[];
  s: string | null;
  t: string[];
  e: string[];
  st: QuestionStatus;
  reason: string | null;
  /** The explanation (worked solution) in English, rich text; '' for none (docs/exams.md "Explanations"). */
  expl: string;
  trans: Record<string, Translation>;
};

/** Option keys in order: a, b, c, d … (the fixtures use a–d). */
export const OPTION_KEYS = 'abcdefghij'.split('');
export const MIN_OPTIONS = 2;
export const MAX_OPTIONS = OPTION_KEYS.length;
export const DEFAULT_OPTION_COUNT = 4;

export const isMcq = (qt: QuestionType) => qt === 'mcq1' || qt === 'mcq2';
/** Types whose correct answers are the same in every language: option keys, and numbers (n). */
export const sharedAnswers = (qt: QuestionType) => isMcq(qt) || qt === 'n';

const emptyOptions = (n = DEFAULT_OPTION_COUNT) => Object.fromEntries(OPTION_KEYS.slice(0, n).map((k) => [k, '']));

/** A new question: single choice with four empty options, medium difficulty, PENDING (docs/glossary.md). */
export function emptyForm(): QuestionForm {
  return { id: null, q: '', ops: emptyOptions(), ca: [], qt: 'mcq1', d: '3', c: [], s: null, t: [], e: [], st: 'PENDING', reason: null, expl: '', trans: {} };
}

/** The form of a question the server answered with. */
export function formFromQuestion(v: QuestionView): QuestionForm {
  return {
    id: v.id,
    q: v.q,
    ops: { ...v.ops },
    ca: [...v.ca],
    qt: v.qt,
    d: v.d,
    c: [...v.c],
    s: v.s ?? null,
    t: [...v.t],
    e: [...v.e],
    st: v.st,
    reason: v.reason ?? null,
    expl: v.expl ?? '',
    trans: Object.fromEntries(
      Object.entries(v.trans).map(([l, tr]) => [
        l,
        { q: tr.q, ops: { ...tr.ops }, ca: [...tr.ca], ...(tr.expl && { expl: tr.expl }), ...(tr.src !== undefined && { src: tr.src }), ...(tr.mt === true && { mt: true }) },
      ]),
    ),
  };
}

/** The translation being edited, or an empty one with the base's option keys. */
export function translationOf(f: QuestionForm, lang: string): Translation {
  const tr = f.trans[lang];
  return { q: tr?.q ?? '', ops: Object.fromEntries(Object.keys(f.ops).map((k) => [k, tr?.ops[k] ?? ''])), ca: tr?.ca ?? [], ...(tr?.expl && { expl: tr.expl }) };
}

/** Whether an editor started the translation: something written in it. */
export function hasTranslation(f: QuestionForm, lang: string): boolean {
  const tr = f.trans[lang];
  if (!tr) return false;
  return (
    !isBlankHtml(tr.q) ||
    Object.values(tr.ops).some((o) => !isBlankHtml(o)) ||
    (!sharedAnswers(f.qt) && tr.ca.some((a) => a.trim() !== '')) ||
    !isBlankHtml(tr.expl ?? '')
  );
}

/** Text of the question in a language (English: the base; else its translation). */
export function questionText(f: QuestionForm, lang: EditLang): string {
  return lang === 'en' ? f.q : (f.trans[lang]?.q ?? '');
}
export function optionText(f: QuestionForm, lang: EditLang, key: string): string {
  return lang === 'en' ? (f.ops[key] ?? '') : (f.trans[lang]?.ops[key] ?? '');
}
/** Accepted answers (f) or model answer (s) in a language; MCQ keys and numbers (n) are shared by all languages. */
export function answersOf(f: QuestionForm, lang: EditLang): string[] {
  return lang === 'en' || sharedAnswers(f.qt) ? f.ca : (f.trans[lang]?.ca ?? []);
}
/** The explanation in a language (English: the base's; else the translation's). */
export function explanationText(f: QuestionForm, lang: EditLang): string {
  return lang === 'en' ? f.expl : (f.trans[lang]?.expl ?? '');
}

function withTranslation(f: QuestionForm, lang: string, change: (tr: Translation) => Translation): QuestionForm {
  return { ...f, trans: { ...f.trans, [lang]: change(translationOf(f, lang)) } };
}

/** In English the base text is edited; in another language its translation. */
export function setQuestionText(f: QuestionForm, lang: EditLang, html: string): QuestionForm {
  return lang === 'en' ? { ...f, q: html } : withTranslation(f, lang, (tr) => ({ ...tr, q: html }));
}
export function setOptionText(f: QuestionForm, lang: EditLang, key: string, html: string): QuestionForm {
  return lang === 'en' ? { ...f, ops: { ...f.ops, [key]: html } } : withTranslation(f, lang, (tr) => ({ ...tr, ops: { ...tr.ops, [key]: html } }));
}
export function setAnswers(f: QuestionForm, lang: EditLang, ca: string[]): QuestionForm {
  return lang === 'en' || sharedAnswers(f.qt) ? { ...f, ca } : withTranslation(f, lang, (tr) => ({ ...tr, ca }));
}
export function setExplanation(f: QuestionForm, lang: EditLang, html: string): QuestionForm {
  return lang === 'en' ? { ...f, expl: html } : withTranslation(f, lang, (tr) => ({ ...tr, expl: html }));
}

/** Every translation with its options re-keyed the same way as the base's. */
function mapTranslations(f: QuestionForm, ops: (tr: Translation) => Record<string, string>, ca?: (tr: Translation) => string[]): Record<string, Translation> {
  return Object.fromEntries(Object.entries(f.trans).map(([l, tr]) => [l, { ...tr, ops: ops(tr), ca: ca ? ca(tr) : tr.ca }]));
}

/**
 * Choosing a non-MCQ type clears the options (and their correct keys, in every
 * language). MCQ → MCQ keeps the options; mcq1 keeps one correct key (the first). A text
 * type that becomes MCQ gets four empty options. Between f and s the answer text stays (s has
 * one model answer: the first).
 */
export function setType(f: QuestionForm, qt: QuestionType): QuestionForm {
  if (qt === f.qt) return f;
  if (!isMcq(qt)) {
    const textCa = isMcq(f.qt) ? [] : qt === 's' ? f.ca.slice(0, 1) : f.ca;
    const trans = mapTranslations(
      f,
      () => ({}),
      (tr) => (isMcq(f.qt) ? [] : qt === 'n' ? textCa : qt === 's' ? tr.ca.slice(0, 1) : tr.ca),
    );
    return { ...f, qt, ops: {}, ca: textCa, trans };
  }
  if (isMcq(f.qt)) {
    const ca = qt === 'mcq1' ? f.ca.slice(0, 1) : f.ca;
    return { ...f, qt, ca, trans: mapTranslations(f, (tr) => tr.ops, () => ca) };
  }
  const ops = emptyOptions();
  return { ...f, qt, ops, ca: [], trans: mapTranslations(f, () => emptyOptions(), () => []) };
}

/** For mcq1 only one correct option is kept (choosing one replaces the other); for mcq2 they toggle. */
export function toggleCorrect(f: QuestionForm, key: string): QuestionForm {
  if (!Object.hasOwn(f.ops, key)) return f;
  if (f.qt === 'mcq1') return { ...f, ca: [key] };
  if (f.qt === 'mcq2') {
    const keys = Object.keys(f.ops);
    const ca = f.ca.includes(key) ? f.ca.filter((k) => k !== key) : keys.filter((k) => k === key || f.ca.includes(k));
    return { ...f, ca };
  }
  return f;
}

/** One more option, under the next letter (up to MAX_OPTIONS), in every language. */
export function addOption(f: QuestionForm): QuestionForm {
  const keys = Object.keys(f.ops);
  const key = OPTION_KEYS.find((k) => !keys.includes(k));
  if (!key || keys.length >= MAX_OPTIONS) return f;
  return { ...f, ops: { ...f.ops, [key]: '' }, trans: mapTranslations(f, (tr) => ({ ...tr.ops, [key]: '' })) };
}

/**
 * Removes an option. The ones after it move up a letter (removing B of A–D leaves A–C, as a
 * learner will see them), with their correct marks and translations; never below MIN_OPTIONS.
 */
export function removeOption(f: QuestionForm, key: string): QuestionForm {
  const keys = Object.keys(f.ops);
  if (!keys.includes(key) || keys.length <= MIN_OPTIONS) return f;
  const kept = keys.filter((k) => k !== key);
  const rename = new Map(kept.map((k, i) => [k, OPTION_KEYS[i] ?? k]));
  const rekey = (ops: Record<string, string>) => Object.fromEntries(kept.map((k) => [rename.get(k)!, ops[k] ?? '']));
  const ca = f.ca.filter((k) => k !== key).map((k) => rename.get(k) ?? k);
  return { ...f, ops: rekey(f.ops), ca, trans: mapTranslations(f, (tr) => rekey(tr.ops), () => ca) };
}

/**
 * The shortcut's result (split-options): the options a–d take the given texts in `lang`. A
 * question that was not multiple choice becomes single choice. In English, the options are
 * replaced (correct keys that no longer exist dropped); in Hindi, the translation's options are
 * set and the base gains any key it lacked (empty, for the editor to fill in).
 */
export function applySplit(f: QuestionForm, lang: EditLang, questionHtml: string, options: string[]): QuestionForm {
  const keys = OPTION_KEYS.slice(0, options.length);
  let next = isMcq(f.qt) ? f : { ...setType(f, 'mcq1') };
  if (lang === 'en') {
    const ops = Object.fromEntries(keys.map((k, i) => [k, options[i] ?? '']));
    const ca = next.ca.filter((k) => keys.includes(k));
    const trans = mapTranslations(next, (tr) => Object.fromEntries(keys.map((k) => [k, tr.ops[k] ?? ''])), () => ca);
    return { ...next, q: questionHtml, ops, ca, trans };
  }
  const baseOps = { ...next.ops };
  for (const k of keys) if (!Object.hasOwn(baseOps, k)) baseOps[k] = '';
  next = { ...next, ops: baseOps, trans: mapTranslations(next, (tr) => Object.fromEntries(Object.keys(baseOps).map((k) => [k, tr.ops[k] ?? '']))) };
  return withTranslation(next, lang, (tr) => ({ ...tr, q: questionHtml, ops: { ...tr.ops, ...Object.fromEntries(keys.map((k, i) => [k, options[i] ?? ''])) } }));
}

/** Message keys of the editor's namespace (docs/exams.md "Rules of a save"). */
export type FormMessage = 'questionBlank' | 'optionBlank' | 'correctAnswerMissing' | 'numericAnswer';
export type FieldError = { lang: EditLang; field: 'q' | 'ca' | `op:${string}`; msg: FormMessage };

/**
 * The server's rules (sync-protocol checkQuestion), checked before sending so that the editor
 * sees each one at its field: a blank question; a blank option (an option may be a picture
 * alone); a missing correct answer (none marked, or for mcq1 not exactly one; no accepted
 * answer for f; no model answer for s). A started Hindi translation needs its question and
 * every option written too.
 */
export function validateForm(f: QuestionForm): FieldError[] {
  const errors: FieldError[] = [];
  if (isBlankHtml(f.q)) errors.push({ lang: 'en', field: 'q', msg: 'questionBlank' });
  const keys = Object.keys(f.ops);
  if (isMcq(f.qt)) {
    for (const k of keys) if (isBlankHtml(f.ops[k] ?? '')) errors.push({ lang: 'en', field: `op:${k}`, msg: 'optionBlank' });
    const valid = f.ca.filter((k) => keys.includes(k));
    if (valid.length === 0 || (f.qt === 'mcq1' && valid.length !== 1)) errors.push({ lang: 'en', field: 'ca', msg: 'correctAnswerMissing' });
  } else if (f.ca.length === 0 || f.ca.some((a) => a.trim() === '')) {
    errors.push({ lang: 'en', field: 'ca', msg: 'correctAnswerMissing' });
  } else if (f.qt === 'n' && f.ca.some((a) => parseNumericSpec(a) === null)) {
    errors.push({ lang: 'en', field: 'ca', msg: 'numericAnswer' });
  }
  if (hasTranslation(f, TRANSLATION_LANG)) {
    const tr = translationOf(f, TRANSLATION_LANG);
    if (isBlankHtml(tr.q)) errors.push({ lang: TRANSLATION_LANG, field: 'q', msg: 'questionBlank' });
    if (isMcq(f.qt)) for (const k of keys) if (isBlankHtml(tr.ops[k] ?? '')) errors.push({ lang: TRANSLATION_LANG, field: `op:${k}`, msg: 'optionBlank' });
  }
  return errors;
}

/**
 * What is sent on save (POST without id, PATCH with it). A Hindi translation goes only once
 * something is written in it, with the base's option keys; MCQ translations carry the base's
 * correct keys (spec: ca copied from the base), a text answer left empty in Hindi falls back to
 * the English one. A reason goes only with REJECTED (the server drops it otherwise).
 */
export function formToInput(f: QuestionForm): QuestionInput & { id?: string } {
  const keys = Object.keys(f.ops);
  const ca = isMcq(f.qt) ? keys.filter((k) => f.ca.includes(k)) : f.ca.map((a) => a.trim());
  const trans: Record<string, Translation> = {};
  for (const [lang, tr] of Object.entries(f.trans)) {
    if (lang === TRANSLATION_LANG && !hasTranslation(f, lang)) continue;
    const ops = Object.fromEntries(keys.map((k) => [k, tr.ops[k] ?? '']));
    const own = tr.ca.map((a) => a.trim()).filter(Boolean);
    // An explanation left blank in Hindi is not sent: the learner sees the English one.
    const expl = tr.expl && !isBlankHtml(tr.expl) ? tr.expl : undefined;
    trans[lang] = { q: tr.q, ops, ca: sharedAnswers(f.qt) || own.length === 0 ? [...ca] : own, ...(expl && { expl }) };
  }
  return {
    ...(f.id ? { id: f.id } : {}),
    q: f.q,
    ops: isMcq(f.qt) ? { ...f.ops } : {},
    ca,
    qt: f.qt,
    d: f.d,
    c: f.c,
    s: f.s,
    t: f.t,
    e: f.e,
    st: f.st,
    reason: f.st === 'REJECTED' ? f.reason : null,
    expl: isBlankHtml(f.expl) ? '' : f.expl,
    trans,
  };
}

/** Whether two forms would save the same question (unsaved-changes warning, Reset). */
export function sameQuestion(a: QuestionForm, b: QuestionForm): boolean {
  return JSON.stringify(formToInput(a)) === JSON.stringify(formToInput(b));
}

/**
 * The form as the test screen holds a question (sync-protocol qs-detail), for the preview: the
 * learner's view in every language the question has.
 */
export function toTestQuestion(f: QuestionForm): TestQuestion {
  const input = formToInput(f);
  return {
    id: f.id ?? 'preview',
    q: input.q,
    ops: input.ops ?? {},
    qt: input.qt ?? 'mcq1',
    d: input.d ?? '3',
    ca: input.ca,
    trans: Object.fromEntries(Object.entries(input.trans ?? {}).map(([l, tr]) => [l, { q: tr.q, ops: tr.ops, ca: tr.ca }])),
  };
}

/**
 * docs/configuration.md "Machine translation": what Generate sends (docs/api.md: `{q, o0..o3}`): the English question and its
 * options in order.
 */
export function translationRequest(f: QuestionForm): Record<string, string> {
  const content: Record<string, string> = { q: f.q };
  if (isMcq(f.qt)) Object.keys(f.ops).forEach((k, i) => (content[`o${i}`] = f.ops[k] ?? ''));
  return content;
}

/** The machine translation Generate answered, put into the form's translation into `lang` (a draft until saved). */
export function applyTranslation(f: QuestionForm, lang: Exclude<EditLang, 'en'>, texts: Record<string, string>): QuestionForm {
  let next = f;
  if (typeof texts.q === 'string') next = setQuestionText(next, lang, texts.q);
  Object.keys(f.ops).forEach((k, i) => {
    const text = texts[`o${i}`];
    if (isMcq(f.qt) && typeof text === 'string') next = setOptionText(next, lang, k, text);
  });
  return next;
}

/**
 * docs/configuration.md "Machine translation": the translations this save reviews: the one on screen, and any whose text the
 * editor changed (typed, or Generate) since it was loaded. The server marks those current and
 * no longer drafts; the others keep their state (an English change leaves them stale).
 */
export function markReviewed(input: QuestionInput & { id?: string }, form: QuestionForm, saved: QuestionForm, shown: EditLang): QuestionInput & { id?: string } {
  const trans = input.trans ?? {};
  const reviewed = Object.fromEntries(
    Object.entries(trans).map(([lang, tr]) => {
      const before = saved.trans[lang];
      const now = form.trans[lang];
      const edited =
        !before ||
        !now ||
        before.q !== now.q ||
        JSON.stringify(before.ops) !== JSON.stringify(now.ops) ||
        JSON.stringify(before.ca) !== JSON.stringify(now.ca) ||
        (before.expl ?? '') !== (now.expl ?? '');
      return [lang, lang === shown || edited ? { ...tr, reviewed: true as const } : tr];
    }),
  );
  return { ...input, trans: reviewed };
}
