import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { type Database_, openDatabase } from '../db/client';
import { examResult } from '../db/schema';
import { seedDatabase } from '../db/seed';
import { rawStatement, rowEncoder } from './raw-statement';

let dir: string;
let database: Database_;
beforeEach(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'pm-raw-statement-'));
  database = openDatabase(dir);
  await seedDatabase(database.db);
  // An attempt to hang results on (exam_result.attempt_id references it).
  database.db.run(
    sql`insert into attempt (id, person_id, qsid, st, server_first_seen, answers, updated_at, rev) values ('att-1', 'demo-learner', 'qs-practice-gk', 1, 1, '{}', 1, 1), ('att-2', 'demo-learner', 'qs-practice-gk', 1, 1, '{}', 1, 2)`,
  );
});
afterEach(() => {
  database.close();
  rmSync(dir, { recursive: true, force: true });
});

const P = (n: string) => sql.placeholder(n);
const row = (id: string, attemptId: string, rev: number) => ({
  id,
  personId: 'demo-learner',
  qsid: 'qs-practice-gk',
  attemptId,
  marks: { wos: 2.5, Reasoning: -1 },
  userRes: { wos: { q1: { ua: ['a', 'c'], mg: 2 } } },
  totalMarks: 1.5,
  late: true,
  et: 1_800_000_000,
  createdAt: 1_800_000_000_000,
  rev,
});

test('stores the same row as Drizzle would, JSON and boolean columns encoded, left-out columns at their defaults', () => {
  const { db } = database;
  const values = { id: P('id'), personId: P('personId'), qsid: P('qsid'), attemptId: P('attemptId'), marks: P('marks'), userRes: P('userRes'), totalMarks: P('totalMarks'), late: P('late'), et: P('et'), createdAt: P('createdAt'), rev: P('rev') };
  const raw = rawStatement(db, db.insert(examResult).values(values));
  const encode = rowEncoder(examResult);
  expect(raw.run(encode(row('r-raw', 'att-1', 98))).changes).toBe(1);
  db.insert(examResult).values(row('r-drizzle', 'att-2', 99)).run();
  const [a, b] = ['r-raw', 'r-drizzle'].map((id) => db.select().from(examResult).where(eq(examResult.id, id)).get());
  expect(a).toEqual({ ...b, id: 'r-raw', attemptId: 'att-1', rev: 98 });
  expect(a).toMatchObject({ marks: { wos: 2.5, Reasoning: -1 }, late: true, deleted: false, outOf: {}, total: 0, elapsed: null });
});

test('a missing value is refused, never stored as NULL', () => {
  const { db } = database;
  const raw = rawStatement(db, db.insert(examResult).values({ id: P('id'), personId: P('personId'), qsid: P('qsid'), attemptId: P('attemptId'), marks: P('marks'), userRes: P('userRes'), totalMarks: P('totalMarks'), et: P('et'), createdAt: P('createdAt'), rev: P('rev') }));
  const { marks: _m, ...withoutMarks } = rowEncoder(examResult)(row('r-1', 'att-1', 1));
  expect(() => raw.run(withoutMarks)).toThrow(/no value for marks/);
  expect(db.select().from(examResult).all()).toEqual([]);
});

test('a value written into the query is kept as written (as in a Drizzle prepared statement)', () => {
  const { db } = database;
  db.insert(examResult).values(row('r-1', 'att-1', 5)).run();
  const raw = rawStatement(db, db.update(examResult).set({ totalMarks: 3, marks: sql`${P('marks')}` }).where(eq(examResult.id, P('id'))));
  expect(raw.run(rowEncoder(examResult)({ id: 'r-1', marks: { wos: 3 } })).changes).toBe(1);
  expect(db.select().from(examResult).where(eq(examResult.id, 'r-1')).get()).toMatchObject({ totalMarks: 3, marks: { wos: 3 } });
});
