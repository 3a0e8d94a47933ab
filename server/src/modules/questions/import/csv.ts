import Papa from 'papaparse';
import { questionTypeSchema } from '@pm/protocol/question';
import { MSG } from '@pm/protocol/messages';
import { escapeCsvCell, unescapeCsvCell } from '#server/lib/csv-cells';
import { badRequest } from '#server/lib/errors';
import type { ExportQuestion } from './export-question';
import { excerpt, issue, looksLikeHtml, OPTION_KEYS, plainToHtml, type Draft, type ParsedRow } from './rows';
import type { TagKey, TagRef } from './tag-ref';

/*
 * The bilingual CSV template (docs/authoring.md "Import and export"), one question a row, a header row first:
 *   type        mcq1 | mcq2 | f | s | n
 *   difficulty  1–5 (empty: 3)
 *   question_en, question_hi             the question in English (required) and Hindi
 *   a_en, a_hi … h_en, h_hi              options a–h (mcq1, mcq2), English and Hindi
 *   answer      mcq1: the option letter; mcq2: letters separated by , ; or spaces;
 *               f: accepted answers separated by |; s: the model answer;
 *               n: accepted numbers separated by |, each 3 (exact), 3:0.5 (tolerance) or 1..5 (range)
 *   answer_hi   f: Hindi accepted answers (|); s: the Hindi model answer; empty for mcq and n
 *   explanation_en, explanation_hi       optional: the worked solution shown after the answer
 *   subject     one subject; class, topics, exams: several separated by ;
 *               (each a tag id or a tag's name in English or Hindi)
 *   marks       optional: a question has no marks of its own (a question set gives them),
 *               so a number here is reported as not stored
 * Texts are plain (line breaks kept) unless they hold HTML, which is kept as rich text.
 * Column names are case-insensitive; an unknown column refuses the file (400). A cell starting
 * with ' before = + - @ (or a tab or line break) is read without that ' (spreadsheet formula
 * escaping, as our export writes it: lib/csv-cells.ts).
 */

const OPTION_COLUMN = /^([a-h])_(en|hi)$/;
const FIXED = ['type', 'difficulty', 'question_en', 'question_hi', 'answer', 'answer_hi', 'explanation_en', 'explanation_hi', 'subject', 'class', 'topics', 'exams', 'marks'] as const;
const REQUIRED = ['type', 'question_en', 'answer'] as const;
const TAG_COLUMNS: [column: string, group: TagKey][] = [
  ['subject', 's'],
  ['class', 'c'],
  ['topics', 't'],
  ['exams', 'e'],
];

const richCell = (s: string) => (looksLikeHtml(s) ? s.trim() : plainToHtml(s));

/** Papa tokenises the file this much at a time (a few ms), so that the import can pause between pieces. */
const PIECE = 64 * 1024;

/**
 * The file's records (arrays of cells; blank lines left out) and whether Papa found each one
 * malformed, tokenised a piece at a time as Papa's own streaming parser does: a record cut by a
 * piece's end is parsed again with the next piece. Delimiter and line break as Papa.parse guesses
 * them from the start of the file.
 */
function* csvRecords(content: string): Generator<{ cells: string[]; broken: boolean }> {
  const text = content.replace(/^\uFEFF/, '');
  const { delimiter, linebreak } = Papa.parse<string[]>(text.slice(0, PIECE), { preview: 10, skipEmptyLines: 'greedy' }).meta;
  const parser = new Papa.Parser({ delimiter, newline: linebreak as '\n' | '\r' | '\r\n' });
  let partial = '';
  let base = 0;
  for (let at = 0; at < text.length; at += PIECE) {
    const last = at + PIECE >= text.length;
    const aggregate = partial + text.slice(at, at + PIECE);
    const r = parser.parse(aggregate, base, !last) as Papa.ParseResult<string[]>;
    if (!last) {
      partial = aggregate.slice(r.meta.cursor - base);
      base = r.meta.cursor;
    }
    const broken = new Set(r.errors.map((e) => e.row));
    for (const [i, cells] of r.data.entries()) {
      if (cells.join('').trim() !== '') yield { cells, broken: broken.has(i) };
    }
  }
}

/**
 * The rows of a CSV file one at a time (the import takes them in slices, lib/slices.ts); throws
 * a 400 at once for a file without a header or with an unknown or missing column.
 */
export function* csvRows(content: string): Generator<ParsedRow> {
  const records = csvRecords(content);
  const head = records.next();
  if (head.done) throw badRequest(MSG.importEmpty);
  const columns = head.value.cells.map((h) => h.trim().toLowerCase().replace(/\s+/g, '_'));
  const unknown = columns.filter((c) => !(FIXED as readonly string[]).includes(c) && !OPTION_COLUMN.test(c));
  if (unknown.length) throw badRequest(`${MSG.importUnknownColumn} ${unknown.join(', ')}`);
  const missing = REQUIRED.filter((c) => !columns.includes(c));
  if (missing.length) throw badRequest(`${MSG.importMissingColumn} ${missing.join(', ')}`);
  let n = 0;
  for (const { cells, broken } of records) yield readRow(columns, cells, ++n, broken);
}

export const parseCsv = (content: string): ParsedRow[] => [...csvRows(content)];

function readRow(columns: string[], record: string[], n: number, broken: boolean): ParsedRow {
  // Trimmed before the escape is taken off: what the ' protects (a leading tab) stays.
  const cell = (name: string) => {
    const i = columns.indexOf(name);
    return i < 0 ? '' : unescapeCsvCell((record[i] ?? '').trim());
  };
  const q = richCell(cell('question_en'));
  // The preview's text of the row whether or not it can be read (rows.ts: excerpt of draft.q).
  const row: ParsedRow = { n, draft: null, qt: null, text: excerpt(q), errors: [], warnings: [] };
  if (broken || record.length !== columns.length) {
    row.errors.push(issue('csvFields', { found: record.length, expected: columns.length }));
    return row;
  }
  const type = questionTypeSchema.safeParse(cell('type').toLowerCase());
  if (!type.success) {
    row.errors.push(issue('unknownType', { type: cell('type') }));
    return row;
  }
  const qt = type.data;
  row.qt = qt;
  const d = cell('difficulty') || '3';
  if (!/^[1-5]$/.test(d)) row.errors.push(issue('badDifficulty', { value: d }));
  const marks = cell('marks');
  if (marks) {
    if (!(Number(marks) > 0)) row.errors.push(issue('badMarks', { value: marks }));
    else row.warnings.push(issue('marksNotStored', { marks }));
  }

  const mcq = qt === 'mcq1' || qt === 'mcq2';
  // Numbers need no Hindi of their own: the answers of an n question are the same in every language.
  const sameInEveryLanguage = mcq || qt === 'n';
  const ops: Record<string, string> = {};
  const hiOps: Record<string, string> = {};
  for (const key of OPTION_KEYS.slice(0, 8)) {
    const en = cell(`${key}_en`);
    const hi = cell(`${key}_hi`);
    if (!en && !hi) continue;
    if (!mcq) {
      row.errors.push(issue('optionsNotAllowed'));
      break;
    }
    if (!en) row.errors.push(issue('optionBlank'));
    ops[key] = richCell(en);
    if (hi) hiOps[key] = richCell(hi);
  }

  const answer = cell('answer');
  const answerHi = cell('answer_hi');
  let ca: string[];
  let caHi: string[] = [];
  if (mcq) {
    ca = answer
      .toLowerCase()
      .split(/[\s,;]+/)
      .filter(Boolean);
    const notOption = ca.find((k) => !Object.hasOwn(ops, k));
    if (notOption) row.errors.push(issue('answerNotOption', { answer: notOption }));
    if (qt === 'mcq1' && ca.length > 1) row.errors.push(issue('oneCorrectAnswer'));
    if (answerHi) row.errors.push(issue('answerHiForOptions'));
    caHi = ca;
  } else if (qt === 'f') {
    ca = answer.split('|').map((a) => a.trim()).filter(Boolean);
    caHi = answerHi.split('|').map((a) => a.trim()).filter(Boolean);
  } else if (qt === 'n') {
    ca = answer.split('|').map((a) => a.trim()).filter(Boolean);
    if (answerHi) row.errors.push(issue('answerHiForOptions'));
    caHi = ca;
  } else {
    ca = answer ? [answer] : [];
    caHi = answerHi ? [answerHi] : [];
  }

  const questionHi = cell('question_hi');
  const explEn = cell('explanation_en');
  const explHi = cell('explanation_hi');
  const anyHindi = Boolean(questionHi) || Object.keys(hiOps).length > 0 || (!sameInEveryLanguage && caHi.length > 0) || Boolean(explHi);
  let trans: Draft['trans'] = {};
  if (anyHindi) {
    const complete = Boolean(questionHi) && Object.keys(hiOps).length === Object.keys(ops).length && (sameInEveryLanguage || caHi.length > 0);
    if (!complete) row.errors.push(issue('hindiIncomplete'));
    trans = { hi: { q: richCell(questionHi), ops: hiOps, ca: caHi, ...(explHi && { expl: richCell(explHi) }) } };
  }

  const tags: TagRef[] = TAG_COLUMNS.flatMap(([column, group]) =>
    cell(column)
      .split(/\s*[;|]\s*/)
      .filter(Boolean)
      .map((name) => ({ name, group, strict: true })),
  );
  row.draft = { q, ops, ca, qt, d, trans, tags, ...(explEn && { expl: richCell(explEn) }) };
  return row;
}

export const CSV_COLUMNS = (optionKeys: readonly string[]) => [
  'type',
  'difficulty',
  'question_en',
  'question_hi',
  ...optionKeys.flatMap((k) => [`${k}_en`, `${k}_hi`]),
  'answer',
  'answer_hi',
  'explanation_en',
  'explanation_hi',
  'subject',
  'class',
  'topics',
  'exams',
  'marks',
];

/** Rows as a CSV file, every cell formula-escaped (lib/csv-cells.ts; not Papa's escapeFormulae, whose pattern a line break in the cell defeats). */
const unparse = (rows: string[][]) => `\uFEFF${Papa.unparse(rows.map((row) => row.map(escapeCsvCell)), { newline: '\r\n' })}\r\n`;

/**
 * Questions as the CSV template (with a BOM, so that spreadsheet programs read UTF-8 Hindi).
 * Tags are written as ids. Everything a question holds but its status fits, except translations
 * other than Hindi.
 */
export function serialiseCsv(questions: readonly ExportQuestion[], tagName: (tid: string) => string = (t) => t): string {
  const width = Math.max(4, ...questions.map((q) => Object.keys(q.ops).length));
  const keys = OPTION_KEYS.slice(0, Math.min(8, width));
  const rows = questions.map((q) => {
    const hi = q.trans.hi;
    const mcq = q.qt === 'mcq1' || q.qt === 'mcq2';
    return [
      q.qt,
      q.d,
      q.q,
      hi?.q ?? '',
      ...keys.flatMap((k) => [q.ops[k] ?? '', hi?.ops[k] ?? '']),
      mcq ? q.ca.join(',') : q.qt === 'f' || q.qt === 'n' ? q.ca.join('|') : (q.ca[0] ?? ''),
      mcq || q.qt === 'n' ? '' : q.qt === 'f' ? (hi?.ca ?? []).join('|') : (hi?.ca[0] ?? ''),
      q.expl ?? '',
      hi?.expl ?? '',
      q.s ? tagName(q.s) : '',
      q.c.map(tagName).join(';'),
      q.t.map(tagName).join(';'),
      q.e.map(tagName).join(';'),
      '',
    ];
  });
  return unparse([CSV_COLUMNS(keys), ...rows]);
}

/** GET /api/question/import/template.csv: the columns and one example of each type, in both languages. */
export function csvTemplate(): string {
  const keys = OPTION_KEYS.slice(0, 5);
  const blank = (n: number) => Array.from({ length: n }, () => '');
  const rows = [
    ['mcq1', '2', 'Which gas do plants take in for photosynthesis?', 'प्रकाश संश्लेषण के लिए पौधे कौन सी गैस लेते हैं?', 'Oxygen', 'ऑक्सीजन', 'Carbon dioxide', 'कार्बन डाइऑक्साइड', 'Nitrogen', 'नाइट्रोजन', 'Helium', 'हीलियम', '', '', 'b', '', 'Plants take in carbon dioxide and give out oxygen.', 'पौधे कार्बन डाइऑक्साइड लेते हैं और ऑक्सीजन छोड़ते हैं।', 'gk', 'class-10', '', '', '1'],
    ['mcq2', '3', 'Which of these are prime numbers?', 'इनमें से कौन सी अभाज्य संख्याएँ हैं?', '2', '2', '9', '9', '11', '11', '15', '15', '', '', 'a,c', '', '', '', 'arithmetic', 'class-10', '', '', '2'],
    ['f', '1', 'The capital of India is ____.', 'भारत की राजधानी ____ है।', ...blank(10), 'New Delhi|Delhi', 'नई दिल्ली|दिल्ली', '', '', 'gk', '', '', '', ''],
    ['s', '4', 'Explain why the sky looks blue.', 'समझाइए कि आकाश नीला क्यों दिखता है।', ...blank(10), 'Air scatters blue light more than red light (Rayleigh scattering).', 'वायु लाल की तुलना में नीले प्रकाश को अधिक बिखेरती है।', '', '', 'gk', 'class-12', '', '', ''],
    ['n', '3', 'A car covers 150 km in 2.5 hours. Its average speed in km/h is ____.', 'एक कार 2.5 घंटे में 150 किमी चलती है। उसकी औसत चाल किमी/घंटा में ____ है।', ...blank(10), '60:0.5', '', 'Speed = distance ÷ time = 150 ÷ 2.5 = 60 km/h.', 'चाल = दूरी ÷ समय = 150 ÷ 2.5 = 60 किमी/घंटा।', 'arithmetic', 'class-10', '', '', ''],
  ];
  return unparse([CSV_COLUMNS(keys), ...rows]);
}
