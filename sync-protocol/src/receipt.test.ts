import { expect, test } from 'vitest';
import { receiptHash, receiptPayload, receiptQrText, type ReceiptSubject, shortReceipt } from './receipt';

const attempt: ReceiptSubject = {
  id: 'attempt-0001',
  qsid: 'qs-mock-ssc-1',
  submittedAt: 1_795_333_440_000,
  answers: {
    'q-gk-002': { ua: 'c', status: 'ANSWERED', t: 4000 },
    'q-gk-007': { ua: ['a', 'c', 'd'], status: 'ANSWERED' },
    'q-gk-008': { ua: '१९५०', status: 'ANSWERED_MARKED' },
    'q-gk-003': { ua: null, status: 'MARKED' },
  },
};

/** The same answers inserted in another order (object key order follows insertion). */
function reordered(a: ReceiptSubject): ReceiptSubject {
  const answers = Object.fromEntries(Object.entries(a.answers).reverse());
  expect(Object.keys(answers)).not.toEqual(Object.keys(a.answers));
  return { submittedAt: a.submittedAt, answers, qsid: a.qsid, id: a.id };
}

test('the hash is SHA-256 of the canonical text, as 64 hex digits, and stays what it was', async () => {
  // Worked out independently (Python's hashlib over the text below). A receipt a learner holds
  // must match the server's for good: a change of format is a new RECEIPT_FORMAT, never this one.
  expect(await receiptHash(attempt)).toBe('71e96e522d8c018fd6db25f09ad66cfe928beae34028af97602864377383bf6c');
  // Sorted by question id, with the state and the answer, and nothing else.
  expect(receiptPayload(attempt)).toBe(
    JSON.stringify([
      'pariksha-mitra/receipt/1',
      'attempt-0001',
      'qs-mock-ssc-1',
      1_795_333_440_000,
      [
        ['q-gk-002', 'ANSWERED', 'c'],
        ['q-gk-003', 'MARKED', null],
        ['q-gk-007', 'ANSWERED', ['a', 'c', 'd']],
        ['q-gk-008', 'ANSWERED_MARKED', '१९५०'],
      ],
    ]),
  );
});

test('the hash does not depend on the order of the answers, nor on time spent per question', async () => {
  const hash = await receiptHash(attempt);
  expect(await receiptHash(reordered(attempt))).toBe(hash);
  const slower = { ...attempt, answers: { ...attempt.answers, 'q-gk-002': { ua: 'c', status: 'ANSWERED' as const, t: 99_000 } } };
  expect(await receiptHash(slower)).toBe(hash);
  // A JSON round trip (the way to the server and back) keeps it.
  expect(await receiptHash(JSON.parse(JSON.stringify(attempt)) as ReceiptSubject)).toBe(hash);
});

test('any change to what was submitted changes the hash', async () => {
  const hash = await receiptHash(attempt);
  const variants: ReceiptSubject[] = [
    { ...attempt, id: 'attempt-0002' },
    { ...attempt, qsid: 'qs-mock-ssc-2' },
    { ...attempt, submittedAt: attempt.submittedAt! + 1 },
    { ...attempt, answers: { ...attempt.answers, 'q-gk-002': { ua: 'b', status: 'ANSWERED' } } },
    { ...attempt, answers: { ...attempt.answers, 'q-gk-002': { ua: 'c', status: 'ANSWERED_MARKED' } } },
    { ...attempt, answers: { ...attempt.answers, 'q-gk-007': { ua: ['a', 'd', 'c'], status: 'ANSWERED' } } },
    { ...attempt, answers: { ...attempt.answers, 'q-gk-008': { ua: '1950', status: 'ANSWERED_MARKED' } } },
    { ...attempt, answers: { ...attempt.answers, 'q-gk-009': { ua: null, status: 'VISITED' } } },
    { ...attempt, answers: Object.fromEntries(Object.entries(attempt.answers).filter(([k]) => k !== 'q-gk-003')) },
  ];
  const hashes = await Promise.all(variants.map(receiptHash));
  for (const h of hashes) expect(h).not.toBe(hash);
  expect(new Set(hashes).size).toBe(variants.length);
});

test('the short form is the first 80 bits in Crockford base32, in four groups of four', () => {
  expect(shortReceipt('0'.repeat(64))).toBe('0000 0000 0000 0000');
  expect(shortReceipt('f'.repeat(64))).toBe('ZZZZ ZZZZ ZZZZ ZZZZ');
  // 0x0842 1084 2108 4210 8421 = 00001 00001 … : sixteen ones.
  expect(shortReceipt(`0842108421084210842${'1'.padEnd(45, '0')}`)).toBe('1111 1111 1111 1111');
  // SHA-256 of "x".
  const short = shortReceipt('2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881');
  expect(short).toBe('5NRH CGNQ 4TR4 80B2'); // Python's base32 of the same 10 bytes, in Crockford's letters
  expect(short).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}( [0-9A-HJKMNP-TV-Z]{4}){3}$/);
  expect(() => shortReceipt('not a hash')).toThrow();
});

test('the QR text names the attempt, the set, the time and the full hash', async () => {
  const hash = await receiptHash(attempt);
  expect(receiptQrText({ attemptId: attempt.id, qsid: attempt.qsid, submittedAt: 1_795_333_440_000, hash })).toBe(
    `pariksha-mitra/receipt/1 attempt=attempt-0001 set=qs-mock-ssc-1 at=1795333440000 sha256=${hash}`,
  );
});
