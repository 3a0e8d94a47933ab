import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { afterAll, expect, test } from 'vitest';

/*
 * The migration that made the ledger double entry (migrations/0018_double_entry_ledger.sql;
 * docs/charity.md "The ledger"), run on a database holding single-entry rows as the earlier code
 * wrote them: each row becomes the gateway leg of its group, with the counter leg beside it, and
 * every group sums to zero.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const dir = mkdtempSync(path.join(tmpdir(), 'pm-ledger-migration-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The migrations folder as it was before `tag`: the same files, the journal cut there. */
function migrationsBefore(tag: string): string {
  const copy = path.join(dir, 'migrations-before');
  cpSync(path.join(here, 'migrations'), copy, { recursive: true });
  const journalFile = path.join(copy, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
  journal.entries = journal.entries.slice(
    0,
    journal.entries.findIndex((e) => e.tag === tag),
  );
  writeFileSync(journalFile, JSON.stringify(journal));
  return copy;
}

test('single-entry rows become balanced groups: captures to the plans or general donations, a flagged capture owed back, refunds reversed', () => {
  const sqlite = new Database(path.join(dir, 'app.db'));
  sqlite.pragma('foreign_keys = ON');
  const db = drizzle(sqlite);
  migrate(db, { migrationsFolder: migrationsBefore('0018_double_entry_ledger') });
  const now = 1_700_000_000_000;
  sqlite.prepare("insert into person (id, name, mobile, password_hash, created_at, updated_at) values ('p1', 'P', '+919000000001', 'x', ?, ?)").run(now, now);
  const order = sqlite.prepare("insert into purchase_order (id, person_id, kind, amount, status, expires_at, created_at, updated_at) values (?, 'p1', ?, ?, 'PAID', ?, ?, ?)");
  order.run('plan-order', 'PLAN', 15000, now, now, now);
  order.run('gift-order', 'DONATION', 5150, now, now, now);
  const pay = sqlite.prepare("insert into payment (id, amount, channel, transaction_id, order_id, person_id, status, flag, created_at, updated_at) values (?, ?, 'UPI', ?, ?, 'p1', 'SUCCESS', ?, ?, ?)");
  pay.run('pay-1', 15000, 'T1', 'plan-order', null, now, now);
  pay.run('pay-2', 15000, 'T2', 'plan-order', 'REFUND_DUE', now, now);
  pay.run('pay-3', 5150, 'T3', 'gift-order', null, now, now);
  const entry = sqlite.prepare("insert into ledger_entry (id, order_id, payment_id, kind, amount, created_at) values (?, ?, ?, ?, ?, ?)");
  entry.run('capture:pay-1', 'plan-order', 'pay-1', 'CAPTURE', 15000, now);
  entry.run('capture:pay-2', 'plan-order', 'pay-2', 'CAPTURE', 15000, now);
  entry.run('refund-due:pay-2', 'plan-order', 'pay-2', 'REFUND_DUE', 0, now);
  entry.run('capture:pay-3', 'gift-order', 'pay-3', 'CAPTURE', 5150, now);
  entry.run('refund:plan-order', 'plan-order', 'pay-1', 'REFUND', -15000, now + 1);

  migrate(db, { migrationsFolder: path.join(here, 'migrations') });

  const rows = sqlite.prepare('select group_id, account, kind, amount from ledger_entry order by group_id, account').all();
  expect(rows).toEqual([
    { group_id: 'capture:pay-1', account: 'gateway', kind: 'CAPTURE', amount: 15000 },
    { group_id: 'capture:pay-1', account: 'revenue:plans', kind: 'CAPTURE', amount: -15000 },
    { group_id: 'capture:pay-2', account: 'gateway', kind: 'REFUND_DUE', amount: 15000 },
    { group_id: 'capture:pay-2', account: 'refunds-due', kind: 'REFUND_DUE', amount: -15000 },
    { group_id: 'capture:pay-3', account: 'donations:general', kind: 'CAPTURE', amount: -5150 },
    { group_id: 'capture:pay-3', account: 'gateway', kind: 'CAPTURE', amount: 5150 },
    { group_id: 'refund:plan-order', account: 'gateway', kind: 'REFUND', amount: -15000 },
    { group_id: 'refund:plan-order', account: 'revenue:plans', kind: 'REFUND', amount: 15000 },
  ]);
  expect(sqlite.prepare('select group_id from ledger_entry group by group_id having sum(amount) <> 0').all()).toEqual([]);
  sqlite.close();
});
