import { randomBytes } from 'node:crypto';
import { and, asc, eq, gt } from 'drizzle-orm';
import { MSG } from '../../../../sync-protocol/src/messages';
import type { Deps, Principal } from '../../context';
import { tag } from '../../db/schema';
import { logActivity } from '../../lib/activity';
import { badRequest, notFound } from '../../lib/errors';
import { nextRev } from '../../lib/revision';

type TagRow = typeof tag.$inferSelect;
const view = (t: TagRow) => ({ key: t.key, tid: t.tid, tags: t.tags, uat: t.uat, ...(t.deleted && { deleted: true }) });

/** GET /tag?key — live tags, one group or all. */
export function list(deps: Deps, key?: string) {
  const rows = deps.db
    .select()
    .from(tag)
    .where(and(eq(tag.deleted, false), key ? eq(tag.key, key) : undefined))
    .orderBy(asc(tag.key), asc(tag.tid))
    .all();
  return { success: true as const, data: rows.map(view) };
}

/** GET /tag/getRecentlyUpdatedTags?lastTimestamp — changes since then, deletions included. */
export function recent(deps: Deps, lastTimestamp: number) {
  const rows = deps.db.select().from(tag).where(gt(tag.uat, lastTimestamp)).orderBy(asc(tag.uat)).all();
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
export function patch(deps: Deps, actor: Principal, input: { key: 'c' | 's' | 't' | 'e'; tagId?: string | null | undefined; newTag: string; lang: string }) {
  const now = Date.now();
  const data = deps.db.transaction((tx) => {
    if (input.tagId) {
      const before = tx.select().from(tag).where(eq(tag.tid, input.tagId)).get();
      if (!before || before.deleted) throw notFound(MSG.tagExistingRequired);
      if (before.key !== input.key) throw badRequest(MSG.tagExistingRequired);
      const after = tx
        .update(tag)
        .set({ tags: { ...before.tags, [input.lang]: input.newTag }, uat: now, rev: nextRev(tx) })
        .where(eq(tag.tid, before.tid))
        .returning()
        .get();
      logActivity(tx, { actor, action: 'UPDATE', entity: 'tag', entityId: after.tid, oldValue: view(before), newValue: view(after) });
      return view(after);
    }
    let tid = slug(input.newTag) || `${input.key}-${randomBytes(3).toString('hex')}`;
    while (tx.select({ tid: tag.tid }).from(tag).where(eq(tag.tid, tid)).get()) {
      tid = `${slug(input.newTag) || input.key}-${randomBytes(3).toString('hex')}`;
    }
    const created = tx
      .insert(tag)
      .values({ tid, key: input.key, tags: { [input.lang]: input.newTag }, uat: now, rev: nextRev(tx) })
      .returning()
      .get();
    logActivity(tx, { actor, action: 'CREATE', entity: 'tag', entityId: created.tid, newValue: view(created) });
    return view(created);
  });
  return { success: true as const, msg: MSG.tagCreated, data };
}
