import { Column, getTableColumns, is, Param, Placeholder } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import { type DB, engineOf, inOpenTransaction, txEngines } from '../db/client';
import { statementName } from '../db/dialect';

/** What a raw statement's run tells: how many rows it changed. */
export type RawRun = { changes: number };

/**
 * A statement of a hot write path (sync push, scoring) built with Drizzle — its SQL follows the
 * schema — but run by the driver directly: Drizzle's prepared statements match and encode every
 * placeholder on every run, which cost a third as much as the inserts themselves. `run` takes the
 * placeholders' values already encoded for the engine (see rowEncoder). Values written into the
 * query (and the defaults of columns left out) are kept as Drizzle encoded them — so, as in a
 * Drizzle prepared statement, a JS-side default ($defaultFn) is computed once: give such columns
 * a placeholder.
 *
 * Run it only on a transaction's handle (`tx`): built on the database handle, it refuses to run.
 * Always `await stmt.run(values)`:
 * - SQLite: better-sqlite3 runs it at once, synchronously (the cost it saves is per row), and
 *   `run` returns its result itself, not a promise. The statement is bound to the handle it is
 *   prepared on: the transaction's handle is one object for every transaction of a database, so a
 *   cache keyed by it prepares once (one prepared on the database handle would refuse to run
 *   while a transaction is open, db/client.ts).
 * - PostgreSQL: a named prepared statement (db/dialect.ts statementName) on the connection of
 *   the transaction; `run` returns a promise. Each transaction has a handle of its own, but the
 *   statement runs in any later transaction on the same connection: keep it per
 *   db/dialect.ts statementKey (which is the handle itself on SQLite).
 */
export function rawStatement(db: DB, query: { toSQL: () => { sql: string; params: unknown[] } }): { run: (values: Record<string, unknown>) => RawRun | Promise<RawRun> } {
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
  const bind = (values: Record<string, unknown>) =>
    slots.map((slot) => {
      if (!('name' in slot)) return slot.value;
      const v = values[slot.name];
      // A missing value is a bug of the caller, never a NULL stored by accident.
      if (v === undefined) throw new Error(`rawStatement: no value for ${slot.name}`);
      return v;
    });
  if (engineOf(db) === 'postgres') {
    const onTx = inOpenTransaction(db);
    // The transaction's connection (Drizzle's session over a client of the pool).
    const client = (db as unknown as { session: { client: PgClient } }).session.client;
    const name = statementName(sql);
    return {
      run: async (values) => {
        if (!onTx) throw new Error('rawStatement: run it through the handle of a transaction (tx)');
        return { changes: (await client.query({ name, text: sql, values: bind(values) })).rowCount ?? 0 };
      },
    };
  }
  // SQLite: run only on a transaction's handle, whose statements run synchronously, with nothing
  // else on the connection (db/transaction.ts). Built on the database handle (a set of prepared
  // queries kept per handle), it refuses to run.
  const engine = txEngines.get(db);
  if (!engine) throw new Error('rawStatement: not a database handle');
  const onTx = db === engine.txDb;
  const stmt = onTx ? engine.sqlite.prepare(sql) : null;
  return {
    run: (values) => {
      if (!stmt) throw new Error('rawStatement: run it through the handle of a transaction (tx)');
      return stmt.run(...bind(values));
    },
  };
}

type PgClient = { query: (config: { name: string; text: string; values: unknown[] }) => Promise<{ rowCount: number | null }> };

/**
 * Encodes a row of `table` for its engine as Drizzle would (SQLite: JSON columns as text,
 * booleans as integers; PostgreSQL: JSON as text, times as ISO text), touching only the columns
 * whose encoding is not the identity: found from the columns, so that a column added later is
 * encoded alike. Keys are the row's (property) names. Pass the table export of db/schema.ts
 * (the engine's table) when the statement is prepared.
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
