import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { getTableName, is } from 'drizzle-orm';
import { getTableConfig as pgConfig } from 'drizzle-orm/pg-core';
import { getTableConfig as sqliteConfig, SQLiteTable } from 'drizzle-orm/sqlite-core';
import { expect, test } from 'vitest';
import * as schema from './schema-sqlite';
import { pgTables } from './schema-pg';

/*
 * docs/cluster.md: one definition of the tables for both engines. The PostgreSQL tables are derived from
 * schema.ts (schema-pg.ts); this compares everything a query or a constraint depends on, table by
 * table, in a form both dialects share.
 */

type Shape = {
  name: string;
  columns: { name: string; notNull: boolean; primary: boolean; unique: boolean; hasDefault: boolean; jsDefault: boolean }[];
  primaryKeys: string[][];
  uniques: string[][];
  indexes: { name: string; columns: string[]; unique: boolean; partial: boolean }[];
  foreignKeys: { name: string; columns: string[]; table: string; foreignColumns: string[]; onDelete: string | undefined }[];
};

type AnyConfig = ReturnType<typeof sqliteConfig> | ReturnType<typeof pgConfig>;
function shape(c: AnyConfig): Shape {
  const names = (cols: readonly { name: string }[]) => cols.map((x) => x.name);
  return {
    name: c.name,
    columns: c.columns
      .map((col) => ({
        name: col.name,
        notNull: col.notNull,
        primary: col.primary,
        unique: col.isUnique,
        hasDefault: col.default !== undefined,
        jsDefault: col.defaultFn !== undefined,
      }))
      .sort((a, b) => a.name.localeCompare(b.name)),
    primaryKeys: c.primaryKeys.map((pk) => names(pk.columns)),
    uniques: c.uniqueConstraints.map((u) => names(u.columns)),
    indexes: c.indexes
      .map((ix) => ({
        name: ix.config.name!,
        columns: ix.config.columns.map((x) => (x as { name: string }).name),
        unique: ix.config.unique ?? false,
        partial: ix.config.where !== undefined,
      }))
      .sort((a, b) => a.name.localeCompare(b.name)),
    foreignKeys: c.foreignKeys
      .map((fk) => {
        const r = fk.reference();
        return { name: fk.getName(), columns: names(r.columns), table: getTableName(r.foreignTable), foreignColumns: names(r.foreignColumns), onDelete: fk.onDelete };
      })
      .sort((a, b) => a.name.localeCompare(b.name)),
  };
}

const sqliteTables = Object.entries(schema as Record<string, unknown>).filter((e): e is [string, SQLiteTable] => is(e[1], SQLiteTable));

test('PostgreSQL has every table of schema.ts under the same export name, and no other', () => {
  expect(Object.keys(pgTables).sort()).toEqual(sqliteTables.map(([k]) => k).sort());
  expect(sqliteTables.length).toBeGreaterThan(30);
});

test.each(sqliteTables.map(([k]) => k))('%s: the same columns, keys, unique constraints, indexes and foreign keys on both engines', (key) => {
  const lite = shape(sqliteConfig(schema[key as keyof typeof schema] as SQLiteTable));
  const pg = shape(pgConfig(pgTables[key]!));
  expect(pg).toEqual(lite);
});

test('the committed PostgreSQL migrations create every table and index of the schema', () => {
  const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations-pg');
  const journal = JSON.parse(readFileSync(path.join(dir, 'meta', '_journal.json'), 'utf8')) as { entries: { tag: string }[] };
  const sqlText = journal.entries.map((e) => readFileSync(path.join(dir, `${e.tag}.sql`), 'utf8')).join('\n');
  for (const [, table] of sqliteTables) {
    const c = sqliteConfig(table);
    expect(sqlText, c.name).toContain(`CREATE TABLE "${c.name}"`);
    for (const ix of c.indexes) expect(sqlText, ix.config.name).toContain(`"${ix.config.name}"`);
    for (const fk of c.foreignKeys) expect(sqlText, fk.getName()).toContain(`"${fk.getName()}"`);
  }
});
