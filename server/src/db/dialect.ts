import { createHash } from 'node:crypto';
import { type SQL, sql, type SQLWrapper } from 'drizzle-orm';
import { type DB, engineOf, inOpenTransaction, txEngines } from './client';
import { rows } from './transaction';

/*
 * Where the SQL of the two engines differs (docs/cluster.md): each helper returns what the engine of the
 * handle it is given needs, so that no module knows which engine it runs on. The SQLite form of
 * each is the SQL the modules wrote before PostgreSQL came (their plans were measured there).
 */

/**
 * A name for a PostgreSQL prepared statement, from its SQL text: the same text gets the same name
 * on every connection, different texts different names (node-postgres refuses one name for two
 * texts on a connection).
 */
export function statementName(text: string): string {
  return `pm_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
}

/**
 * `query.prepare()`, on either engine. SQLite: Drizzle's prepared statement itself. PostgreSQL:
 * a named prepared statement (statementName), run through `execute`, which maps the rows to the
 * query's fields as on SQLite (its own `all` would not); `get` is the first row. Run it with
 * `await stmt.get(values)`, `await stmt.all(values)` or `await stmt.execute(values)`.
 * Prepare on the handle it runs on (a transaction's handle inside a transaction: a PostgreSQL
 * transaction's statements go over that transaction's connection).
 */
export function prepared<P>(db: DB, query: { prepare: (name?: string) => P; toSQL: () => { sql: string } }): P {
  if (engineOf(db) === 'sqlite') return query.prepare();
  const stmt = query.prepare(statementName(query.toSQL().sql)) as unknown as { execute: (values?: Record<string, unknown>) => Promise<unknown> };
  const execute = (values?: Record<string, unknown>) => stmt.execute(values);
  return { execute, all: execute, run: execute, get: async (values?: Record<string, unknown>) => ((await stmt.execute(values)) as unknown[])[0] } as P;
}

/**
 * What statements prepared on a handle are bound to: the key for a cache of them (prepared once,
 * run in every later transaction that the key is the same for). SQLite: the handle itself (a
 * transaction's handle is one object for every transaction of a database). PostgreSQL: the
 * connection (the pool for the database handle): each transaction and savepoint has a handle of
 * its own, but a statement prepared in one runs in any later transaction on the same connection.
 */
export function statementKey(db: DB): object {
  if (engineOf(db) === 'sqlite') return db;
  const client = (db as unknown as { session?: { client?: object } }).session?.client;
  if (!client) throw new Error('statementKey: not a database handle');
  return client;
}

/**
 * `build` run once per handle it is asked on (statementKey): for statements a hot path runs
 * inside its transactions, where building and preparing them per call cost more than running them.
 */
export function perHandle<T>(build: (db: DB) => T): (db: DB) => T {
  const cache = new WeakMap<object, T>();
  return (db) => {
    const key = statementKey(db);
    let made = cache.get(key);
    if (made === undefined) {
      made = build(db);
      cache.set(key, made);
    }
    return made;
  };
}

/**
 * `column` is one of the strings of `json`, a JSON array given as text (a value or a placeholder):
 * a whole list of ids as one parameter, so that one prepared statement takes any number of them.
 */
export function inJsonArray(db: DB, column: SQLWrapper, json: unknown): SQL {
  return engineOf(db) === 'sqlite'
    ? sql`${column} in (select value from json_each(${json}))`
    : sql`${column} in (select value from jsonb_array_elements_text(cast(${json} as jsonb)))`;
}

/** (`text`, `int`) is one of the pairs of `json`, a JSON array of [string, integer] pairs given as text. */
export function inJsonPairs(db: DB, text: SQLWrapper, int: SQLWrapper, json: unknown): SQL {
  return engineOf(db) === 'sqlite'
    ? sql`(${text}, ${int}) in (select value ->> 0, value ->> 1 from json_each(${json}))`
    : sql`(${text}, ${int}) in (select value ->> 0, (value ->> 1)::bigint from jsonb_array_elements(cast(${json} as jsonb)))`;
}

/** The JSON array in `column` holds at least one of the strings of `json` (a JSON array given as text). */
export function jsonArrayHasAny(db: DB, column: SQLWrapper, json: unknown): SQL {
  return engineOf(db) === 'sqlite'
    ? sql`exists (select 1 from json_each(${column}) where value in (select value from json_each(${json})))`
    : sql`exists (select 1 from jsonb_array_elements_text(cast(${column} as jsonb)) as e(value) where e.value in (select value from jsonb_array_elements_text(cast(${json} as jsonb))))`;
}

/** Some string anywhere in the JSON of `column` (at any depth; keys are no strings here) is one of the strings of `json`. */
export function jsonHasAnyString(db: DB, column: SQLWrapper, json: unknown): SQL {
  return engineOf(db) === 'sqlite'
    ? sql`exists (select 1 from json_tree(${column}) where type = 'text' and value in (select value from json_each(${json})))`
    : sql`exists (select 1 from jsonb_path_query(cast(${column} as jsonb), 'strict $.**') as t(v) where jsonb_typeof(t.v) = 'string' and t.v #>> '{}' in (select value from jsonb_array_elements_text(cast(${json} as jsonb))))`;
}

/** The greater of two numbers (SQLite's two-argument max, PostgreSQL's greatest). */
export function greater(db: DB, a: unknown, b: unknown): SQL {
  return engineOf(db) === 'sqlite' ? sql`max(${a}, ${b})` : sql`greatest(${a}, ${b})`;
}

/**
 * `column` starts with `prefix` (whose last character is not the highest of all). SQLite: a
 * range of the index; PostgreSQL: starts_with, whatever the database's collation orders (a range
 * of text is a range of bytes only under the C collation).
 */
export function hasPrefix(db: DB, column: SQLWrapper, prefix: string): SQL {
  if (engineOf(db) === 'postgres') return sql`starts_with(${column}, ${prefix})`;
  const after = prefix.slice(0, -1) + String.fromCodePoint(prefix.codePointAt(prefix.length - 1)! + 1);
  return sql`(${column} >= ${prefix} and ${column} < ${after})`;
}

/**
 * The text search of a column under a trigram index: the rows whose text holds every one of
 * `words` (each of three characters or more), anywhere, whatever their case.
 * - SQLite: the FTS5 table `fts` (tokenize='trigram', content = the table, content_rowid = `id`),
 *   one MATCH of the words each quoted as an FTS5 string (user input is never query syntax).
 * - PostgreSQL: `column ILIKE '%word%'` for each word (its `%`, `_` and `\` taken literally),
 *   which pg_trgm's GIN index on the column serves (migrations-pg 0001): the same matches.
 * `has(outer)`: the row whose `key` is `outer` matches (SQLite finds the row's id through the
 * key's unique index and looks it up among the matches, collected once; PostgreSQL plans it as
 * a semi-join). `count`: how many rows match (as `n`).
 */
export function trigramSearch(
  db: DB,
  index: { fts: string; table: SQLWrapper; id: SQLWrapper; key: SQLWrapper; column: SQLWrapper },
  words: readonly string[],
): { has: (outer: SQLWrapper) => SQL; count: SQL } {
  if (engineOf(db) === 'sqlite') {
    const fts = sql.raw(index.fts);
    const match = words.map((w) => `"${w.replaceAll('"', '""')}"`).join(' AND ');
    return {
      has: (outer) => sql`(select ${index.id} from ${index.table} where ${index.key} = ${outer}) in (select rowid from ${fts} where ${fts} match ${match})`,
      count: sql`select count(*) as n from ${fts} where ${fts} match ${match}`,
    };
  }
  const where = sql.join(
    words.map((w) => sql`${index.column} ilike ${likeAnywhere(w)} escape '\\'`),
    sql` and `,
  );
  return {
    has: (outer) => sql`${outer} in (select ${index.key} from ${index.table} where ${where})`,
    count: sql`select count(*) as n from ${index.table} where ${where}`,
  };
}

/** A LIKE pattern matching `word` anywhere, its own `%`, `_` and `\` taken literally (escape '\'). */
export const likeAnywhere = (word: string) => `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * Takes the write lock of the rows of `table` that `where` selects, now, inside a transaction
 * (to take locks in one order and so avoid deadlocks). PostgreSQL: SELECT … FOR UPDATE. SQLite:
 * nothing to do, the transaction holds the lock of the whole database since its BEGIN IMMEDIATE.
 */
export async function lockRows(tx: DB, table: SQLWrapper, where: SQL): Promise<void> {
  if (engineOf(tx) === 'sqlite') return;
  await rows(tx, sql`select 1 from ${table} where ${where} for update`);
}

/**
 * `column` holds `text` anywhere, whatever the case of ASCII letters (the back office's search
 * boxes): SQLite's LIKE ignores that case already, PostgreSQL's ILIKE does (for every letter).
 * `text`'s own `%`, `_` and `\` are taken literally.
 */
export function containsText(db: DB, column: SQLWrapper, text: string): SQL {
  return engineOf(db) === 'sqlite'
    ? sql`${column} like ${likeAnywhere(text)} escape '\\'`
    : sql`${column} ilike ${likeAnywhere(text)} escape '\\'`;
}

/**
 * The calendar day (`YYYY-MM-DD`) or month (`YYYY-MM`) of an epoch-milliseconds value moved by
 * `offsetMs` (a time zone's offset: India is +5:30), as text, in SQL. The offset is written into
 * the SQL, not bound: PostgreSQL matches a GROUP BY to the selected expression only when the two
 * are the same text, and every bound value is a parameter of its own.
 */
export function calendarText(db: DB, epochMs: SQLWrapper, unit: 'day' | 'month', offsetMs: number): SQL<string> {
  if (!Number.isSafeInteger(offsetMs)) throw new Error('calendarText: the offset is a whole number of milliseconds');
  const shifted = sql`(${epochMs} + ${sql.raw(String(offsetMs))})`;
  if (engineOf(db) === 'sqlite') return sql<string>`strftime(${sql.raw(unit === 'day' ? `'%Y-%m-%d'` : `'%Y-%m'`)}, ${shifted} / 1000, 'unixepoch')`;
  return sql<string>`to_char(to_timestamp(${shifted} / 1000) at time zone 'UTC', ${sql.raw(unit === 'day' ? `'YYYY-MM-DD'` : `'YYYY-MM'`)})`;
}

/**
 * The order rows of `table` were inserted in, to break ties of a time column (rows written in the
 * same millisecond; a random uuid key would shuffle them). SQLite: the rowid. PostgreSQL has no
 * such number: the row's place in the table (ctid), which follows insertion in a table rows are
 * only appended to (the activity log); where rows are updated (an updated row moves) or deleted
 * (VACUUM lets new rows fill their place) it orders same-millisecond rows only mostly as inserted.
 */
export function insertionOrder(db: DB, table: SQLWrapper): SQL {
  return engineOf(db) === 'sqlite' ? sql`${table}.rowid` : sql`${table}.ctid`;
}

/**
 * An object that stands for the database behind a handle, the same for the database handle and
 * for every transaction on it: a key for caches that outlive a transaction (statements are bound
 * to their handle; what they read need not be). SQLite: the connection's transaction engine
 * (db/client.ts). PostgreSQL: the Drizzle dialect object, which a database hands down to each of
 * its transactions and which no other database shares.
 */
export function databaseKey(db: DB): object {
  const engine = txEngines.get(db);
  if (engine) return engine;
  const dialect = (db as unknown as { dialect?: object }).dialect;
  if (!dialect) throw new Error('databaseKey: not a database handle');
  return dialect;
}

/**
 * The names of the tables of the database, sorted: for tests and tools that look at every table.
 * Not the engine's own (SQLite's sqlite_*; PostgreSQL's catalogues and Drizzle's migration table,
 * which live in schemas of their own); SQLite's full-text tables are tables there.
 */
export async function tableNames(db: DB): Promise<string[]> {
  const found = await rows<{ name: string }>(
    db,
    engineOf(db) === 'sqlite'
      ? sql`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`
      : sql`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`,
  );
  return found.map((t) => t.name).sort();
}

/**
 * Makes the transactions that call this with the same `name` take turns from here to their end:
 * for a value computed from the table's other rows (the next receipt number is max + 1), which
 * two transactions of PostgreSQL's READ COMMITTED would otherwise compute alike. PostgreSQL: a
 * transaction-level advisory lock (class 7220003, key from the name), released at COMMIT or
 * ROLLBACK. SQLite: nothing to do, the transaction holds the whole database since BEGIN IMMEDIATE.
 * Outside a transaction: nothing (a check made there is made again inside the transaction).
 */
export async function takeTurns(tx: DB, name: string): Promise<void> {
  // Outside a transaction there is nothing to hold the turn for.
  if (engineOf(tx) === 'sqlite' || !inOpenTransaction(tx)) return;
  await rows(tx, sql`select pg_advisory_xact_lock(7220003, hashtext(${name}))`);
}
