import { describe, expect, test } from 'vitest';
import type { ExportQuestion } from './export-question';
import { giftEscape, parseGift, serialiseGift } from './gift';

/*
 * Cases after Moodle's importer tests (question/format/gift/tests/giftformat_test.php): the same
 * GIFT texts, with what our four question types make of them, or the per-row report where they
 * cannot hold the question.
 */

const one = (gift: string) => {
  const rows = parseGift(gift);
  expect(rows).toHaveLength(1);
  return rows[0]!;
};
const codes = (r: { errors: { code: string }[] }) => r.errors.map((e) => e.code);

describe('multiple choice', () => {
  test('one right answer with feedback (test_import_multichoice)', () => {
    const r = one(`// multiple choice with specified feedback for right and wrong answers
::Q2:: What's between orange and green in the spectrum?
{ =yellow # right; good! ~red # wrong, it's yellow ~blue # wrong, it's yellow }`);
    expect(r.title).toBe('Q2');
    expect(r.errors).toEqual([]);
    expect(r.draft).toMatchObject({
      qt: 'mcq1',
      q: "<p>What's between orange and green in the spectrum?</p>",
      ops: { a: '<p>yellow</p>', b: '<p>red</p>', c: '<p>blue</p>' },
      ca: ['a'],
    });
    expect(r.warnings.map((w) => w.code)).toEqual(['feedbackDropped']);
  });

  test('several right answers by weight, no = (test_import_multichoice_multi)', () => {
    const r = one(`// multiple choice, multiple response with specified feedback for right and wrong answers
::colours:: What's between orange and green in the spectrum?
{
~%50%yellow # right; good!
~%-100%red # wrong
~%50%off-beige # right; good!
~%-100%blue # wrong
}`);
    expect(r.errors).toEqual([]);
    expect(r.draft).toMatchObject({ qt: 'mcq2', ops: { a: '<p>yellow</p>', b: '<p>red</p>', c: '<p>off-beige</p>', d: '<p>blue</p>' }, ca: ['a', 'c'] });
  });

  test('unequal positive weights cannot be held: reported', () => {
    const r = one('Which are right? {~%70%a ~%30%b ~%-100%c}');
    expect(r.qt).toBe('mcq2');
    expect(codes(r)).toEqual(['unequalWeights']);
    expect(r.draft).toBeNull();
  });

  test('partial credit on a single-answer question is reported, not rounded', () => {
    const r = one('Pick one {=right ~%50%half ~wrong}');
    expect(codes(r)).toEqual(['partialCredit']);
  });

  test('a malformed weight is reported', () => {
    expect(codes(one('Pick {~%abc%x ~%100%y}'))).toEqual(['badWeight']);
  });

  test('missing word: text after the block makes a blank', () => {
    const r = one('Moodle costs {~lots of money =nothing ~a small amount} to download from moodle.org.');
    expect(r.draft).toMatchObject({ qt: 'mcq1', q: '<p>Moodle costs _____ to download from moodle.org.</p>', ca: ['b'] });
  });

  test('answers on their own lines, with tabs', () => {
    const r = one('::Q::Capital of India?\n{\n\t=New Delhi\n\t~Mumbai\n\t~Kolkata\n}');
    expect(r.draft).toMatchObject({ qt: 'mcq1', ops: { a: '<p>New Delhi</p>', b: '<p>Mumbai</p>', c: '<p>Kolkata</p>' }, ca: ['a'] });
  });
});

describe('true / false', () => {
  test('{FALSE} with feedback (test_import_truefalse)', () => {
    const r = one(`// true/false
::Q1:: 42 is the Absolute Answer to everything.{
FALSE#42 is the Ultimate Answer.#You gave the right answer.}`);
    expect(r.draft).toMatchObject({ qt: 'mcq1', ops: { a: '<p>True</p>', b: '<p>False</p>' }, ca: ['b'] });
    expect(r.warnings.map((w) => w.code)).toEqual(['feedbackDropped']);
  });

  test('{T} and {TRUE} (test_import_truefalse_true_answer1/2)', () => {
    expect(one('// name 0-11\n::2-08 TSL::TSL is blablabla.{T}').draft).toMatchObject({ qt: 'mcq1', ca: ['a'] });
    expect(one('// name 0-12\n::2-09 TSL::TSL is blablabla.{TRUE}').draft).toMatchObject({ qt: 'mcq1', ca: ['a'] });
    expect(one('The sun is cold.{F}').draft).toMatchObject({ ca: ['b'] });
  });
});

describe('short answer and numerical', () => {
  test('{=a =b} is fill in the blank with both answers', () => {
    const r = one('Who is buried in Grant\'s tomb?{=Grant =Ulysses S. Grant =Ulysses Grant}');
    expect(r.draft).toMatchObject({ qt: 'f', ops: {}, ca: ['Grant', 'Ulysses S. Grant', 'Ulysses Grant'] });
  });

  test('an answer with partial credit is reported (test_import_shortanswer)', () => {
    const r = one(`// question: 0  name: Shortanswer
::Shortanswer::Which is the best animal?{
	=Frog#Good!
	=%50%Cat#What is it with Moodlers and cats?
	=%0%*#Completely wrong
}`);
    expect(r.qt).toBe('f');
    expect(codes(r)).toEqual(['partialCredit']);
  });

  test('an exact number is a numerical question', () => {
    expect(one('What is 2 + 2? {#4}').draft).toMatchObject({ qt: 'n', ca: ['4'] });
    expect(one('Pi to two places {#3.14:0}').draft).toMatchObject({ qt: 'n', ca: ['3.14'] });
    expect(one('Below zero {#-2.5}').draft).toMatchObject({ qt: 'n', ca: ['-2.5'] });
    expect(one('A thousand {#1e3}').draft).toMatchObject({ qt: 'n', ca: ['1000'] });
  });

  test('a tolerance or a range is held as it is written (test_import_numerical)', () => {
    const grant = one('When was Ulysses S. Grant born? {#1822:5}');
    expect(grant.errors).toEqual([]);
    expect(grant.draft).toMatchObject({ qt: 'n', ca: ['1822:5'] });
    expect(one('What is the value of pi (to 3 decimal places)? {#3.14:0.01}').draft).toMatchObject({ qt: 'n', ca: ['3.14:0.01'] });
    expect(one('What is a number from 1 to 5? {#1..5}').draft).toMatchObject({ qt: 'n', ca: ['1..5'] });
    expect(one('Negative range {#-5..-1}').draft).toMatchObject({ qt: 'n', ca: ['-5..-1'] });
    const r = one('// math range question\n::Q5:: What is a number from 1 to 5? {#3:2~#Completely wrong}');
    expect(r.errors).toEqual([]);
    expect(r.draft).toMatchObject({ qt: 'n', ca: ['3:2'] });
    expect(r.warnings.map((w) => w.code)).toEqual(['feedbackDropped']);
  });

  test('several numerical answers with weights', () => {
    expect(codes(one('When was Ulysses S. Grant born? {#=1822:0 =%50%1821:0}'))).toEqual(['partialCredit']);
    expect(one('Name a square under 5 {#=1:0 =4:0}').draft).toMatchObject({ qt: 'n', ca: ['1', '4'] });
    expect(one('Either {#=2:0.1 =10..12}').draft).toMatchObject({ qt: 'n', ca: ['2:0.1', '10..12'] });
  });

  test('general feedback is the explanation (and no longer dropped)', () => {
    const r = one('Speed? {#60:0.5####[html]<p>150 ÷ 2.5 = 60</p>}');
    expect(r.warnings).toEqual([]);
    expect(r.draft).toMatchObject({ qt: 'n', ca: ['60:0.5'], expl: '<p>150 ÷ 2.5 = 60</p>' });
    // In the question's format: [moodle] (the default) makes a paragraph of plain text.
    expect(one('Capital? {=New Delhi ~Mumbai ####Delhi has been the capital since 1911.}').draft).toMatchObject({
      qt: 'mcq1',
      expl: '<p>Delhi has been the capital since 1911.</p>',
    });
  });

  test('a number that is not one is reported', () => {
    expect(codes(one('How many? {#abc}'))).toEqual(['badNumber']);
  });
});

describe('types we do not have', () => {
  test('matching is reported per row (test_import_match)', () => {
    const r = one(`// question: 0  name: Moodle activities
::Moodle activities::Match the activity to the description.{
	=An activity supporting asynchronous discussions. -> Forum
	=A teacher asks a question and specifies a choice of multiple responses. -> Choice
	=A bank of record entries which participants can add to. -> Database
}`);
    expect(r.errors).toEqual([{ code: 'unsupportedType', params: { type: 'matching' } }]);
    expect(r.draft).toBeNull();
  });

  test('an essay without a model answer is reported (test_import_essay)', () => {
    const r = one('// essay\n::Q8:: How are you? {}');
    expect(r.qt).toBe('s');
    expect(codes(r)).toEqual(['essayNoModel']);
  });

  test("an essay with general feedback is subjective with that model answer (our export's form)", () => {
    expect(one('Why is the sky blue? {####Rayleigh scattering}').draft).toMatchObject({ qt: 's', ca: ['Rayleigh scattering'] });
  });

  test('a description (no answer block) is reported', () => {
    expect(one('::Intro:: This section is about rivers.').errors).toEqual([{ code: 'unsupportedType', params: { type: 'description' } }]);
  });

  test('an unclosed block is reported', () => {
    expect(codes(one('Broken question { =a ~b'))).toEqual(['unclosedBrace']);
  });
});

describe('text', () => {
  test('escaped characters \\~ \\= \\# \\{ \\} \\: and \\\\', () => {
    const r = one('::Q\\:1::Is 2 \\= 2 \\{always\\} \\~ \\#1? {=yes\\: sure ~no \\= never}');
    expect(r.title).toBe('Q:1');
    expect(r.draft).toMatchObject({ q: '<p>Is 2 = 2 {always} ~ #1?</p>', ops: { a: '<p>yes: sure</p>', b: '<p>no = never</p>' }, ca: ['a'] });
    expect(one('A \\\\ B {=x ~y}').draft?.q).toBe('<p>A \\ B</p>');
  });

  test('[html] is kept, [plain] is escaped, [markdown] becomes HTML, [moodle] keeps line breaks', () => {
    expect(one('[html]<p>Which is <b>bold</b>?</p>{=<b>this</b> ~that}').draft).toMatchObject({ q: '<p>Which is <b>bold</b>?</p>', ops: { a: '<b>this</b>', b: 'that' } });
    expect(one('[plain]Is 1 < 2?{T}').draft?.q).toBe('<p>Is 1 &lt; 2?</p>');
    expect(one('[markdown]This is **bold**{T}').draft?.q).toBe('<p>This is <strong>bold</strong></p>\n');
    expect(one('[moodle]Line one\\nline two{T}').draft?.q).toBe('<p>Line one<br>line two</p>');
  });

  test('comments between lines are no part of the text', () => {
    const r = one('// heading comment\nWhat is 1+1?\n// a note\n{=2 ~3}');
    expect(r.draft?.q).toBe('<p>What is 1+1?</p>');
  });
});

describe('file structure', () => {
  test('questions separated by blank lines, numbered, with their lines', () => {
    const rows = parseGift('// file\n\nQ one {T}\n\n\n::two:: Q two {=a ~b}\n');
    expect(rows.map((r) => [r.n, r.line, r.qt])).toEqual([
      [1, 3, 'mcq1'],
      [2, 6, 'mcq1'],
    ]);
  });

  test('$CATEGORY: names tags for the questions after it; [tag:…] comments too (Moodle 3.6+)', () => {
    const rows = parseGift(`$CATEGORY: $course$/top/Default for C101/General Knowledge/Rivers

// [id:q1] [tag:class-10] [tag:ssc-cgl]
Longest river of India? {=Ganga ~Yamuna}

$CATEGORY: tom/dick
Which? {T}`);
    expect(rows).toHaveLength(2);
    expect(rows[0]!.draft?.tags).toEqual([
      { name: 'General Knowledge', strict: false },
      { name: 'Rivers', strict: false },
      { name: 'class-10', strict: false },
      { name: 'ssc-cgl', strict: false },
    ]);
    expect(rows[1]!.draft?.tags).toEqual([
      { name: 'tom', strict: false },
      { name: 'dick', strict: false },
    ]);
  });

  test('one broken question does not stop the others', () => {
    const rows = parseGift('Good one {=a ~b}\n\nBad one {=x -> y =z -> w}\n\nAlso good {T}');
    expect(rows.map((r) => r.errors.length)).toEqual([0, 1, 0]);
  });
});

describe('export', () => {
  const base: ExportQuestion = { q: '', ops: {}, ca: [], qt: 'mcq1', d: '3', c: [], s: null, t: [], e: [], trans: {} };
  const questions: ExportQuestion[] = [
    { ...base, q: '<p>Is 2 = 2 {always}: yes ~ #1?</p>', ops: { a: '<p>yes</p>', b: '<p>no</p>' }, ca: ['a'], c: ['class-10'], s: 'gk' },
    { ...base, qt: 'mcq2', q: '<p>Primes?</p>', ops: { a: '2', b: '4', c: '5' }, ca: ['a', 'c'] },
    { ...base, qt: 'f', q: '<p>Capital?</p>', ca: ['New Delhi', 'Delhi'] },
    { ...base, qt: 's', q: '<p>Explain <i>why</i>.</p>', ca: ['Because: reasons\nand more'] },
    { ...base, qt: 'mcq2', q: '<p>Three of four</p>', ops: { a: 'w', b: 'x', c: 'y', d: 'z' }, ca: ['a', 'b', 'c'] },
    { ...base, qt: 'n', q: '<p>Speed?</p>', ca: ['60:0.5', '1..5', '-3'], expl: '<p>Speed = d ÷ t: {150 ÷ 2.5} = 60</p>' },
    { ...base, qt: 'n', q: '<p>One number</p>', ca: ['2.5'] },
  ];

  test('escapes the special characters', () => {
    expect(giftEscape('a=b~c#d{e}f:g\\h\ni')).toBe('a\\=b\\~c\\#d\\{e\\}f\\:g\\\\h\\ni');
  });

  test('what it writes reads back as the same questions', () => {
    const text = serialiseGift(questions);
    expect(text).toContain('// [tag:class-10] [tag:gk]');
    expect(text).toContain('~%33.33333%w');
    const rows = parseGift(text);
    expect(rows.map((r) => r.errors)).toEqual(questions.map(() => []));
    expect(rows.map((r) => r.draft && { q: r.draft.q, ops: r.draft.ops, ca: r.draft.ca, qt: r.draft.qt, expl: r.draft.expl })).toEqual(
      questions.map((q) => ({ q: q.q, ops: q.ops, ca: q.ca, qt: q.qt, expl: q.expl })),
    );
    expect(rows[0]!.draft?.tags.map((t) => t.name)).toEqual(['class-10', 'gk']);
  });
});
