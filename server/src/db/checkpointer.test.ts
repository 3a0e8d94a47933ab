import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, expect, test } from 'vitest';
import { type Database_, openDatabase } from './client';
import { FALLBACK_AUTOCHECKPOINT_PAGES } from './checkpointer';

let dir: string | undefined;
let database: Database_ | undefined;
afterEach(() => {
  database?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('with background checkpoints, committed pages reach the database file from the worker, not the request thread', async () => {
  const errors: string[] = [];
  dir = mkdtempSync(path.join(tmpdir(), 'pm-checkpointer-'));
  database = openDatabase(dir, { backgroundCheckpoints: { onError: (m) => errors.push(m) } });
  const { file } = database;
  const sqlite = database.sqlite!;
  expect(database.checkpointer).not.toBeNull();
  expect(database!.sqlite!.pragma('wal_autocheckpoint', { simple: true })).toBe(FALLBACK_AUTOCHECKPOINT_PAGES);

  const checkpointed = new Promise<number>((resolve) => database!.checkpointer!.onCheckpoint(resolve));
  const sizeBefore = statSync(file).size;
  sqlite.exec('create table t (k integer primary key, body text not null)');
  const insert = sqlite.prepare('insert into t (k, body) values (?, ?)');
  sqlite.transaction(() => {
    // About 2,500 pages: more than SQLite's own automatic checkpoint (1,000) would leave in the WAL.
    for (let i = 0; i < 2500; i++) insert.run(i, 'x'.repeat(4000));
  })();
  expect(await checkpointed).toBeGreaterThan(0);
  // Wait until the worker has copied all of it back (it checkpoints every 250 ms).
  for (let i = 0; i < 40 && statSync(file).size < 2500 * 4000; i++) await new Promise((r) => setTimeout(r, 100));
  expect(statSync(file).size).toBeGreaterThan(sizeBefore + 2500 * 4000);
  expect(errors).toEqual([]);

  // Closed and opened again, the database holds every committed row.
  database.close();
  database = undefined;
  const reopened = new Database(file, { readonly: true });
  expect(reopened.prepare('select count(*) as n from t').get()).toEqual({ n: 2500 });
  reopened.close();
});

test('without the option the request thread keeps SQLite’s own automatic checkpoint', () => {
  dir = mkdtempSync(path.join(tmpdir(), 'pm-checkpointer-'));
  database = openDatabase(dir);
  expect(database.checkpointer).toBeNull();
  expect(database.sqlite!.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
});
