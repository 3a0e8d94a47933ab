import type pg from 'pg';
import { type DB, engineOf } from '../db/client';

/*
 * Scheduled jobs run once across instances (docs/cluster.md). Every instance keeps its timers (any of
 * them may be the one left running), and each tick of a job asks for the job's PostgreSQL advisory
 * lock first: the instance that gets it runs the job, the others skip this tick. The lock is a
 * session lock, taken with pg_try_advisory_lock on a connection of the pool held for the job's
 * run and unlocked afterwards; should the instance die meanwhile, PostgreSQL ends its session and
 * the lock goes with it, so a crashed instance never blocks the job (no lease to expire).
 *
 * On SQLite there is one instance: the job just runs.
 */

/** The first key of our two-key advisory locks (the migrations' lock is a one-key lock, 7220001). */
const LOCK_CLASS = 7220002;

/** The node-postgres pool behind a PostgreSQL database handle (Drizzle keeps it as `$client`). */
export function postgresPool(db: DB): pg.Pool {
  const pool = (db as unknown as { $client?: pg.Pool }).$client;
  if (!pool || typeof pool.connect !== 'function') throw new Error('not a PostgreSQL database handle of openPostgres');
  return pool;
}

/** A job's name as the second key: FNV-1a, 32 bits, as a signed int4. */
export function lockKey(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    h ^= name.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h | 0;
}

export type ExclusiveOptions = {
  /**
   * Wait for the lock instead of skipping (pg_advisory_lock): for work every instance needs done
   * before it goes on, once (the first start's seeding), not for a periodic job.
   */
  wait?: boolean;
  /**
   * The job's period. Timers of instances started at different moments tick at different
   * moments, and a short job would otherwise run once per tick of every instance, one after the
   * other. With this, the instance holding the lock runs the job only when no instance has
   * started it within the last half period (by PostgreSQL's clock, kept in `meta` under
   * `job:<name>`): about once per period however many instances there are, and never a gap
   * longer than one and a half periods while one instance is up.
   */
  everyMs?: number;
};

/** Due when the job last started at least `minGap` ms ago (by the database's clock); records this start. */
const CLAIM_RUN = `
  INSERT INTO meta (key, value) VALUES ($1, (extract(epoch from clock_timestamp()) * 1000)::bigint::text)
  ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value
  WHERE meta.value::bigint <= (extract(epoch from clock_timestamp()) * 1000)::bigint - $2
  RETURNING key`;

/**
 * Runs `fn` unless another instance is running the job `name` right now; resolves to what `fn`
 * resolved to, or to undefined when the job was skipped (another instance runs it, or ran it
 * within half of `everyMs`). Errors of `fn` are rethrown after the
 * lock is let go. On SQLite, `fn` runs at once (in the same turn: a job that starts in a turn of
 * its own keeps doing so).
 */
export async function runExclusive<T>(db: DB, name: string, fn: () => Promise<T> | T, opts: ExclusiveOptions = {}): Promise<T | undefined> {
  if (engineOf(db) !== 'postgres') return fn();
  const key = lockKey(name);
  const client = await postgresPool(db).connect();
  // A connection that failed while it held the lock is closed, not put back: its session (and with
  // it the lock, if PostgreSQL still thinks it is held) ends.
  let broken: Error | undefined;
  let locked: boolean;
  try {
    if (opts.wait) {
      await client.query('SELECT pg_advisory_lock($1, $2)', [LOCK_CLASS, key]);
      locked = true;
    } else {
      locked = (await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS ok', [LOCK_CLASS, key])).rows[0]?.ok === true;
    }
  } catch (err) {
    client.release(err as Error);
    throw err;
  }
  try {
    if (locked && opts.everyMs !== undefined) {
      locked = (await client.query(CLAIM_RUN, [`job:${name}`, Math.floor(opts.everyMs / 2)])).rowCount === 1;
      if (!locked) await client.query('SELECT pg_advisory_unlock($1, $2)', [LOCK_CLASS, key]);
    }
  } catch (err) {
    client.release(err as Error);
    throw err;
  }
  if (!locked) {
    client.release();
    return undefined;
  }
  try {
    return await fn();
  } finally {
    try {
      await client.query('SELECT pg_advisory_unlock($1, $2)', [LOCK_CLASS, key]);
    } catch (err) {
      broken = err as Error;
    }
    client.release(broken);
  }
}
