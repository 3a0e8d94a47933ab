import type { TAG_KEYS } from '@pm/protocol/tag';

/*
 * A tag as an imported row names it: read by the formats (rows.ts, csv.ts, gift.ts) and looked up
 * by tags.ts. A file of its own, so that neither of rows.ts and tags.ts imports the other for it.
 */

export type TagKey = (typeof TAG_KEYS)[number];

/**
 * A tag a row names. CSV names its group (column), and a name it names must exist (`strict`);
 * GIFT's categories and [tag:…] comments name no group, and a name that is no tag of ours is
 * reported as a warning (the row is stored without it).
 */
export type TagRef = { name: string; group?: TagKey; strict: boolean };
