import { z } from 'zod';
import { idSchema } from './common';
import { MSG } from './messages';

/*
 * Machine translation of questions (generateInDiffLang and
 * ai/translateQuestionInHtml; docs/configuration.md "Machine translation"). The server sends the English text, with formulas,
 * images and markup swapped for placeholders, to an OpenAI-compatible chat-completions endpoint
 * (server/src/modules/translate), and a translation keeps track of the English it was made from,
 * so that it is shown as stale when the English changes afterwards.
 */

/** docs/configuration.md "Machine translation": batches are cut at 3,000 characters of serialised input. */
export const TRANSLATION_BATCH_CHARS = 3000;

const langCode = z.string().regex(/^[a-z]{2}$/, { error: 'Invalid language code' });
/** A target language: never English, the base text ('Selected language should not be english'). */
const targetLang = langCode.refine((l) => l !== 'en', { error: MSG.translateNotEnglish });

/** Keys of the editor's content: the question `q` and its options `o0`, `o1`, … in order. */
export const TRANSLATE_CONTENT_KEY = /^(q|o[0-9])$/;

/**
 * POST /api/ai/translateQuestionInHtml {lang, content}: `content` holds the question `q` and the
 * options `o0`…`o9` as rich text (the editor sends `{q, o0..o3}`). `lang` is the target
 * language's code (`hi`); `lname`, optional, its name for the prompt (`Hindi`).
 */
export const translateInHtmlSchema = z.strictObject({
  lang: targetLang,
  lname: z.string().trim().min(1).max(40).optional(),
  content: z.record(z.string().regex(TRANSLATE_CONTENT_KEY, { error: 'Invalid content key' }), z.string().max(20_000)),
});
export type TranslateInHtmlInput = z.input<typeof translateInHtmlSchema>;

/**
 * The answer of translateQuestionInHtml, shaped as chat completions' `choices` (the spec's editor
 * reads `data[0].message.content` as JSON): the content is a JSON object with the keys sent and
 * the translated rich text. `demo` is true when the translation came from the local demo
 * translator, which only marks texts and translates nothing.
 */
export type TranslateInHtmlAnswer = {
  success: true;
  data: { message: { role: 'assistant'; content: string } }[];
  demo: boolean;
};

/**
 * GET /api/question/generateInDiffLang?lcode&lname&qids: translates the questions named (a
 * selection, or the questions of a set) into `lcode` and saves each translation as a machine
 * draft. Questions whose translation is current (saved by an editor, English unchanged since)
 * are left alone.
 */
export const generateInDiffLangQuerySchema = z.strictObject({
  lcode: targetLang,
  lname: z.string().trim().min(1).max(40).optional(),
  qids: z
    .string()
    .transform((v) => [...new Set(v.split(',').map((x) => x.trim()).filter(Boolean))])
    .pipe(z.array(idSchema).min(1, { error: MSG.nothingToTranslate }).max(1000)),
});

/** The answer of generateInDiffLang: how many were translated and saved, skipped, refused. */
export type GenerateInDiffLangAnswer = {
  success: true;
  msg: string;
  translated: string[];
  /** Current translations left alone. */
  skipped: string[];
  /** Questions whose reply was refused (placeholders lost, duplicated or changed): not saved. */
  refused: { id: string; msg: string }[];
  demo: boolean;
};

/**
 * GET /api/ai/translator: whether Generate works here. `real`: an endpoint is configured;
 * `demo`: the local demo translator (development and tests), which only marks the text; `off`:
 * a production installation without TRANSLATE_URL.
 */
export type TranslatorStatus = { success: true; data: { mode: 'real' | 'demo' | 'off'; model: string | null } };

/**
 * A fingerprint of the English a translation is made from: the question, its options and, for
 * fill-in and subjective questions, the accepted answers, exactly as stored. Not a security
 * measure (cyrb53, 53 bits): it only tells that the English changed. Server and client compute it
 * from the same stored strings.
 */
export function englishSourceHash(q: { q: string; ops: Record<string, string>; ca: readonly string[]; qt: string; expl?: string | undefined }): string {
  const parts = [q.q, ...Object.keys(q.ops).sort().map((k) => `${k}=${q.ops[k]}`)];
  if (q.qt === 'f' || q.qt === 's') parts.push(...q.ca);
  // Only when written, so that questions without one keep the fingerprint they had before explanations.
  if (q.expl) parts.push(`expl=${q.expl}`);
  const text = parts.join('\u0000');
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16).padStart(14, '0');
}

/** Where a question's translation into a language stands. */
export type TranslationState = { present: boolean; stale: boolean; draft: boolean };

/**
 * `present`: the language has a translation. `stale`: the English changed after it was made or
 * last reviewed (a translation from before this was tracked has no `src` and is taken as
 * current). `draft`: made by machine (generateInDiffLang) and not yet saved by an editor.
 */
export function translationState(
  q: { q: string; ops: Record<string, string>; ca: readonly string[]; qt: string; trans: Record<string, { src?: string | undefined; mt?: boolean | undefined }> },
  lang: string,
): TranslationState {
  const tr = q.trans[lang];
  if (!tr) return { present: false, stale: false, draft: false };
  return { present: true, stale: tr.src !== undefined && tr.src !== englishSourceHash(q), draft: tr.mt === true };
}
