import { expect, test } from 'vitest';
import { AppError } from '#server/lib/errors';
import { sanitizeRichText } from '#server/lib/sanitize';
import { csvTemplate, parseCsv, serialiseCsv } from './csv';
import type { ExportQuestion } from './export-question';
import { PLAIN_PARAGRAPH } from './import.service';
import { plainToHtml } from './rows';

const HEAD = 'type,difficulty,question_en,question_hi,a_en,a_hi,b_en,b_hi,answer,answer_hi,subject,class,topics,exams,marks';

test('the template reads back: five valid rows of the five types, marks reported as not stored', () => {
  const rows = parseCsv(csvTemplate());
  expect(rows.map((r) => [r.qt, r.errors])).toEqual([
    ['mcq1', []],
    ['mcq2', []],
    ['f', []],
    ['s', []],
    ['n', []],
  ]);
  expect(rows[4]!.draft).toMatchObject({ qt: 'n', ca: ['60:0.5'], expl: '<p>Speed = distance ÷ time = 150 ÷ 2.5 = 60 km/h.</p>' });
  expect(rows[4]!.draft?.trans?.hi?.expl).toBe('<p>चाल = दूरी ÷ समय = 150 ÷ 2.5 = 60 किमी/घंटा।</p>');
  expect(rows[0]!.warnings).toEqual([{ code: 'marksNotStored', params: { marks: '1' } }]);
  expect(rows[0]!.draft).toMatchObject({
    qt: 'mcq1',
    d: '2',
    q: '<p>Which gas do plants take in for photosynthesis?</p>',
    ca: ['b'],
    trans: { hi: { q: '<p>प्रकाश संश्लेषण के लिए पौधे कौन सी गैस लेते हैं?</p>', ca: ['b'] } },
    tags: [
      { name: 'gk', group: 's', strict: true },
      { name: 'class-10', group: 'c', strict: true },
    ],
  });
  expect(rows[2]!.draft).toMatchObject({ qt: 'f', ca: ['New Delhi', 'Delhi'], trans: { hi: { ca: ['नई दिल्ली', 'दिल्ली'] } } });
});

test('row errors: type, difficulty, answer, Hindi, options on a fill-in, field count', () => {
  const csv = [
    HEAD,
    'essay,3,Q,,,,,,x,,,,,,',
    'mcq1,9,Q,,A,,B,,a,,,,,,',
    'mcq1,3,Q,,A,,B,,c,,,,,,',
    'mcq1,3,Q,,A,,B,,"a,b",,,,,,',
    'mcq1,3,Q,प्रश्न,A,,B,,a,,,,,,',
    'f,3,Q,,A,,,,x,,,,,,',
    'mcq1,3,Q,,A,,B,,a',
    'mcq2,3,"Q with, comma",,A,,B,,"a;b",,,,,,abc',
  ].join('\n');
  const rows = parseCsv(csv);
  expect(rows.map((r) => r.errors.map((e) => e.code))).toEqual([
    ['unknownType'],
    ['badDifficulty'],
    ['answerNotOption'],
    ['oneCorrectAnswer'],
    ['hindiIncomplete'],
    ['optionsNotAllowed'],
    ['csvFields'],
    ['badMarks'],
  ]);
  expect(rows[7]!.text).toBe('Q with, comma');
});

test('a file with an unknown or a missing column is refused whole', () => {
  expect(() => parseCsv('type,question_en,answer,colour\nmcq1,Q,a,red')).toThrow(AppError);
  expect(() => parseCsv('type,question_en,answer,colour\n')).toThrow(/Unknown column in the file: colour/);
  expect(() => parseCsv('type,question_en\nf,Q')).toThrow(/The file lacks the column: answer/);
});

test('export: everything a question holds, formula-looking cells escaped, reads back the same', () => {
  const q: ExportQuestion[] = [
    {
      q: '<p>Which is <b>bold</b>, "quoted"?</p>',
      ops: { a: '<p>=SUM(A1)</p>', b: '<p>-5</p>', c: '<p>x</p>', d: '<p>y</p>', e: '<p>z</p>' },
      ca: ['b'],
      qt: 'mcq1',
      d: '4',
      c: ['class-10', 'class-12'],
      s: 'gk',
      t: [],
      e: ['ssc-cgl'],
      trans: { hi: { q: '<p>कौन?</p>', ops: { a: '<p>क</p>', b: '<p>ख</p>', c: '<p>ग</p>', d: '<p>घ</p>', e: '<p>ङ</p>' }, ca: ['b'] } },
    },
    { q: '<p>Minus?</p>', ops: {}, ca: ['-5', '=5'], qt: 'f', d: '3', c: [], s: null, t: [], e: [], trans: {} },
  ];
  const text = serialiseCsv(q);
  expect(text.startsWith('\uFEFFtype,difficulty,question_en,question_hi,a_en,a_hi')).toBe(true);
  expect(text).toContain(`,'-5|=5,`);
  const rows = parseCsv(text);
  expect(rows.map((r) => r.errors)).toEqual([[], []]);
  expect(rows[0]!.draft).toMatchObject({ q: q[0]!.q, ops: q[0]!.ops, ca: ['b'], d: '4', trans: q[0]!.trans });
  expect(rows[0]!.draft?.tags.map((t) => `${t.group}:${t.name}`)).toEqual(['s:gk', 'c:class-10', 'c:class-12', 'e:ssc-cgl']);
  expect(rows[1]!.draft).toMatchObject({ qt: 'f', ca: ['-5', '=5'] });
});

test('plain text becomes rich text exactly as the sanitiser writes it, so the import may skip sanitising it', () => {
  const texts = ['Which is "right"?', "Ravi's & Sita's <book>", 'निम्नलिखित में से कौन सा कथन सही है?', 'line one\nline two\r\nline three', '  a   b  ', '5 > 3 && 2 < 4'];
  for (const s of texts) {
    const html = plainToHtml(s);
    expect(html, s).toMatch(PLAIN_PARAGRAPH);
    expect(sanitizeRichText(html), s).toBe(html);
  }
  // Anything else is sanitised: other tags, other entities, attributes.
  for (const html of ['<p>a<br>b</p>', '<p>x &quot;y&quot;</p>', '<p class="x">a</p>', '<p>a</p><p>b</p>', '<p><b>a</b></p>', '<p>&nbsp;</p>']) expect(html).not.toMatch(PLAIN_PARAGRAPH);
});
