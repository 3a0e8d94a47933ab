import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, expect, test } from 'vitest';
import { type Database_, openDatabase, PAGE_SIZE } from './client';

let dir: string | undefined;
let database: Database_ | undefined;
afterEach(() => {
  database?.close();
  database = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('a new database is created with 2 KiB pages, in WAL mode, and keeps them when opened again', () => {
  dir = mkdtempSync(path.join(tmpdir(), 'pm-client-'));
  database = openDatabase(dir);
  expect(PAGE_SIZE).toBe(2048);
  expect(database.sqlite!.pragma('page_size', { simple: true })).toBe(2048);
  expect(database.sqlite!.pragma('journal_mode', { simple: true })).toBe('wal');
  database.close();
  database = openDatabase(dir);
  expect(database.sqlite!.pragma('page_size', { simple: true })).toBe(2048);
});

test('an existing database made with another page size keeps it (and its rows)', () => {
  dir = mkdtempSync(path.join(tmpdir(), 'pm-client-'));
  const old = new Database(path.join(dir, 'app.db'));
  old.pragma('page_size = 4096');
  old.pragma('journal_mode = WAL');
  old.exec("create table kept (k text primary key); insert into kept values ('a')");
  old.close();
  database = openDatabase(dir);
  const sqlite = database.sqlite!;
  expect(sqlite.pragma('page_size', { simple: true })).toBe(4096);
  expect(sqlite.prepare('select k from kept').pluck().all()).toEqual(['a']);
  // The migrations applied on top of it.
  expect(sqlite.prepare("select count(*) from sqlite_master where name = 'attempt'").pluck().get()).toBe(1);
});
