import { expect, test } from 'vitest';
import { stableExamItems } from './use-exam-list';

/** An RxDB document as the list reads it: its id, revision, version and JSON. */
const doc = (id: string, revision: string, v: number, json: Record<string, unknown> = {}) => ({ id, revision, v, toJSON: () => ({ id, v, ...json }) });

test('an unchanged set keeps its item, and an emission with no change keeps the whole array', () => {
  const toItems = stableExamItems();
  const sets = [doc('a', '1-x', 1, { l: 'Set A' }), doc('b', '1-y', 1, { l: 'Set B' })];
  const first = toItems(sets, []);
  expect(first.map((i) => [i.set.id, i.availability])).toEqual([
    ['a', 'downloading'],
    ['b', 'downloading'],
  ]);
  // The same documents again (a query re-emitting while the replica starts): the same array.
  expect(toItems([doc('a', '1-x', 1, { l: 'Set A' }), doc('b', '1-y', 1, { l: 'Set B' })], [])).toBe(first);
  // B's questions arrive: A's item is kept, B's is new, and so is the array.
  const second = toItems(sets, [doc('b', '1-q', 1, { qs: [] })]);
  expect(second).not.toBe(first);
  expect(second[0]).toBe(first[0]);
  expect(second[1]).not.toBe(first[1]);
  expect(second[1]?.availability).toBe('onDevice');
});

test('a new revision of a set, a newer version, a removed or reordered set all give a new list', () => {
  const toItems = stableExamItems();
  const first = toItems([doc('a', '1-x', 1), doc('b', '1-y', 1)], [doc('a', '1-q', 1)]);
  const edited = toItems([doc('a', '2-x', 2), doc('b', '1-y', 1)], [doc('a', '1-q', 1)]);
  expect(edited).not.toBe(first);
  expect(edited[0]?.availability).toBe('changed');
  expect(edited[1]).toBe(first[1]);
  const reordered = toItems([doc('b', '1-y', 1), doc('a', '2-x', 2)], [doc('a', '1-q', 1)]);
  expect(reordered.map((i) => i.set.id)).toEqual(['b', 'a']);
  expect(reordered[0]).toBe(first[1]);
  expect(toItems([doc('a', '2-x', 2)], [doc('a', '1-q', 1)]).map((i) => i.set.id)).toEqual(['a']);
});

test('a live test’s times come from its stored questions’ document, without its sealed paper', () => {
  const toItems = stableExamItems();
  const sealed = { iv: 'AAAAAAAAAAAAAAAA', ct: 'AAAA' };
  const items = toItems([doc('live', '1-x', 1), doc('plain', '1-y', 1), doc('away', '1-z', 1)], [
    doc('live', '1-q', 1, { questions: [], live: { start: 10, win: 5, res: 20, wk: sealed, paper: sealed } }),
    doc('plain', '1-r', 1, { questions: [] }),
  ]);
  expect(items.map((i) => i.live)).toEqual([{ start: 10, win: 5, res: 20 }, null, null]);
});
