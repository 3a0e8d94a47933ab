import { type DB, txEngines } from './client';
import { transaction } from './transaction';

/*
 * A transaction that writes far more than SQLite's page cache holds: a 10,000-question import
 * writes ~35 MB of WAL (docs/security.md, "Files in and out"). Its body gives the event loop back
 * between slices (lib/slices.ts), but two costs would still land in the one synchronous COMMIT:
 *   - the dirty pages still in the cache (up to its 16 MB, db/client.ts) written to the WAL;
 *   - an automatic checkpoint, when the WAL has grown past wal_autocheckpoint: the whole import
 *     copied into the database file on the request thread.
 *   - the full-text index's pending terms: FTS5 (the question search) keeps up to a megabyte of
 *     them in memory and writes them as a segment at COMMIT (17 ms for 10,000 questions on its
 *     own, in memory), or at any savepoint.
 * So while such a transaction is open the cache is kept small (pages spill to the WAL during the
 * slices, COMMIT writes the last few hundred), each slice ends with bulkSliceDone (an empty
 * savepoint: FTS5 writes that slice's terms then, a little at a time), and the request thread's
 * automatic checkpoint is off until it has committed: the server's background checkpointer
 * (db/checkpointer.ts) copies the WAL back in its own thread. On PostgreSQL this is
 * `transaction` as it is.
 */

/** Pages the cache keeps while a bulk transaction is open (2 KiB pages: 512 KiB). */
const BULK_CACHE_PAGES = 256;

/** Bulk transactions waiting or open, per connection, and the automatic checkpoint they turned off. */
const open = new WeakMap<object, { count: number; autocheckpoint: number }>();

export async function bulkTransaction<T>(db: DB, body: (tx: DB) => Promise<T>): Promise<T> {
  const engine = txEngines.get(db);
  if (!engine) return transaction(db, body);
  const { sqlite } = engine;
  let state = open.get(engine);
  if (!state) {
    state = { count: 0, autocheckpoint: sqlite.pragma('wal_autocheckpoint', { simple: true }) as number };
    open.set(engine, state);
    sqlite.pragma('wal_autocheckpoint = 0');
  }
  state.count++;
  try {
    return await transaction(db, async (tx) => {
      const cache = sqlite.pragma('cache_size', { simple: true }) as number;
      sqlite.pragma(`cache_size = ${BULK_CACHE_PAGES}`);
      try {
        return await body(tx);
      } finally {
        sqlite.pragma(`cache_size = ${cache}`);
      }
    });
  } finally {
    if (--state.count === 0) {
      open.delete(engine);
      sqlite.pragma(`wal_autocheckpoint = ${state.autocheckpoint}`);
    }
  }
}

/**
 * Ends a slice of a bulk transaction's writes (inside its body, `tx` its handle): on SQLite an
 * empty savepoint, at which FTS5 writes the terms it holds for the rows written so far, so that
 * they do not all wait for the COMMIT. Nothing on PostgreSQL.
 */
export function bulkSliceDone(tx: DB): void {
  const engine = txEngines.get(tx);
  if (!engine) return;
  engine.sqlite.exec('SAVEPOINT bulk_slice; RELEASE bulk_slice');
}
