import { excerpt, htmlToText, issue, linesOf, plainToHtml, type ParsedRow } from './rows';
import type { ExportQuestion } from './export-question';

/*
 * Moodle's Aiken format (docs.moodle.org/en/Aiken_format; question/format/aiken/format.php):
 * single-choice questions in plain text. A question's text (one or more lines), then options,
 * each a capital letter, `.` or `)`, a space and the text, then `ANSWER: <letter>`. Blank lines
 * between questions are optional. Everything is one type (mcq1) and text only.
 */

const OPTION = /^([A-Z])[.)]\s+(.*)$/;
const ANSWER = /^ANSWER:\s*(.*)$/i;

type Pending = { line: number; text: string[]; ops: [letter: string, text: string][]; dup: boolean };

/** The row of a question read up to its ANSWER line (`answer`), or up to the next question (null). */
function close(p: Pending, n: number, answer: string | null): ParsedRow {
  const q = plainToHtml(p.text.join('\n'));
  const row: ParsedRow = { n, line: p.line, qt: 'mcq1', text: excerpt(q), draft: null, errors: [], warnings: [] };
  if (p.ops.length === 0) row.errors.push(issue('aikenNoOptions'));
  else if (p.dup) row.errors.push(issue('duplicateOption'));
  else if (answer === null) row.errors.push(issue('aikenNoAnswer'));
  else {
    const ops = Object.fromEntries(p.ops.map(([l, t]) => [l.toLowerCase(), plainToHtml(t)]));
    const key = answer.trim().toLowerCase();
    if (!/^[a-z]$/.test(key) || !Object.hasOwn(ops, key)) row.errors.push(issue('answerNotOption', { answer: answer.trim() }));
    else row.draft = { q, ops, ca: [key], qt: 'mcq1', tags: [] };
  }
  return row;
}

/** Reads an Aiken file: one row per question, one at a time (the import takes them in slices, lib/slices.ts). */
export function* aikenRows(content: string): Generator<ParsedRow> {
  let n = 0;
  let i = 0;
  let cur: Pending | null = null;
  for (const raw of linesOf(content)) {
    i++;
    const line = raw.trim();
    if (line === '') continue;
    const answer = ANSWER.exec(line);
    if (answer && cur) {
      yield close(cur, ++n, answer[1]!);
      cur = null;
      continue;
    }
    const option = OPTION.exec(line);
    if (option && cur && cur.text.length > 0) {
      if (cur.ops.some(([l]) => l === option[1])) cur.dup = true;
      cur.ops.push([option[1]!, option[2]!]);
      continue;
    }
    // A line of text after options starts the next question: the one before had no ANSWER.
    if (cur && cur.ops.length > 0) {
      yield close(cur, ++n, null);
      cur = null;
    }
    cur ??= { line: i, text: [], ops: [], dup: false };
    cur.text.push(line);
  }
  if (cur) yield close(cur, ++n, null);
}

export const parseAiken = (content: string): ParsedRow[] => [...aikenRows(content)];

/** One line of text: Aiken has no markup and no line breaks inside a question or option. */
const oneLine = (html: string) => htmlToText(html).replace(/\s*\n\s*/g, ' ').trim();

/**
 * Single-choice questions as Aiken (options lettered A, B, … in their order). Other types have no
 * place in Aiken and are left out; the caller reports how many.
 */
export function serialiseAiken(questions: readonly ExportQuestion[]): { text: string; skipped: number } {
  const out: string[] = [];
  let skipped = 0;
  for (const q of questions) {
    const keys = Object.keys(q.ops);
    if (q.qt !== 'mcq1' || keys.length > 26) {
      skipped++;
      continue;
    }
    const letter = (i: number) => String.fromCharCode(65 + i);
    const lines = [oneLine(q.q), ...keys.map((k, i) => `${letter(i)}. ${oneLine(q.ops[k]!)}`), `ANSWER: ${letter(keys.indexOf(q.ca[0]!))}`];
    out.push(lines.join('\n'));
  }
  return { text: out.length ? `${out.join('\n\n')}\n` : '', skipped };
}
