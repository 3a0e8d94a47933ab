import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MAX_ANSWERS, submissionSchema } from '../result';
import { pushRowsSchema } from './envelopes';
import { testSummaryDocSchema } from './test-summary';

// Node's global; this project's sync-protocol compiles without DOM or Node types.
declare function structuredClone<T>(value: T): T;

/*
 * The server validates its two hottest bodies (sync push of test_summary, submitUserResponse)
 * with schemas compiled by z.compile. Compiled and runtime parsing must agree on every input:
 * the same data for valid input, the same issues (so the same `msg`) for invalid input.
 */

function attempt(n: number) {
  const answers: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) {
    answers[`question-${i}`] = { ua: i % 3 === 0 ? ['a', 'c'] : i % 3 === 1 ? 'b' : null, status: i % 2 ? 'ANSWERED' : 'MARKED', t: i * 10 };
  }
  return {
    id: 'attempt-0001',
    qsid: 'set-1',
    st: 1_700_000_000_000,
    sfs: 0,
    lsq: null,
    index: 3,
    selectedSection: 'Reasoning',
    answers,
    status: 'SUBMITTED',
    submittedAt: 1_700_000_100_000,
    elapsed: 100_000,
    updatedAt: 1_700_000_100_000,
    _deleted: false,
  };
}

type Change = (doc: ReturnType<typeof attempt>) => unknown;
const pushCases: [string, Change][] = [
  ['valid', (d) => [{ newDocumentState: d, assumedMasterState: null }]],
  ['valid with a master state', (d) => [{ newDocumentState: d, assumedMasterState: { ...d, status: 'IN_PROGRESS', submittedAt: null } }]],
  ['valid without optional fields', (d) => [{ newDocumentState: { ...d, elapsed: undefined } }]],
  ['empty list', () => []],
  ['not a list', (d) => d],
  ['unknown field', (d) => [{ newDocumentState: { ...d, personId: 'someone-else' }, assumedMasterState: null }]],
  ['unknown field in an answer', (d) => [{ newDocumentState: { ...d, answers: { q: { ua: 'a', status: 'ANSWERED', mg: 4 } } } }]],
  ['unknown envelope field', (d) => [{ newDocumentState: d, assumedMasterState: null, extra: 1 }]],
  ['missing field', (d) => [{ newDocumentState: { ...d, qsid: undefined } }]],
  ['wrong type', (d) => [{ newDocumentState: { ...d, st: '1700000000000' } }]],
  ['fraction', (d) => [{ newDocumentState: { ...d, index: 1.5 } }]],
  ['negative', (d) => [{ newDocumentState: { ...d, sfs: -1 } }]],
  ['bad id', (d) => [{ newDocumentState: { ...d, id: 'has space 1' } }]],
  ['short id', (d) => [{ newDocumentState: { ...d, id: 'abc' } }]],
  ['bad status', (d) => [{ newDocumentState: { ...d, status: 'DONE' } }]],
  ['bad question state', (d) => [{ newDocumentState: { ...d, answers: { q: { ua: 'a', status: 'SKIPPED' } } } }]],
  ['answer of a wrong type', (d) => [{ newDocumentState: { ...d, answers: { q: { ua: 4, status: 'ANSWERED' } } } }]],
  ['too many options', (d) => [{ newDocumentState: { ...d, answers: { q: { ua: Array.from({ length: 21 }, () => 'a'), status: 'ANSWERED' } } } }]],
  ['oversized text', (d) => [{ newDocumentState: { ...d, answers: { q: { ua: 'x'.repeat(5001), status: 'ANSWERED' } } } }]],
  ['time out of range', (d) => [{ newDocumentState: { ...d, answers: { q: { ua: 'a', status: 'ANSWERED', t: -5 } } } }]],
  ['oversized question key', (d) => [{ newDocumentState: { ...d, answers: { ['k'.repeat(65)]: { ua: 'a', status: 'ANSWERED' } } } }]],
  ['answers not an object', (d) => [{ newDocumentState: { ...d, answers: ['a'] } }]],
  ['null document', () => [{ newDocumentState: null }]],
  ['prototype key', (d) => JSON.parse(`[{"newDocumentState":${JSON.stringify({ ...d, answers: {} }).replace('"answers":{}', '"answers":{"__proto__":{"ua":"a","status":"ANSWERED"}}')}}]`)],
];

describe('compiled schemas agree with the runtime parser', () => {
  const runtime = pushRowsSchema(testSummaryDocSchema);
  // strict: a schema the compiler cannot take would throw here instead of silently staying slow.
  const compiled = z.compile(runtime, { strict: true });

  it.each(pushCases)('test_summary push: %s', (_name, change) => {
    const input = change(attempt(100));
    const a = runtime.safeParse(structuredClone(input));
    const b = compiled.safeParse(structuredClone(input));
    expect(b.success).toBe(a.success);
    expect(b.data).toEqual(a.data);
    expect(b.error?.issues).toEqual(a.error?.issues);
  });

  it('valid pushes keep their answers and drop no field', () => {
    const doc = attempt(100);
    const r = compiled.parse([{ newDocumentState: doc, assumedMasterState: null }]);
    expect(r[0]!.newDocumentState).toEqual(doc);
    expect(Object.keys(r[0]!.newDocumentState.answers)).toHaveLength(100);
  });

  const submission = z.compile(submissionSchema, { strict: true });
  const ures = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`q${i}`, i % 2 ? 'a' : ['b', 'c']]));
  const submissionCases: [string, unknown][] = [
    ['valid', { qsid: 'set-1', ures: ures(100) }],
    ['unanswered as null', { qsid: 'set-1', ures: { q1: null } }],
    ['too many answers (refinement)', { qsid: 'set-1', ures: ures(MAX_ANSWERS + 1) }],
    ['unknown field', { qsid: 'set-1', ures: {}, who: 'x' }],
    ['missing qsid', { ures: {} }],
    ['empty key', { qsid: 'set-1', ures: { '': 'a' } }],
    ['answer of a wrong type', { qsid: 'set-1', ures: { q1: { a: 1 } } }],
  ];
  it.each(submissionCases)('submitUserResponse: %s', (_name, input) => {
    const a = submissionSchema.safeParse(structuredClone(input));
    const b = submission.safeParse(structuredClone(input));
    expect(b.success).toBe(a.success);
    expect(b.data).toEqual(a.data);
    expect(b.error?.issues).toEqual(a.error?.issues);
  });
});
