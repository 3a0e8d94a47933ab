import { describe, expect, test } from 'vitest';
import { parseQsParam } from './qs-param';
import {
  answer,
  clearResponse,
  clockParts,
  countStates,
  type Detail,
  durationSeconds,
  markForReview,
  partsOf,
  remainingSeconds,
  slotsOf,
  timerTone,
  visit,
} from './test-engine';

const detail: Detail = {
  id: 'qs',
  isM: true,
  main: { q: ['m1', 'm2'], mpq: 1, tm: 2, nm: 0, o: 0 },
  sections: {
    Hindi: { ss: true, q: [], mpq: 0, tm: 0, nm: 0, o: 2, sub: { Grammar: { q: ['h1'], mpq: 2, tm: 2, nm: 0, o: 1 }, Empty: { q: [], mpq: 1, tm: 0, nm: 0, o: 0 } } },
    Reasoning: { ss: false, q: ['r1', 'r2'], mpq: 2, tm: 4, nm: 0.5, o: 1 },
    Unused: { ss: false, q: [], mpq: 1, tm: 0, nm: 0, o: 0 },
  },
  questions: [],
  v: 1,
};

describe('test engine', () => {
  test('parts: main first, sections by order, sub-sections expanded, empty parts hidden', () => {
    const parts = partsOf(detail);
    expect(parts.map((p) => p.key)).toEqual(['main', 'Reasoning', 'Hindi/Grammar']);
    expect(parts[1]).toMatchObject({ mpq: 2, nm: 0.5 });
    expect(slotsOf(parts).map((s) => `${s.n}:${s.qid}`)).toEqual(['1:m1', '2:m2', '3:r1', '4:r2', '5:h1']);
  });

  test('states follow spec §4 and the NTA palette', () => {
    let a = visit({}, 'm1');
    expect(a.m1).toEqual({ ua: null, status: 'VISITED' });
    a = answer(a, 'm1', ['a', 'b']);
    expect(a.m1!.status).toBe('ANSWERED');
    a = answer(a, 'm1', []);
    expect(a.m1).toEqual({ ua: null, status: 'VISITED' });
    a = markForReview(a, 'm1');
    expect(a.m1!.status).toBe('MARKED');
    a = answer(a, 'm1', 'b');
    expect(a.m1!.status).toBe('ANSWERED_MARKED');
    a = clearResponse(a, 'm1');
    expect(a.m1).toEqual({ ua: null, status: 'VISITED' });
    a = answer(a, 'm2', '  ');
    expect(a.m2!.status).toBe('VISITED');
    expect(countStates(['m1', 'm2', 'r1'], a)).toEqual({ NOT_VISITED: 1, VISITED: 2, ANSWERED: 0, MARKED: 0, ANSWERED_MARKED: 0 });
  });

  test('timer: default 5,400 s, colours at half and 900 s, never below zero', () => {
    expect(durationSeconds(0)).toBe(5400);
    expect(durationSeconds(60)).toBe(3600);
    expect(timerTone(1800, 3600)).toBe('green');
    expect(timerTone(1799, 3600)).toBe('orange');
    expect(timerTone(899, 3600)).toBe('red');
    expect(timerTone(5400, 5400)).toBe('green');
    expect(timerTone(899, 5400)).toBe('red');
    // A 15-minute test starts green, like every other (not red from its first second).
    expect(timerTone(899, 900)).toBe('green');
    expect(timerTone(450, 900)).toBe('green');
    expect(timerTone(449, 900)).toBe('orange');
    expect(timerTone(224, 900)).toBe('red');
    expect(remainingSeconds(1000, 60, 1000 + 61_000)).toBe(0);
    expect(remainingSeconds(0, 60, 500)).toBe(60);
    expect(clockParts(5399)).toEqual({ h: 1, m: 29, s: 59 });
  });

  test('take-exam parameter: the spec JSON string or a set id', () => {
    expect(parseQsParam(encodeURIComponent(JSON.stringify({ id: 'qs-1', l: 'A/B' })))).toEqual({ id: 'qs-1', passed: { id: 'qs-1', l: 'A/B' } });
    expect(parseQsParam('qs-mock-ssc-1')).toEqual({ id: 'qs-mock-ssc-1', passed: null });
    expect(parseQsParam('{bad')).toBeNull();
    expect(parseQsParam('../etc')).toBeNull();
  });
});
