import { and, asc, desc, eq, max } from 'drizzle-orm';
import type { Banner } from '@pm/protocol/banner';
import { MSG } from '@pm/protocol/messages';
import type { StaticPage, StaticPageKey, StaticPageLang, StaticPageVersion } from '@pm/protocol/static-page';
import type { Deps, Principal } from '../../context';
import { banner, staticPage, staticPageVersion } from '../../db/schema';
import { first, transaction } from '../../db/transaction';
import { logActivity } from '../../lib/activity';
import { badRequest, conflict, notFound } from '../../lib/errors';
import { sanitizeRichText } from '../../lib/sanitize';

const pageView = (r: typeof staticPage.$inferSelect, version: { en: number; hi: number }): StaticPage => ({
  key: r.key as StaticPageKey,
  content: r.content,
  version,
  updatedAt: r.updatedAt,
});

/** Each language's newest version of the pages (0 for a language never saved). */
async function versionsOf(db: Deps['db'], key?: StaticPageKey): Promise<Map<string, { en: number; hi: number }>> {
  const rows = await db
    .select({ key: staticPageVersion.key, lang: staticPageVersion.lang, version: max(staticPageVersion.version) })
    .from(staticPageVersion)
    .where(key ? eq(staticPageVersion.key, key) : undefined)
    .groupBy(staticPageVersion.key, staticPageVersion.lang);
  const out = new Map<string, { en: number; hi: number }>();
  for (const r of rows) {
    const v = out.get(r.key) ?? { en: 0, hi: 0 };
    v[r.lang as StaticPageLang] = Number(r.version ?? 0);
    out.set(r.key, v);
  }
  return out;
}

/**
 * GET /api/static-page/:key (public): each language's override ('' where there is none, and the
 * reader of that language gets the built-in text: docs/admin.md, Static pages), or null when
 * the page was never edited.
 */
export async function getPage(deps: Deps, key: StaticPageKey) {
  const r = await first(deps.db.select().from(staticPage).where(eq(staticPage.key, key)));
  if (!r) return { success: true as const, data: null };
  const versions = await versionsOf(deps.db, key);
  return { success: true as const, data: pageView(r, versions.get(key) ?? { en: 0, hi: 0 }) };
}

export async function listPages(deps: Deps) {
  const rows = await deps.db.select().from(staticPage).orderBy(asc(staticPage.key));
  const versions = await versionsOf(deps.db);
  return { success: true as const, data: rows.map((r) => pageView(r, versions.get(r.key) ?? { en: 0, hi: 0 })) };
}

/** GET /api/static-page/:key/versions?lang=: every version of one language, newest first. */
export async function listPageVersions(deps: Deps, key: StaticPageKey, lang: StaticPageLang) {
  const rows = await deps.db
    .select()
    .from(staticPageVersion)
    .where(and(eq(staticPageVersion.key, key), eq(staticPageVersion.lang, lang)))
    .orderBy(desc(staticPageVersion.version));
  const data: StaticPageVersion[] = rows.map((r) => ({
    version: r.version,
    html: r.html,
    action: r.action as StaticPageVersion['action'],
    restoredFrom: r.restoredFrom,
    actorName: r.actorName,
    createdAt: r.createdAt,
  }));
  return { success: true as const, data };
}

/**
 * Writes `html` as the next version of one language of a page and makes it that language's
 * text; the other language is untouched. The version row is the conditional write: its key
 * (page, language, version) exists once, so of two saves from the same version one gets 409.
 */
async function writeVersion(
  deps: Deps,
  actor: Principal,
  input: { key: StaticPageKey; lang: StaticPageLang; html: string; baseVersion: number; restoredFrom: number | null },
) {
  return transaction(deps.db, async (tx) => {
    const current = (await versionsOf(tx, input.key)).get(input.key) ?? { en: 0, hi: 0 };
    if (current[input.lang] !== input.baseVersion) throw conflict(MSG.pageChanged);
    const now = Date.now();
    const version = input.baseVersion + 1;
    const inserted = await tx
      .insert(staticPageVersion)
      .values({
        key: input.key,
        lang: input.lang,
        version,
        html: input.html,
        action: input.restoredFrom === null ? 'SAVE' : 'RESTORE',
        restoredFrom: input.restoredFrom,
        actorId: actor.id,
        actorName: actor.name,
        createdAt: now,
      })
      .onConflictDoNothing()
      .returning({ version: staticPageVersion.version });
    if (inserted.length === 0) throw conflict(MSG.pageChanged);
    const before = await first(tx.select().from(staticPage).where(eq(staticPage.key, input.key)));
    const content = { en: before?.content.en ?? '', hi: before?.content.hi ?? '', [input.lang]: input.html };
    const row = (await first(
      tx
        .insert(staticPage)
        .values({ key: input.key, content, updatedAt: now, updatedBy: actor.id })
        .onConflictDoUpdate({ target: staticPage.key, set: { content, updatedAt: now, updatedBy: actor.id } })
        .returning(),
    ))!;
    const v = pageView(row, { ...current, [input.lang]: version });
    await logActivity(tx, {
      actor,
      action: before ? 'UPDATE' : 'CREATE',
      entity: 'static_page',
      entityId: input.key,
      oldValue: before ? pageView(before, current) : null,
      newValue: v,
    });
    return v;
  });
}

/** PUT /api/static-page: one language's sanitised HTML, as its next version. */
export async function savePage(deps: Deps, actor: Principal, input: { key: StaticPageKey; lang: StaticPageLang; html: string; baseVersion: number }) {
  const html = sanitizeRichText(input.html);
  // What the sanitiser leaves may be nothing (a lone <script>): refused like an empty text.
  if (html.replace(/<[^>]*>/g, '').trim() === '' && !/<img\b/i.test(html)) throw badRequest(MSG.pageEmpty);
  const data = await writeVersion(deps, actor, { ...input, html, restoredFrom: null });
  return { success: true as const, msg: MSG.pageSaved, data };
}

/** POST /api/static-page/restore: an earlier version's text becomes the next version. */
export async function restorePage(deps: Deps, actor: Principal, input: { key: StaticPageKey; lang: StaticPageLang; version: number; baseVersion: number }) {
  const old = await first(
    deps.db
      .select()
      .from(staticPageVersion)
      .where(and(eq(staticPageVersion.key, input.key), eq(staticPageVersion.lang, input.lang), eq(staticPageVersion.version, input.version))),
  );
  if (!old) throw notFound(MSG.pageVersionNotFound);
  const data = await writeVersion(deps, actor, { key: input.key, lang: input.lang, html: old.html, baseVersion: input.baseVersion, restoredFrom: input.version });
  return { success: true as const, msg: MSG.pageRestored, data };
}

const bannerView = (r: typeof banner.$inferSelect): Banner => ({
  id: r.id,
  src: r.src,
  headline: r.headline,
  text: r.text,
  callToActionText: r.callToActionText,
  linkToAction: r.linkToAction,
  type: r.type,
  active: r.active,
  order: r.sortOrder,
});

type BannerInput = Omit<Banner, 'id'>;
const bannerValues = (i: BannerInput) => ({
  src: i.src,
  headline: i.headline,
  text: i.text,
  callToActionText: i.callToActionText,
  linkToAction: i.linkToAction,
  type: i.type,
  active: i.active,
  sortOrder: i.order,
  updatedAt: Date.now(),
});

/** GET /api/banner (public: active slides) and GET /api/banner/all (admin). */
export async function listBanners(deps: Deps, all: boolean) {
  const rows = await deps.db
    .select()
    .from(banner)
    .where(all ? undefined : eq(banner.active, true))
    .orderBy(asc(banner.sortOrder), asc(banner.createdAt));
  return { success: true as const, data: rows.map(bannerView) };
}

export async function createBanner(deps: Deps, actor: Principal, input: BannerInput) {
  const data = await transaction(deps.db, async (tx) => {
    const row = (await first(tx.insert(banner).values(bannerValues(input)).returning()))!;
    await logActivity(tx, { actor, action: 'CREATE', entity: 'banner', entityId: row.id, newValue: bannerView(row) });
    return bannerView(row);
  });
  return { success: true as const, msg: MSG.bannerSaved, data };
}

export async function updateBanner(deps: Deps, actor: Principal, input: BannerInput & { id: string }) {
  const data = await transaction(deps.db, async (tx) => {
    const before = await first(tx.select().from(banner).where(eq(banner.id, input.id)));
    if (!before) throw notFound(MSG.bannerNotFound);
    const row = (await first(tx.update(banner).set(bannerValues(input)).where(eq(banner.id, input.id)).returning()))!;
    await logActivity(tx, { actor, action: 'UPDATE', entity: 'banner', entityId: row.id, oldValue: bannerView(before), newValue: bannerView(row) });
    return bannerView(row);
  });
  return { success: true as const, msg: MSG.bannerSaved, data };
}

export async function deleteBanner(deps: Deps, actor: Principal, id: string) {
  await transaction(deps.db, async (tx) => {
    const before = await first(tx.select().from(banner).where(eq(banner.id, id)));
    if (!before) throw notFound(MSG.bannerNotFound);
    await tx.delete(banner).where(eq(banner.id, id));
    await logActivity(tx, { actor, action: 'DELETE', entity: 'banner', entityId: id, oldValue: bannerView(before) });
  });
  return { success: true as const, msg: MSG.bannerDeleted };
}
