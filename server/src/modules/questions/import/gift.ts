import type { ImportIssue } from '@pm/protocol/question-import';
import { escapeHtml, excerpt, htmlToText, issue, linesOf, markdownToHtml, OPTION_KEYS, type Draft, type ParsedRow } from './rows';
import type { TagRef } from './tag-ref';
import type { ExportQuestion } from './export-question';

/*
 * Moodle's GIFT format (docs.moodle.org/en/GIFT_format; question/format/gift/format.php), read as
 * Moodle reads it: questions are separated by blank lines; `//` lines are comments (their
 * `[tag:…]` entries are tags, as Moodle 3.6+ writes them); `$CATEGORY:` sets the category of the
 * questions after it; `::title::` names a question; `[html]`, `[moodle]`, `[plain]` and
 * `[markdown]` give the text's format; `\~ \= \# \{ \} \: \\` are escaped characters and `\n` a
 * line break. The answer block is between the first `{` and the last `}`; text after it makes a
 * "missing word" question (the block's place becomes a blank).
 *
 * What our types cannot hold is reported per row, never changed into something else:
 * matching, description (no answer block), essay without a model answer, partial credit and
 * unequal weights. Per-answer feedback is dropped with a warning.
 * Mapped: multiple choice with `=` → mcq1; with `~%w%` weights and no `=` → mcq2 (the answers of
 * positive weight are correct); true/false → mcq1 with the options True / False; short answer
 * → f; numerical (`{#3}`, `{#3:0.5}`, `{#1..5}`, several `=` answers) → n with those accepted
 * answers; essay with general feedback (`{####…}`, our export's place for it) → s with that text
 * as its model answer. Every other type's general feedback (`####…`) is its explanation
 * (docs/authoring.md "Import and export").
 */

const ESCAPES: Record<string, string> = { '\\': '\uE000', ':': '\uE001', '#': '\uE002', '=': '\uE003', '{': '\uE004', '}': '\uE005', '~': '\uE006', n: '\uE007' };
const UNESCAPED: Record<string, string> = { '\uE000': '\\', '\uE001': ':', '\uE002': '#', '\uE003': '=', '\uE004': '{', '\uE005': '}', '\uE006': '~', '\uE007': '\n' };
const protect = (s: string) => s.replace(/\\([\\:#={}~n])/g, (_, c: string) => ESCAPES[c]!);
const restore = (s: string) => s.replace(/[\uE000-\uE007]/g, (c) => UNESCAPED[c]!);

type TextFormat = 'html' | 'moodle' | 'plain' | 'markdown';

function splitFormat(text: string, inherited: TextFormat): { format: TextFormat; text: string } {
  const m = /^\s*\[(html|moodle|plain|markdown)\]/i.exec(text);
  if (!m) return { format: inherited, text };
  return { format: m[1]!.toLowerCase() as TextFormat, text: text.slice(m[0].length) };
}

/** A GIFT text (escapes still protected) as rich text in its format. */
function richText(raw: string, format: TextFormat): string {
  const text = restore(raw).trim();
  switch (format) {
    case 'html':
      return text;
    case 'markdown':
      return markdownToHtml(text);
    case 'plain':
      return `<p>${escapeHtml(text).replace(/\n/g, '<br />')}</p>`;
    case 'moodle':
      // Moodle's auto-format: markup is allowed, line breaks are kept.
      return /^<(p|div|ul|ol|table|h[1-6]|pre|blockquote)\b/i.test(text) ? text : `<p>${text.replace(/\n/g, '<br>')}</p>`;
  }
}

/** A short-answer text: plain, escapes undone, markup of an [html] answer removed. */
function answerText(raw: string, format: TextFormat): string {
  const text = restore(raw).trim();
  return format === 'html' || format === 'markdown' ? htmlToText(text) : text;
}

/** `%50%` at the start of an answer: its weight and the rest; null when malformed. */
function weightOf(answer: string): { weight: number; rest: string } | null | undefined {
  if (!answer.startsWith('%')) return undefined;
  const m = /^%(-?\d+(?:\.\d+)?)%/.exec(answer);
  if (!m) return null;
  const weight = Number(m[1]);
  if (!(weight >= -100 && weight <= 100)) return null;
  return { weight, rest: answer.slice(m[0].length) };
}

/** An answer's text and whether it carried feedback (`text#feedback`). */
function withoutFeedback(answer: string): { text: string; feedback: boolean } {
  const i = answer.indexOf('#');
  return i < 0 ? { text: answer, feedback: false } : { text: answer.slice(0, i), feedback: answer.slice(i + 1).trim() !== '' };
}

type Chunk = { line: number; lines: string[] };

/** The file's blocks of lines between blank lines, one at a time. */
function* chunks(content: string): Generator<Chunk> {
  let current: Chunk | null = null;
  let n = 0;
  for (const line of linesOf(content)) {
    n++;
    if (line.trim() === '') {
      if (current) yield current;
      current = null;
      continue;
    }
    current ??= { line: n, lines: [] };
    current.lines.push(line);
  }
  if (current) yield current;
}

/** Moodle's category path, as tags: `$course$`, `$system$`, `top` and "Default for …" are places, not topics. */
function categoryTags(path: string): string[] {
  return restore(path)
    .split('/')
    .map((s) => s.trim())
    .filter((s) => s && !/^\$[a-z0-9]+\$$/i.test(s) && s.toLowerCase() !== 'top' && !/^default for\b/i.test(s));
}

/**
 * Reads a GIFT file: one row per question (category lines and comments are no rows), one at a
 * time (the import takes them in slices, lib/slices.ts).
 */
export function* giftRows(content: string): Generator<ParsedRow> {
  let n = 0;
  let category: string[] = [];
  for (const chunk of chunks(content)) {
    const comments = chunk.lines.filter((l) => l.trim().startsWith('//'));
    const body = chunk.lines.filter((l) => !l.trim().startsWith('//'));
    let text = protect(body.join('\n')).trim();
    if (/^\$CATEGORY:/i.test(text)) {
      const nl = text.indexOf('\n');
      category = categoryTags(text.slice('$CATEGORY:'.length, nl < 0 ? undefined : nl));
      text = nl < 0 ? '' : text.slice(nl + 1).trim();
    }
    if (!text) continue;
    const tags: TagRef[] = [
      ...category.map((name) => ({ name, strict: false })),
      ...comments.flatMap((c) => [...c.matchAll(/\[tag:([^\]]+)\]/g)].map((m) => ({ name: m[1]!.trim(), strict: false }))),
    ];
    yield readQuestion(text, { n: ++n, line: chunk.line }, tags);
  }
}

export const parseGift = (content: string): ParsedRow[] => [...giftRows(content)];

function readQuestion(text: string, at: { n: number; line: number }, tags: TagRef[]): ParsedRow {
  const row: ParsedRow = { ...at, draft: null, qt: null, errors: [], warnings: [] };
  let rest = text;
  const title = /^::([\s\S]*?)::/.exec(rest);
  if (title) {
    row.title = restore(title[1]!).trim();
    rest = rest.slice(title[0].length).trim();
  }
  const start = rest.indexOf('{');
  const end = rest.lastIndexOf('}');
  if (start < 0 && end < 0) {
    row.text = excerpt(restore(rest));
    row.errors.push(issue('unsupportedType', { type: 'description' }));
    return row;
  }
  if (start < 0 || end < start) {
    row.text = excerpt(restore(rest));
    row.errors.push(issue('unclosedBrace'));
    return row;
  }
  const after = rest.slice(end + 1).trim();
  const before = rest.slice(0, start).trim();
  const { format, text: qText } = splitFormat(after ? `${before} _____ ${after}` : before, 'moodle');
  const q = richText(qText, format);
  row.text = excerpt(q);
  const errors = row.errors;
  const warn = (i: ImportIssue) => {
    if (!row.warnings.some((w) => w.code === i.code)) row.warnings.push(i);
  };

  let block = rest.slice(start + 1, end);
  const general = block.indexOf('####');
  let generalFeedback = '';
  if (general >= 0) {
    generalFeedback = block.slice(general + 4);
    block = block.slice(0, general);
  }
  block = block.trim();

  // Essay: no answers. Its general feedback is where our export keeps a model answer.
  if (block === '') {
    row.qt = 's';
    const model = answerText(generalFeedback, format);
    if (!model) errors.push(issue('essayNoModel'));
    else row.draft = { q, tags, qt: 's', ops: {}, ca: [model] };
    return row;
  }
  // General feedback is the explanation (Moodle shows it after the question is answered).
  const fb = splitFormat(generalFeedback, format);
  const expl = generalFeedback.trim() ? richText(fb.text, fb.format) : '';
  const draft = (d: Omit<Draft, 'q' | 'tags'>): Draft => ({ q, tags, ...(expl && { expl }), ...d });

  if (block.startsWith('#')) return numerical(row, block.slice(1), draft, warn);
  if (block.includes('~')) return multichoice(row, block, format, draft, warn);
  if (block.includes('=') && block.includes('->')) {
    errors.push(issue('unsupportedType', { type: 'matching' }));
    return row;
  }
  const tf = withoutFeedback(block);
  const truth = /^(T|TRUE|F|FALSE)$/i.exec(tf.text.trim());
  if (truth) {
    if (tf.feedback) warn(issue('feedbackDropped'));
    row.qt = 'mcq1';
    const isTrue = truth[1]!.toUpperCase().startsWith('T');
    row.draft = draft({ qt: 'mcq1', ops: { a: '<p>True</p>', b: '<p>False</p>' }, ca: [isTrue ? 'a' : 'b'] });
    return row;
  }
  return shortAnswer(row, block, format, draft, warn);
}

/** Answers of a block, each with its leading `=` or `~` (a first answer without one counts as `=`). */
function answersOf(block: string): { correct: boolean; text: string }[] {
  const out: { correct: boolean; text: string }[] = [];
  const re = /([=~])([^=~]*)/g;
  const lead = block.search(/[=~]/);
  const head = lead < 0 ? block : block.slice(0, lead);
  if (head.trim()) out.push({ correct: true, text: head.trim() });
  for (const m of (lead < 0 ? '' : block.slice(lead)).matchAll(re)) out.push({ correct: m[1] === '=', text: m[2]!.trim() });
  return out;
}

type Warn = (i: ImportIssue) => void;
type MakeDraft = (d: Omit<Draft, 'q' | 'tags'>) => Draft;

function multichoice(row: ParsedRow, block: string, format: TextFormat, draft: MakeDraft, warn: Warn): ParsedRow {
  // Moodle: a block without `=` is a multiple-answer question (weights say which are right).
  const single = block.includes('=');
  row.qt = single ? 'mcq1' : 'mcq2';
  const answers = answersOf(block);
  if (answers.length > OPTION_KEYS.length) {
    row.errors.push(issue('tooManyOptions', { max: OPTION_KEYS.length }));
    return row;
  }
  const ops: Record<string, string> = {};
  const weights: number[] = [];
  for (const [i, a] of answers.entries()) {
    let text = a.text;
    let weight = a.correct ? 100 : 0;
    if (!a.correct) {
      const w = weightOf(text);
      if (w === null) {
        row.errors.push(issue('badWeight', { answer: i + 1 }));
        return row;
      }
      if (w) ({ weight, rest: text } = w);
    }
    const fb = withoutFeedback(text);
    if (fb.feedback) warn(issue('feedbackDropped'));
    const f = splitFormat(fb.text, format);
    ops[OPTION_KEYS[i]!] = richText(f.text, f.format);
    weights.push(weight);
  }
  const keys = Object.keys(ops);
  const positive = keys.filter((_, i) => weights[i]! > 0);
  if (single) {
    const full = keys.filter((_, i) => weights[i] === 100);
    if (full.length > 1) row.errors.push(issue('oneCorrectAnswer'));
    else if (positive.length > full.length) row.errors.push(issue('partialCredit'));
    else row.draft = draft({ qt: 'mcq1', ops, ca: full });
    return row;
  }
  const pw = weights.filter((w) => w > 0);
  if (pw.length > 1 && Math.max(...pw) - Math.min(...pw) > 0.01) {
    row.errors.push(issue('unequalWeights'));
    return row;
  }
  row.draft = draft({ qt: 'mcq2', ops, ca: positive });
  return row;
}

function shortAnswer(row: ParsedRow, block: string, format: TextFormat, draft: MakeDraft, warn: Warn): ParsedRow {
  row.qt = 'f';
  const ca: string[] = [];
  for (const a of answersOf(block)) {
    let text = a.text;
    const w = weightOf(text);
    if (w === null) {
      row.errors.push(issue('badWeight', { answer: ca.length + 1 }));
      return row;
    }
    if (w) {
      if (w.weight !== 100) {
        row.errors.push(issue('partialCredit'));
        return row;
      }
      text = w.rest;
    }
    const fb = withoutFeedback(text);
    if (fb.feedback) warn(issue('feedbackDropped'));
    const answer = answerText(splitFormat(fb.text, format).text, format);
    if (answer) ca.push(answer);
  }
  row.draft = draft({ qt: 'f', ops: {}, ca });
  return row;
}

/**
 * A GIFT number as our numerical answers write it (sync-protocol parseNumber): plain decimal
 * notation; Moodle's exponents (`1e3`) are written out. Null when it is no number.
 */
function decimal(raw: string): string | null {
  const t = raw.trim();
  if (!/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(t)) return null;
  if (!/[eE]/.test(t)) return t.replace(/^\+/, '');
  const n = Number(t);
  if (!Number.isFinite(n)) return null;
  const s = String(n);
  return /e/i.test(s) ? null : s;
}

/**
 * `{#3.14}`, `{#3.14:0.01}`, `{#1..5}`, `{#=3:0 =3.1:0.1}` → n, one accepted answer each (`3.14`,
 * `3.14:0.01`, `1..5`: marking.ts parseNumericSpec). Partial credit cannot be held.
 */
function numerical(row: ParsedRow, block: string, draft: MakeDraft, warn: Warn): ParsedRow {
  row.qt = 'n';
  const parts = /[=~]/.test(block) ? answersOf(block) : [{ correct: true, text: block.trim() }];
  const ca: string[] = [];
  for (const a of parts) {
    // `~` answers are wrong ones (Moodle's `{#3:2~#Completely wrong}`: credit 0, feedback only):
    // everything not accepted is wrong already.
    if (!a.correct) {
      if (withoutFeedback(a.text).feedback) warn(issue('feedbackDropped'));
      continue;
    }
    if (a.text === '') continue;
    let text = a.text;
    const w = weightOf(text);
    if (w === null) {
      row.errors.push(issue('badWeight', { answer: ca.length + 1 }));
      return row;
    }
    if (w) {
      if (w.weight !== 100) {
        row.errors.push(issue('partialCredit'));
        return row;
      }
      text = w.rest;
    }
    const fb = withoutFeedback(text);
    if (fb.feedback) warn(issue('feedbackDropped'));
    const value = restore(fb.text).trim();
    const range = /^(.+?)\.\.(.+)$/.exec(value);
    const tol = /^([^:]+)(?::([^:]+))?$/.exec(value);
    let spec: string | null = null;
    if (range) {
      const [lo, hi] = [decimal(range[1]!), decimal(range[2]!)];
      if (lo !== null && hi !== null) spec = lo === hi ? lo : `${lo}..${hi}`;
    } else if (tol) {
      const v = decimal(tol[1]!);
      const d = tol[2] === undefined ? '0' : decimal(tol[2]);
      if (v !== null && d !== null) spec = Number(d) === 0 ? v : `${v}:${d}`;
    }
    if (spec === null) {
      row.errors.push(issue('badNumber', { value }));
      return row;
    }
    ca.push(spec);
  }
  row.draft = draft({ qt: 'n', ops: {}, ca });
  return row;
}

/** Escapes GIFT's special characters (Moodle's export does the same). */
export function giftEscape(s: string): string {
  return s.replace(/[\\~=#{}:]/g, (c) => `\\${c}`).replace(/\r?\n/g, '\\n');
}

const weightText = (n: number) => String(Math.round(n * 100_000) / 100_000);

/**
 * A question as GIFT: its tags in a `// [tag:…]` comment, `[html]` text, and the answer block.
 * mcq2 gives each correct answer an equal share of 100% and each wrong one -100%; s is an essay
 * with the model answer as general feedback; n is numerical; the explanation of the other types
 * is their general feedback. Hindi and the difficulty have no place in GIFT.
 */
export function giftOf(q: ExportQuestion): string {
  const lines: string[] = [];
  const tags = [...q.c, ...(q.s ? [q.s] : []), ...q.t, ...q.e];
  if (tags.length) lines.push(`// ${tags.map((t) => `[tag:${t}]`).join(' ')}`);
  const text = `[html]${giftEscape(q.q)}`;
  const opt = (k: string) => giftEscape(q.ops[k] ?? '');
  const keys = Object.keys(q.ops);
  let block: string;
  switch (q.qt) {
    case 'mcq1':
      block = keys.map((k) => `\t${q.ca.includes(k) ? '=' : '~'}${opt(k)}`).join('\n');
      block = `\n${block}\n`;
      break;
    case 'mcq2': {
      const share = weightText(100 / q.ca.length);
      block = `\n${keys.map((k) => `\t~%${q.ca.includes(k) ? share : '-100'}%${opt(k)}`).join('\n')}\n`;
      break;
    }
    case 'f':
      block = q.ca.map((a) => `=${giftEscape(a)}`).join(' ');
      break;
    case 'n':
      // Accepted answers are GIFT's own notation (3, 3:0.5, 1..5); `:` is not escaped here.
      block = q.ca.length === 1 ? `#${q.ca[0]}` : `#${q.ca.map((a) => `=${a}`).join(' ')}`;
      break;
    case 's':
      block = `####${giftEscape(q.ca[0] ?? '')}`;
      break;
  }
  // The explanation is GIFT's general feedback (an essay's is its model answer, above).
  if (q.qt !== 's' && q.expl) block += `####${giftEscape(q.expl)}`;
  lines.push(`${text} {${block}}`);
  return lines.join('\n');
}

export function serialiseGift(questions: readonly ExportQuestion[]): string {
  return `${questions.map(giftOf).join('\n\n')}\n`;
}
