import { eq } from 'drizzle-orm';
import type { ImportIssue } from '@pm/protocol/question-import';
import type { Conn } from '#server/db/client';
import { tag } from '#server/db/schema';
import { issue } from './rows';
import type { TagKey, TagRef } from './tag-ref';

/** The live tags, found by id or by a name in any language (case and spacing aside). */
export type TagIndex = { byName: Map<string, { key: TagKey; tid: string }[]> };

const norm = (s: string) => s.normalize('NFC').toLowerCase().replace(/\s+/g, ' ').trim();

export async function loadTags(db: Conn): Promise<TagIndex> {
  const byName = new Map<string, { key: TagKey; tid: string }[]>();
  const add = (name: string, entry: { key: TagKey; tid: string }) => {
    const k = norm(name);
    const list = byName.get(k) ?? [];
    if (!list.some((e) => e.tid === entry.tid)) list.push(entry);
    byName.set(k, list);
  };
  for (const t of await db.select({ tid: tag.tid, key: tag.key, tags: tag.tags }).from(tag).where(eq(tag.deleted, false))) {
    const entry = { key: t.key as TagKey, tid: t.tid };
    add(t.tid, entry);
    for (const name of Object.values(t.tags)) add(name, entry);
  }
  return { byName };
}

export type ResolvedTags = { c: string[]; s: string | null; t: string[]; e: string[] };

/**
 * The tag ids a row's references name. A CSV column names its group, and a name that is not a
 * tag of that group is an error; a GIFT category or [tag:…] may be a tag of any group, and one
 * that is none is a warning (the row is stored without it). A second subject is an error:
 * a question has one (docs/glossary.md "Questions").
 */
export function resolveTags(index: TagIndex, refs: readonly TagRef[]): { tags: ResolvedTags; errors: ImportIssue[]; warnings: ImportIssue[] } {
  const tags: ResolvedTags = { c: [], s: null, t: [], e: [] };
  const errors: ImportIssue[] = [];
  const warnings: ImportIssue[] = [];
  for (const ref of refs) {
    const found = (index.byName.get(norm(ref.name)) ?? []).filter((e) => !ref.group || e.key === ref.group);
    const hit = found[0];
    if (!hit) {
      if (ref.strict) errors.push(issue('unknownTag', { group: ref.group ?? '', name: ref.name }));
      else warnings.push(issue('categoryNotTag', { name: ref.name }));
      continue;
    }
    if (hit.key === 's') {
      if (tags.s && tags.s !== hit.tid) errors.push(issue('oneSubject', { name: ref.name }));
      else tags.s = hit.tid;
    } else if (!tags[hit.key].includes(hit.tid)) {
      tags[hit.key].push(hit.tid);
    }
  }
  return { tags, errors, warnings };
}
