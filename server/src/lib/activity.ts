import type { ActionType } from '@pm/protocol/activity-log';
import type { Conn } from '../db/client';
import { activityLog } from '../db/schema';

export type Actor = { id: string; name: string } | null;

const SECRET_KEYS = new Set(['passwordHash', 'password', 'tokenVersion', 'codeHash', 'token']);

/** Copies a value for the log with secrets removed (docs/admin.md). */
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
