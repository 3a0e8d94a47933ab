import Papa from 'papaparse';
import { questionTypeSchema } from '../../../../../sync-protocol/src/question';
import { MSG } from '../../../../../sync-protocol/src/messages';
import { badRequest } from '../../../lib/errors';
import type { ExportQuestion } from './export-question';
import { excerpt, issue, looksLikeHtml, OPTION_KEYS, plainToHtml, type Draft, type ParsedRow, type TagRef } from './rows';
import type { TagKey } from './tags';

/*
 * The bilingual CSV template (issue 19 §3), one question a row, a header row first:
 *   type        mcq1 | mcq2 | f | s
 *   difficulty  1–5 (empty: 3)
 *   question_en, question_hi             the question in English (required) and Hindi
 *   a_en, a_hi … h_en, h_hi              options a–h (mcq1, mcq2), English and Hindi
 *   answer      mcq1: the option letter; mcq2: letters separated by , ; or spaces;
 *               f: accepted answers separated by |; s: the model answer
 *   answer_hi   f: Hindi accepted answers (|); s: the Hindi model answer; empty for mcq
 *   subject     one subject; class, topics, exams: several separated by ;
 *               (each a tag id or a tag's name in English or Hindi)
 *   marks       optional: a question has no marks of its own (a question set gives them),
 *               so a number here is reported as not stored
 * Texts are plain (line breaks kept) unless they hold HTML, which is kept as rich text.
 * Column names are case-insensitive; an unknown column refuses the file (400). A cell starting
 * with ' followed by = + - @ is read without the ' (spreadsheet formula escaping, as our export
 * writes it).
 */

const OPTION_COLUMN = /^([a-h])_(en|hi)$/;
const FIXED = ['type', 'difficulty', 'question_en', 'question_hi', 'answer', 'answer_hi', 'subject', 'class', 'topics', 'exams', 'marks'] as const;
const REQUIRED = ['type', 'question_en', 'answer'] as const;
const TAG_COLUMNS: [column: string, group: TagKey][] = [
  ['subject', 's'],
  ['class', 'c'],
  ['topics', 't'],
  ['exams', 'e'],
];

const unformula = (s: string) => (/^'[=+\-@\t\r]/.test(s) ? s.slice(1) : s);
const richCell = (s: string) => (looksLikeHtml(s) ? s.trim() : plainToHtml(s));

export function parseCsv(content: string): ParsedRow[] {
  const parsed = Papa.parse<string[]>(content.replace(/^\uFEFF/, ''), { header: false, skipEmptyLines: 'greedy' });
  const [head, ...records] = parsed.data;
  if (!head) throw badRequest(MSG.importEmpty);
  const columns = head.map((h) => h.trim().toLowerCase().replace(/\s+/g, '_'));
  const unknown = columns.filter((c) => !(FIXED as readonly string[]).includes(c) && !OPTION_COLUMN.test(c));
  if (unknown.length) throw badRequest(`${MSG.importUnknownColumn} ${unknown.join(', ')}`);
  const missing = REQUIRED.filter((c) => !columns.includes(c));
  if (missing.length) throw badRequest(`${MSG.importMissingColumn} ${missing.join(', ')}`);
  const broken = new Set(parsed.errors.filter((e) => e.code !== 'UndetectableDelimiter').map((e) => e.row));
  return records.map((record, i) => readRow(columns, record, i + 1, broken.has(i + 1)));
}

function readRow(columns: string[], record: string[], n: number, broken: boolean): ParsedRow {
  const cell = (name: string) => {
    const i = columns.indexOf(name);
    return i < 0 ? '' : unformula(record[i] ?? '').trim();
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
  } else {
    ca = answer ? [answer] : [];
    caHi = answerHi ? [answerHi] : [];
  }

  const questionHi = cell('question_hi');
  const anyHindi = Boolean(questionHi) || Object.keys(hiOps).length > 0 || (!mcq && caHi.length > 0);
  let trans: Draft['trans'] = {};
  if (anyHindi) {
    const complete = Boolean(questionHi) && Object.keys(hiOps).length === Object.keys(ops).length && (mcq || caHi.length > 0);
    if (!complete) row.errors.push(issue('hindiIncomplete'));
    trans = { hi: { q: richCell(questionHi), ops: hiOps, ca: caHi } };
  }

  const tags: TagRef[] = TAG_COLUMNS.flatMap(([column, group]) =>
    cell(column)
      .split(/\s*[;|]\s*/)
      .filter(Boolean)
      .map((name) => ({ name, group, strict: true })),
  );
  row.draft = { q, ops, ca, qt, d, trans, tags };
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
  'subject',
  'class',
  'topics',
  'exams',
  'marks',
];

const unparse = (rows: string[][]) => `\uFEFF${Papa.unparse(rows, { escapeFormulae: true, newline: '\r\n' })}\r\n`;

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
      mcq ? q.ca.join(',') : q.qt === 'f' ? q.ca.join('|') : (q.ca[0] ?? ''),
      mcq ? '' : q.qt === 'f' ? (hi?.ca ?? []).join('|') : (hi?.ca[0] ?? ''),
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
    ['mcq1', '2', 'Which gas do plants take in for photosynthesis?', 'प्रकाश संश्लेषण के लिए पौधे कौन सी गैस लेते हैं?', 'Oxygen', 'ऑक्सीजन', 'Carbon dioxide', 'कार्बन डाइऑक्साइड', 'Nitrogen', 'नाइट्रोजन', 'Helium', 'हीलियम', '', '', 'b', '', 'gk', 'class-10', '', '', '1'],
    ['mcq2', '3', 'Which of these are prime numbers?', 'इनमें से कौन सी अभाज्य संख्याएँ हैं?', '2', '2', '9', '9', '11', '11', '15', '15', '', '', 'a,c', '', 'arithmetic', 'class-10', '', '', '2'],
    ['f', '1', 'The capital of India is ____.', 'भारत की राजधानी ____ है।', ...blank(10), 'New Delhi|Delhi', 'नई दिल्ली|दिल्ली', 'gk', '', '', '', ''],
    ['s', '4', 'Explain why the sky looks blue.', 'समझाइए कि आकाश नीला क्यों दिखता है।', ...blank(10), 'Air scatters blue light more than red light (Rayleigh scattering).', 'वायु लाल की तुलना में नीले प्रकाश को अधिक बिखेरती है।', 'gk', 'class-12', '', '', ''],
  ];
  return unparse([CSV_COLUMNS(keys), ...rows]);
}
