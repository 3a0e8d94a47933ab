import { randomUUID } from 'node:crypto';
import { getTableColumns, sql } from 'drizzle-orm';
import type { ActionType } from '../../../sync-protocol/src/activity-log';
import type { Conn, DB } from '../db/client';
import { activityLog } from '../db/schema';
import { rawStatement, rowEncoder } from './raw-statement';

export type Actor = { id: string; name: string } | null;

const SECRET_KEYS = new Set(['passwordHash', 'password', 'tokenVersion', 'codeHash', 'token']);

/** Copies a value for the log with secrets removed (issue 2 §7). */
export function scrub(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(scrub);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([k]) => !SECRET_KEYS.has(k))
        .map(([k, v]) => [k, scrub(v)]),
    );
  }
  return value;
}

export type ActivityEntry = {
  actor: Actor;
  action: ActionType;
  entity: string;
  entityId: string;
  oldValue?: unknown;
  newValue?: unknown;
};

/** The columns an entry sets (id and created_at are left to their defaults). */
function entryValues(entry: ActivityEntry) {
  return {
    actionType: entry.action,
    personId: entry.actor?.id ?? null,
    personName: entry.actor?.name ?? null,
    entityAffected: entry.entity,
    entityId: entry.entityId,
    oldValue: entry.oldValue === undefined ? null : scrub(entry.oldValue),
    newValue: entry.newValue === undefined ? null : scrub(entry.newValue),
  };
}

/** Writes one activity entry; call inside the transaction of the change it records. */
export async function logActivity(tx: Conn, entry: ActivityEntry): Promise<void> {
  await tx.insert(activityLog).values(entryValues(entry));
}

type ActivityRow = typeof activityLog.$inferSelect;
const preparedLoggers = new WeakMap<DB, (entry: ActivityEntry) => Promise<void>>();

/**
 * `logActivity` by a statement prepared once per database, for batch writes (a question import
 * logs 5,000 entries; building each INSERT with Drizzle cost more than running it). The same
 * row: every column is a placeholder, so the id and time are drawn per entry as their defaults
 * would draw them. Run it inside the transaction of the change, prepared on that transaction's
 * handle (`tx`): a statement is bound to the handle it was prepared on.
 */
export function activityLogger(db: DB): (entry: ActivityEntry) => Promise<void> {
  let log = preparedLoggers.get(db);
  if (!log) {
    const cols = Object.keys(getTableColumns(activityLog)) as (keyof ActivityRow)[];
    const insert = rawStatement(db, db.insert(activityLog).values(Object.fromEntries(cols.map((c) => [c, sql`${sql.placeholder(c)}`])) as unknown as ActivityRow));
    const encode = rowEncoder(activityLog);
    log = async (entry) => {
      const row: ActivityRow = { id: randomUUID(), createdAt: Date.now(), ...entryValues(entry) };
      await insert.run(encode(row));
    };
    preparedLoggers.set(db, log);
  }
  return log;
}
