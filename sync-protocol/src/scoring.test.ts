import { describe, expect, test } from 'vitest';
import { parseNumber, parseNumericSpec } from './marking';
import { boundedStart, boundedSubmittedAt, GRACE_MS, isEmptyAnswer, isLate, keyQuestion, MAIN_PART, normaliseText, partsOf, score, type Answers, type KeyQuestion } from './scoring';

/* The marking rules (docs/exams.md "Answers and marking") as a table of cases over every type and rule. */

const Q = {
  m1: keyQuestion({ id: 'm1', qt: 'mcq1', ca: ['b'], trans: { hi: { ca: ['b'] } } }),
  m2: keyQuestion({ id: 'm2', qt: 'mcq2', ca: ['a', 'c'], trans: {} }),
  f1: keyQuestion({ id: 'f1', qt: 'f', ca: ['New  Delhi', '42'], trans: { hi: { ca: ['नई दिल्ली'] } } }),
  f2: keyQuestion({ id: 'f2', qt: 'f', ca: ['Straße'], trans: {} }),
  s1: keyQuestion({ id: 's1', qt: 's', ca: ['A model answer'], trans: {} }),
  nExact: keyQuestion({ id: 'nx', qt: 'n', ca: ['3'], trans: {} }),
  nTol: keyQuestion({ id: 'nt', qt: 'n', ca: ['3:0.5'], trans: {} }),
  nRange: keyQuestion({ id: 'nr', qt: 'n', ca: ['1..5'], trans: {} }),
  nDec: keyQuestion({ id: 'nd', qt: 'n', ca: ['0.3:0.1'], trans: {} }),
  nNeg: keyQuestion({ id: 'nn', qt: 'n', ca: ['-5..-1', '-9.81:0.01'], trans: {} }),
};
const one = (q: KeyQuestion, mpq = 2, nm = 0.5) => [{ key: MAIN_PART, mpq, nm, questions: [q] }];
const answer = (id: string, ua: unknown, status: string): Answers => ({ [id]: { ua, status } });

type Case = [name: string, q: KeyQuestion, ua: unknown, status: string, mg: number | null, opts?: { mpq?: number; nm?: number }];
const cases: Case[] = [
  // mcq1
  ['mcq1 right', Q.m1, 'b', 'ANSWERED', 2],
  ['mcq1 wrong loses nm', Q.m1, 'a', 'ANSWERED', -0.5],
  ['mcq1 wrong without negative marking', Q.m1, 'a', 'ANSWERED', 0, { nm: 0 }],
  ['mcq1 unanswered (null)', Q.m1, null, 'VISITED', 0],
  ['mcq1 unanswered (empty string)', Q.m1, '', 'ANSWERED', 0],
  ['mcq1 a one-key list reads as the key', Q.m1, ['b'], 'ANSWERED', 2],
  ['mcq1 two keys are wrong', Q.m1, ['a', 'b'], 'ANSWERED', -0.5],
  ['mcq1 ANSWERED_MARKED counts', Q.m1, 'b', 'ANSWERED_MARKED', 2],
  ['mcq1 MARKED with an answer is not evaluated', Q.m1, 'b', 'MARKED', 0],
  ['mcq1 VISITED with an answer is not evaluated', Q.m1, 'a', 'VISITED', 0],
  ['mcq1 with its part’s own marks', Q.m1, 'b', 'ANSWERED', 3, { mpq: 3, nm: 1 }],
  ['mcq1 wrong with its part’s own negative marks', Q.m1, 'c', 'ANSWERED', -1, { mpq: 3, nm: 1 }],
  // mcq2
  ['mcq2 exact set right', Q.m2, ['a', 'c'], 'ANSWERED', 2],
  ['mcq2 order does not matter', Q.m2, ['c', 'a'], 'ANSWERED', 2],
  ['mcq2 a repeated key does not matter', Q.m2, ['c', 'a', 'c'], 'ANSWERED', 2],
  ['mcq2 partial choice is wrong', Q.m2, ['a'], 'ANSWERED', -0.5],
  ['mcq2 larger choice is wrong', Q.m2, ['a', 'b', 'c'], 'ANSWERED', -0.5],
  ['mcq2 unanswered (empty list)', Q.m2, [], 'ANSWERED', 0],
  ['mcq2 ANSWERED_MARKED counts', Q.m2, ['a', 'c'], 'ANSWERED_MARKED', 2],
  // f
  ['f exact', Q.f1, 'New  Delhi', 'ANSWERED', 2],
  ['f case and inner spaces', Q.f1, '  new delhi ', 'ANSWERED', 2],
  ['f tabs and newlines collapse', Q.f1, 'NEW\t\nDELHI', 'ANSWERED', 2],
  ['f a translation’s accepted answer counts', Q.f1, 'नई दिल्ली', 'ANSWERED', 2],
  ['f Devanagari digits read as ASCII', Q.f1, '४२', 'ANSWERED', 2],
  ['f mixed digits', Q.f1, '4२', 'ANSWERED', 2],
  ['f NFC: a decomposed input matches', keyQuestion({ id: 'fe', qt: 'f', ca: ['café'], trans: {} }), 'cafe\u0301', 'ANSWERED', 2],
  ['f NFC: a decomposed accepted answer matches', keyQuestion({ id: 'fe2', qt: 'f', ca: ['cafe\u0301'], trans: {} }), 'CAFÉ', 'ANSWERED', 2],
  ['f case-fold ß = SS', Q.f2, 'STRASSE', 'ANSWERED', 2],
  ['f wrong text', Q.f1, 'Mumbai', 'ANSWERED', -0.5],
  ['f whitespace only is unanswered', Q.f1, '   ', 'ANSWERED', 0],
  ['f a list is not a text answer', Q.f1, ['New Delhi'], 'ANSWERED', -0.5],
  // s
  ['s answered awaits evaluation', Q.s1, 'My essay', 'ANSWERED', null],
  ['s unanswered', Q.s1, '', 'ANSWERED', 0],
  ['s marked for review without saving is not evaluated', Q.s1, 'Draft', 'MARKED', 0],
  // n (docs/exams.md "Numerical questions")
  ['n exact', Q.nExact, '3', 'ANSWERED', 2],
  ['n exact written as a decimal', Q.nExact, '3.00', 'ANSWERED', 2],
  ['n exact, another number is wrong', Q.nExact, '3.01', 'ANSWERED', -0.5],
  ['n tolerance: the lower end counts', Q.nTol, '2.5', 'ANSWERED', 2],
  ['n tolerance: the upper end counts', Q.nTol, '3.5', 'ANSWERED', 2],
  ['n tolerance: just above is wrong', Q.nTol, '3.5001', 'ANSWERED', -0.5],
  ['n tolerance: just below is wrong', Q.nTol, '2.4999', 'ANSWERED', -0.5],
  ['n range: the ends count', Q.nRange, '1', 'ANSWERED', 2],
  ['n range: the upper end counts', Q.nRange, '5', 'ANSWERED', 2],
  ['n range: inside', Q.nRange, '4.75', 'ANSWERED', 2],
  ['n range: outside', Q.nRange, '5.01', 'ANSWERED', -0.5],
  ['n decimals at a binary boundary (0.4 within 0.3:0.1)', Q.nDec, '0.4', 'ANSWERED', 2],
  ['n decimals at the other boundary (0.2)', Q.nDec, '.2', 'ANSWERED', 2],
  ['n Devanagari digits', Q.nTol, '३.२', 'ANSWERED', 2],
  ['n Devanagari digits outside', Q.nTol, '४', 'ANSWERED', -0.5],
  ['n negative range', Q.nNeg, '-3', 'ANSWERED', 2],
  ['n negative with the minus sign −', Q.nNeg, '−9.805', 'ANSWERED', 2],
  ['n negative outside', Q.nNeg, '-0.5', 'ANSWERED', -0.5],
  ['n spaces around the number', Q.nExact, '  3 ', 'ANSWERED', 2],
  ['n not a number is wrong', Q.nExact, 'three', 'ANSWERED', -0.5],
  ['n a comma is not a decimal point', Q.nTol, '3,2', 'ANSWERED', -0.5],
  ['n empty is unanswered', Q.nExact, '', 'ANSWERED', 0],
  ['n whitespace is unanswered', Q.nExact, '  ', 'ANSWERED', 0],
  ['n marked for review is not evaluated', Q.nExact, '3', 'MARKED', 0],
];

describe.each(cases)('%s', (_name, q, ua, status, mg, opts) => {
  test('marks gained', () => {
    const r = score(one(q, opts?.mpq ?? 2, opts?.nm ?? 0.5), answer(q.id, ua, status));
    const evaluated = (status === 'ANSWERED' || status === 'ANSWERED_MARKED') && !isEmptyAnswer(ua);
    expect(r.userRes[MAIN_PART]![q.id]).toEqual({ ua: evaluated ? ua : null, mg });
    expect(r.totalMarks).toBe(mg ?? 0);
    expect(r.marks[MAIN_PART]).toBe(mg ?? 0);
    expect(r.pending).toBe(mg === null ? 1 : 0);
    // Right and wrong counts: an answer awaiting evaluation is neither.
    expect(r.right).toBe(mg !== null && mg > 0 ? 1 : 0);
    expect(r.wrong).toBe(evaluated && mg !== null && mg <= 0 ? 1 : 0);
  });
});

test('parseNumber reads decimal numbers, Devanagari digits and signs, nothing else', () => {
  expect(parseNumber('12')).toBe(12);
  expect(parseNumber('-0.5')).toBe(-0.5);
  expect(parseNumber('+.5')).toBe(0.5);
  expect(parseNumber('3.')).toBe(3);
  expect(parseNumber('१२.५')).toBe(12.5);
  expect(parseNumber('−४')).toBe(-4);
  for (const bad of ['', ' ', '1,5', '1e3', '1.2.3', '--1', 'abc', '3 4', '.', '-', 'Infinity', 'NaN', '0x10']) expect(parseNumber(bad), bad).toBeNull();
});

test('parseNumericSpec: exact, tolerance and range as GIFT writes them', () => {
  expect(parseNumericSpec('3')).toEqual({ min: 3, max: 3 });
  expect(parseNumericSpec('3:0.5')).toEqual({ min: 2.5, max: 3.5 });
  expect(parseNumericSpec('1..5')).toEqual({ min: 1, max: 5 });
  expect(parseNumericSpec('-5..-1')).toEqual({ min: -5, max: -1 });
  expect(parseNumericSpec('1.5..2.5')).toEqual({ min: 1.5, max: 2.5 });
  for (const bad of ['', 'x', '3:-1', '5..1', '3:', ':1', '1..', '3:0.5:1', '1..2..3']) expect(parseNumericSpec(bad), bad).toBeNull();
});

test('normaliseText', () => {
  expect(normaliseText('  A\u00a0 b\n')).toBe('a b');
  expect(normaliseText('०१२३४५६७८९')).toBe('0123456789');
  expect(normaliseText('रात')).toBe('रात');
});

const set = {
  q: ['m1', 'f1'],
  mpq: 2,
  nm: 0.5,
  sections: {
    Reasoning: { ss: false, q: ['m2'], mpq: 3, nm: 1, o: 2 },
    Hindi: {
      ss: true,
      q: [],
      mpq: 0,
      nm: 0,
      o: 1,
      sub: {
        Vocabulary: { q: ['s1'], mpq: 5, nm: 0, o: 2 },
        Grammar: { q: ['f2', 'gone'], mpq: 1, nm: 0.25, o: 1 },
      },
    },
    Empty: { ss: false, q: [], mpq: 1, nm: 0, o: 3 },
  },
};
const byId = new Map(Object.values(Q).map((q) => [q.id, q]));

describe('a set with sections and sub-sections', () => {
  const parts = partsOf(set, (id) => byId.get(id));

  test('parts in the order learners see them, each with its own marking; unknown questions are left out', () => {
    expect(parts.map((p) => [p.key, p.mpq, p.nm, p.questions.map((q) => q.id)])).toEqual([
      ['wos', 2, 0.5, ['m1', 'f1']],
      ['Hindi', 1, 0.25, ['f2']],
      ['Hindi', 5, 0, ['s1']],
      ['Reasoning', 3, 1, ['m2']],
      ['Empty', 1, 0, []],
    ]);
  });

  test('marks, out-of and totals per part; a sub-sectioned section is summed under its name', () => {
    const r = score(parts, {
      m1: { ua: 'b', status: 'ANSWERED' }, // +2
      f1: { ua: 'delhi', status: 'ANSWERED' }, // −0.5
      f2: { ua: 'x', status: 'ANSWERED_MARKED' }, // −0.25 (Grammar)
      s1: { ua: 'essay', status: 'ANSWERED' }, // pending (Vocabulary, max 5)
      m2: { ua: ['a'], status: 'ANSWERED' }, // −1 (Reasoning)
      elsewhere: { ua: 'a', status: 'ANSWERED' }, // not in the set: ignored
    });
    expect(r.marks).toEqual({ wos: 1.5, Hindi: -0.25, Reasoning: -1, Empty: 0 });
    expect(r.outOf).toEqual({ wos: 4, Hindi: 6, Reasoning: 3, Empty: 0 });
    expect(r.totalMarks).toBe(0.25);
    expect(r.total).toBe(13);
    expect(r.pending).toBe(1);
    expect(r.maxOf).toEqual({ s1: 5 });
    expect(Object.keys(r.userRes)).toEqual(['wos', 'Hindi', 'Reasoning', 'Empty']);
    expect(r.userRes.Hindi).toEqual({ f2: { ua: 'x', mg: -0.25 }, s1: { ua: 'essay', mg: null } });
    expect(JSON.stringify(r.userRes)).not.toContain('elsewhere');
    expect([r.right, r.wrong]).toEqual([1, 3]);
  });

  test('nothing answered: every question is in userRes with 0', () => {
    const r = score(parts, {});
    expect(r.totalMarks).toBe(0);
    expect(Object.values(r.userRes).flatMap((p) => Object.values(p))).toEqual(Array(5).fill({ ua: null, mg: 0 }));
  });

  test('sums carry no binary noise', () => {
    const thirds = [{ key: MAIN_PART, mpq: 1, nm: 1 / 3, questions: [Q.m1, { ...Q.m1, id: 'm1b' }, { ...Q.m1, id: 'm1c' }] }];
    const r = score(thirds, { m1: { ua: 'a', status: 'ANSWERED' }, m1b: { ua: 'a', status: 'ANSWERED' }, m1c: { ua: 'a', status: 'ANSWERED' } });
    expect(r.totalMarks).toBe(-1);
    expect(Object.is(score(one(Q.m1, 2, 0), { m1: { ua: 'a', status: 'ANSWERED' } }).totalMarks, 0)).toBe(true);
  });
});

describe('late', () => {
  // An attempt started at T0 and submitted ten minutes later, first seen at its arrival.
  const T0 = 1_795_000_000_000;
  const base = {
    durMinutes: 60,
    st: T0,
    submittedAt: (T0 + 600_000) as number | null,
    elapsed: null as number | null,
    seenElapsed: null as number | null,
    firstSeen: T0 + 600_000,
    seenBefore: false,
    receivedAt: T0 + 600_000,
  };
  const limit = 3600_000 + GRACE_MS;
  type LateCase = [string, Partial<typeof base>, boolean];
  const lateCases: LateCase[] = [
    ['within the duration', { elapsed: 3000_000 }, false],
    ['within the grace window', { elapsed: limit }, false],
    ['device elapsed beyond duration + grace', { elapsed: limit + 1 }, true],
    ['0 minutes means 5400 s', { durMinutes: 0, elapsed: 5400_000 + GRACE_MS }, false],
    ['0 minutes means 5400 s, beyond', { durMinutes: 0, elapsed: 5400_000 + GRACE_MS + 1 }, true],
    ['arriving a day later with consistent times proves nothing by itself', { elapsed: 500_000, firstSeen: T0 + 86_400_000, receivedAt: T0 + 86_400_000 }, false],
    ['old client without elapsed, first seen submitted', {}, false],
    ['submitted more than the limit after its own start is late, whatever elapsed says', { submittedAt: T0 + limit + 1, elapsed: 60_000, firstSeen: T0 + limit + 5, receivedAt: T0 + limit + 5 }, true],
    ['a start of 0 with elapsed 0, first seen submitted, is late', { st: 0, elapsed: 0 }, true],
    ['a submission time in the future counts as its arrival', { submittedAt: 4_102_444_800_000, st: T0, firstSeen: T0 + limit + 1, receivedAt: T0 + limit + 1 }, true],
    ['a start moved after the first sighting counts from the first sighting', { seenBefore: true, firstSeen: T0, st: T0 + limit, submittedAt: T0 + limit + 60_000, receivedAt: T0 + limit + 60_000, elapsed: 60_000 }, true],
    ['elapsed went backwards and arrival is past sfs + limit', { seenBefore: true, firstSeen: T0, elapsed: 10_000, seenElapsed: 600_000, submittedAt: T0 + 1_000, receivedAt: T0 + limit + 1 }, true],
    ['elapsed dropped (none sent) after the server saw some, past sfs + limit', { seenBefore: true, firstSeen: T0, elapsed: null, seenElapsed: 600_000, submittedAt: T0 + 1_000, receivedAt: T0 + limit + 1 }, true],
    ['elapsed went backwards but within sfs + limit', { seenBefore: true, firstSeen: T0, elapsed: 10_000, seenElapsed: 600_000, submittedAt: T0 + 1_000, receivedAt: T0 + limit }, false],
    ['elapsed grew as it should, arrival late', { seenBefore: true, firstSeen: T0, elapsed: 700_000, seenElapsed: 600_000, submittedAt: T0 + 700_000, receivedAt: T0 + 2 * limit }, false],
  ];
  test.each(lateCases)('%s', (_n, over, late) => {
    expect(isLate({ ...base, ...over })).toBe(late);
  });

  test('the stored submission time lies between the bounded start (or first sighting) and the arrival', () => {
    const t = { st: T0, firstSeen: T0 + 10_000, seenBefore: false, receivedAt: T0 + 20_000 };
    expect(boundedSubmittedAt({ ...t, submittedAt: 4_102_444_800_000 })).toBe(T0 + 20_000);
    expect(boundedSubmittedAt({ ...t, submittedAt: T0 + 5_000 })).toBe(T0 + 5_000);
    expect(boundedSubmittedAt({ ...t, submittedAt: 0 })).toBe(T0);
    expect(boundedSubmittedAt({ ...t, submittedAt: null })).toBe(T0 + 20_000);
    // Seen in progress at firstSeen: it was not submitted before then.
    expect(boundedSubmittedAt({ ...t, seenBefore: true, submittedAt: T0 + 5_000 })).toBe(T0 + 10_000);
    expect(boundedStart({ st: T0 + 50_000, firstSeen: T0 + 10_000 })).toBe(T0 + 10_000);
  });
});
