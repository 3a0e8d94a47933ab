import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { type Database_, openDatabase } from '../db/client';
import { examResult } from '../db/schema';
import { seedDatabase } from '../db/seed';
import { exec, first, transaction } from '../db/transaction';
import { rawStatement, rowEncoder } from './raw-statement';
import { examResultRow } from '../test/builders';

let dir: string;
let database: Database_;
beforeEach(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'pm-raw-statement-'));
  database = openDatabase(dir);
  await seedDatabase(database.db);
  // An attempt to hang results on (exam_result.attempt_id references it).
  await exec(
    database.db,
    sql`insert into attempt (id, person_id, qsid, st, server_first_seen, answers, updated_at, rev) values ('att-1', 'demo-learner', 'qs-practice-gk', 1, 1, '{}', 1, 1), ('att-2', 'demo-learner', 'qs-practice-gk', 1, 1, '{}', 1, 2)`,
  );
});
afterEach(() => {
  database.close();
  rmSync(dir, { recursive: true, force: true });
});

const P = (n: string) => sql.placeholder(n);
const row = (id: string, attemptId: string, rev: number) => examResultRow(id, attemptId, rev, { personId: 'demo-learner', qsid: 'qs-practice-gk' });

test('stores the same row as Drizzle would, JSON and boolean columns encoded, left-out columns at their defaults', async () => {
  const { db } = database;
  const values = { id: P('id'), personId: P('personId'), qsid: P('qsid'), attemptId: P('attemptId'), marks: P('marks'), userRes: P('userRes'), totalMarks: P('totalMarks'), late: P('late'), et: P('et'), createdAt: P('createdAt'), rev: P('rev') };
  const encode = rowEncoder(examResult);
  await transaction(db, async (tx) => {
    const raw = rawStatement(tx, tx.insert(examResult).values(values));
    expect((await raw.run(encode(row('r-raw', 'att-1', 98)))).changes).toBe(1);
  });
  await db.insert(examResult).values(row('r-drizzle', 'att-2', 99));
  const a = await first(db.select().from(examResult).where(eq(examResult.id, 'r-raw')));
  const b = await first(db.select().from(examResult).where(eq(examResult.id, 'r-drizzle')));
  expect(a).toEqual({ ...b, id: 'r-raw', attemptId: 'att-1', rev: 98 });
  expect(a).toMatchObject({ marks: { wos: 2.5, Reasoning: -1 }, late: true, deleted: false, outOf: {}, total: 0, elapsed: null });
});

test('a missing value is refused, never stored as NULL', async () => {
  const { db } = database;
  const { marks: _m, ...withoutMarks } = rowEncoder(examResult)(row('r-1', 'att-1', 1));
  await transaction(db, async (tx) => {
    const raw = rawStatement(tx, tx.insert(examResult).values({ id: P('id'), personId: P('personId'), qsid: P('qsid'), attemptId: P('attemptId'), marks: P('marks'), userRes: P('userRes'), totalMarks: P('totalMarks'), et: P('et'), createdAt: P('createdAt'), rev: P('rev') }));
    expect(() => raw.run(withoutMarks)).toThrow(/no value for marks/);
  });
  expect(await db.select().from(examResult)).toEqual([]);
});

test('a value written into the query is kept as written (as in a Drizzle prepared statement)', async () => {
  const { db } = database;
  await db.insert(examResult).values(row('r-1', 'att-1', 5));
  await transaction(db, async (tx) => {
    const raw = rawStatement(tx, tx.update(examResult).set({ totalMarks: 3, marks: sql`${P('marks')}` }).where(eq(examResult.id, P('id'))));
    expect((await raw.run(rowEncoder(examResult)({ id: 'r-1', marks: { wos: 3 } }))).changes).toBe(1);
  });
  expect(await first(db.select().from(examResult).where(eq(examResult.id, 'r-1')))).toMatchObject({ totalMarks: 3, marks: { wos: 3 } });
});

test('it runs on a transaction\'s handle only: built on the database handle, it refuses to run', () => {
  const { db } = database;
  const raw = rawStatement(db, db.update(examResult).set({ totalMarks: 3 }).where(eq(examResult.id, P('id'))));
  expect(() => raw.run({ id: 'r-1' })).toThrow(/handle of a transaction/);
});
