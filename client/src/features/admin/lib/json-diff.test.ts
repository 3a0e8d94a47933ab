import { expect, test } from 'vitest';
import { changedPaths } from './json-diff';

const sorted = (s: Set<string>) => [...s].sort();

test('an unchanged value has nothing to highlight', () => {
  const p = changedPaths({ name: 'A', tags: [1, 2], meta: { x: null } }, { name: 'A', tags: [1, 2], meta: { x: null } });
  expect([p.removed, p.added, p.changed, p.ancestors].every((s) => s.size === 0)).toBe(true);
});

test('a change deep inside marks the leaf and every parent, not the siblings', () => {
  const p = changedPaths({ person: { address: { city: 'Pune', pin: '411001' }, n: 'Ravi' } }, { person: { address: { city: 'Agra', pin: '411001' }, n: 'Ravi' } });
  expect(sorted(p.changed)).toEqual(['person.address.city']);
  expect(sorted(p.ancestors)).toEqual(['person', 'person.address']);
  expect(p.added.size + p.removed.size).toBe(0);
});

test('list items are paths by index: a shorter list removes its tail, a longer one adds', () => {
  const p = changedPaths({ permissions: ['A', 'B', 'C'] }, { permissions: ['A', 'C'] });
  expect(sorted(p.changed)).toEqual(['permissions.1']);
  expect(sorted(p.removed)).toEqual(['permissions.2']);
  expect(sorted(p.ancestors)).toEqual(['permissions']);
  expect(sorted(changedPaths({ l: [] }, { l: [{ k: 1 }] }).added)).toEqual(['l.0']);
});

test('a value that changes type is a change of that key', () => {
  const p = changedPaths({ logo: { src: 'a' }, s: 'ACTIVE' }, { logo: null, s: 1 });
  expect(sorted(p.changed)).toEqual(['logo', 's']);
  expect(p.ancestors.size).toBe(0);
});

test('with no object on one side (a CREATE or DELETE) nothing is marked: the whole value is new or gone', () => {
  for (const [a, b] of [
    [null, { a: 1 }],
    [{ a: 1 }, null],
    ['x', 'y'],
    [undefined, [1]],
  ] as const) {
    const p = changedPaths(a, b);
    expect(p.removed.size + p.added.size + p.changed.size + p.ancestors.size).toBe(0);
  }
});
