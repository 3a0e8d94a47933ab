import { eq, sql } from 'drizzle-orm';
import type { Conn, DB } from '../db/client';
import { revisionCounter } from '../db/schema';

/**
 * Hands out the next value of the one server revision counter (ARCHITECTURE decision 2).
 * Call inside the transaction that writes the row so that a rolled-back write burns nothing
 * visible and revisions stay strictly increasing in commit order (SQLite has one writer).
 */
export function nextRev(tx: Conn): number {
  const row = tx
    .update(revisionCounter)
    .set({ value: sql`${revisionCounter.value} + 1` })
    .where(eq(revisionCounter.id, 1))
    .returning({ value: revisionCounter.value })
    .get();
  if (!row) throw new Error('revision counter missing');
  return row.value;
}

/** Hands out `n` consecutive revisions in one statement (for batch writes), in ascending order. */
export function nextRevs(tx: Conn, n: number): number[] {
  if (n <= 0) return [];
  const row = tx
    .update(revisionCounter)
    .set({ value: sql`${revisionCounter.value} + ${n}` })
    .where(eq(revisionCounter.id, 1))
    .returning({ value: revisionCounter.value })
    .get();
  if (!row) throw new Error('revision counter missing');
  return Array.from({ length: n }, (_, i) => row.value - n + 1 + i);
}

/**
 * `nextRevs` as a statement prepared once per database, for hot paths (sync push): building the
 * UPDATE afresh costs more than running it. Run it inside the transaction that writes the rows
 * (better-sqlite3 has one connection, so a statement prepared on the database joins it).
 */
const preparedRevs = new WeakMap<DB, (n: number) => number[]>();
export function revsOf(db: DB): (n: number) => number[] {
  let take = preparedRevs.get(db);
  if (!take) {
    const stmt = db
      .update(revisionCounter)
      .set({ value: sql`${revisionCounter.value} + ${sql.placeholder('n')}` })
      .where(eq(revisionCounter.id, 1))
      .returning({ value: revisionCounter.value })
      .prepare();
    take = (n) => {
      if (n <= 0) return [];
      const row = stmt.get({ n });
      if (!row) throw new Error('revision counter missing');
      return Array.from({ length: n }, (_, i) => row.value - n + 1 + i);
    };
    preparedRevs.set(db, take);
  }
  return take;
}
