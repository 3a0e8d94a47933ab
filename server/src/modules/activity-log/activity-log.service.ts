import { asc, count, desc } from 'drizzle-orm';
import type { ActivityLogEntry } from '@pm/protocol/activity-log';
import type { Deps } from '../../context';
import { activityLog } from '../../db/schema';
import { insertionOrder } from '../../db/dialect';
import { first } from '../../db/transaction';

const SORT = {
  createdAt: activityLog.createdAt,
  actionType: activityLog.actionType,
  person: activityLog.personName,
  entityAffected: activityLog.entityAffected,
} as const;

/** GET /getActivityLog — newest first by default; page size 50 (docs/glossary.md "Fixed values"). */
export async function page(
  deps: Deps,
  input: { pageSize: number; offset: number; sort: keyof typeof SORT; order: 'asc' | 'desc' },
) {
  const dir = input.order === 'asc' ? asc : desc;
  const rows = await deps.db
    .select()
    .from(activityLog)
    // Ties (entries written in the same millisecond) go by insertion order; the random uuid id
    // would shuffle them, so "newest first" would not be.
    .orderBy(dir(SORT[input.sort]), dir(activityLog.createdAt), dir(insertionOrder(deps.db, activityLog)))
    .limit(input.pageSize)
    .offset(input.offset);
  const data: ActivityLogEntry[] = rows.map((r) => ({
    id: r.id,
    createdAt: r.createdAt,
    actionType: r.actionType as ActivityLogEntry['actionType'],
    person: r.personName ? { id: r.personId ?? '', name: r.personName } : null,
    entityAffected: r.entityAffected,
    entityId: r.entityId,
    oldValue: r.oldValue,
    newValue: r.newValue,
  }));
  return { success: true as const, data };
}

export async function total(deps: Deps) {
  return { success: true as const, count: (await first(deps.db.select({ n: count() }).from(activityLog)))?.n ?? 0 };
}
