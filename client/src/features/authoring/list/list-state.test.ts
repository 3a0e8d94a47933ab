import { expect, test } from 'vitest';
import { normaliseColumns, DEFAULT_COLUMNS } from './columns';
import { hasFilters, pageCount, readListState, toggleSelection, writeListState } from './list-state';

test('the filters and the page are read from the address, dropping what the server would refuse', () => {
  const state = readListState(new URLSearchParams('s=physics&c=class-10,class-12&qt=mcq1,essay&d=3,9&st=APPROVED,DONE&search=%20acid%20&page=3'));
  expect(state).toEqual({
    filters: { s: ['physics'], c: ['class-10', 'class-12'], qt: ['mcq1'], d: ['3'], st: ['APPROVED'], search: 'acid' },
    page: 3,
  });
  expect(readListState(new URLSearchParams('page=0&qt=essay&search=%20'))).toEqual({ filters: {}, page: 1 });
  expect(readListState(new URLSearchParams('page=2.5'))).toEqual({ filters: {}, page: 1 });
});

test('the address written for a state holds only what is set, and reads back the same', () => {
  const state = { filters: { s: ['physics'], t: [], d: ['4', '5'], search: 'ohm law' }, page: 2 };
  const params = writeListState(state);
  expect(params.toString()).toBe('s=physics&d=4%2C5&search=ohm+law&page=2');
  expect(readListState(params)).toEqual({ filters: { s: ['physics'], d: ['4', '5'], search: 'ohm law' }, page: 2 });
  expect(writeListState({ filters: {}, page: 1 }).toString()).toBe('');
});

test('hasFilters and pageCount', () => {
  expect(hasFilters({})).toBe(false);
  expect(hasFilters({ s: [], search: '  ' })).toBe(false);
  expect(hasFilters({ st: ['PENDING'] })).toBe(true);
  expect(hasFilters({ search: 'x' })).toBe(true);
  // docs/glossary.md "Fixed values": 25 a page.
  expect(pageCount(0, 25)).toBe(1);
  expect(pageCount(25, 25)).toBe(1);
  expect(pageCount(26, 25)).toBe(2);
  expect(pageCount(50_000, 25)).toBe(2000);
});

test('selection toggles up to the allowed count, then refuses with the spec message', () => {
  expect(toggleSelection([], 'q1', 2, 'Reasoning')).toEqual({ ok: true, ids: ['q1'] });
  expect(toggleSelection(['q1'], 'q2', 2, 'Reasoning')).toEqual({ ok: true, ids: ['q1', 'q2'] });
  expect(toggleSelection(['q1', 'q2'], 'q3', 2, 'Reasoning')).toEqual({
    ok: false,
    allowed: 2,
    part: 'Reasoning',
    english: 'Only 2 questions are allowed in Reasoning section',
  });
  expect(toggleSelection(['q1'], 'q2', 1, null)).toMatchObject({ ok: false, english: 'Only 1 questions are allowed in Main section' });
  // Unticking is always allowed, also above the limit (marks lowered after choosing).
  expect(toggleSelection(['q1', 'q2', 'q3'], 'q2', 1, null)).toEqual({ ok: true, ids: ['q1', 'q3'] });
});

test('stored columns keep the spec order; unknown or empty choices fall back to the default', () => {
  expect(normaliseColumns(['st', 'q', 'ops'])).toEqual(['q', 'ops', 'st']);
  expect(normaliseColumns(['nope'])).toEqual(DEFAULT_COLUMNS);
  expect(normaliseColumns('q')).toEqual(DEFAULT_COLUMNS);
});
