import type { TestSummaryDoc } from './sync/test-summary';

/*
 * WebCrypto and TextEncoder are globals in Node 20 and in every browser the app supports; this
 * project compiles without DOM or Node types, so the few members used are named here.
 */
type Subtle = { digest(algorithm: 'SHA-256', data: Uint8Array): Promise<ArrayBuffer> };
const web = globalThis as unknown as { crypto: { subtle: Subtle }; TextEncoder: new () => { encode(s: string): Uint8Array } };

/** What a receipt is taken over: an attempt as it was submitted (docs/exams.md "Answers and marking", "Submission receipt"). */
export type ReceiptSubject = Pick<TestSummaryDoc, 'id' | 'qsid' | 'answers' | 'submittedAt'>;

/** Tells this serialisation from any later one; part of what is hashed. */
export const RECEIPT_FORMAT = 'pariksha-mitra/receipt/1';

/**
 * The canonical text of a submission: the format, the attempt id, the set id, the submission time
 * (ms, as the device stored it) and every answer as `[question id, state, answer]`, sorted by
 * question id (by UTF-16 code units, the same on every engine, unlike localeCompare). The state is
 * part of it because it decides what is evaluated (an answer "marked for review" without saving
 * is not). The time spent per question (`t`), `elapsed` and `updatedAt` are not: they say how the
 * test went, not what was submitted. Nothing is normalised: the hash is of the bytes the learner's
 * device sent, so any change to an answer changes it.
 */
export function receiptPayload(a: ReceiptSubject): string {
  const answers = Object.keys(a.answers)
    .sort()
    .map((qid) => {
      const v = a.answers[qid]!;
      return [qid, v.status, v.ua];
    });
  return JSON.stringify([RECEIPT_FORMAT, a.id, a.qsid, a.submittedAt, answers]);
}

/**
 * The receipt hash of a submission: SHA-256 (WebCrypto) of the UTF-8 of `receiptPayload`, as 64
 * lower-case hex digits. The device computes it at submit and the server when the submission
 * arrives, with this one function; equal hashes prove the server holds what the device sent.
 */
export async function receiptHash(a: ReceiptSubject): Promise<string> {
  const bytes = new web.TextEncoder().encode(receiptPayload(a));
  const digest = new Uint8Array(await web.crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Crockford's base32 alphabet: no I, L, O or U, so nothing is misread when read aloud. */
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * The hash as a person reads it: its first 80 bits in Crockford base32, 16 characters in four
 * groups of four ("7K3M 9QXD 2B4F 0HJW"). 80 bits are far beyond what anyone could forge a match
 * for by trying submissions, and short enough to read out to an invigilator.
 */
export function shortReceipt(hash: string): string {
  if (!/^[0-9a-f]{64}$/.test(hash)) throw new Error('not a receipt hash');
  let bits = '';
  for (let i = 0; i < 20; i++) bits += parseInt(hash[i]!, 16).toString(2).padStart(4, '0');
  let out = '';
  for (let i = 0; i < 80; i += 5) out += CROCKFORD[parseInt(bits.slice(i, i + 5), 2)];
  return out.match(/.{4}/g)!.join(' ');
}

/**
 * What the receipt's QR code holds: one line that names the format, the attempt, the set, the
 * submission time (ms) and the full hash, so an invigilator's scan can be checked against the
 * server's result without the learner's device.
 */
export function receiptQrText(r: { attemptId: string; qsid: string; submittedAt: number; hash: string }): string {
  return `${RECEIPT_FORMAT} attempt=${r.attemptId} set=${r.qsid} at=${r.submittedAt} sha256=${r.hash}`;
}
