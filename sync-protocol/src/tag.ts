import { z } from 'zod';
import { MSG } from './messages';

/** Tag groups (docs/glossary.md "Tags"): classes, subjects, topics, previously asked exams. */
export const TAG_KEYS = ['c', 's', 't', 'e'] as const;
export const tagKeySchema = z.enum(TAG_KEYS, { error: MSG.tagKeyMissing });

export const tidSchema = z.string().min(1).max(80).regex(/^[a-z0-9][a-z0-9-]*$/, { error: 'Invalid tag id' });

/** A tag: its names per language code. */
export const tagSchema = z.strictObject({
  key: tagKeySchema,
  tid: tidSchema,
  tags: z.record(z.string().regex(/^[a-z]{2}$/), z.string().trim().min(1).max(120)),
});
export type Tag = z.infer<typeof tagSchema>;

/** GET /api/tag?key */
export const tagQuerySchema = z.strictObject({ key: tagKeySchema.optional() });

/**
 * PATCH /api/tag {key, tagId, newTag, lang}: adds `newTag` in `lang`; with `tagId` the name is
 * added to that existing tag (the "exists in other language" case), else a new tag is created.
 */
export const tagPatchSchema = z.strictObject({
  key: z.string({ error: MSG.tagKeyMissing }).min(1, { error: MSG.tagKeyMissing }).pipe(tagKeySchema),
  tagId: tidSchema.optional().nullable(),
  newTag: z.string({ error: MSG.tagNameRequired }).trim().min(1, { error: MSG.tagNameRequired }).max(120),
  lang: z.string({ error: MSG.tagNameRequired }).regex(/^[a-z]{2}$/, { error: MSG.tagNameRequired }),
});

/** GET /api/tag/getRecentlyUpdatedTags?lastTimestamp */
export const recentTagsQuerySchema = z.strictObject({
  lastTimestamp: z.coerce.number().int().min(0).optional().default(0),
});
