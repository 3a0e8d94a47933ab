import { expect, test } from 'vitest';
import type { QuestionVersionData } from '@pm/protocol/question';
import { htmlToText, versionChanges } from './version-diff';

const v1: QuestionVersionData = {
  q: '<p>Capital of India?</p>',
  ops: { a: '<p>Delhi</p>', b: '<p>Mumbai</p>' },
  ca: ['a'],
  qt: 'mcq1',
  d: '3',
  c: ['class-10'],
  s: 'gk',
  t: ['capitals'],
  e: [],
  st: 'PENDING',
  expl: '',
  trans: {},
  reason: null,
};

test('the first version lists every field it has, against nothing', () => {
  const kinds = versionChanges(null, v1).map((c) => (c.kind === 'text' ? `${c.part}${c.part === 'op' ? c.key : ''}` : c.kind === 'value' ? c.field : c.kind === 'tags' ? c.field : 'ca'));
  expect(kinds).toEqual(['qt', 'q', 'opa', 'opb', 'ca', 'd', 's', 'c', 't', 'st']);
});

test('an edit lists only what changed: an option text, the correct answer, tags, status and the Hindi translation', () => {
  const v2: QuestionVersionData = {
    ...v1,
    ops: { a: '<p>New Delhi</p>', b: '<p>Mumbai</p>' },
    ca: ['b'],
    t: ['india'],
    st: 'REJECTED',
    reason: 'Wrong key',
    trans: { hi: { q: '<p>भारत की राजधानी?</p>', ops: { a: '<p>दिल्ली</p>', b: '<p>मुंबई</p>' }, ca: ['b'] } },
  };
  expect(versionChanges(v1, v2)).toEqual([
    { kind: 'text', part: 'op', key: 'a', lang: 'en', before: '<p>Delhi</p>', after: '<p>New Delhi</p>' },
    { kind: 'answer', lang: 'en', before: ['a'], after: ['b'] },
    { kind: 'tags', field: 't', added: ['india'], removed: ['capitals'] },
    { kind: 'value', field: 'st', before: 'PENDING', after: 'REJECTED' },
    { kind: 'value', field: 'reason', before: null, after: 'Wrong key' },
    { kind: 'text', part: 'q', lang: 'hi', before: '', after: '<p>भारत की राजधानी?</p>' },
    { kind: 'text', part: 'op', key: 'a', lang: 'hi', before: '', after: '<p>दिल्ली</p>' },
    { kind: 'text', part: 'op', key: 'b', lang: 'hi', before: '', after: '<p>मुंबई</p>' },
    { kind: 'answer', lang: 'hi', before: [], after: ['b'] },
  ]);
  expect(versionChanges(v1, { ...v1 })).toEqual([]);
});

test('rich text reads as words: formulas as their LaTeX, pictures as a word, blocks on their own lines', () => {
  const html = '<p>Solve <span data-type="inline-math" data-latex="x^2=4"><span class="katex">x²=4</span></span> <strong>now</strong></p><p><img src="/media/a.png" alt=""></p><div data-type="block-math" data-latex="\\frac{1}{2}"></div>';
  expect(htmlToText(html, '[image]')).toBe('Solve $x^2=4$ now\n[image]\n$\\frac{1}{2}$');
  expect(htmlToText('', '[image]')).toBe('');
});

test('an explanation written or changed, in English or Hindi, is a change of its own', () => {
  const before = { ...v1 };
  const after = { ...v1, expl: '<p>Delhi became the capital in 1911.</p>', trans: { hi: { q: '<p>राजधानी?</p>', ops: { a: '<p>दिल्ली</p>', b: '<p>मुंबई</p>' }, ca: ['a'], expl: '<p>1911 से।</p>' } } };
  const changes = versionChanges(before, after);
  expect(changes).toContainEqual({ kind: 'text', part: 'expl', lang: 'en', before: '', after: '<p>Delhi became the capital in 1911.</p>' });
  expect(changes).toContainEqual({ kind: 'text', part: 'expl', lang: 'hi', before: '', after: '<p>1911 से।</p>' });
});
