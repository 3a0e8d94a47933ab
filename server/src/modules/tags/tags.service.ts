import { randomBytes } from 'node:crypto';
import { and, asc, eq, gt, max, sql } from 'drizzle-orm';
import { MSG } from '@pm/protocol/messages';
import type { Deps, Principal } from '../../context';
import type { DB } from '../../db/client';
import { prepared as prepare } from '../../db/dialect';
import { tag } from '../../db/schema';
import { first, transaction } from '../../db/transaction';
import { logActivity } from '../../lib/activity';
import { badRequest, notFound } from '../../lib/errors';
import { nextRev } from '../../lib/revision';

type TagRow = Pick<typeof tag.$inferSelect, 'key' | 'tid' | 'tags' | 'uat' | 'deleted'>;
/** The columns a view reads (a function: the table is the engine's, known once the database is open, db/schema.ts). */
const viewColumns = () => ({ key: tag.key, tid: tag.tid, tags: tag.tags, uat: tag.uat, deleted: tag.deleted });
const view = (t: TagRow) => ({ key: t.key, tid: t.tid, tags: t.tags, uat: t.uat, ...(t.deleted && { deleted: true }) });

/** GET /tag?key — live tags, one group or all. */
export async function list(deps: Deps, key?: string) {
  const q = listQueries(deps.db);
  const rows = key ? await q.byKey.all({ key }) : await q.all.execute();
  return { success: true as const, data: rows.map(view) };
}

/**
 * The same answer as `list`, serialised, from a cache. An entry is served while it is younger
 * than REVALIDATE_MS; after that one index lookup of the newest tag revision decides whether it
 * still holds (every tag write takes a new revision from the one counter). Writes through this
 * process drop the cache at once, so only a change made by another server instance can show up
 * to REVALIDATE_MS late. Tags are the hottest read of the API and change rarely.
 */
const REVALIDATE_MS = 1000;
export async function listJson(deps: Deps, key?: string): Promise<string> {
  const q = listQueries(deps.db);
  const k = key ?? '*';
  const now = Date.now();
  const hit = q.cache.get(k);
  if (hit && now - hit.checkedAt < REVALIDATE_MS) return hit.json;
  const rev = (await q.maxRev.execute())[0]?.rev ?? 0;
  if (hit && hit.rev === rev) {
    hit.checkedAt = now;
    return hit.json;
  }
  const json = JSON.stringify(await list(deps, key));
  q.cache.set(k, { rev, json, checkedAt: now });
  return json;
}

const prepared = new WeakMap<DB, ReturnType<typeof prepareList>>();
function listQueries(db: DB) {
  let q = prepared.get(db);
  if (!q) {
    q = prepareList(db);
    prepared.set(db, q);
  }
  return q;
}
function prepareList(db: DB) {
  return {
    byKey: prepare(
      db,
      db
        .select(viewColumns())
        .from(tag)
        .where(and(eq(tag.deleted, false), eq(tag.key, sql.placeholder('key'))))
        .orderBy(asc(tag.tid)),
    ),
    all: prepare(db, db.select(viewColumns()).from(tag).where(eq(tag.deleted, false)).orderBy(asc(tag.key), asc(tag.tid))),
    maxRev: prepare(db, db.select({ rev: sql<number>`max(${tag.rev})` }).from(tag)),
    cache: new Map<string, { rev: number; json: string; checkedAt: number }>(),
  };
}

/** GET /tag/getRecentlyUpdatedTags?lastTimestamp — changes since then, deletions included. */
export async function recent(deps: Deps, lastTimestamp: number) {
  const rows = await deps.db.select().from(tag).where(gt(tag.uat, lastTimestamp)).orderBy(asc(tag.uat));
  const last = rows.reduce((m, r) => Math.max(m, r.uat), lastTimestamp);
  return { success: true as const, tags: rows.map(view), lastTimestamp: last };
}

function slug(text: string): string {
  return text
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
}

/**
 * PATCH /tag {key, tagId, newTag, lang}. With `tagId` the name is added (or replaced) in `lang`
 * on that tag — the "exists in other language" case; without, a new tag is created.
 */
export async function patch(deps: Deps, actor: Principal, input: { key: 'c' | 's' | 't' | 'e'; tagId?: string | null | undefined; newTag: string; lang: string }) {
  const data = await transaction(deps.db, async (tx) => {
    // `uat` is the cursor of getRecentlyUpdatedTags ("changed after lastTimestamp"), so it must grow
    // with every change, also within one millisecond or after the clock steps back; otherwise a
    // client already holding that lastTimestamp would never receive this change.
    const latest = (await first(tx.select({ m: max(tag.uat) }).from(tag)))?.m ?? 0;
    const now = Math.max(Date.now(), latest + 1);
    if (input.tagId) {
      const before = await first(tx.select().from(tag).where(eq(tag.tid, input.tagId)));
      if (!before || before.deleted) throw notFound(MSG.tagExistingRequired);
      if (before.key !== input.key) throw badRequest(MSG.tagExistingRequired);
      const after = (await first(
        tx
          .update(tag)
          .set({ tags: { ...before.tags, [input.lang]: input.newTag }, uat: now, rev: await nextRev(tx) })
          .where(eq(tag.tid, before.tid))
          .returning(),
      ))!;
      await logActivity(tx, { actor, action: 'UPDATE', entity: 'tag', entityId: after.tid, oldValue: view(before), newValue: view(after) });
      return view(after);
    }
    let tid = slug(input.newTag) || `${input.key}-${randomBytes(3).toString('hex')}`;
    while (await first(tx.select({ tid: tag.tid }).from(tag).where(eq(tag.tid, tid)))) {
      tid = `${slug(input.newTag) || input.key}-${randomBytes(3).toString('hex')}`;
    }
    const created = (await first(
      tx
        .insert(tag)
        .values({ tid, key: input.key, tags: { [input.lang]: input.newTag }, uat: now, rev: await nextRev(tx) })
        .returning(),
    ))!;
    await logActivity(tx, { actor, action: 'CREATE', entity: 'tag', entityId: created.tid, newValue: view(created) });
    return view(created);
  });
  listQueries(deps.db).cache.clear();
  deps.events.emit({ collections: ['tag'] });
  return { success: true as const, msg: MSG.tagCreated, data };
}
