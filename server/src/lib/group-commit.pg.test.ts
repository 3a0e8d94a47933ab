import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { type Database_, openPostgres } from '../db/client';
import { createDatabase, hasLocalPostgres, type LocalPostgres, startLocalPostgres } from '../db/postgres-server';
import { attempt, examResult, person, questionSet } from '../db/schema';
import { exec, first, rows as query, transaction } from '../db/transaction';
import { groupCommit } from './group-commit';
import { rawStatement, rowEncoder } from './raw-statement';
import { examResultRow } from '../test/builders';

/*
 * Group commit and raw statements on PostgreSQL (docs/cluster.md). group-commit.test.ts and
 * raw-statement.test.ts test them on SQLite, with its connection's own mechanics; here the same
 * promises hold on a PostgreSQL server of the test's own: a group is one transaction, each job a
 * savepoint that a failed statement rolls back alone, and two groups that lock the same rows in
 * opposite orders do not deadlock.
 */

const skip = !hasLocalPostgres();
let server: LocalPostgres;
let database: Database_;
let second: Database_;

beforeAll(async () => {
  if (skip) return;
  server = await startLocalPostgres({ durable: false });
  const url = await createDatabase(server.url, 'group_commit');
  database = await openPostgres(url, { poolMax: 4 });
  // Another instance's pool on the same database (its own group committer).
  second = await openPostgres(url, { poolMax: 4 });
  await exec(database.db, sql`create table t (k text primary key, n integer not null)`);
  await exec(database.db, sql`create table d (k text, unique (k) deferrable initially deferred)`);
});
afterAll(async () => {
  await second?.close();
  await database?.close();
  await server?.stop();
});
beforeEach(async () => {
  if (skip) return;
  await exec(database.db, sql`delete from t`);
  await exec(database.db, sql`delete from d`);
});

const tRows = () => query<{ k: string; n: number }>(database.db, sql`select k, n from t order by k`);
const txid = async (tx: Database_['db']) => (await first(query<{ id: string }>(tx, sql`select txid_current()::text as id`)))!.id;

describe.skipIf(skip)('group commit on PostgreSQL', () => {
  test('jobs that arrive together commit in one transaction, in arrival order, each seeing the ones before it', async () => {
    const commit = groupCommit(database.db);
    const seen = await Promise.all(
      ['a', 'b', 'c'].map((k, i) =>
        commit(async (tx) => {
          await exec(tx, sql`insert into t (k, n) values (${k}, ${i})`);
          return { id: await txid(tx), keys: (await query<{ k: string }>(tx, sql`select k from t order by k`)).map((r) => r.k) };
        }),
      ),
    );
    expect(seen.map((s) => s.keys)).toEqual([['a'], ['a', 'b'], ['a', 'b', 'c']]);
    expect(new Set(seen.map((s) => s.id)).size).toBe(1);
    expect(await tRows()).toEqual([
      { k: 'a', n: 0 },
      { k: 'b', n: 1 },
      { k: 'c', n: 2 },
    ]);
  });

  test('a job whose statement fails rolls back its own writes only (its savepoint); the transaction goes on and the others commit', async () => {
    const commit = groupCommit(database.db);
    const results = await Promise.allSettled([
      commit((tx) => exec(tx, sql`insert into t (k, n) values ('a', 1)`)),
      commit(async (tx) => {
        await exec(tx, sql`insert into t (k, n) values ('b', 2)`);
        // A failed statement aborts a PostgreSQL transaction, unless a savepoint catches it.
        await exec(tx, sql`insert into t (k, n) values ('a', 3)`);
      }),
      commit(async (tx) => {
        await exec(tx, sql`insert into t (k, n) values ('c', 4)`);
        throw new Error('job failed');
      }),
      commit((tx) => exec(tx, sql`insert into t (k, n) values ('d', 5)`)),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
    expect(String((results[1] as PromiseRejectedResult).reason)).toMatch(/Failed query/);
    expect(String((results[2] as PromiseRejectedResult).reason)).toMatch(/job failed/);
    expect(await tRows()).toEqual([
      { k: 'a', n: 1 },
      { k: 'd', n: 5 },
    ]);
  });

  test('a COMMIT that fails fails every job of the group, and nothing of it is stored', async () => {
    const commit = groupCommit(database.db);
    // The deferred unique constraint is checked at COMMIT: each job succeeds on its own.
    const results = await Promise.allSettled([
      commit((tx) => exec(tx, sql`insert into t (k, n) values ('x', 1)`)),
      commit((tx) => exec(tx, sql`insert into d (k) values ('same')`)),
      commit((tx) => exec(tx, sql`insert into d (k) values ('same')`)),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(await tRows()).toEqual([]);
    expect(await query(database.db, sql`select k from d`)).toEqual([]);
  });

  test('two instances whose groups lock the same rows in opposite orders both commit (no deadlock)', async () => {
    await exec(database.db, sql`insert into t (k, n) values ('x', 0), ('y', 0)`);
    const bump = (k: string) => (tx: Database_['db']) => exec(tx, sql`update t set n = n + 1 where k = ${k}`);
    // Instance A: x, then (after a pause holding x) y. Instance B: y, then x.
    const a = groupCommit(database.db);
    const b = groupCommit(second.db);
    const results = await Promise.allSettled([
      a(async (tx) => {
        await bump('x')(tx);
        await exec(tx, sql`select pg_sleep(0.3)`);
      }),
      a(bump('y')),
      new Promise((r) => setTimeout(r, 100)).then(() => Promise.all([b(bump('y')), b(bump('x'))])),
    ]);
    expect(results.map((r) => (r.status === 'rejected' ? String(r.reason) : r.status))).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
    expect(await tRows()).toEqual([
      { k: 'x', n: 2 },
      { k: 'y', n: 2 },
    ]);
  });
});

describe.skipIf(skip)('raw statements on PostgreSQL', () => {
  const P = (n: string) => sql.placeholder(n);
  const result = (id: string, attemptId: string, rev: number) => examResultRow(id, attemptId, rev, { personId: 'p-1', qsid: 'qs-1' });

  beforeAll(async () => {
    if (skip) return;
    const { db } = database;
    // Through Drizzle: the JS-side defaults (times) are drawn as the app draws them.
    await db.insert(person).values({ id: 'p-1', name: 'Learner', mobile: '+919000000009', passwordHash: 'x' });
    await db.insert(questionSet).values({ id: 'qs-1', l: 'Set', mpq: 1, tm: 1, q: [], sections: {}, pts: 1, updatedAt: 1, rev: 1, detailRev: 2 });
    for (const [id, rev] of [['att-1', 3], ['att-2', 4]] as const) {
      await db.insert(attempt).values({ id, personId: 'p-1', qsid: 'qs-1', startedAt: 1, serverFirstSeen: 1, answers: {}, updatedAt: 1, rev });
    }
  });

  test('stores the same row as Drizzle would, JSON and boolean columns encoded, left-out columns at their defaults; runs again on a later transaction', async () => {
    const { db } = database;
    const values = { id: P('id'), personId: P('personId'), qsid: P('qsid'), attemptId: P('attemptId'), marks: P('marks'), userRes: P('userRes'), totalMarks: P('totalMarks'), late: P('late'), et: P('et'), createdAt: P('createdAt'), rev: P('rev') };
    const encode = rowEncoder(examResult);
    await transaction(db, async (tx) => {
      const raw = rawStatement(tx, tx.insert(examResult).values(values));
      expect((await raw.run(encode(result('r-raw', 'att-1', 98)))).changes).toBe(1);
    });
    await transaction(db, async (tx) => {
      // The same text again: the named statement, prepared on the connection before (or not), runs.
      const raw = rawStatement(tx, tx.insert(examResult).values(values).onConflictDoNothing());
      expect((await raw.run(encode(result('r-raw', 'att-1', 98)))).changes).toBe(0);
    });
    await db.insert(examResult).values(result('r-drizzle', 'att-2', 99));
    const stored = await db.select().from(examResult);
    const { id: _a, attemptId: _b, rev: _c, ...raw } = stored.find((r) => r.id === 'r-raw')!;
    const { id: _d, attemptId: _e, rev: _f, ...viaDrizzle } = stored.find((r) => r.id === 'r-drizzle')!;
    expect(raw).toEqual(viaDrizzle);
    expect(raw).toMatchObject({ marks: { wos: 2.5, Reasoning: -1 }, late: true, practice: false });
  });

  test('a missing value is refused; built on the database handle, it refuses to run', async () => {
    const { db } = database;
    await transaction(db, async (tx) => {
      const raw = rawStatement(tx, tx.update(examResult).set({ totalMarks: 3 }).where(eq(examResult.id, P('id'))));
      await expect(async () => raw.run({})).rejects.toThrow(/no value for id/);
    });
    const raw = rawStatement(db, db.update(examResult).set({ totalMarks: 3 }).where(eq(examResult.id, P('id'))));
    await expect(async () => raw.run({ id: 'r-raw' })).rejects.toThrow(/handle of a transaction/);
  });
});
