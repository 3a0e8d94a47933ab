import { z } from 'zod';
import { MSG } from './messages';

/** The public pages an admin edits in both languages (issue 6: static-pages). */
export const STATIC_PAGE_KEYS = ['about', 'faq', 'terms', 'privacy'] as const;
export type StaticPageKey = (typeof STATIC_PAGE_KEYS)[number];
export const staticPageKeySchema = z.enum(STATIC_PAGE_KEYS);

/** PUT /api/static-page: HTML in English and Hindi (sanitised on the server), at least one filled. */
export const staticPageSaveSchema = z
  .strictObject({
    key: staticPageKeySchema,
    content: z.strictObject({ en: z.string().max(200_000), hi: z.string().max(200_000) }),
  })
  .refine((v) => v.content.en.trim() !== '' || v.content.hi.trim() !== '', { error: MSG.pageEmpty });

export type StaticPage = { key: StaticPageKey; content: { en: string; hi: string }; updatedAt: number };
