import { describe, expect, test } from 'vitest';
import { capitaliseWords, generatePassword, PASSWORD_ALPHABET, withIndiaPrefix } from './generate-password';
import { changedPaths } from './json-diff';
import { ADMIN_MENU, mayOpen } from './menu';
import { dropMove, grant, revoke, sameSet } from './permission-moves';
import { checkRange, lastDays } from './report-range';

describe('permission moves', () => {
  const all = ['A', 'B', 'C', 'D'];
  test('grant and revoke keep the order of all permissions', () => {
    expect(grant(all, ['C'], ['A', 'D'])).toEqual(['A', 'C', 'D']);
    expect(revoke(all, ['A', 'C', 'D'], ['C'])).toEqual(['A', 'D']);
    expect(grant(all, ['A'], ['A'])).toEqual(['A']);
  });
  test('a drop moves only onto the other list', () => {
    expect(dropMove(all, ['A'], 'B', 'granted')).toEqual(['A', 'B']);
    expect(dropMove(all, ['A', 'B'], 'B', 'restricted')).toEqual(['A']);
    expect(dropMove(all, ['A'], 'A', 'granted')).toEqual(['A']);
    expect(dropMove(all, ['A'], 'B', null)).toEqual(['A']);
  });
  test('sameSet ignores order', () => {
    expect(sameSet(['A', 'B'], ['B', 'A'])).toBe(true);
    expect(sameSet(['A'], ['A', 'B'])).toBe(false);
  });
});

describe('person dialog helpers', () => {
  test('a generated password has 10 characters of the alphabet, drawn from the CSPRNG', () => {
    let calls = 0;
    const pw = generatePassword(10, (a) => {
      calls++;
      return crypto.getRandomValues(a);
    });
    expect(pw).toHaveLength(10);
    expect([...pw].every((c) => PASSWORD_ALPHABET.includes(c))).toBe(true);
    expect(calls).toBeGreaterThan(0);
    expect(new Set(Array.from({ length: 50 }, () => generatePassword())).size).toBe(50);
  });
  test('bytes that would bias the choice are skipped', () => {
    // 255 is above the largest multiple of the alphabet size, so it must be rejected.
    const pw = generatePassword(2, (a) => a.fill(255).fill(0, 0, 2));
    expect(pw).toBe(PASSWORD_ALPHABET[0]?.repeat(2));
  });
  test('§5: a 10-character mobile without @ gets +91; names are capitalised', () => {
    expect(withIndiaPrefix('9876543210')).toBe('+919876543210');
    expect(withIndiaPrefix('+919876543210')).toBe('+919876543210');
    expect(withIndiaPrefix('98765@3210')).toBe('98765@3210');
    expect(capitaliseWords('ravi kumar-singh')).toBe('Ravi Kumar-Singh');
    expect(capitaliseWords('राम कुमार')).toBe('राम कुमार');
  });
});

describe('report ranges', () => {
  test('start and end of India-time days whatever the browser zone, and the spec messages', () => {
    const r = checkRange(['2026-03-01', '2026-03-02']);
    // 1 March 00:00 IST is 28 February 18:30 UTC; 2 March 23:59:59.999 IST the last millisecond.
    expect(r).toEqual({ ok: true, startDate: Date.UTC(2026, 1, 28, 18, 30), endDate: Date.UTC(2026, 2, 2, 18, 30) - 1 });
    expect(checkRange(['2026-02-30', '2026-03-02'])).toEqual({ ok: false, error: 'start' });
    expect(lastDays(30, Date.UTC(2026, 10, 28, 20))).toEqual(['2026-10-31', '2026-11-29']);
    expect(checkRange([null, '2026-03-02'])).toEqual({ ok: false, error: 'start' });
    expect(checkRange(['2026-03-02', null])).toEqual({ ok: false, error: 'end' });
    expect(checkRange(['2026-03-02', '2026-03-01'])).toEqual({ ok: false, error: 'end' });
  });
});

describe('activity diff', () => {
  test('paths removed, added and changed, with their parents', () => {
    const p = changedPaths({ name: 'A', permissions: [{ permission: 'X' }], gone: 1 }, { name: 'B', permissions: [{ permission: 'X' }, { permission: 'Y' }], added: true });
    expect([...p.changed]).toEqual(['name']);
    expect([...p.removed]).toEqual(['gone']);
    expect([...p.added].sort()).toEqual(['added', 'permissions.1']);
    expect(p.ancestors.has('permissions')).toBe(true);
    expect(changedPaths(null, { a: 1 }).added.size).toBe(0);
  });
});

describe('admin menu guards', () => {
  const entry = (key: string) => ADMIN_MENU.find((e) => e.key === key) ?? { any: [], all: [] };
  test('person needs all three person permissions; the dashboard any brand permission', () => {
    expect(mayOpen(entry('person'), new Set(['CREATE_PERSON', 'UPDATE_PERSON']))).toBe(false);
    expect(mayOpen(entry('person'), new Set(['CREATE_PERSON', 'UPDATE_PERSON', 'DELETE_PERSON']))).toBe(true);
    expect(mayOpen(entry('dashboard'), new Set(['UPDATE_BRAND']))).toBe(true);
    expect(mayOpen(entry('dashboard'), new Set(['VIEW_REPORT']))).toBe(false);
    expect(mayOpen(entry('permission'), new Set())).toBe(true);
  });
});
