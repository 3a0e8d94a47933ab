import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, test, vi } from 'vitest';
import type { QuestionView } from '@pm/protocol/question';
import { englishSourceHash } from '@pm/protocol/translate';
import { renderWithApp } from '@/testing/render';
import { hasFilters, readListState, writeListState } from './list-state';
import { TranslationBadges, TranslationFilterSelect } from './translation-filter';

const NS = ['authoring-bank'];

test('the translation filter travels in the address like the others; unknown values are dropped', () => {
  const state = readListState(new URLSearchParams('tr=stale:hi&st=PENDING'));
  expect(state.filters).toEqual({ st: ['PENDING'], tr: 'stale:hi' });
  expect(writeListState(state).toString()).toBe('st=PENDING&tr=stale%3Ahi');
  expect(readListState(new URLSearchParams('tr=gone:hi')).filters).toEqual({});
  expect(hasFilters({ tr: 'missing:hi' })).toBe(true);
});

test.each([
  ['en', 'Hindi translation', 'Stale (English changed)'],
  ['hi', 'हिंदी अनुवाद', 'पुराना (अंग्रेज़ी बदली)'],
] as const)('the filter offers missing, stale and machine draft (%s)', async (lang, label, stale) => {
  const onChange = vi.fn();
  await renderWithApp(<TranslationFilterSelect value={undefined} onChange={onChange} />, { lang, namespaces: NS });
  await userEvent.click((await screen.findAllByLabelText(label)).find((el) => el.tagName === 'INPUT')!);
  await userEvent.click(await screen.findByRole('option', { name: stale, hidden: true }));
  expect(onChange).toHaveBeenCalledWith('stale:hi');
});

const question = (trans: QuestionView['trans']): QuestionView => ({
  id: 'q1',
  expl: '',
  q: '<p>New English</p>',
  ops: { a: '<p>1</p>', b: '<p>2</p>' },
  ca: ['a'],
  qt: 'mcq1',
  d: '3',
  c: [],
  s: null,
  t: [],
  e: [],
  st: 'PENDING',
  trans,
  version: 2,
  createdAt: 0,
  updatedAt: 0,
  createdBy: null,
  updatedBy: null,
});

test.each([
  ['en', 'Hindi: stale', 'Hindi: machine draft'],
  ['hi', 'हिंदी: पुराना', 'हिंदी: मशीन ड्राफ़्ट'],
] as const)('a row shows a stale translation and a machine draft (%s)', async (lang, staleText, draftText) => {
  const old = englishSourceHash({ q: '<p>Old English</p>', ops: { a: '<p>1</p>', b: '<p>2</p>' }, ca: ['a'], qt: 'mcq1' });
  const hi = { q: '<p>हिंदी</p>', ops: { a: '<p>1</p>', b: '<p>2</p>' }, ca: ['a'] };
  const q = question({ hi: { ...hi, src: old, mt: true } });
  await renderWithApp(<TranslationBadges question={q} />, { lang, namespaces: NS });
  expect(await screen.findByText(staleText)).toBeInTheDocument();
  expect(screen.getByText(draftText)).toBeInTheDocument();
});

test('a current translation, or none, shows no badge', async () => {
  const current = question({ hi: { q: '<p>हिंदी</p>', ops: { a: '1', b: '2' }, ca: ['a'], src: englishSourceHash({ q: '<p>New English</p>', ops: { a: '<p>1</p>', b: '<p>2</p>' }, ca: ['a'], qt: 'mcq1' }) } });
  const { container } = await renderWithApp(
    <>
      <TranslationBadges question={current} />
      <TranslationBadges question={question({})} />
    </>,
    { lang: 'en', namespaces: NS },
  );
  expect(container.querySelectorAll('.mantine-Badge-root')).toHaveLength(0);
});
