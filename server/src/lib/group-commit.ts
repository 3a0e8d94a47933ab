import { type DB, engineOf } from '../db/client';
import { transaction } from '../db/transaction';
import { lockRevisions } from './revision';

/** Most jobs one transaction takes: a bigger group would hold the thread (and its callers) longer. */
export const MAX_GROUP = 32;

type Job = { run: (tx: DB) => unknown; oneStatement: boolean; resolve: (value: unknown) => void; reject: (err: unknown) => void };
/**
 * `oneStatement`: the job is a single statement. On SQLite it then runs without a savepoint of its
 * own: a statement that fails is undone by SQLite itself and leaves the transaction as it was. On
 * PostgreSQL a failed statement aborts the whole transaction, so every job keeps its savepoint.
 */
type Committer = <T>(job: (tx: DB) => Promise<T> | T, opts?: { oneStatement?: boolean }) => Promise<T>;

const committers = new WeakMap<DB, Committer>();

/**
 * Group commit for hot write paths (sync push, online submissions): the jobs that arrive within
 * one turn of the event loop are run in one transaction — one BEGIN and one COMMIT, one append
 * to SQLite's WAL for the pages they share — each job inside its own savepoint, so a job that
 * throws rolls back its own writes only and the others commit. A job's promise settles after the
 * COMMIT: a caller answers "stored" only once it is. If the COMMIT itself fails, every job of the
 * group fails with it and nothing of the group is stored.
 *
 * Jobs run one after another, in arrival order, as they would one transaction each, and follow
 * the rule of every transaction (db/transaction.ts): a job awaits only the database. The only
 * cost to a caller is waiting for the rest of its turn of the event loop (setImmediate).
 *
 * Groups commit one after another (per database handle): jobs arriving while one commits wait
 * for the next group. On SQLite that is how its transactions run anyway; on PostgreSQL, where
 * a COMMIT goes over the network, it keeps a process from holding several connections for
 * groups that would only wait for each other. There each group takes the revision counter's
 * lock first (lib/revision.ts lockRevisions): its jobs take revisions after locking other rows
 * (a person's storage charge), and a group on another instance doing the same in another order
 * would otherwise deadlock with it. A savepoint (a job) that throws releases what it locked.
 */
export function groupCommit(db: DB): Committer {
  let committer = committers.get(db);
  if (!committer) {
    committer = createCommitter(db);
    committers.set(db, committer);
  }
  return committer;
}

function createCommitter(db: DB): Committer {
  let queue: Job[] = [];
  let scheduled = false;
  /** Settles when the groups taken so far have committed (or failed). */
  let committing: Promise<void> = Promise.resolve();

  const bareStatements = engineOf(db) === 'sqlite';
  async function commitGroup(group: Job[]) {
    const outcomes: ({ ok: true; value: unknown } | { ok: false; err: unknown })[] = [];
    try {
      await transaction(db, async (tx) => {
        await lockRevisions(tx);
        for (const job of group) {
          try {
            // A savepoint: a job that throws undoes its own writes only, the group goes on.
            outcomes.push({ ok: true, value: job.oneStatement && bareStatements ? await job.run(tx) : await transaction(tx, job.run) });
          } catch (err) {
            outcomes.push({ ok: false, err });
          }
        }
      });
    } catch (err) {
      // The group did not commit: nothing of it is stored.
      for (const job of group) job.reject(err);
      return;
    }
    group.forEach((job, i) => {
      const o = outcomes[i]!;
      if (o.ok) job.resolve(o.value);
      else job.reject(o.err);
    });
  }

  /** Commits the jobs queued by now, once the groups before them have committed (the queue is taken then). */
  async function flush() {
    scheduled = false;
    const jobs = queue;
    queue = [];
    for (let i = 0; i < jobs.length; i += MAX_GROUP) await commitGroup(jobs.slice(i, i + MAX_GROUP));
  }

  return <T>(run: (tx: DB) => Promise<T> | T, opts?: { oneStatement?: boolean }) =>
    new Promise<T>((resolve, reject) => {
      queue.push({ run, oneStatement: opts?.oneStatement === true, resolve: resolve as (value: unknown) => void, reject });
      if (!scheduled) {
        scheduled = true;
        setImmediate(() => {
          // commitGroup settles every job itself; nothing that throws may stop the groups after.
          committing = committing.then(flush).catch(() => undefined);
        });
      }
    });
}
