import { fireEvent, render, screen } from '@testing-library/react';
import { expect, test, vi } from 'vitest';
import type { TestQuestion } from '@pm/protocol/sync/qs-detail';
import enExam from '@/locales/en/exam.json';
import hiExam from '@/locales/hi/exam.json';
import { localized, type QuestionLabels, QuestionView } from './question-view';

/*
 * docs/configuration.md "Machine translation": the test screen never shows a missing translation as an empty question; it falls
 * back to English and says so, in the learner's language.
 */

const q = (trans: TestQuestion['trans'] = {}): TestQuestion => ({
  id: 'q1',
  q: '<p>Capital of India?</p>',
  ops: { a: '<p>Delhi</p>', b: '<p>Mumbai</p>' },
  qt: 'mcq1',
  d: '1',
  trans,
});
const labelsOf = (l: typeof enExam): QuestionLabels => ({
  chooseOne: l.chooseOne,
  chooseMany: l.chooseMany,
  yourAnswer: l.yourAnswer,
  englishFallback: l.englishFallback,
  numberPlaceholder: l.numberPlaceholder,
  notANumber: l.notANumber,
});
const show = (question: TestQuestion, lang: string, labels: QuestionLabels) =>
  render(<QuestionView question={question} lang={lang} fontSize={16} initial={undefined} onAnswer={vi.fn()} labels={labels} />);

test.each([
  ['en', enExam, 'This question has no translation in the language you chose yet, so it is shown in English.'],
  ['hi', hiExam, 'इस प्रश्न का आपकी चुनी भाषा में अनुवाद अभी उपलब्ध नहीं है, इसलिए यह अंग्रेज़ी में दिखाया गया है।'],
] as const)('Hindi chosen, no Hindi translation: English with a visible note (%s)', (_ui, locale, note) => {
  show(q(), 'hi', labelsOf(locale));
  expect(screen.getByText('Capital of India?')).toBeInTheDocument();
  expect(screen.getByText('Delhi')).toBeInTheDocument();
  expect(screen.getByRole('note')).toHaveTextContent(note);
});

test('a blank translation is missing too; a complete one shows without a note', () => {
  const blank = q({ hi: { q: '<p> </p>', ops: { a: '<p>दिल्ली</p>', b: '<p>मुंबई</p>' } } });
  expect(localized(blank, 'hi')).toMatchObject({ q: '<p>Capital of India?</p>', fallback: true });
  const partial = q({ hi: { q: '<p>भारत की राजधानी?</p>', ops: { a: '<p>दिल्ली</p>', b: '' } } });
  expect(localized(partial, 'hi')).toEqual({ q: '<p>भारत की राजधानी?</p>', ops: { a: '<p>दिल्ली</p>', b: '<p>Mumbai</p>' }, fallback: true });
  const full = q({ hi: { q: '<p>भारत की राजधानी?</p>', ops: { a: '<p>दिल्ली</p>', b: '<p>मुंबई</p>' } } });
  show(full, 'hi', labelsOf(hiExam));
  expect(screen.getByText('भारत की राजधानी?')).toBeInTheDocument();
  expect(screen.queryByRole('note')).toBeNull();
  expect(localized(full, 'en').fallback).toBe(false);
});

test.each([
  ['en', enExam],
  ['hi', hiExam],
] as const)('a numerical question: decimal keypad, Devanagari digits stored in ASCII, a word said not to be a number (%s)', (_ui, locale) => {
  const onAnswer = vi.fn();
  const numerical: TestQuestion = { id: 'qn', q: '<p>150 ÷ 2.5 = ?</p>', ops: {}, qt: 'n', d: '2', trans: {} };
  render(<QuestionView question={numerical} lang="en" fontSize={16} initial={undefined} onAnswer={onAnswer} labels={labelsOf(locale)} />);
  const field = screen.getByRole('textbox', { name: locale.yourAnswer });
  expect(field).toHaveAttribute('inputmode', 'decimal');
  fireEvent.change(field, { target: { value: '−६०.५' } });
  expect(onAnswer).toHaveBeenLastCalledWith('-60.5');
  expect(screen.queryByRole('alert')).toBeNull();
  // Half-typed (a sign alone) is no message yet, and no answer.
  fireEvent.change(field, { target: { value: '-' } });
  expect(onAnswer).toHaveBeenLastCalledWith('');
  expect(screen.queryByRole('alert')).toBeNull();
  fireEvent.change(field, { target: { value: 'sixty' } });
  expect(onAnswer).toHaveBeenLastCalledWith('');
  expect(screen.getByRole('alert')).toHaveTextContent(locale.notANumber);
  expect(field).toHaveAttribute('aria-invalid', 'true');
  fireEvent.change(field, { target: { value: '1,5' } });
  expect(screen.getByRole('alert')).toBeInTheDocument();
  fireEvent.change(field, { target: { value: '60' } });
  expect(onAnswer).toHaveBeenLastCalledWith('60');
  expect(screen.queryByRole('alert')).toBeNull();
});
