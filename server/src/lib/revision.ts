import { eq, sql } from 'drizzle-orm';
import type { Conn, DB } from '../db/client';
import { lockRows, prepared, statementKey } from '../db/dialect';
import { revisionCounter } from '../db/schema';
import { first } from '../db/transaction';

/**
 * Hands out the next value of the one server revision counter (ARCHITECTURE decision 2).
 * Call inside the transaction that writes the row so that a rolled-back write burns nothing
 * visible and revisions stay strictly increasing in commit order (SQLite has one writer; on
 * PostgreSQL the counter's row stays locked by the UPDATE until the transaction ends, so the
 * next writer's UPDATE waits for this one's COMMIT).
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
 * on, and one prepared on the database handle refuses to run while a transaction is open. Kept
 * per db/dialect.ts statementKey: on SQLite the transaction handle is one object for every
 * transaction of a database, so it is prepared once; on PostgreSQL once per connection (a named
 * statement, which the server parses once per connection too).
 */
const preparedRevs = new WeakMap<object, (n: number) => Promise<number[]>>();
export function revsOf(db: DB): (n: number) => Promise<number[]> {
  const key = statementKey(db);
  let take = preparedRevs.get(key);
  if (!take) {
    const stmt = prepared(
      db,
      db
        .update(revisionCounter)
        .set({ value: sql`${revisionCounter.value} + ${sql.placeholder('n')}` })
        .where(eq(revisionCounter.id, 1))
        .returning({ value: revisionCounter.value }),
    );
    take = async (n) => {
      if (n <= 0) return [];
      const row = await stmt.get({ n });
      if (!row) throw new Error('revision counter missing');
      return Array.from({ length: n }, (_, i) => row.value - n + 1 + i);
    };
    preparedRevs.set(key, take);
  }
  return take;
}

/**
 * Takes the revision counter's lock now, before any other row's, in a transaction that will take
 * revisions after locking other rows (group commit: one job charges a person, the next takes
 * revisions, the one after charges another person). Every writer takes the counter's lock to
 * take a revision and keeps it to its COMMIT; taken first, it is never waited for while holding
 * another row a writer holding it waits for (no deadlock between two groups, on two instances).
 * SQLite: nothing to do (one writer at a time).
 */
export async function lockRevisions(tx: Conn): Promise<void> {
  await lockRows(tx, revisionCounter, eq(revisionCounter.id, 1));
}
