import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Database_, openConfigured, openPostgres } from './client';
import { createDatabase, hasLocalPostgres, type LocalPostgres, startLocalPostgres } from './postgres-server';
import { seedDatabase } from './seed';
import { row } from './transaction';

/*
 * docs/cluster.md: instances that start at once on one PostgreSQL database each run the seed at
 * start-up (index.ts). They seed in turn: the first seeds, the others find the seed recorded
 * and change nothing (on SQLite one process owns the file, and the seed's transaction is all).
 */

const skip = !hasLocalPostgres();
let server: LocalPostgres;
let a: Database_;
let b: Database_;

beforeAll(async () => {
  if (skip) return;
  server = await startLocalPostgres({ durable: false });
  const url = await createDatabase(server.url, 'seed_at_once');
  [a, b] = await Promise.all([openPostgres(url, { poolMax: 2 }), openPostgres(url, { poolMax: 2 })]);
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await server?.stop();
});

describe.skipIf(skip)('the seed on PostgreSQL', () => {
  test('two instances seeding at once: one seeds, the other finds it seeded, every row is there once', async () => {
    const results = await Promise.all([seedDatabase(a.db), seedDatabase(b.db)]);
    expect(results.map((r) => r.seeded).sort()).toEqual([false, true]);
    const count = async (table: string) => Number((await row<{ n: number }>(a.db, sql`select count(*) as n from ${sql.identifier(table)}`))!.n);
    // As one seed leaves them: every question indexed once, the seed recorded once.
    expect(await count('question')).toBeGreaterThanOrEqual(60);
    expect(await count('question_search')).toBe(await count('question'));
    expect(await count('question_version')).toBe(await count('question'));
    expect(Number((await row<{ n: number }>(a.db, sql`select count(*) as n from meta where key = 'seeded_at'`))!.n)).toBe(1);
    expect(await seedDatabase(b.db)).toEqual({ seeded: false });
  });

  test('the question search finds seeded questions through the trigram index (ILIKE on question_search)', async () => {
    const hit = await row<{ n: number }>(a.db, sql`select count(*) as n from question_search where body ilike '%plassey%'`);
    expect(Number(hit!.n)).toBeGreaterThan(0);
    const index = await row<{ def: string }>(a.db, sql`select indexdef as def from pg_indexes where indexname = 'question_search_body_trgm_idx'`);
    expect(index?.def).toMatch(/USING gin \(body gin_trgm_ops\)/);
  });
});

describe.skipIf(skip)('DATA_DIR on PostgreSQL', () => {
  test('a JWT secret left readable by others (an older version, another umask) is made 600 on open', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'pm-pg-datadir-'));
    try {
      const secret = path.join(dataDir, 'jwt-secret');
      writeFileSync(secret, 'x'.repeat(43), { mode: 0o644 });
      const url = await createDatabase(server.url, 'data_dir_modes');
      const db = await openConfigured({ dataDir, DATABASE_URL: url });
      await db.close();
      expect(statSync(secret).mode & 0o777).toBe(0o600);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
