import { eq, sql } from 'drizzle-orm';
import type { Conn } from '../db/client';
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
