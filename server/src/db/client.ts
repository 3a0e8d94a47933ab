import { chmodSync, lstatSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { type BetterSQLite3Database, drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { type Checkpointer, FALLBACK_AUTOCHECKPOINT_PAGES, startCheckpointer } from './checkpointer';
import * as schema from './schema';

/** Drizzle over better-sqlite3; `$client` is the better-sqlite3 connection (one per process). */
export type DB = BetterSQLite3Database<typeof schema> & { $client: Database.Database };
/** A transaction handle has the same query API as the database. */
export type Tx = Parameters<Parameters<DB['transaction']>[0]>[0];
export type Conn = DB | Tx;

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export type Database_ = { db: DB; close: () => void; file: string; checkpointer: Checkpointer | null };

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
 * user owns (issue 16: app.db was created 0644). The server creates everything under umask 077
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
  const db = drizzle(sqlite, { schema });
  migrate(db, { migrationsFolder });
  db.insert(schema.revisionCounter).values({ id: 1, value: 0 }).onConflictDoNothing().run();
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
    file,
    checkpointer,
    close: () => {
      checkpointer?.stop();
      checkpointer = null;
      if (sqlite.open) sqlite.close();
    },
  };
}
