import { map, type Observable } from 'rxjs';
import { receiptHash, type ReceiptSubject } from '@pm/protocol/receipt';
import type { ReplicaDatabase } from '../core/database';

/**
 * A submission receipt kept on the device (docs/exams.md "Submission receipt"): what the learner can show to prove what
 * they submitted and when, also offline and after a reload. Kept as a local document of the
 * person's own database (not replicated: it is this device's word, which the server's result
 * confirms with its own hash).
 */
export type Receipt = {
  attemptId: string;
  qsid: string;
  /** The set's label when it was submitted. */
  setLabel: string;
  /** The submission time by this device's clock (ms). */
  deviceAt: number;
  /** The submission time by the server clock as this device estimated it (ms): the attempt's `submittedAt`. */
  serverAt: number;
  /** sync-protocol/src/receipt.ts receiptHash of the attempt as submitted (64 hex digits). */
  hash: string;
};

const PREFIX = 'receipt:';
const keyOf = (attemptId: string) => `${PREFIX}${attemptId}`;

/** The one thing this module needs of a database: local documents (database.ts turns them on). */
type LocalDb = Pick<ReplicaDatabase, 'getLocal' | 'getLocal$' | 'insertLocal'>;

/**
 * Keeps the receipt of a submitted attempt and returns it. The first receipt of an attempt
 * stays: a submitted attempt never changes, and the time it records is the moment of submitting,
 * not of a later call. `attempt` must be the attempt exactly as it will be pushed.
 */
export async function keepReceipt(db: LocalDb, attempt: ReceiptSubject, meta: { setLabel: string; deviceAt: number }): Promise<Receipt> {
  const kept = await readReceipt(db, attempt.id);
  if (kept) return kept;
  const receipt: Receipt = {
    attemptId: attempt.id,
    qsid: attempt.qsid,
    setLabel: meta.setLabel,
    deviceAt: meta.deviceAt,
    serverAt: attempt.submittedAt ?? meta.deviceAt,
    hash: await receiptHash(attempt),
  };
  try {
    await db.insertLocal<Receipt>(keyOf(attempt.id), receipt);
    return receipt;
  } catch (err) {
    // Another tab kept it first (a conflict): that one is the receipt.
    const other = await readReceipt(db, attempt.id);
    if (other) return other;
    throw err;
  }
}

export async function readReceipt(db: LocalDb, attemptId: string): Promise<Receipt | null> {
  const doc = await db.getLocal<Receipt>(keyOf(attemptId));
  return doc ? (doc.toJSON().data as Receipt) : null;
}

/** The receipt of an attempt, live (null until it is kept). */
export function receipt$(db: LocalDb, attemptId: string): Observable<Receipt | null> {
  return db.getLocal$<Receipt>(keyOf(attemptId)).pipe(map((doc) => (doc ? (doc.toJSON().data as Receipt) : null)));
}

/** Copies an attempt's receipt into another database (a guest's attempt moving to the person who logs in). */
export async function copyReceipt(from: LocalDb, to: LocalDb, attemptId: string): Promise<void> {
  const receipt = await readReceipt(from, attemptId);
  if (!receipt || (await readReceipt(to, attemptId))) return;
  await to.insertLocal<Receipt>(keyOf(attemptId), receipt);
}
