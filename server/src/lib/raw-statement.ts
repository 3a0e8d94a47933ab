import { Column, getTableColumns, is, Param, Placeholder } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { RunResult } from 'better-sqlite3';
import { type DB, txEngines } from '../db/client';

/**
 * A statement of a hot write path (sync push, scoring) built with Drizzle — its SQL follows the
 * schema — but run by better-sqlite3 directly: Drizzle's prepared statements match and encode
 * every placeholder on every run, which cost a third as much as the inserts themselves. `run`
 * takes the placeholders' values already encoded for SQLite (see rowEncoder). Values written
 * into the query (and the defaults of columns left out) are kept as Drizzle encoded them — so,
 * as in a Drizzle prepared statement, a JS-side default ($defaultFn) is computed once: give such
 * columns a placeholder.
 *
 * SQLite only, and synchronous by design (the cost it saves is per row). The statement is bound
 * to the handle it is prepared on: one prepared on the database handle refuses to run while a
 * transaction is open (db/client.ts), so a statement run inside a transaction is prepared on the
 * transaction's handle (`tx`, one object for every transaction of a database: a cache keyed by
 * it prepares once).
 */
export function rawStatement(db: DB, query: { toSQL: () => { sql: string; params: unknown[] } }): { run: (values: Record<string, unknown>) => RunResult } {
  const { sql, params } = query.toSQL();
  // A parameter is a placeholder (bare, or wrapped with its column's encoder, which rowEncoder
  // replaces), or a value Drizzle has already encoded (written into the query, or a default).
  const slots = params.map((p): { name: string } | { value: unknown } => {
    if (is(p, Placeholder)) return { name: p.name };
    if (is(p, Param)) {
      if (is(p.value, Placeholder)) return { name: p.value.name };
      throw new Error(`rawStatement: a parameter that is neither a placeholder nor encoded: ${sql}`);
    }
    return { value: p };
  });
  // SQLite only for now, and run only on a transaction's handle: its statements run
  // synchronously, with nothing else on the connection (db/transaction.ts). Built on the database
  // handle (a set of prepared queries kept per handle), it refuses to run.
  const engine = txEngines.get(db);
  if (!engine) throw new Error('rawStatement: not a SQLite handle');
  const onTx = db === engine.txDb;
  const stmt = onTx ? engine.sqlite.prepare(sql) : null;
  return {
    run: (values) => {
      if (!stmt) throw new Error('rawStatement: run it through the handle of a transaction (tx)');
      return stmt.run(
        ...slots.map((slot) => {
          if (!('name' in slot)) return slot.value;
          const v = values[slot.name];
          // A missing value is a bug of the caller, never a NULL stored by accident.
          if (v === undefined) throw new Error(`rawStatement: no value for ${slot.name}`);
          return v;
        }),
      );
    },
  };
}

/**
 * Encodes a row of `table` for SQLite as Drizzle would (JSON columns as text, booleans as
 * integers), touching only the columns whose encoding is not the identity: found from the
 * columns, so that a column added later is encoded alike. Keys are the row's (property) names.
 */
export function rowEncoder(table: SQLiteTable): (row: Record<string, unknown>) => Record<string, unknown> {
  const columns = getTableColumns(table);
  const encoded = Object.entries(columns).filter(([, c]) => c.mapToDriverValue !== Column.prototype.mapToDriverValue);
  return (row) => {
    const out: Record<string, unknown> = { ...row };
    for (const [key, c] of encoded) if (key in row) out[key] = row[key] === null ? null : c.mapToDriverValue(row[key]);
    return out;
  };
}
