import { expect, test } from 'vitest';
import { questionInputSchema, type QuestionView } from '@pm/protocol/question';
import {
  addOption,
  applySplit,
  emptyForm,
  explanationText,
  formFromQuestion,
  formToInput,
  type QuestionForm,
  removeOption,
  sameQuestion,
  setAnswers,
  setExplanation,
  setOptionText,
  setQuestionText,
  setType,
  toggleCorrect,
  toTestQuestion,
  validateForm,
} from './question-form';

/** A complete single-choice question with a Hindi translation. */
function filled(): QuestionForm {
  return {
    ...emptyForm(),
    q: '<p>Capital of India?</p>',
    ops: { a: '<p>Delhi</p>', b: '<p>Mumbai</p>', c: '<p>Kolkata</p>', d: '<p>Chennai</p>' },
    ca: ['a'],
    trans: { hi: { q: '<p>भारत की राजधानी?</p>', ops: { a: '<p>दिल्ली</p>', b: '<p>मुंबई</p>', c: '<p>कोलकाता</p>', d: '<p>चेन्नई</p>' }, ca: [] } },
  };
}

test('a new question is single choice with options a–d, medium difficulty, PENDING, no answer', () => {
  const f = emptyForm();
  expect(f).toMatchObject({ id: null, qt: 'mcq1', d: '3', st: 'PENDING', ca: [], trans: {} });
  expect(Object.keys(f.ops)).toEqual(['a', 'b', 'c', 'd']);
});

test('spec §5: mcq1 keeps one correct option; mcq2 toggles them (in option order)', () => {
  let f = filled();
  f = toggleCorrect(f, 'c');
  expect(f.ca).toEqual(['c']);
  f = toggleCorrect(f, 'c');
  expect(f.ca).toEqual(['c']);
  f = setType(f, 'mcq2');
  f = toggleCorrect(toggleCorrect(f, 'a'), 'd');
  expect(f.ca).toEqual(['a', 'c', 'd']);
  f = toggleCorrect(f, 'c');
  expect(f.ca).toEqual(['a', 'd']);
  // Back to single choice: one correct option is kept, the first.
  expect(setType(f, 'mcq1').ca).toEqual(['a']);
  // A key that is not an option is ignored.
  expect(toggleCorrect(f, 'z')).toBe(f);
});

test('spec §5: a non-MCQ type clears the options and their answers in every language; MCQ again starts from four empty options', () => {
  const f = setType(filled(), 'f');
  expect(f.ops).toEqual({});
  expect(f.ca).toEqual([]);
  expect(f.trans.hi!.ops).toEqual({});
  expect(f.trans.hi!.q).toBe('<p>भारत की राजधानी?</p>');
  const s = setType({ ...f, ca: ['Delhi', 'New Delhi'] }, 's');
  expect(s.ca).toEqual(['Delhi']);
  const back = setType(s, 'mcq2');
  expect(back.ops).toEqual({ a: '', b: '', c: '', d: '' });
  expect(back.ca).toEqual([]);
  expect(back.trans.hi!.ops).toEqual({ a: '', b: '', c: '', d: '' });
});

test('options: added under the next letter, removed with the later ones moving up a letter (marks and translations too)', () => {
  let f = toggleCorrect(setType(filled(), 'mcq2'), 'c');
  f = toggleCorrect(f, 'd');
  f = removeOption(f, 'b');
  expect(f.ops).toEqual({ a: '<p>Delhi</p>', b: '<p>Kolkata</p>', c: '<p>Chennai</p>' });
  expect(f.ca).toEqual(['a', 'b', 'c']);
  expect(f.trans.hi!.ops).toEqual({ a: '<p>दिल्ली</p>', b: '<p>कोलकाता</p>', c: '<p>चेन्नई</p>' });
  f = addOption(f);
  expect(Object.keys(f.ops)).toEqual(['a', 'b', 'c', 'd']);
  expect(f.trans.hi!.ops.d).toBe('');
  // Never fewer than two options.
  const two = removeOption(removeOption(f, 'd'), 'c');
  expect(removeOption(two, 'a')).toBe(two);
});

test('the save rules with the spec messages: blank question, blank option, missing correct answer', () => {
  expect(validateForm(emptyForm()).map((e) => `${e.field}:${e.msg}`)).toEqual([
    'q:questionBlank',
    'op:a:optionBlank',
    'op:b:optionBlank',
    'op:c:optionBlank',
    'op:d:optionBlank',
    'ca:correctAnswerMissing',
  ]);
  expect(validateForm(filled())).toEqual([]);
  expect(validateForm({ ...filled(), ca: [] }).map((e) => e.msg)).toEqual(['correctAnswerMissing']);
  // mcq2 with none marked; a picture alone is a written option; a no-break space is not.
  expect(validateForm({ ...setType(filled(), 'mcq2'), ca: [] }).map((e) => e.msg)).toEqual(['correctAnswerMissing']);
  expect(validateForm(setOptionText(filled(), 'en', 'b', '<p><img src="/media/x.png"></p>'))).toEqual([]);
  expect(validateForm(setOptionText(filled(), 'en', 'b', '<p>&nbsp;</p>'))).toEqual([{ lang: 'en', field: 'op:b', msg: 'optionBlank' }]);
  // Fill in the blank needs an accepted answer; subjective a model answer.
  expect(validateForm({ ...setType(filled(), 'f') }).map((e) => e.msg)).toEqual(['correctAnswerMissing']);
  expect(validateForm({ ...setType(filled(), 's'), ca: ['  '] }).map((e) => e.msg)).toEqual(['correctAnswerMissing']);
  expect(validateForm({ ...setType(filled(), 's'), ca: ['Because…'] })).toEqual([]);
});

test('a started Hindi translation needs its question and every option', () => {
  const f = setOptionText(setQuestionText(filled(), 'hi', ''), 'hi', 'c', '');
  expect(validateForm(f)).toEqual([
    { lang: 'hi', field: 'q', msg: 'questionBlank' },
    { lang: 'hi', field: 'op:c', msg: 'optionBlank' },
  ]);
  // Nothing written in Hindi: no translation, nothing to check.
  expect(validateForm({ ...filled(), trans: { hi: { q: '', ops: { a: '' }, ca: [] } } })).toEqual([]);
});

test('what is saved passes the shared schema: Hindi carries the base correct keys; an empty translation is left out', () => {
  const input = formToInput(filled());
  expect(questionInputSchema.safeParse(input).success).toBe(true);
  expect(input.trans!.hi!.ca).toEqual(['a']);
  expect(input).not.toHaveProperty('id');
  expect(formToInput({ ...filled(), id: 'q1' }).id).toBe('q1');
  const noHindi = formToInput({ ...filled(), trans: { hi: { q: '<p></p>', ops: {}, ca: [] } } });
  expect(noHindi.trans).toEqual({});
  // Fill in the blank: no options; an empty Hindi answer list falls back to the English answers.
  const f = formToInput({ ...setType(filled(), 'f'), ca: [' Delhi ', 'New Delhi'] });
  expect(f.ops).toEqual({});
  expect(f.ca).toEqual(['Delhi', 'New Delhi']);
  expect(f.trans!.hi).toEqual({ q: '<p>भारत की राजधानी?</p>', ops: {}, ca: ['Delhi', 'New Delhi'] });
  expect(questionInputSchema.safeParse(f).success).toBe(true);
  // A reason goes only with REJECTED.
  expect(formToInput({ ...filled(), st: 'APPROVED', reason: 'old' }).reason).toBeNull();
});

test('the shortcut fills options a–d: in English the base (an f question becomes mcq1), in Hindi the translation', () => {
  const opts = ['<p>1</p>', '<p>2</p>', '<p>3</p>', '<p>4</p>'];
  const en = applySplit(setType(filled(), 'f'), 'en', '<p>Which?</p>', opts);
  expect(en.qt).toBe('mcq1');
  expect(en.q).toBe('<p>Which?</p>');
  expect(en.ops).toEqual({ a: '<p>1</p>', b: '<p>2</p>', c: '<p>3</p>', d: '<p>4</p>' });
  const hi = applySplit({ ...filled(), ops: { a: '<p>x</p>', b: '<p>y</p>' }, trans: {} }, 'hi', '<p>कौन?</p>', opts);
  expect(hi.q).toBe('<p>Capital of India?</p>');
  expect(hi.ops).toEqual({ a: '<p>x</p>', b: '<p>y</p>', c: '', d: '' });
  expect(hi.trans.hi).toEqual({ q: '<p>कौन?</p>', ops: { a: '<p>1</p>', b: '<p>2</p>', c: '<p>3</p>', d: '<p>4</p>' }, ca: [] });
});

test('a loaded question fills the form; saving it unchanged is no change; the preview has the test screen\'s shape', () => {
  const view: QuestionView = {
    id: 'q1',
    q: '<p>Q</p>',
    ops: { a: '<p>A</p>', b: '<p>B</p>' },
    ca: ['b'],
    qt: 'mcq1',
    d: '4',
    c: ['class-10'],
    s: 'gk',
    t: [],
    e: ['ssc'],
    st: 'REVIEWED',
    reason: null,
    expl: '',
    trans: {},
    version: 3,
    createdAt: 1,
    updatedAt: 2,
    createdBy: 'u',
    updatedBy: 'u',
  };
  const f = formFromQuestion(view);
  expect(f).toMatchObject({ id: 'q1', d: '4', s: 'gk', st: 'REVIEWED', c: ['class-10'] });
  expect(sameQuestion(f, formFromQuestion(view))).toBe(true);
  expect(sameQuestion(f, toggleCorrect(f, 'a'))).toBe(false);
  expect(toTestQuestion(f)).toEqual({ id: 'q1', q: '<p>Q</p>', ops: { a: '<p>A</p>', b: '<p>B</p>' }, qt: 'mcq1', d: '4', ca: ['b'], trans: {} });
  expect(toTestQuestion(emptyForm()).id).toBe('preview');
});

test('numerical: accepted values are checked as the server checks them and shared by every language', () => {
  let f = setType({ ...filled(), ca: ['a'] }, 'n');
  expect(f).toMatchObject({ qt: 'n', ops: {}, ca: [] });
  expect(validateForm(f)).toContainEqual({ lang: 'en', field: 'ca', msg: 'correctAnswerMissing' });
  f = setAnswers(f, 'hi', ['sixty']);
  expect(f.ca).toEqual(['sixty']);
  expect(validateForm(f)).toContainEqual({ lang: 'en', field: 'ca', msg: 'numericAnswer' });
  f = setAnswers(f, 'en', ['60:0.5', '1..5', '-3']);
  expect(validateForm(f)).toEqual([]);
  const input = formToInput(f);
  expect(input).toMatchObject({ qt: 'n', ca: ['60:0.5', '1..5', '-3'], ops: {} });
  expect(input.trans?.hi?.ca).toEqual(['60:0.5', '1..5', '-3']);
  expect(questionInputSchema.safeParse(input).success).toBe(true);
});

test('the explanation: English in the base, Hindi in the translation; blank is none; a Hindi explanation alone starts the translation', () => {
  let f = setExplanation(filled(), 'en', '<p>Delhi is the capital.</p>');
  f = setExplanation(f, 'hi', '<p>दिल्ली राजधानी है।</p>');
  expect(explanationText(f, 'en')).toBe('<p>Delhi is the capital.</p>');
  expect(explanationText(f, 'hi')).toBe('<p>दिल्ली राजधानी है।</p>');
  const input = formToInput(f);
  expect(input.expl).toBe('<p>Delhi is the capital.</p>');
  expect(input.trans?.hi?.expl).toBe('<p>दिल्ली राजधानी है।</p>');
  expect(questionInputSchema.safeParse(input).success).toBe(true);
  expect(formFromQuestion({ ...(input as QuestionView), id: 'q1', version: 1, createdAt: 0, updatedAt: 0, createdBy: null, updatedBy: null }).trans.hi?.expl).toBe('<p>दिल्ली राजधानी है।</p>');
  // Blank: no explanation sent, in either language.
  const blank = formToInput(setExplanation(setExplanation(filled(), 'en', '<p></p>'), 'hi', '<p> </p>'));
  expect(blank.expl).toBe('');
  expect(blank.trans?.hi?.expl).toBeUndefined();
  // A Hindi explanation without a Hindi question is a translation to finish.
  const alone = setExplanation({ ...filled(), trans: {} }, 'hi', '<p>व्याख्या</p>');
  expect(validateForm(alone)).toContainEqual({ lang: 'hi', field: 'q', msg: 'questionBlank' });
});
