import { expect, test } from 'vitest';
import type { ExportQuestion } from './export-question';
import { parseAiken, serialiseAiken } from './aiken';

/* After Moodle's Aiken importer tests (question/format/aiken/tests/aikenformat_test.php). */

const GOOD = `Which LMS has the most users?
A) Moodle
B) ATutor
C) Claroline
D) Blackboard
ANSWER: A

Which is the best animal?
A. Frog
B. Cat
C. Dog
ANSWER: C
`;

test('good questions: options with ) or ., the answer letter', () => {
  const rows = parseAiken(GOOD);
  expect(rows.map((r) => r.errors)).toEqual([[], []]);
  expect(rows[0]!.draft).toEqual({
    q: '<p>Which LMS has the most users?</p>',
    ops: { a: '<p>Moodle</p>', b: '<p>ATutor</p>', c: '<p>Claroline</p>', d: '<p>Blackboard</p>' },
    ca: ['a'],
    qt: 'mcq1',
    tags: [],
  });
  expect(rows[1]!.draft?.ca).toEqual(['c']);
  expect(rows.map((r) => r.line)).toEqual([1, 8]);
});

test('blank lines between questions are optional; text is escaped', () => {
  const rows = parseAiken('Is 1 < 2?\nA. yes & sure\nB. no\nANSWER: A\nNext?\nA. x\nB. y\nANSWER: B');
  expect(rows).toHaveLength(2);
  expect(rows[0]!.draft?.q).toBe('<p>Is 1 &lt; 2?</p>');
  expect(rows[0]!.draft?.ops.a).toBe('<p>yes &amp; sure</p>');
});

test('broken questions are reported each on its row, the good ones read', () => {
  const rows = parseAiken(`No answer line here?
A. one
B. two

Answer that is no option?
A. one
B. two
ANSWER: E

No options at all?
ANSWER: A

Fine?
A. yes
B. no
ANSWER: B

Repeated letter?
A. one
A. again
ANSWER: A`);
  expect(rows.map((r) => r.errors.map((e) => e.code))).toEqual([['aikenNoAnswer'], ['answerNotOption'], ['aikenNoOptions'], [], ['duplicateOption']]);
  expect(rows[1]!.errors[0]!.params).toEqual({ answer: 'E' });
  expect(rows[3]!.draft?.ca).toEqual(['b']);
});

test('export: single choice only, as text; read back the same', () => {
  const base: ExportQuestion = { q: '', ops: {}, ca: [], qt: 'mcq1', d: '3', c: [], s: null, t: [], e: [], trans: {} };
  const { text, skipped } = serialiseAiken([
    { ...base, q: '<p>Which gas do <b>plants</b> take in?</p>', ops: { a: '<p>Oxygen</p>', b: '<p>Carbon dioxide</p>' }, ca: ['b'] },
    { ...base, qt: 'mcq2', q: '<p>Many</p>', ops: { a: 'x', b: 'y' }, ca: ['a', 'b'] },
    { ...base, qt: 'f', q: '<p>Fill</p>', ca: ['x'] },
  ]);
  expect(skipped).toBe(2);
  expect(text).toBe('Which gas do plants take in?\nA. Oxygen\nB. Carbon dioxide\nANSWER: B\n');
  expect(parseAiken(text)[0]!.draft).toMatchObject({ q: '<p>Which gas do plants take in?</p>', ops: { a: '<p>Oxygen</p>', b: '<p>Carbon dioxide</p>' }, ca: ['b'] });
});
