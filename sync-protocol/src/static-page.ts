import { z } from 'zod';
import { MSG } from './messages';

/** The public pages an admin edits in both languages (docs/admin.md: Static pages). */
export const STATIC_PAGE_KEYS = ['about', 'faq', 'terms', 'privacy'] as const;
export type StaticPageKey = (typeof STATIC_PAGE_KEYS)[number];
export const staticPageKeySchema = z.enum(STATIC_PAGE_KEYS);

/** The languages a page is written in; each is saved, versioned and restored on its own. */
export const STATIC_PAGE_LANGS = ['en', 'hi'] as const;
export type StaticPageLang = (typeof STATIC_PAGE_LANGS)[number];
export const staticPageLangSchema = z.enum(STATIC_PAGE_LANGS);

/**
 * PUT /api/static-page: one language's HTML (sanitised on the server). `baseVersion` is the
 * version the edit started from (0: the built-in text); another save since then is a 409, so
 * that one admin never silently overwrites another's text.
 */
export const staticPageSaveSchema = z
  .strictObject({
    key: staticPageKeySchema,
    lang: staticPageLangSchema,
    html: z.string().max(200_000),
    baseVersion: z.int().min(0),
  })
  .refine((v) => v.html.trim() !== '', { error: MSG.pageEmpty, path: ['html'] });

/** POST /api/static-page/restore: write an earlier version's text again, as a new version. */
export const staticPageRestoreSchema = z.strictObject({
  key: staticPageKeySchema,
  lang: staticPageLangSchema,
  version: z.int().min(1),
  baseVersion: z.int().min(0),
});

/** GET /api/static-page/:key/versions?lang= */
export const staticPageVersionsQuerySchema = z.strictObject({ lang: staticPageLangSchema });

/**
 * A page's overrides: `content[lang]` is '' where that language has none (its built-in text
 * shows); `version[lang]` is that language's newest version, 0 when never saved.
 */
export type StaticPage = {
  key: StaticPageKey;
  content: { en: string; hi: string };
  version: { en: number; hi: number };
  updatedAt: number;
};

/** One saved version of one language of a page, newest first in lists. */
export type StaticPageVersion = {
  version: number;
  html: string;
  action: 'SAVE' | 'RESTORE';
  restoredFrom: number | null;
  actorName: string | null;
  createdAt: number;
};
