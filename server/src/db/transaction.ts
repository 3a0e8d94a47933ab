import type { SQL } from 'drizzle-orm';
import type { DB, Tx } from './client';
import type { BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { postgresHandles, postgresTransactions, txEngines, untilNoTransaction } from './client';

/*
 * Engine-neutral database access (docs/cluster.md). Modules write every query as `await q` — never
 * better-sqlite3's synchronous `.get()`, `.all()`, `.run()` — and every transaction as
 * `await transaction(db, async (tx) => …)`, so that the same module runs on SQLite, where a
 * query finishes before `await` returns, and on PostgreSQL, where it goes over the network.
 *
 * The rule of a transaction: its body awaits only the database. Hashing, fetching, timers and
 * messages go before or after it. On SQLite that keeps a transaction inside one turn of the
 * event loop, so the one connection never carries two requests' statements at once; on
 * PostgreSQL it keeps row locks short.
 */

/** The first row of a query, or undefined: what `.get()` was. */
export async function first<T>(query: PromiseLike<T[]>): Promise<T | undefined> {
  const rows = await query;
  return rows[0];
}

/** The rows of a raw SQL query (what `db.all(sql…)` was on SQLite). Write SQL both engines know (db/dialect.ts). */
export async function rows<T>(db: DB, query: SQL): Promise<T[]> {
  if (postgresHandles.has(db)) return (await (db as unknown as PgExecutor).execute(query)).rows as T[];
  return (await sqliteHandle(db)).all(query) as T[];
}

/** The first row of a raw SQL query, or undefined (what `db.get(sql…)` was). */
export async function row<T>(db: DB, query: SQL): Promise<T | undefined> {
  return (await rows<T>(db, query))[0];
}

/** Runs a raw SQL statement; answers how many rows it changed (what `db.run(sql…)` was). */
export async function exec(db: DB, query: SQL): Promise<number> {
  if (postgresHandles.has(db)) return (await (db as unknown as PgExecutor).execute(query)).rowCount ?? 0;
  return (await sqliteHandle(db)).run(query).changes;
}

/**
 * The synchronous Drizzle handle to run raw SQL on SQLite (rows as objects, not the arrays of the
 * database handle's driver): at once inside a transaction, else once none is open.
 */
async function sqliteHandle(db: DB): Promise<BetterSQLite3Database> {
  const engine = txEngines.get(db);
  if (!engine) throw new Error('not a database handle of openDatabase');
  if (db !== engine.txDb && engine.open) await untilNoTransaction(engine);
  return engine.txDb as unknown as BetterSQLite3Database;
}

type PgExecutor = { execute: (q: SQL) => Promise<{ rows: unknown[]; rowCount: number | null }> };

/** How many rows a write without `returning()` changed (SQLite's `changes`, PostgreSQL's `rowCount`). */
export function affected(result: unknown): number {
  const r = result as { changes?: number; rowCount?: number | null };
  return r.changes ?? r.rowCount ?? 0;
}

/**
 * Runs `body` in one transaction and returns what it returns; a throw rolls everything back and
 * rethrows. Called with a transaction's handle, it nests as a savepoint.
 *
 * SQLite: one connection per process, so transactions take turns (a queue), each `BEGIN
 * IMMEDIATE` (the write lock at once: no deadlock between two readers that both upgrade), and
 * the body gets the connection's unguarded handle; the database handle refuses statements while
 * one is open (db/client.ts).
 */
export async function transaction<T>(db: DB | Tx, body: (tx: DB) => Promise<T> | T): Promise<T> {
  if (postgresHandles.has(db)) return postgresTransaction(db, body);
  const engine = txEngines.get(db as DB);
  if (!engine) throw new Error('transaction: not a database handle of openDatabase');
  if (db === engine.txDb && engine.open) {
    // A statement that ended the whole transaction (SQLite rolls back on some errors) leaves
    // nothing to nest in: a SAVEPOINT now would begin a new transaction and its RELEASE commit it.
    if (!engine.sqlite.inTransaction) throw new Error('transaction: the enclosing transaction has ended');
    return savepoint(engine.txDb, engine.sqlite, body);
  }
  let release!: () => void;
  const previous = engine.tail;
  engine.tail = new Promise<void>((resolve) => (release = resolve));
  await previous;
  const { sqlite, txDb } = engine;
  const hooks = sqliteHooks(engine);
  hooks.length = 0;
  hooks.push([]);
  let committed: (() => void)[] = [];
  try {
    sqlite.exec('BEGIN IMMEDIATE');
    engine.open = true;
    try {
      const value = await body(txDb);
      sqlite.exec('COMMIT');
      committed = hooks.pop()!;
      return value;
    } catch (err) {
      if (sqlite.inTransaction) sqlite.exec('ROLLBACK');
      throw err;
    }
  } finally {
    hooks.length = 0;
    engine.open = false;
    release();
    runHooks(committed);
  }
}

/*
 * afterCommit's callbacks, per level of the open transaction: SQLite, a stack per connection (the
 * transaction's handle is one object for every level); PostgreSQL, a list per transaction handle
 * (a savepoint has a handle of its own).
 */
const sqliteCommitHooks = new WeakMap<object, (() => void)[][]>();
const sqliteHooks = (engine: object) => {
  let stack = sqliteCommitHooks.get(engine);
  if (!stack) sqliteCommitHooks.set(engine, (stack = []));
  return stack;
};
const postgresCommitHooks = new WeakMap<object, (() => void)[]>();

/** Runs callbacks of a committed transaction; one that throws does not keep the others (or the caller) from running. */
function runHooks(hooks: (() => void)[]): void {
  for (const fn of hooks) {
    try {
      fn();
    } catch (err) {
      queueMicrotask(() => {
        throw err;
      });
    }
  }
}

/**
 * Runs `fn` once the transaction of `tx` has committed, as a whole (a savepoint's callbacks wait
 * for the transaction around it, and go with the savepoint when it rolls back); never when it
 * rolls back. Outside a transaction, at once. For what must see the committed data and may not
 * be awaited by the transaction's body (a message about a result): on SQLite a transaction ends
 * in the turn it began in, but on PostgreSQL its COMMIT goes over the network.
 */
export function afterCommit(tx: DB, fn: () => void): void {
  const pg = postgresCommitHooks.get(tx);
  if (pg) {
    pg.push(fn);
    return;
  }
  const engine = txEngines.get(tx);
  const stack = engine && tx === engine.txDb && engine.open ? sqliteCommitHooks.get(engine) : undefined;
  if (stack && stack.length > 0) stack.at(-1)!.push(fn);
  else fn();
}

let savepoints = 0;
async function savepoint<T>(txDb: DB, sqlite: { exec: (s: string) => unknown }, body: (tx: DB) => Promise<T> | T): Promise<T> {
  const name = `sp_${++savepoints}`;
  const hooks = sqliteHooks(txEngines.get(txDb)!);
  sqlite.exec(`SAVEPOINT ${name}`);
  hooks.push([]);
  try {
    const value = await body(txDb);
    sqlite.exec(`RELEASE ${name}`);
    const mine = hooks.pop()!;
    hooks.at(-1)?.push(...mine);
    return value;
  } catch (err) {
    hooks.pop();
    sqlite.exec(`ROLLBACK TO ${name}`);
    sqlite.exec(`RELEASE ${name}`);
    throw err;
  }
}

/**
 * PostgreSQL: Drizzle's own transaction on a connection of the pool (a savepoint when `db` is a
 * transaction already), at READ COMMITTED, PostgreSQL's default. Its handle is registered too, so
 * that nested calls and the raw-SQL helpers know the engine.
 */
async function postgresTransaction<T>(db: DB, body: (tx: DB) => Promise<T> | T): Promise<T> {
  const native = db as unknown as { transaction: (fn: (tx: DB) => Promise<T>) => Promise<T> };
  const hooks: (() => void)[] = [];
  const value = await native.transaction(async (tx) => {
    postgresHandles.add(tx);
    postgresTransactions.add(tx);
    postgresCommitHooks.set(tx, hooks);
    return body(tx);
  });
  // Released: a savepoint's callbacks join its transaction's; the outermost's run now.
  const outer = postgresCommitHooks.get(db);
  if (outer) outer.push(...hooks);
  else runHooks(hooks);
  return value;
}
