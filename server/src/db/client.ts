import { chmodSync, lstatSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { type BetterSQLite3Database, drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { drizzle as drizzleProxy, type SqliteRemoteDatabase } from 'drizzle-orm/sqlite-proxy';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { type Checkpointer, FALLBACK_AUTOCHECKPOINT_PAGES, startCheckpointer } from './checkpointer';
import { usePostgresTables } from './schema';
import { pgTables } from './schema-pg';
import * as schema from './schema-sqlite';

/**
 * A database handle, typed as Drizzle's SQLite database (the PostgreSQL handle has the same query
 * API; db/transaction.ts). On SQLite, `db` is asynchronous (outsideHandle) and a transaction's
 * handle is Drizzle over better-sqlite3; modules only ever `await` their queries.
 */
export type DB = SqliteRemoteDatabase<typeof schema>;
/**
 * A transaction's handle (db/transaction.ts) is a database handle too: the same query API. On
 * SQLite it is the connection without the guard below, one object for every transaction.
 */
export type Tx = DB;
export type Conn = DB;

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
const pgMigrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations-pg');

export type Engine = 'sqlite' | 'postgres';

export type Database_ = {
  db: DB;
  engine: Engine;
  close: () => void | Promise<void>;
  /** SQLite: app.db's path; PostgreSQL: the address without its password. */
  file: string;
  checkpointer: Checkpointer | null;
  /** SQLite only: the better-sqlite3 connection (PRAGMAs, the tests of this layer). */
  sqlite?: Database.Database;
};

/** The PostgreSQL handles (databases and their transactions), for transaction() and the raw-SQL helpers. */
export const postgresHandles = new WeakSet<object>();
export function engineOf(db: DB): Engine {
  return postgresHandles.has(db) ? 'postgres' : 'sqlite';
}

/** Pools that have been ended (closed PostgreSQL databases). */
const endedPools = new WeakSet<object>();
/** Whether the database behind a handle has been closed. */
export function isClosed(db: DB): boolean {
  const engine = txEngines.get(db);
  if (engine) return !engine.sqlite.open;
  return endedPools.has(db);
}

/** Whether `tx` is the handle of an open transaction. */
export function inOpenTransaction(tx: DB): boolean {
  const engine = txEngines.get(tx);
  if (engine) return engine.open && tx === engine.txDb;
  return postgresTransactions.has(tx);
}
/** The handles of PostgreSQL transactions (db/transaction.ts registers them). */
export const postgresTransactions = new WeakSet<object>();

/**
 * What an asynchronous transaction (db/transaction.ts) needs of a SQLite database: the handle
 * its body gets, the queue that runs one transaction at a time, and whether one is open. Kept per
 * handle, for both handles of a database.
 */
export type TxEngine = {
  /** The handle a transaction's body gets: Drizzle on the connection, synchronous underneath. */
  txDb: DB;
  /** Resolves when every transaction queued so far has finished. */
  tail: Promise<void>;
  open: boolean;
  /** The connection, for BEGIN, COMMIT, ROLLBACK and savepoints. */
  sqlite: Database.Database;
};
export const txEngines = new WeakMap<object, TxEngine>();

/**
 * Waits until no transaction is open on the connection. SQLite has one connection per process,
 * so a statement run while a transaction is open would become part of it: seeing its uncommitted
 * rows, and undone if it rolls back. Every statement of the database handle (`db`) waits here
 * first; the check and the statement then run in the same synchronous step.
 */
export async function untilNoTransaction(engine: TxEngine): Promise<void> {
  while (engine.open) await engine.tail;
}

/** Prepared statements of the database handle, by SQL text (Drizzle builds the same text for the same query). */
const STATEMENT_CACHE = 500;

/**
 * The database handle (`db`) on SQLite: Drizzle's asynchronous SQLite driver (sqlite-proxy) over
 * the connection, each statement run once no transaction is open (untilNoTransaction). Rows come
 * back as arrays, which Drizzle maps to the query's fields.
 */
function outsideHandle(engine: TxEngine): DB {
  const cache = new Map<string, Database.Statement>();
  const prepare = (source: string) => {
    let stmt = cache.get(source);
    if (!stmt) {
      stmt = engine.sqlite.prepare(source);
      if (cache.size >= STATEMENT_CACHE) cache.delete(cache.keys().next().value!);
      cache.set(source, stmt);
    }
    return stmt;
  };
  const run = (source: string, params: unknown[], method: 'run' | 'all' | 'values' | 'get') => {
    const stmt = prepare(source);
    if (method === 'run') return stmt.reader ? (stmt.raw(true).all(...params), { changes: 0 }) : stmt.run(...params);
    if (!stmt.reader) return { rows: method === 'get' ? undefined : [], ...stmt.run(...params) };
    const raw = stmt.raw(true);
    return { rows: method === 'get' ? raw.get(...params) : raw.all(...params) };
  };
  return drizzleProxy(
    async (source, params, method) => {
      if (engine.open) await untilNoTransaction(engine);
      return run(source, params, method) as { rows: unknown[] };
    },
    { schema },
  ) as unknown as DB;
}

export type OpenOptions = {
  /**
   * Checkpoints on a worker thread (db/checkpointer.ts) instead of the request thread: what the
   * server does. Tests leave it off (SQLite's automatic checkpoint then runs as usual).
   */
  backgroundCheckpoints?: { onError: (message: string) => void };
};

/** Page size of a new database (see openDatabase). */
export const PAGE_SIZE = 2048;

/**
 * Takes group and other access away from the files directly in `dataDir` that this process's
 * user owns (docs/security.md "Production, load shedding, logs, files": app.db was created 0644). The server creates everything under umask 077
 * (index.ts); this catches files of an older version or of a tool run with another umask:
 * app.db and its -wal and -shm, jwt-secret, the local inbox. Files of other users (a shared
 * volume) are left alone, as is the directory itself (env.ts).
 */
export function restrictDataFiles(dataDir: string): void {
  const uid = process.getuid?.();
  if (uid === undefined) return; // Windows: no POSIX modes
  for (const name of readdirSync(dataDir)) {
    const file = path.join(dataDir, name);
    const st = lstatSync(file, { throwIfNoEntry: false });
    if (st?.isFile() && st.uid === uid && (st.mode & 0o077) !== 0) chmodSync(file, st.mode & 0o700);
  }
}

/**
 * Opens (creating if needed) the SQLite database in `dataDir`, sets WAL, foreign keys and a busy
 * timeout, and applies the committed migrations. The database files end up 600 whatever the umask
 * (restrictDataFiles; SQLite gives a new -wal or -shm the mode of the database file).
 */
export function openDatabase(dataDir: string, options: OpenOptions = {}): Database_ {
  const file = path.join(dataDir, 'app.db');
  const sqlite = new Database(file);
  // Set before anything is written, so it only takes on a new database (an existing one keeps its
  // own). 2 KiB pages: a submission dirties about ten index leaves at random places (ids, person,
  // set), and each dirty page is written whole to the WAL at commit; halving the page halves
  // those writes, while the answers' JSON spills over a few more overflow pages. Measured with
  // bench:exam (server): ~+10 % submissions/s over SQLite's default 4 KiB, 1 KiB no better.
  sqlite.pragma(`page_size = ${PAGE_SIZE}`);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // NORMAL is durable across application crashes in WAL mode; only an OS crash can lose the
  // last transactions. Memory-mapped reads make the hot read paths cheaper.
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('mmap_size = 268435456');
  sqlite.pragma('cache_size = -16000');
  // Statement journals (the pages a statement that may fail half-way changed, kept to undo it:
  // every insert into a table with a foreign key, inside the push's savepoint) in memory, not in
  // temporary files: an attempt's plan-use row took 20 µs to insert with them on disk, 10 µs in
  // memory (docs/benchmarks.md "bench:sync"). Temporary tables and sorts stay small here.
  sqlite.pragma('temp_store = MEMORY');
  const engine: TxEngine = { txDb: drizzle(sqlite, { schema }) as unknown as DB, tail: Promise.resolve(), open: false, sqlite };
  const db = outsideHandle(engine);
  txEngines.set(db, engine);
  txEngines.set(engine.txDb, engine);
  // Nothing else runs yet: the migrations and the counter's row through the synchronous handle.
  const syncDb = engine.txDb as unknown as BetterSQLite3Database<typeof schema>;
  migrate(syncDb, { migrationsFolder });
  syncDb.insert(schema.revisionCounter).values({ id: 1, value: 0 }).onConflictDoNothing().run();
  // After the first write, when app.db, -wal and -shm all exist.
  restrictDataFiles(dataDir);
  let checkpointer: Checkpointer | null = null;
  if (options.backgroundCheckpoints) {
    sqlite.pragma(`wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT_PAGES}`);
    // After a burst the WAL file shrinks back to this once a checkpoint has caught up.
    sqlite.pragma('journal_size_limit = 67108864');
    checkpointer = startCheckpointer(file, options.backgroundCheckpoints.onError);
  }
  return {
    db,
    engine: 'sqlite',
    sqlite,
    file,
    checkpointer,
    close: () => {
      checkpointer?.stop();
      checkpointer = null;
      if (sqlite.open) sqlite.close();
    },
  };
}

/** Connections per instance: every request that reaches the database holds one for its queries. */
export const PG_POOL_MAX = 20;

/*
 * node-postgres hands out int8 (bigint) as strings, as a 64-bit value may not fit a JS number.
 * Our integers are epoch milliseconds, counters and revisions, all far below 2^53: numbers, as
 * SQLite's are. The same for numeric aggregates (count(), sum() of bigint are numeric/int8).
 */
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => Number(v));

/**
 * Opens the PostgreSQL database at `url` (DATABASE_URL, docs/cluster.md): a pool of connections, the
 * committed migrations of migrations-pg/ applied under an advisory lock (several instances may
 * start at once), and every table export of db/schema.ts pointed at its PostgreSQL table. One
 * engine per process: after this the process speaks PostgreSQL only.
 */
export async function openPostgres(url: string, options: { poolMax?: number; onError?: (err: Error) => void } = {}): Promise<Database_> {
  const pool = new pg.Pool({ connectionString: url, max: options.poolMax ?? PG_POOL_MAX });
  // An idle connection that the server closes (a restart, a failover, an administrator) is an
  // event, not a crash: the pool drops it and opens a new one when it is next needed.
  pool.on('error', (err) => options.onError?.(err));
  usePostgresTables(pgTables);
  const db = drizzlePg(pool, { schema: pgTables }) as unknown as DB;
  postgresHandles.add(db);
  const client = await pool.connect();
  try {
    // One instance migrates; the others wait here, then find nothing left to do.
    await client.query('SELECT pg_advisory_lock(7220001)');
    try {
      await migratePg(drizzlePg(client), { migrationsFolder: pgMigrationsFolder });
      await client.query('INSERT INTO revision_counter (id, value) VALUES (1, 0) ON CONFLICT DO NOTHING');
    } finally {
      await client.query('SELECT pg_advisory_unlock(7220001)');
    }
  } finally {
    client.release();
  }
  const shown = new URL(url);
  shown.password = '';
  return {
    db,
    engine: 'postgres',
    file: shown.toString(),
    checkpointer: null,
    close: async () => {
      if (endedPools.has(db)) return;
      endedPools.add(db);
      await pool.end();
    },
  };
}

/** The database the configuration names: PostgreSQL when DATABASE_URL is set, else SQLite in DATA_DIR. */
export async function openConfigured(config: { dataDir: string; DATABASE_URL?: string }, options: OpenOptions = {}): Promise<Database_> {
  if (!config.DATABASE_URL) return openDatabase(config.dataDir, options);
  // DATA_DIR still holds the JWT secret, the keys and the local inbox on PostgreSQL.
  restrictDataFiles(config.dataDir);
  return openPostgres(config.DATABASE_URL);
}
