import { asc, count, desc, eq, or, type SQL } from 'drizzle-orm';
import type { Banner } from '../../../../sync-protocol/src/banner';
import type { ContactMessage } from '../../../../sync-protocol/src/contact';
import { MSG } from '../../../../sync-protocol/src/messages';
import type { StaticPage, StaticPageKey } from '../../../../sync-protocol/src/static-page';
import type { Deps, Principal } from '../../context';
import { banner, contactMessage, staticPage } from '../../db/schema';
import { containsText, insertionOrder } from '../../db/dialect';
import { first, transaction } from '../../db/transaction';
import { logActivity } from '../../lib/activity';
import { notFound } from '../../lib/errors';
import { sanitizeRichText } from '../../lib/sanitize';

const pageView = (r: typeof staticPage.$inferSelect): StaticPage => ({ key: r.key as StaticPageKey, content: r.content, updatedAt: r.updatedAt });

/** GET /api/static-page/:key (public): null when never edited, so the page shows its built-in text. */
export async function getPage(deps: Deps, key: StaticPageKey) {
  const r = await first(deps.db.select().from(staticPage).where(eq(staticPage.key, key)));
  return { success: true as const, data: r ? pageView(r) : null };
}

export async function listPages(deps: Deps) {
  return { success: true as const, data: (await deps.db.select().from(staticPage).orderBy(asc(staticPage.key))).map(pageView) };
}

/** PUT /api/static-page: sanitised HTML in both languages; logged with the old text. */
export async function savePage(deps: Deps, actor: Principal, input: { key: StaticPageKey; content: { en: string; hi: string } }) {
  const content = { en: sanitizeRichText(input.content.en), hi: sanitizeRichText(input.content.hi) };
  const data = await transaction(deps.db, async (tx) => {
    const before = await first(tx.select().from(staticPage).where(eq(staticPage.key, input.key)));
    const now = Date.now();
    const row = (await first(
      tx
        .insert(staticPage)
        .values({ key: input.key, content, updatedAt: now, updatedBy: actor.id })
        .onConflictDoUpdate({ target: staticPage.key, set: { content, updatedAt: now, updatedBy: actor.id } })
        .returning(),
    ))!;
    const v = pageView(row);
    await logActivity(tx, { actor, action: before ? 'UPDATE' : 'CREATE', entity: 'static_page', entityId: input.key, oldValue: before ? pageView(before) : null, newValue: v });
    return v;
  });
  return { success: true as const, msg: MSG.pageSaved, data };
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

/** GET /api/generic/contact-messages: newest first, searchable by name, mobile, e-mail or text. */
export async function listMessages(deps: Deps, input: { q: string; limit: number; offset: number }) {
  let where: SQL | undefined;
  if (input.q) {
    const q = input.q;
    where = or(
      containsText(deps.db, contactMessage.name, q),
      containsText(deps.db, contactMessage.mobile, q),
      containsText(deps.db, contactMessage.email, q),
      containsText(deps.db, contactMessage.description, q),
    );
  }
  const data: ContactMessage[] = await deps.db
    .select()
    .from(contactMessage)
    .where(where)
    .orderBy(desc(contactMessage.createdAt), desc(insertionOrder(deps.db, contactMessage)))
    .limit(input.limit)
    .offset(input.offset);
  const total = (await first(deps.db.select({ n: count() }).from(contactMessage).where(where)))?.n ?? 0;
  return { success: true as const, data, total };
}

export async function deleteMessage(deps: Deps, actor: Principal, id: string) {
  await transaction(deps.db, async (tx) => {
    const before = await first(tx.select().from(contactMessage).where(eq(contactMessage.id, id)));
    if (!before) throw notFound(MSG.messageNotFound);
    await tx.delete(contactMessage).where(eq(contactMessage.id, id));
    await logActivity(tx, { actor, action: 'DELETE', entity: 'contact_message', entityId: id, oldValue: before });
  });
  return { success: true as const, msg: MSG.messageDeleted };
}


