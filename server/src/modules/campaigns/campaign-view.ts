import { and, asc, desc, eq, inArray, isNull } from 'drizzle-orm';
import type { Campaign, CampaignCard, CampaignCause, CampaignEvent, CampaignImage, CampaignStatus, CampaignUpdate } from '@pm/protocol/campaign';
import type { Conn } from '../../db/client';
import { type campaign, campaignEvent, campaignImage, campaignUpdate, person } from '../../db/schema';
import { type CampaignTotals, campaignTotals } from './campaign-totals';

/*
 * How stored campaigns read on the wire (sync-protocol/src/campaign.ts): a campaign with its
 * images, owner's name and totals; its card in lists; its updates and history. Readers load
 * what a page of campaigns needs in a few queries (never one per campaign).
 */

export type CampaignRow = typeof campaign.$inferSelect;

/** The stored fields an edit may change, as the activity log records them before and after. */
export function editableFields(r: CampaignRow) {
  return {
    beneficiaryId: r.beneficiaryId,
    title: { en: r.titleEn, hi: r.titleHi },
    story: { en: r.storyEn, hi: r.storyHi },
    cause: r.cause,
    need: r.need,
    goal: r.goal,
    endsAt: r.endsAt,
  };
}

/** The campaigns' own images (kind CAMPAIGN), in the order they are shown, by campaign id. */
export async function imagesOf(db: Conn, ids: readonly string[]): Promise<Map<string, CampaignImage[]>> {
  const out = new Map<string, CampaignImage[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return out;
  const rows = await db
    .select({ id: campaignImage.id, campaignId: campaignImage.campaignId, url: campaignImage.url })
    .from(campaignImage)
    .where(and(inArray(campaignImage.campaignId, [...ids]), eq(campaignImage.kind, 'CAMPAIGN')))
    .orderBy(asc(campaignImage.position), asc(campaignImage.createdAt), asc(campaignImage.id));
  for (const r of rows) out.get(r.campaignId)?.push({ id: r.id, url: r.url });
  return out;
}

/** Names of the people of `ids` (missing ones are left out). */
async function namesOf(db: Conn, ids: readonly (string | null)[]): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
  if (wanted.length === 0) return new Map();
  return new Map((await db.select({ id: person.id, name: person.name }).from(person).where(inArray(person.id, wanted))).map((p) => [p.id, p.name]));
}

function toCampaign(r: CampaignRow, images: CampaignImage[], names: Map<string, string>, totals: CampaignTotals): Campaign {
  return {
    id: r.id,
    beneficiaryId: r.beneficiaryId,
    beneficiaryName: r.beneficiaryId ? (names.get(r.beneficiaryId) ?? null) : null,
    trustId: r.trustId,
    title: { en: r.titleEn, hi: r.titleHi },
    story: { en: r.storyEn, hi: r.storyHi },
    cause: r.cause as CampaignCause,
    need: r.need,
    goal: r.goal,
    endsAt: r.endsAt,
    images,
    status: r.status as CampaignStatus,
    reason: r.reason,
    createdBy: r.createdBy,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    submittedAt: r.submittedAt,
    approvedAt: r.approvedAt,
    approvedBy: r.approvedBy,
    raised: totals.raised,
    donors: totals.donors,
  };
}

/** Whole campaigns, in the order of `rows`. */
export async function campaignsOf(db: Conn, rows: readonly CampaignRow[]): Promise<Campaign[]> {
  const ids = rows.map((r) => r.id);
  const [images, names, totals] = [await imagesOf(db, ids), await namesOf(db, rows.map((r) => r.beneficiaryId)), await campaignTotals(db, ids)];
  return rows.map((r) => toCampaign(r, images.get(r.id) ?? [], names, totals.get(r.id) ?? { raised: 0, donors: 0 }));
}

/** Cards for lists, in the order of `rows`. */
export async function cardsOf(db: Conn, rows: readonly CampaignRow[]): Promise<CampaignCard[]> {
  const ids = rows.map((r) => r.id);
  const [images, totals] = [await imagesOf(db, ids), await campaignTotals(db, ids)];
  return rows.map((r) => {
    const t = totals.get(r.id) ?? { raised: 0, donors: 0 };
    return {
      id: r.id,
      title: { en: r.titleEn, hi: r.titleHi },
      cause: r.cause as CampaignCause,
      goal: r.goal,
      raised: t.raised,
      donors: t.donors,
      endsAt: r.endsAt,
      status: r.status as CampaignStatus,
      image: images.get(r.id)?.[0]?.url ?? null,
    };
  });
}

/** A campaign's updates, newest first, each with its images. */
export async function updatesOf(db: Conn, campaignId: string): Promise<CampaignUpdate[]> {
  const rows = await db.select().from(campaignUpdate).where(eq(campaignUpdate.campaignId, campaignId)).orderBy(desc(campaignUpdate.createdAt), desc(campaignUpdate.id));
  if (rows.length === 0) return [];
  const images = await db
    .select({ id: campaignImage.id, updateId: campaignImage.updateId, url: campaignImage.url })
    .from(campaignImage)
    .where(and(eq(campaignImage.campaignId, campaignId), eq(campaignImage.kind, 'UPDATE')))
    .orderBy(asc(campaignImage.position), asc(campaignImage.id));
  return rows.map((u) => ({
    id: u.id,
    campaignId: u.campaignId,
    authorId: u.authorId,
    authorName: u.authorName,
    text: { en: u.textEn, hi: u.textHi },
    images: images.filter((i) => i.updateId === u.id).map((i) => ({ id: i.id, url: i.url })),
    createdAt: u.createdAt,
  }));
}

/** A campaign's history, oldest first. */
export async function historyOf(db: Conn, campaignId: string): Promise<CampaignEvent[]> {
  const rows = await db.select().from(campaignEvent).where(eq(campaignEvent.campaignId, campaignId)).orderBy(asc(campaignEvent.createdAt), asc(campaignEvent.id));
  return rows.map((e) => ({
    id: e.id,
    action: e.action,
    from: e.fromStatus as CampaignStatus | null,
    to: e.toStatus as CampaignStatus,
    note: e.note,
    actor: e.actorId || e.actorName ? { id: e.actorId ?? '', name: e.actorName ?? '' } : null,
    at: e.createdAt,
  }));
}

/** Images uploaded for updates that no update has taken yet. */
export async function pendingUpdateImages(db: Conn, campaignId: string): Promise<number> {
  return (await db.select({ id: campaignImage.id }).from(campaignImage).where(and(eq(campaignImage.campaignId, campaignId), eq(campaignImage.kind, 'UPDATE'), isNull(campaignImage.updateId)))).length;
}
