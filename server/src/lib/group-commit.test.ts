import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { type Database_, openDatabase, txEngines } from '../db/client';
import { exec, rows as query } from '../db/transaction';
import { groupCommit, MAX_GROUP } from './group-commit';

let dir: string;
let database: Database_;
beforeEach(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'pm-group-commit-'));
  database = openDatabase(dir);
  await exec(database.db, sql`create table t (k text primary key, n integer not null)`);
});
afterEach(() => {
  database.close();
  rmSync(dir, { recursive: true, force: true });
});

const rows = () => query<{ k: string; n: number }>(database.db, sql`select k, n from t order by rowid`);
/** How many top-level transactions `run` opened on the connection (the BEGINs it executed; savepoints are not counted). */
function commits(run: () => Promise<unknown>) {
  const sqlite = txEngines.get(database.db)!.sqlite;
  let n = 0;
  const original = sqlite.exec;
  sqlite.exec = function (this: typeof sqlite, source: string) {
    if (/^\s*BEGIN\b/i.test(source)) n++;
    return original.call(this, source);
  };
  return run()
    .finally(() => (sqlite.exec = original))
    .then(() => n);
}

test('jobs that arrive together commit in one transaction, in arrival order, each seeing the ones before it', async () => {
  const commit = groupCommit(database.db);
  const n = await commits(() =>
    Promise.all(
      ['a', 'b', 'c'].map((k, i) =>
        commit(async (tx) => {
          await exec(tx, sql`insert into t (k, n) values (${k}, ${i})`);
          return (await query<{ k: string }>(tx, sql`select k from t`)).map((r) => r.k);
        }),
      ),
    ).then((seen) => expect(seen).toEqual([['a'], ['a', 'b'], ['a', 'b', 'c']])),
  );
  expect(n).toBe(1);
  expect(await rows()).toEqual([
    { k: 'a', n: 0 },
    { k: 'b', n: 1 },
    { k: 'c', n: 2 },
  ]);
});

test('a job that throws rolls back its own writes only; its caller gets its error, the others commit', async () => {
  const commit = groupCommit(database.db);
  const results = await Promise.allSettled([
    commit((tx) => exec(tx, sql`insert into t (k, n) values ('a', 1)`)),
    commit(async (tx) => {
      await exec(tx, sql`insert into t (k, n) values ('b', 2)`);
      throw new Error('job b failed');
    }),
    // A constraint error of SQLite itself, after this job's first write.
    commit(async (tx) => {
      await exec(tx, sql`insert into t (k, n) values ('c', 3)`);
      await exec(tx, sql`insert into t (k, n) values ('a', 4)`);
    }),
    commit((tx) => exec(tx, sql`insert into t (k, n) values ('d', 5)`)),
  ]);
  expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
  expect((results[1] as PromiseRejectedResult).reason).toEqual(new Error('job b failed'));
  expect(String(((results[2] as PromiseRejectedResult).reason as Error).cause)).toMatch(/UNIQUE/);
  expect(await rows()).toEqual([
    { k: 'a', n: 1 },
    { k: 'd', n: 5 },
  ]);
});

test('a one-statement job runs without a savepoint on SQLite; when its statement fails, SQLite undoes it alone and the others commit', async () => {
  const commit = groupCommit(database.db);
  const sqlite = txEngines.get(database.db)!.sqlite;
  const savepoints: string[] = [];
  const original = sqlite.exec;
  sqlite.exec = function (this: typeof sqlite, source: string) {
    if (/SAVEPOINT/i.test(source)) savepoints.push(source);
    return original.call(this, source);
  };
  try {
    const one = { oneStatement: true };
    const results = await Promise.allSettled([
      commit((tx) => exec(tx, sql`insert into t (k, n) values ('a', 1)`), one),
      // Two rows in one statement, the second a duplicate: neither is stored.
      commit((tx) => exec(tx, sql`insert into t (k, n) values ('b', 2), ('a', 3)`), one),
      commit((tx) => exec(tx, sql`insert into t (k, n) values ('c', 4)`), one),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  } finally {
    sqlite.exec = original;
  }
  expect(savepoints).toEqual([]);
  expect(await rows()).toEqual([
    { k: 'a', n: 1 },
    { k: 'c', n: 4 },
  ]);
});

test('when the group cannot commit, every job of it fails and nothing of it is stored', async () => {
  const commit = groupCommit(database.db);
  const results = await Promise.allSettled([
    commit((tx) => exec(tx, sql`insert into t (k, n) values ('a', 1)`)),
    // Ends the transaction under the group's feet: its savepoint is gone, so is the group.
    commit((tx) => exec(tx, sql`rollback`)),
    commit((tx) => exec(tx, sql`insert into t (k, n) values ('c', 3)`)),
  ]);
  expect(results.every((r) => r.status === 'rejected')).toBe(true);
  expect(await rows()).toEqual([]);
  // The committer goes on working afterwards.
  await commit((tx) => exec(tx, sql`insert into t (k, n) values ('e', 1)`));
  expect(await rows()).toEqual([{ k: 'e', n: 1 }]);
});

test(`more than ${MAX_GROUP} jobs at once are split into groups of at most ${MAX_GROUP}, all in order`, async () => {
  const commit = groupCommit(database.db);
  const total = MAX_GROUP * 2 + 5;
  const n = await commits(() => Promise.all(Array.from({ length: total }, (_, i) => commit((tx) => exec(tx, sql`insert into t (k, n) values (${`k${i}`}, ${i})`)))));
  expect(n).toBe(3);
  expect((await rows()).map((r) => r.n)).toEqual(Array.from({ length: total }, (_, i) => i));
});

test('a job queued after a group has started goes into the next group', async () => {
  const commit = groupCommit(database.db);
  let later: Promise<unknown> | undefined;
  await commit(async (tx) => {
    await exec(tx, sql`insert into t (k, n) values ('first', 1)`);
    later = commit((tx2) => exec(tx2, sql`insert into t (k, n) values ('second', 2)`));
  });
  expect(await rows()).toEqual([{ k: 'first', n: 1 }]);
  await later;
  expect((await rows()).map((r) => r.k)).toEqual(['first', 'second']);
});
