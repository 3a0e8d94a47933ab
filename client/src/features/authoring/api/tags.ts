import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Tag } from '@pm/protocol/tag';

/* Tags of the groups c (class), s (subject), t (topic), e (exam) (docs/glossary.md "Tags"). */

export type TagKey = Tag['key'];

/** GET /api/tag?key → the group's tags. */
export function getTags(key: TagKey): Promise<{ success: boolean; data: Tag[] }> {
  return api('/tag', { query: { key } });
}
export const tagKeys = { group: (key: TagKey) => ['authoring', 'tags', key] as const };
export function useTags(key: TagKey) {
  return useQuery({ queryKey: tagKeys.group(key), queryFn: () => getTags(key), select: (r) => r.data, staleTime: 60_000 });
}

/** A tag's name in a language, else in English, else its first name. */
export function tagName(tag: Pick<Tag, 'tags' | 'tid'>, lang: string): string {
  return tag.tags[lang] ?? tag.tags.en ?? Object.values(tag.tags)[0] ?? tag.tid;
}

/**
 * PATCH /api/tag {key, tagId, newTag, lang}: with `tagId` the name is added to that tag in `lang`
 * ('Tag exists in other language'), else a new tag is made. Silent: the dialog shows failures.
 */
export function patchTag(body: { key: TagKey; tagId?: string | null; newTag: string; lang: string }): Promise<{ success: boolean; msg: string; data: Tag }> {
  return api('/tag', { method: 'PATCH', body, silent: true });
}
export function usePatchTag() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: patchTag, onSuccess: (_r, v) => qc.invalidateQueries({ queryKey: tagKeys.group(v.key) }) });
}
