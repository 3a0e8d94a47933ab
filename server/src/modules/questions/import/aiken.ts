import { excerpt, htmlToText, issue, plainToHtml, type ParsedRow } from './rows';
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

export function parseAiken(content: string): ParsedRow[] {
  const rows: ParsedRow[] = [];
  let cur: Pending | null = null;
  const close = (p: Pending, answer: string | null) => {
    const q = plainToHtml(p.text.join('\n'));
    const row: ParsedRow = { n: rows.length + 1, line: p.line, qt: 'mcq1', text: excerpt(q), draft: null, errors: [], warnings: [] };
    rows.push(row);
    if (p.ops.length === 0) return row.errors.push(issue('aikenNoOptions'));
    if (p.dup) return row.errors.push(issue('duplicateOption'));
    if (answer === null) return row.errors.push(issue('aikenNoAnswer'));
    const ops = Object.fromEntries(p.ops.map(([l, t]) => [l.toLowerCase(), plainToHtml(t)]));
    const key = answer.trim().toLowerCase();
    if (!/^[a-z]$/.test(key) || !Object.hasOwn(ops, key)) return row.errors.push(issue('answerNotOption', { answer: answer.trim() }));
    row.draft = { q, ops, ca: [key], qt: 'mcq1', tags: [] };
    return row;
  };
  content
    .replace(/^\uFEFF/, '')
    .split(/\r\n|\r|\n/)
    .forEach((raw, i) => {
      const line = raw.trim();
      if (line === '') return;
      const answer = ANSWER.exec(line);
      if (answer && cur) {
        close(cur, answer[1]!);
        cur = null;
        return;
      }
      const option = OPTION.exec(line);
      if (option && cur && cur.text.length > 0) {
        if (cur.ops.some(([l]) => l === option[1])) cur.dup = true;
        cur.ops.push([option[1]!, option[2]!]);
        return;
      }
      // A line of text after options starts the next question: the one before had no ANSWER.
      if (cur && cur.ops.length > 0) {
        close(cur, null);
        cur = null;
      }
      if (!cur) cur = { line: i + 1, text: [], ops: [], dup: false };
      cur.text.push(line);
    });
  if (cur) close(cur, null);
  return rows;
}

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
