import { eq, sql } from 'drizzle-orm';
import type { Conn, DB } from '../db/client';
import { revisionCounter } from '../db/schema';
import { first } from '../db/transaction';

/**
 * Hands out the next value of the one server revision counter (ARCHITECTURE decision 2).
 * Call inside the transaction that writes the row so that a rolled-back write burns nothing
 * visible and revisions stay strictly increasing in commit order (SQLite has one writer).
 */
export async function nextRev(tx: Conn): Promise<number> {
  const row = await first(
    tx
      .update(revisionCounter)
      .set({ value: sql`${revisionCounter.value} + 1` })
      .where(eq(revisionCounter.id, 1))
      .returning({ value: revisionCounter.value }),
  );
  if (!row) throw new Error('revision counter missing');
  return row.value;
}

/** Hands out `n` consecutive revisions in one statement (for batch writes), in ascending order. */
export async function nextRevs(tx: Conn, n: number): Promise<number[]> {
  if (n <= 0) return [];
  const row = await first(
    tx
      .update(revisionCounter)
      .set({ value: sql`${revisionCounter.value} + ${n}` })
      .where(eq(revisionCounter.id, 1))
      .returning({ value: revisionCounter.value }),
  );
  if (!row) throw new Error('revision counter missing');
  return Array.from({ length: n }, (_, i) => row.value - n + 1 + i);
}

/**
 * `nextRevs` as a statement prepared once per handle, for hot paths (sync push): building the
 * UPDATE afresh costs more than running it. Run it inside the transaction that writes the rows,
 * so pass the transaction's handle (`tx`): a statement is bound to the handle it was prepared
 * on, and one prepared on the database handle refuses to run while a transaction is open. The
 * transaction handle is one object for every transaction of a database, so it is prepared once.
 */
const preparedRevs = new WeakMap<DB, (n: number) => Promise<number[]>>();
export function revsOf(db: DB): (n: number) => Promise<number[]> {
  let take = preparedRevs.get(db);
  if (!take) {
    const stmt = db
      .update(revisionCounter)
      .set({ value: sql`${revisionCounter.value} + ${sql.placeholder('n')}` })
      .where(eq(revisionCounter.id, 1))
      .returning({ value: revisionCounter.value })
      .prepare();
    take = async (n) => {
      if (n <= 0) return [];
      const row = await stmt.get({ n });
      if (!row) throw new Error('revision counter missing');
      return Array.from({ length: n }, (_, i) => row.value - n + 1 + i);
    };
    preparedRevs.set(db, take);
  }
  return take;
}
