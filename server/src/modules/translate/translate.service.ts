import { and, eq, inArray } from 'drizzle-orm';
import { MSG } from '@pm/protocol/messages';
import { isBlankHtml } from '@pm/protocol/question';
import {
  englishSourceHash,
  type GenerateInDiffLangAnswer,
  TRANSLATION_BATCH_CHARS,
  type TranslateInHtmlAnswer,
} from '@pm/protocol/translate';
import type { Deps, Principal } from '../../context';
import { question } from '../../db/schema';
import { badRequest } from '../../lib/errors';
import { DetailedError } from '../questions/detailed-error';
import { saveMachineTranslations } from '../questions/questions.service';
import { type PlaceholderProblem, type Protected, protect, restore } from './placeholders';
import { type Batch, languageName, type TargetLanguage, type Translator } from './translator';

/*
 * Translating rich text through the adapter (docs/configuration.md "Machine translation"): each text is protected
 * (placeholders.ts), texts without words are not sent, the rest go in batches cut at 3,000
 * characters of serialised input, and every reply is checked token by token before anything is
 * answered or saved.
 */

/** Batches in flight at once (a provider's own rate limit is the real bound). */
const CONCURRENCY = 4;

/** The size a key/value adds to a batch's JSON: `"key":"value",`. */
const entrySize = (key: string, text: string) => JSON.stringify(key).length + JSON.stringify(text).length + 2;

/**
 * Cuts entries into batches of at most TRANSLATION_BATCH_CHARS characters of serialised JSON,
 * in order. An entry bigger than that on its own goes alone (a text is never cut in the middle of
 * a sentence, which the translator would then translate without its context).
 */
export function cutBatches(entries: [string, string][]): Batch[] {
  const batches: Batch[] = [];
  let current: Batch = {};
  let size = 2; // {}
  for (const [key, text] of entries) {
    const add = entrySize(key, text);
    if (size + add > TRANSLATION_BATCH_CHARS && Object.keys(current).length > 0) {
      batches.push(current);
      current = {};
      size = 2;
    }
    current[key] = text;
    size += add;
  }
  if (Object.keys(current).length > 0) batches.push(current);
  return batches;
}

/** Runs `work` over `items`, at most `limit` at a time; the first failure rejects. */
async function inParallel<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const run = async () => {
    while (!failed && next < items.length) {
      const i = next++;
      try {
        out[i] = await work(items[i]!);
      } catch (err) {
        failed = true;
        throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, run));
  return out;
}

export type FieldsResult = {
  /** Key → translated rich text (texts without words as they were). */
  html: Record<string, string>;
  /** Keys whose reply lost, repeated or changed a token, with what was wrong. */
  refused: Record<string, PlaceholderProblem>;
  /** Keys whose tokens came back out of their order (their markup needs sanitising again). */
  reordered: Set<string>;
  /** How many batches were sent. */
  batches: number;
};

/**
 * Translates rich texts (key → HTML). Throws 'Nothing to translate' when no text has words, and
 * the adapter's AppError when the endpoint fails (busy, timeout, unusable answer).
 */
export async function translateFields(translator: Translator, target: TargetLanguage, fields: Record<string, string>): Promise<FieldsResult> {
  const guarded = new Map<string, Protected>();
  const html: Record<string, string> = {};
  for (const [key, text] of Object.entries(fields)) {
    const p = protect(text);
    if (p.hasWords && !isBlankHtml(text)) guarded.set(key, p);
    else html[key] = text;
  }
  if (guarded.size === 0) throw badRequest(MSG.nothingToTranslate);
  const batches = cutBatches([...guarded].map(([k, p]) => [k, p.text]));
  const replies = await inParallel(batches, CONCURRENCY, (b) => translator.translate(b, target));
  const refused: Record<string, PlaceholderProblem> = {};
  const reordered = new Set<string>();
  for (const reply of replies) {
    for (const [key, text] of Object.entries(reply)) {
      const r = restore(guarded.get(key)!, text);
      if ('problem' in r) refused[key] = r.problem;
      else {
        html[key] = r.html;
        if (!r.inOrder) reordered.add(key);
      }
    }
  }
  return { html, refused, reordered, batches: batches.length };
}

/** The translator of this app, or the refusal of a production installation without one. */
async function translatorOf(deps: Deps): Promise<Translator> {
  const { translator } = await deps.translator();
  if (!translator) throw badRequest(MSG.translatorOff);
  return translator;
}

/**
 * POST /api/ai/translateQuestionInHtml {lang, content}: the editor's Generate. Nothing is
 * saved: the editor sees the translation as a draft in the form and saves it (or not). A reply
 * that broke a token is refused whole (502), naming the fields.
 */
export async function translateInHtml(deps: Deps, input: { lang: string; lname?: string | undefined; content: Record<string, string> }): Promise<TranslateInHtmlAnswer> {
  const translator = await translatorOf(deps);
  const r = await translateFields(translator, { code: input.lang, name: languageName(input.lang, input.lname) }, input.content);
  const refusedKeys = Object.keys(r.refused);
  if (refusedKeys.length > 0) {
    throw new DetailedError('BAD_GATEWAY', MSG.translationPlaceholders, { fields: refusedKeys, problems: r.refused });
  }
  const content: Record<string, string> = {};
  for (const key of Object.keys(input.content)) content[key] = r.html[key]!;
  return { success: true, data: [{ message: { role: 'assistant', content: JSON.stringify(content) } }], demo: translator.mode === 'demo' };
}

/** Keys of a question's texts in a whole-set request: `<n>.q` and `<n>.o.<option key>`. */
const qKey = (n: number) => `${n}.q`;
const oKey = (n: number, k: string) => `${n}.o.${k}`;
const eKey = (n: number) => `${n}.e`;

/**
 * GET /api/question/generateInDiffLang?lcode&lname&qids: translates the named questions whose
 * translation into `lcode` is missing, stale or a machine draft, and saves each as a machine
 * draft (a new version; learners do not see it until an editor saves it). Questions with a
 * current translation are skipped. Answers of fill-in and subjective questions are copied from
 * the English (an accepted answer is for an editor to translate). A question whose reply broke a
 * token is not saved and is listed in `refused`; when none could be saved the answer is 502.
 * The endpoint failing (busy, timeout) saves nothing.
 */
export async function generateInDiffLang(deps: Deps, actor: Principal, query: { lcode: string; lname?: string | undefined; qids: string[] }): Promise<GenerateInDiffLangAnswer> {
  const translator = await translatorOf(deps);
  const rows = await deps.db
    .select()
    .from(question)
    .where(and(inArray(question.id, query.qids), eq(question.deleted, false)));
  const todo: typeof rows = [];
  const skipped: string[] = [];
  // The English fingerprint of each question, once (it also tells whether a translation is stale).
  const english = new Map<string, string>();
  for (const r of rows) {
    const hash = englishSourceHash(r);
    english.set(r.id, hash);
    const tr = r.trans[query.lcode];
    if (tr && !tr.mt && (tr.src === undefined || tr.src === hash)) skipped.push(r.id);
    else todo.push(r);
  }
  if (todo.length === 0) throw badRequest(MSG.nothingToTranslate);
  const fields: Record<string, string> = {};
  todo.forEach((r, n) => {
    fields[qKey(n)] = r.q;
    for (const [k, html] of Object.entries(r.ops)) fields[oKey(n, k)] = html;
    // The explanation too, when there is one (docs/exams.md "Explanations").
    if (r.expl) fields[eKey(n)] = r.expl;
  });
  const result = await translateFields(translator, { code: query.lcode, name: languageName(query.lcode, query.lname) }, fields);
  const refused: { id: string; msg: string }[] = [];
  const items: Parameters<typeof saveMachineTranslations>[3] = [];
  todo.forEach((r, n) => {
    const keys = [qKey(n), ...Object.keys(r.ops).map((k) => oKey(n, k)), ...(r.expl ? [eKey(n)] : [])];
    if (keys.some((k) => result.refused[k])) {
      refused.push({ id: r.id, msg: MSG.translationPlaceholders });
      return;
    }
    items.push({
      id: r.id,
      english: english.get(r.id)!,
      inOrder: !keys.some((k) => result.reordered.has(k)),
      tr: { q: result.html[qKey(n)]!, ops: Object.fromEntries(Object.keys(r.ops).map((k) => [k, result.html[oKey(n, k)]!])), ca: [...r.ca], ...(r.expl ? { expl: result.html[eKey(n)]! } : {}) },
    });
  });
  const { saved, outdated } = items.length > 0 ? await saveMachineTranslations(deps, actor, query.lcode, items) : { saved: [], outdated: [] };
  for (const id of outdated) refused.push({ id, msg: MSG.translationOutdated });
  if (saved.length === 0) {
    const onlyOutdated = refused.every((r) => r.msg === MSG.translationOutdated);
    throw new DetailedError(onlyOutdated ? 'CONFLICT' : 'BAD_GATEWAY', onlyOutdated ? MSG.translationOutdated : MSG.translationPlaceholders, { refused });
  }
  return { success: true, msg: MSG.translationsSaved, translated: saved, skipped, refused, demo: translator.mode === 'demo' };
}
