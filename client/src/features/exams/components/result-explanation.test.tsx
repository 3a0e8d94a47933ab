import { render, screen } from '@testing-library/react';
import { expect, test } from 'vitest';
import type { ResultQuestion } from '@pm/protocol/sync/exam-result';
import { explanationIn } from './result-explanation';
import { describeNumericAnswer } from '../lib/numeric-answer';

/* docs/exams.md "Explanations" and "Numerical questions": what the result shows under a question. */

const q = (expl: string | undefined, hi: string | undefined): ResultQuestion => ({
  id: 'q1',
  q: '<p>150 ÷ 2.5?</p>',
  ops: {},
  qt: 'n',
  d: '2',
  ca: ['60'],
  ...(expl !== undefined && { expl }),
  trans: { hi: { q: '<p>150 ÷ 2.5?</p>', ops: {}, ca: ['60'], ...(hi !== undefined && { expl: hi }) } },
});

test('the explanation in the language shown, the English one (said so) when the Hindi is missing or blank, none when there is none', () => {
  expect(explanationIn(q('<p>= 60</p>', '<p>= ६०</p>'), 'hi')).toEqual({ html: '<p>= ६०</p>', fallback: false });
  expect(explanationIn(q('<p>= 60</p>', '<p>= ६०</p>'), 'en')).toEqual({ html: '<p>= 60</p>', fallback: false });
  expect(explanationIn(q('<p>= 60</p>', undefined), 'hi')).toEqual({ html: '<p>= 60</p>', fallback: true });
  expect(explanationIn(q('<p>= 60</p>', '<p>&nbsp;</p>'), 'hi')).toEqual({ html: '<p>= 60</p>', fallback: true });
  expect(explanationIn(q(undefined, undefined), 'hi')).toBeNull();
  expect(explanationIn(q('<p></p>', undefined), 'en')).toBeNull();
  // A picture alone is an explanation.
  render(<div dangerouslySetInnerHTML={{ __html: explanationIn(q('<p><img src="/media/a.png" alt="graph"></p>', undefined), 'en')!.html }} />);
  expect(screen.getByRole('img', { name: 'graph' })).toBeInTheDocument();
});

test('accepted numbers in words: exact, tolerance with its ends, range; decimals without binary noise', () => {
  expect(describeNumericAnswer('60')).toEqual({ kind: 'exact', value: '60' });
  expect(describeNumericAnswer('60:0.5')).toEqual({ kind: 'tolerance', value: '60', tol: '0.5', min: '59.5', max: '60.5' });
  expect(describeNumericAnswer('0.3:0.1')).toEqual({ kind: 'tolerance', value: '0.3', tol: '0.1', min: '0.2', max: '0.4' });
  expect(describeNumericAnswer('-5..-1')).toEqual({ kind: 'range', min: '-5', max: '-1' });
  expect(describeNumericAnswer('x')).toEqual({ kind: 'raw', value: 'x' });
});
