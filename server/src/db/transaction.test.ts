import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { type Database_, openDatabase } from './client';
import { affected, exec, rows, transaction } from './transaction';

let dir: string;
let database: Database_;
beforeEach(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'pm-transaction-'));
  database = openDatabase(dir);
  await exec(database.db, sql`create table t (k text primary key, n integer not null)`);
});
afterEach(() => {
  database.close();
  rmSync(dir, { recursive: true, force: true });
});

const all = () => rows<{ k: string; n: number }>(database.db, sql`select k, n from t order by k`);

test('a transaction commits what its body wrote and returns what the body returns', async () => {
  const value = await transaction(database.db, async (tx) => {
    await exec(tx, sql`insert into t (k, n) values ('a', 1)`);
    await exec(tx, sql`insert into t (k, n) values ('b', 2)`);
    return (await rows<{ k: string }>(tx, sql`select k from t`)).length;
  });
  expect(value).toBe(2);
  expect(await all()).toEqual([
    { k: 'a', n: 1 },
    { k: 'b', n: 2 },
  ]);
});

test('a body that throws rolls every write back, and the error reaches the caller', async () => {
  await expect(
    transaction(database.db, async (tx) => {
      await exec(tx, sql`insert into t (k, n) values ('a', 1)`);
      throw new Error('refused');
    }),
  ).rejects.toThrow('refused');
  expect(await all()).toEqual([]);
  // The connection is usable again.
  await transaction(database.db, (tx) => exec(tx, sql`insert into t (k, n) values ('c', 3)`));
  expect(await all()).toEqual([{ k: 'c', n: 3 }]);
});

test('transactions take turns: a second one starts after the first has committed', async () => {
  const order: string[] = [];
  let releaseFirst!: () => void;
  const gate = new Promise<void>((resolve) => (releaseFirst = resolve));
  const a = transaction(database.db, async (tx) => {
    order.push('a begins');
    await exec(tx, sql`insert into t (k, n) values ('a', 1)`);
    // Breaks the rule on purpose (a body awaits only the database) to hold the transaction open.
    await gate;
    order.push('a commits');
  });
  const b = transaction(database.db, async (tx) => {
    order.push('b begins');
    const seen = await rows<{ k: string }>(tx, sql`select k from t`);
    order.push(`b sees ${seen.map((r) => r.k).join(',')}`);
  });
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(order).toEqual(['a begins']);
  releaseFirst();
  await Promise.all([a, b]);
  expect(order).toEqual(['a begins', 'a commits', 'b begins', 'b sees a']);
});

test('a statement through the database handle waits until the open transaction has ended, and is not undone with it', async () => {
  let releaseFirst!: () => void;
  const gate = new Promise<void>((resolve) => (releaseFirst = resolve));
  const open = transaction(database.db, async (tx) => {
    await exec(tx, sql`insert into t (k, n) values ('a', 1)`);
    await gate;
    throw new Error('rolled back');
  });
  await new Promise((resolve) => setTimeout(resolve, 10));
  let outsideDone = false;
  const outside = exec(database.db, sql`insert into t (k, n) values ('outside', 9)`).then(() => (outsideDone = true));
  const read = database.db.select({ k: sql<string>`k` }).from(sql`t`);
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(outsideDone).toBe(false);
  releaseFirst();
  await expect(open).rejects.toThrow('rolled back');
  await outside;
  // The read saw neither the rolled-back row nor… it ran after the rollback, before or after the insert.
  expect((await read).map((r) => r.k)).not.toContain('a');
  expect(await all()).toEqual([{ k: 'outside', n: 9 }]);
});

test('a transaction inside a transaction is a savepoint: its failure undoes only its own writes', async () => {
  await transaction(database.db, async (tx) => {
    await exec(tx, sql`insert into t (k, n) values ('outer', 1)`);
    await expect(
      transaction(tx, async (inner) => {
        await exec(inner, sql`insert into t (k, n) values ('inner', 2)`);
        throw new Error('inner refused');
      }),
    ).rejects.toThrow('inner refused');
    await transaction(tx, (inner) => exec(inner, sql`insert into t (k, n) values ('kept', 3)`));
  });
  expect((await all()).map((r) => r.k)).toEqual(['kept', 'outer']);
});

test('exec and affected count the rows a write changed, on either engine', async () => {
  await exec(database.db, sql`insert into t (k, n) values ('a', 1), ('b', 1), ('c', 2)`);
  expect(await exec(database.db, sql`update t set n = 5 where n = 1`)).toBe(2);
  // A builder's result: SQLite's run result, PostgreSQL's query result.
  expect(affected({ changes: 2, lastInsertRowid: 0 })).toBe(2);
  expect(affected({ rowCount: 3, rows: [] })).toBe(3);
});
