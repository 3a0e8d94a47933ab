import type { JSONContent } from '@tiptap/core';
import { expect, test } from 'vitest';
import { OPTION_PREFIX, splitLastParagraphs, stripOptionPrefix } from './split-options';

const p = (...texts: (string | JSONContent)[]): JSONContent => ({
  type: 'paragraph',
  content: texts.map((x) => (typeof x === 'string' ? { type: 'text', text: x } : x)),
});
const doc = (...blocks: JSONContent[]): JSONContent => ({ type: 'doc', content: blocks });
const text = (n: JSONContent) => (n.content ?? []).map((c) => c.text ?? `[${c.type}]`).join('');

test('the 3- and 4-character labels of spec §2 are recognised, and only with a space after them', () => {
  for (const label of ['(a) ', '(A) ', '(1) ', 'a) ', 'A. ', '1) ', 'b. ', 'D) ', '4. ', '(d)\u00a0']) expect(OPTION_PREFIX.test(`${label}Delhi`), label).toBe(true);
  for (const plain of ['a.m. is morning', '1.5 metres', 'Delhi', '(a)Delhi', 'ab) Delhi', '(12) Delhi', '- Delhi', '((a) Delhi']) expect(OPTION_PREFIX.test(plain), plain).toBe(false);
});

test('the last 4 paragraphs become options a–d, without labels, and leave the question', () => {
  const split = splitLastParagraphs(doc(p('Capital of India?'), p('(a) Delhi'), p('(b) Mumbai'), p('(c) Kolkata'), p('(d) Chennai')));
  expect(split).not.toBeNull();
  expect(split!.question.content!.map(text)).toEqual(['Capital of India?']);
  expect(split!.options.map(text)).toEqual(['Delhi', 'Mumbai', 'Kolkata', 'Chennai']);
});

test('each of the label shapes is stripped; a paragraph without a label is kept whole', () => {
  const split = splitLastParagraphs(doc(p('Q'), p('A. Forty'), p('2) Forty-two'), p('c) 1.5 metres'), p('No label here')));
  expect(split!.options.map(text)).toEqual(['Forty', 'Forty-two', '1.5 metres', 'No label here']);
});

test('more paragraphs than 4 keep the earlier ones in the question; empty paragraphs at the end are ignored', () => {
  const split = splitLastParagraphs(doc(p('Read:'), p('Passage text.'), p('Which?'), p('1) one'), p('2) two'), p('3) three'), p('4) four'), { type: 'paragraph' }, p('  ')));
  expect(split!.question.content!.map(text)).toEqual(['Read:', 'Passage text.', 'Which?']);
  expect(split!.options.map(text)).toEqual(['one', 'two', 'three', 'four']);
});

test('a label split over marks (bold "(a)" then " text") is removed across the text nodes; formulas and images stay', () => {
  const bold = { type: 'text', text: '(a)', marks: [{ type: 'bold' }] };
  const math = { type: 'inlineMath', attrs: { latex: 'x^2' } };
  const option = stripOptionPrefix(p(bold, ' is ', math));
  expect(option.content).toEqual([{ type: 'text', text: 'is ' }, math]);
  const image = { type: 'image', attrs: { src: '/media/x.png' } };
  expect(stripOptionPrefix(p(image)).content).toEqual([image]);
  // A label that is the whole text node leaves no empty text node behind.
  expect(stripOptionPrefix(p('(b) ', math)).content).toEqual([math]);
});

test('fewer than 4 written paragraphs, or a list or block formula among the last 4, is not split', () => {
  expect(splitLastParagraphs(doc(p('Q'), p('a) 1'), p('b) 2')))).toBeNull();
  expect(splitLastParagraphs(doc(p('Q'), p('a) 1'), { type: 'paragraph' }, p('c) 3'), p('d) 4')))).toBeNull();
  const list = { type: 'bulletList', content: [{ type: 'listItem', content: [p('x')] }] };
  expect(splitLastParagraphs(doc(p('Q'), p('a) 1'), p('b) 2'), list, p('d) 4')))).toBeNull();
  expect(splitLastParagraphs(doc(p('Q'), p('a) 1'), p('b) 2'), p('c) 3'), { type: 'blockMath', attrs: { latex: 'x' } }))).toBeNull();
});

test('exactly 4 paragraphs leave an empty question (one empty paragraph: a document needs a block)', () => {
  const split = splitLastParagraphs(doc(p('a) 1'), p('b) 2'), p('c) 3'), p('d) 4')));
  expect(split!.question.content).toEqual([{ type: 'paragraph' }]);
  expect(split!.options.map(text)).toEqual(['1', '2', '3', '4']);
});
