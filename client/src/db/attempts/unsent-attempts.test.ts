import { afterEach, expect, test } from 'vitest';
import { clearUnsentMarkers, dismissLost, forgetUnsent, lostVersion, missingFrom, readLost, readUnsent, recordLost, subscribeLost, unsentList, writeUnsent } from './unsent-attempts';

const DB = 'pm-7465737431';
const a = { id: 'attempt-a', qsid: 'qs-1', st: 1_000 };
const b = { id: 'attempt-b', qsid: 'qs-2', st: 2_000 };
const c = { id: 'attempt-c', qsid: 'qs-1', st: 3_000 };

afterEach(() => clearUnsentMarkers(DB));

test('the waiting attempts are remembered outside IndexedDB, with the missing ones not settled yet', () => {
  const known = new Map([a, b, c].map((e) => [e.id, e]));
  // b was confirmed by the server (no longer waiting); c is missing and not settled (offline).
  expect(unsentList(['attempt-a'], known, [c])).toEqual([a, c]);
  // An id waiting but unknown (its document is not read yet) is not invented.
  expect(unsentList(['attempt-x'], known, [])).toEqual([]);
  writeUnsent(DB, [a, c]);
  expect(readUnsent(DB)).toEqual([a, c]);
  forgetUnsent(DB, ['attempt-c']);
  expect(readUnsent(DB)).toEqual([a]);
  writeUnsent(DB, []);
  expect(localStorage.getItem(`pm-unsent:${DB}`)).toBeNull();
});

test('a remembered attempt missing from the database at start is found; a damaged list reads as empty', () => {
  expect(missingFrom([a, b, c], new Set(['attempt-b']))).toEqual([a, c]);
  localStorage.setItem(`pm-unsent:${DB}`, '{not json');
  expect(readUnsent(DB)).toEqual([]);
  localStorage.setItem(`pm-unsent:${DB}`, JSON.stringify([a, { id: 3 }, null]));
  expect(readUnsent(DB)).toEqual([a]);
});

test('lost attempts are kept until dismissed, each once, and listeners hear of it; erasing forgets both lists', () => {
  let heard = 0;
  const stop = subscribeLost(() => heard++);
  const v = lostVersion();
  recordLost(DB, [a]);
  recordLost(DB, [a, b]);
  expect(readLost(DB)).toEqual([a, b]);
  expect(heard).toBe(2);
  expect(lostVersion()).toBe(v + 2);
  dismissLost(DB);
  expect(readLost(DB)).toEqual([]);
  recordLost(DB, [c]);
  writeUnsent(DB, [a]);
  clearUnsentMarkers(DB);
  expect(readLost(DB)).toEqual([]);
  expect(readUnsent(DB)).toEqual([]);
  stop();
});
