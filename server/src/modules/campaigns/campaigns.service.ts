import { and, asc, count, desc, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import {
  type CampaignCreate,
  type CampaignEdit,
  type CampaignSort,
  type CampaignStatus,
  type campaignListQuerySchema,
  goalOf,
  PUBLIC_CAMPAIGN_STATUSES,
} from '@pm/protocol/campaign';
import { MSG } from '@pm/protocol/messages';
import { isBlankHtml } from '@pm/protocol/question';
import type { z } from 'zod';
import type { Deps, Principal } from '../../context';
import type { Conn } from '../../db/client';
import { containsText, insertionOrder, lockRows } from '../../db/dialect';
import { campaign, campaignEvent, campaignImage, meta, person, trust } from '../../db/schema';
import { first, transaction } from '../../db/transaction';
import { logActivity } from '../../lib/activity';
import { AppError, badRequest, conflict, forbidden } from '../../lib/errors';
import { sanitizeRichText } from '../../lib/sanitize';
import { beneficiaryActive, campaignNotFound, isPublic, isStaff, manageableCampaign, readableCampaign, seesInside } from './campaign-access';
import { campaignMoney, campaignTotals } from './campaign-totals';
import { type CampaignRow, campaignsOf, cardsOf, editableFields, historyOf, updatesOf } from './campaign-view';
import { type CampaignMove, MOVES, nextStatus } from './campaigns.machine';

/*
 * Campaigns (docs/charity.md): drafting and editing, the moves of campaigns.machine.ts, and the
 * readers (the public list, a campaign's page, My campaigns, the approval queue, the featured
 * campaign). Images and updates are in campaign-media.ts. Every change writes its history entry
 * (campaign_event) and its activity entry in the transaction that makes it.
 */

type Bilingual = { en: string; hi: string };

/** A story or update's rich text, sanitised as a question's text is; blank once sanitised is refused, naming the field. */
export function cleanStory(text: Bilingual, field: string): Bilingual {
  const en = sanitizeRichText(text.en);
  if (isBlankHtml(en)) throw badRequest(`${field}.en ${MSG.fieldEmpty}`);
  const hi = text.hi === '' ? '' : sanitizeRichText(text.hi);
  return { en, hi: isBlankHtml(hi) ? '' : hi };
}

const actorOf = (p: Principal) => ({ id: p.id, name: p.name });

/** A history entry; call inside the transaction of the change it records. */
async function recordEvent(tx: Conn, p: Principal, campaignId: string, action: string, from: string | null, to: string, note: string | null, at: number) {
  await tx.insert(campaignEvent).values({ campaignId, action, fromStatus: from, toStatus: to, note, actorId: p.id, actorName: p.name, createdAt: at });
}

/** The move is not allowed from the campaign's status: 409, with the status it has. */
const moveRefused = (status: string, msg: string = MSG.campaignMoveNotAllowed) => new AppError('CONFLICT', msg, { status });

/** A person staff names as a campaign's beneficiary must exist and be active. */
async function assertBeneficiary(db: Conn, id: string) {
  const found = await first(db.select({ status: person.status }).from(person).where(eq(person.id, id)));
  if (found?.status !== 'ACTIVE') throw badRequest(MSG.campaignBeneficiaryNotFound);
}

/** Only staff may name someone else as a campaign's beneficiary. */
async function checkBeneficiary(db: Conn, p: Principal, wanted: string | undefined, current: string | null): Promise<void> {
  if (wanted === undefined || wanted === current) return;
  if (wanted !== p.id && !isStaff(p)) throw forbidden();
  await assertBeneficiary(db, wanted);
}

/** The trust that runs new campaigns: the installation's first (docs/charity.md; one trust today). */
async function runningTrust(db: Conn): Promise<string> {
  const t = await first(db.select({ id: trust.id }).from(trust).orderBy(asc(trust.createdAt), asc(trust.id)).limit(1));
  if (!t) throw conflict(MSG.campaignNoTrust);
  return t.id;
}

async function viewOf(db: Conn, row: CampaignRow) {
  return (await campaignsOf(db, [row]))[0]!;
}

/** POST /api/campaign: a new DRAFT of the caller, or (staff) of the beneficiary named. */
export async function createCampaign(deps: Deps, p: Principal, input: CampaignCreate) {
  const beneficiaryId = input.beneficiaryId ?? p.id;
  await checkBeneficiary(deps.db, p, beneficiaryId, p.id);
  const story = cleanStory(input.story, 'story');
  const trustId = await runningTrust(deps.db);
  const row = await transaction(deps.db, async (tx) => {
    const now = Date.now();
    const created = (await first(
      tx
        .insert(campaign)
        .values({
          beneficiaryId,
          trustId,
          titleEn: input.title.en,
          titleHi: input.title.hi,
          storyEn: story.en,
          storyHi: story.hi,
          cause: input.cause,
          need: input.need,
          goal: goalOf(input.need),
          endsAt: input.endsAt,
          status: 'DRAFT',
          createdBy: p.id,
          createdAt: now,
          updatedAt: now,
        })
        .returning(),
    ))!;
    await recordEvent(tx, p, created.id, 'create', null, 'DRAFT', null, now);
    await logActivity(tx, { actor: actorOf(p), action: 'CREATE', entity: 'campaign', entityId: created.id, newValue: { ...editableFields(created), status: created.status } });
    return created;
  });
  return { success: true as const, msg: MSG.campaignCreated, data: await viewOf(deps.db, row) };
}

/** The campaign's own images to keep, in this order; the others are dropped (their files stay: other rows may share them). */
async function arrangeImages(tx: Conn, campaignId: string, ids: readonly string[]) {
  const own = await tx
    .select({ id: campaignImage.id })
    .from(campaignImage)
    .where(and(eq(campaignImage.campaignId, campaignId), eq(campaignImage.kind, 'CAMPAIGN')));
  const known = new Set(own.map((i) => i.id));
  if (new Set(ids).size !== ids.length || ids.some((id) => !known.has(id))) throw badRequest(MSG.campaignImageUnknown);
  const dropped = own.map((i) => i.id).filter((id) => !ids.includes(id));
  if (dropped.length > 0) await tx.delete(campaignImage).where(inArray(campaignImage.id, dropped));
  for (const [position, id] of ids.entries()) await tx.update(campaignImage).set({ position }).where(eq(campaignImage.id, id));
}

/** The columns an edit sets from the fields it was given. */
function editedColumns(input: CampaignEdit, story: Bilingual | undefined) {
  return {
    ...(input.beneficiaryId !== undefined && { beneficiaryId: input.beneficiaryId }),
    ...(input.title && { titleEn: input.title.en, titleHi: input.title.hi }),
    ...(story && { storyEn: story.en, storyHi: story.hi }),
    ...(input.cause && { cause: input.cause }),
    ...(input.need && { need: input.need, goal: goalOf(input.need) }),
    ...(input.endsAt !== undefined && { endsAt: input.endsAt }),
  };
}

/**
 * PATCH /api/campaign/:id: the owner or staff edit a DRAFT or REFUSED campaign; a refused one goes
 * back to DRAFT (campaigns.machine.ts). The edit is a conditional write of the status it was
 * read with: a campaign submitted or approved meanwhile is not changed (409).
 */
export async function editCampaign(deps: Deps, p: Principal, id: string, input: CampaignEdit) {
  const before = await manageableCampaign(deps.db, p, id);
  await checkBeneficiary(deps.db, p, input.beneficiaryId, before.beneficiaryId);
  const story = input.story ? cleanStory(input.story, 'story') : undefined;
  const row = await transaction(deps.db, async (tx) => {
    const current = await manageableCampaign(tx, p, id);
    const from = current.status as CampaignStatus;
    const to = nextStatus(from, 'edit');
    if (!to) throw moveRefused(from, MSG.campaignNotEditable);
    const now = Date.now();
    const changed = await first(
      tx
        .update(campaign)
        .set({ ...editedColumns(input, story), status: to, updatedAt: now })
        .where(and(eq(campaign.id, id), eq(campaign.status, from)))
        .returning(),
    );
    if (!changed) throw moveRefused(from, MSG.campaignNotEditable);
    if (input.images) await arrangeImages(tx, id, input.images);
    await recordEvent(tx, p, id, 'edit', from, to, null, now);
    await logActivity(tx, {
      actor: actorOf(p),
      action: 'UPDATE',
      entity: 'campaign',
      entityId: id,
      oldValue: { ...editableFields(current), status: from },
      newValue: { ...editableFields(changed), status: to, ...(input.images && { images: input.images }) },
    });
    return changed;
  });
  return { success: true as const, msg: MSG.campaignUpdated, data: await viewOf(deps.db, row) };
}

const MOVE_MESSAGES: Record<Exclude<CampaignMove, 'edit'>, string> = {
  submit: MSG.campaignSubmitted,
  approve: MSG.campaignApproved,
  refuse: MSG.campaignRefused,
  pause: MSG.campaignPaused,
  resume: MSG.campaignResumed,
  close: MSG.campaignClosed,
};

/** The columns a move sets besides the status. */
function moveColumns(move: CampaignMove, p: Principal, note: string | null, now: number) {
  if (move === 'submit') return { submittedAt: now };
  if (move === 'approve') return { approvedAt: now, approvedBy: p.id };
  if (move === 'refuse') return { reason: note };
  return {};
}

/**
 * POST /api/campaign/:id/<move>: one move of campaigns.machine.ts. The owner or staff submit (the
 * end date must still be ahead); trustees make the others (the access table holds them to
 * APPROVE_CAMPAIGN). The move is one conditional write of the status the campaign was read with
 * in the transaction, so of fifty trustees approving at once one moves it and the rest get 409;
 * its history and activity entries are written with it.
 */
export async function moveCampaign(deps: Deps, p: Principal, id: string, move: Exclude<CampaignMove, 'edit'>, note: string | null) {
  const read = MOVES[move].by === 'owner-or-staff' ? manageableCampaign : readableCampaign;
  const before = await read(deps.db, p, id);
  if (move === 'submit' && before.endsAt <= Date.now()) throw badRequest(MSG.campaignEndsAtPast);
  // A suspended beneficiary requests nothing, staff acting for them neither (docs/charity.md "Moderation").
  if (move === 'submit' && !(await beneficiaryActive(deps.db, before.beneficiaryId))) throw conflict(MSG.campaignBeneficiarySuspended);
  const row = await transaction(deps.db, async (tx) => {
    const current = await read(tx, p, id);
    const from = current.status as CampaignStatus;
    const to = nextStatus(from, move);
    if (!to) throw moveRefused(from);
    const now = Date.now();
    const moved = await first(
      tx
        .update(campaign)
        .set({ status: to, updatedAt: now, ...moveColumns(move, p, note, now) })
        .where(and(eq(campaign.id, id), eq(campaign.status, from)))
        .returning(),
    );
    if (!moved) throw moveRefused(from);
    await recordEvent(tx, p, id, move, from, to, note, now);
    await logActivity(tx, {
      actor: actorOf(p),
      action: 'UPDATE',
      entity: 'campaign',
      entityId: id,
      oldValue: { status: from, reason: current.reason },
      newValue: { status: to, reason: moved.reason, move, ...(note !== null && { note }) },
    });
    return moved;
  });
  return { success: true as const, msg: MOVE_MESSAGES[move], data: await viewOf(deps.db, row) };
}

/** The public list's filter: public campaigns, of a cause, whose title holds `q` in either language. */
function publicWhere(db: Conn, query: { q?: string | undefined; cause?: string | undefined }): SQL | undefined {
  return and(
    inArray(campaign.status, [...PUBLIC_CAMPAIGN_STATUSES]),
    query.cause ? eq(campaign.cause, query.cause) : undefined,
    query.q ? or(containsText(db, campaign.titleEn, query.q), containsText(db, campaign.titleHi, query.q)) : undefined,
  );
}

/**
 * nearly-funded: the largest share of the goal raised first (then the nearest end). The totals
 * come from the ledger through campaignTotals, so this sort is made over the matching campaigns'
 * ids and goals in memory, and only the page's rows are read whole.
 */
async function nearlyFundedPage(db: Conn, where: SQL | undefined, offset: number, size: number): Promise<CampaignRow[]> {
  const all = await db.select({ id: campaign.id, goal: campaign.goal, endsAt: campaign.endsAt }).from(campaign).where(where);
  const totals = await campaignTotals(db, all.map((c) => c.id));
  const share = (c: { id: string; goal: number }) => (totals.get(c.id)?.raised ?? 0) / Math.max(c.goal, 1);
  const ids = all
    .sort((a, b) => share(b) - share(a) || a.endsAt - b.endsAt || a.id.localeCompare(b.id))
    .slice(offset, offset + size)
    .map((c) => c.id);
  if (ids.length === 0) return [];
  const rows = await db.select().from(campaign).where(inArray(campaign.id, ids));
  return ids.map((id) => rows.find((r) => r.id === id)!);
}

/** newest: the latest approved first; ending-soon: open campaigns (approved, not ended) by their end, then the rest. */
function orderOf(sort: Exclude<CampaignSort, 'nearly-funded'>, now: number) {
  if (sort === 'newest') return [desc(campaign.approvedAt), desc(campaign.createdAt), asc(campaign.id)];
  const open = sql`case when ${campaign.status} = 'APPROVED' and ${campaign.endsAt} > ${now} then 0 else 1 end`;
  return [asc(open), asc(campaign.endsAt), asc(campaign.id)];
}

/** GET /api/campaigns: public campaigns as cards, searched, filtered, sorted and paged. */
export async function listCampaigns(deps: Deps, query: z.output<typeof campaignListQuerySchema>) {
  const where = publicWhere(deps.db, query);
  const offset = (query.page - 1) * query.size;
  const total = (await first(deps.db.select({ n: count() }).from(campaign).where(where)))?.n ?? 0;
  const rows =
    query.sort === 'nearly-funded'
      ? await nearlyFundedPage(deps.db, where, offset, query.size)
      : await deps.db
          .select()
          .from(campaign)
          .where(where)
          .orderBy(...orderOf(query.sort, Date.now()))
          .limit(query.size)
          .offset(offset);
  return { success: true as const, data: await cardsOf(deps.db, rows), total };
}

/**
 * GET /api/campaigns/:id: the campaign with its totals, updates, recent donations and public
 * ledger; for its owner, staff and trustees also its history (refusals' reasons and answers).
 */
export async function getCampaign(deps: Deps, p: Principal | null, id: string) {
  const row = await readableCampaign(deps.db, p, id);
  const money = await campaignMoney(deps.db, id);
  const data = {
    ...(await viewOf(deps.db, row)),
    updates: await updatesOf(deps.db, id),
    ...money,
    ...(await moderationOf(deps.db, row)),
    ...(seesInside(p, row) && { history: await historyOf(deps.db, id) }),
  };
  return { success: true as const, data };
}

/**
 * What a campaign's page says about donations (docs/charity.md "Moderation"): whether it takes
 * them now, and for a paused or closed campaign the trustee's note of that move, the public
 * reason (null when they gave none).
 */
async function moderationOf(db: Conn, row: CampaignRow, now = Date.now()) {
  const takingDonations = row.status === 'APPROVED' && row.endsAt > now && (await beneficiaryActive(db, row.beneficiaryId));
  if (row.status !== 'PAUSED' && row.status !== 'CLOSED') return { takingDonations, publicReason: null };
  const last = await first(
    db
      .select({ note: campaignEvent.note })
      .from(campaignEvent)
      .where(and(eq(campaignEvent.campaignId, row.id), eq(campaignEvent.toStatus, row.status)))
      .orderBy(desc(campaignEvent.createdAt), desc(insertionOrder(db, campaignEvent)))
      .limit(1),
  );
  return { takingDonations, publicReason: last?.note ?? null };
}

/** GET /api/campaign/mine: the caller's campaigns, every status, newest first, with their totals. */
export async function myCampaigns(deps: Deps, p: Principal) {
  const rows = await deps.db.select().from(campaign).where(eq(campaign.beneficiaryId, p.id)).orderBy(desc(campaign.createdAt), asc(campaign.id));
  return { success: true as const, data: await campaignsOf(deps.db, rows) };
}

/** GET /api/campaign/queue: submitted campaigns, the longest waiting first, each with its beneficiary's other campaigns. */
export async function approvalQueue(deps: Deps) {
  const rows = await deps.db.select().from(campaign).where(eq(campaign.status, 'SUBMITTED')).orderBy(asc(campaign.submittedAt), asc(campaign.id));
  const people = [...new Set(rows.map((r) => r.beneficiaryId).filter((b): b is string => b !== null))];
  const theirs = people.length === 0 ? [] : await deps.db.select().from(campaign).where(inArray(campaign.beneficiaryId, people)).orderBy(desc(campaign.createdAt), asc(campaign.id));
  const cards = new Map((await cardsOf(deps.db, theirs)).map((c) => [c.id, c]));
  const views = await campaignsOf(deps.db, rows);
  const data = views.map((v) => ({
    ...v,
    others: theirs.filter((t) => t.beneficiaryId === v.beneficiaryId && t.id !== v.id).map((t) => cards.get(t.id)!),
  }));
  return { success: true as const, data };
}

/** The meta key of the featured campaign's id (docs/charity.md: the home page's third slide). */
const FEATURED_KEY = 'featured_campaign';

/** GET /api/campaign/featured: the featured campaign's card while it is public, else null. */
export async function featuredCampaign(deps: Deps) {
  const id = (await first(deps.db.select().from(meta).where(eq(meta.key, FEATURED_KEY))))?.value;
  const row = id ? await first(deps.db.select().from(campaign).where(eq(campaign.id, id))) : undefined;
  if (!row || !isPublic(row.status)) return { success: true as const, data: null };
  return { success: true as const, data: (await cardsOf(deps.db, [row]))[0]! };
}

/** PUT /api/campaign/featured (staff): an APPROVED campaign becomes the featured one; null features none. */
export async function setFeaturedCampaign(deps: Deps, p: Principal, id: string | null) {
  await transaction(deps.db, async (tx) => {
    if (id !== null) {
      await lockRows(tx, campaign, eq(campaign.id, id));
      const row = await first(tx.select({ status: campaign.status }).from(campaign).where(eq(campaign.id, id)));
      if (!row) throw campaignNotFound();
      if (row.status !== 'APPROVED') throw moveRefused(row.status, MSG.campaignNotPublic);
    }
    const before = (await first(tx.select().from(meta).where(eq(meta.key, FEATURED_KEY))))?.value ?? null;
    if (id === null) await tx.delete(meta).where(eq(meta.key, FEATURED_KEY));
    else await tx.insert(meta).values({ key: FEATURED_KEY, value: id }).onConflictDoUpdate({ target: meta.key, set: { value: id } });
    await logActivity(tx, { actor: actorOf(p), action: 'UPDATE', entity: 'featured_campaign', entityId: FEATURED_KEY, oldValue: { id: before }, newValue: { id } });
  });
  return { success: true as const, msg: MSG.campaignFeaturedSet, data: (await featuredCampaign(deps)).data };
}
