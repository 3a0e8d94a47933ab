import { and, asc, count, desc, eq, inArray, ne, or, sql } from 'drizzle-orm';
import { financialYearOf } from '@pm/protocol/donation';
import {
  type CampaignReport,
  GRIEVANCE_PAGE_SIZE,
  type GrievanceMessage,
  type GrievanceRaise,
  type GrievanceRow,
  type GrievanceStatus,
  type GrievanceSubject,
  type GrievanceView,
  type ReportReason,
} from '@pm/protocol/grievance';
import { MSG } from '@pm/protocol/messages';
import type { Deps, Principal } from '../../context';
import type { Conn, Tx } from '../../db/client';
import { containsText, lockRows, takeTurns } from '../../db/dialect';
import { donation, grievance, grievanceMessage, permission, person, personPermission } from '../../db/schema';
import { afterCommit, first, transaction } from '../../db/transaction';
import { logActivity } from '../../lib/activity';
import { AppError, badRequest, notFound } from '../../lib/errors';
import { siteUrl } from '../../lib/site-url';
import { readableCampaign } from '../campaigns/campaign-access';
import { readableWithdrawal } from '../payouts/withdrawals.service';
import { grievanceAnswered } from '../push/messages';
import { decideMove, type GrievanceMove, oneMonthAfter, reopenUntil } from './grievances.machine';

/*
 * Grievances (docs/charity.md "Grievances"): a signed-in person raises one about a donation, a
 * campaign, a withdrawal, their account or anything else; anyone reports a campaign that looks
 * wrong (the same queue). Each has a number in sequence per financial year, is due one calendar
 * month ahead, and has a thread; staff (HANDLE_GRIEVANCE) assign, answer and resolve, the raiser
 * writes and may reopen (grievances.machine.ts). Every change writes its activity entry in the
 * transaction that makes it; the raiser is told of each answer after the commit.
 */

type Row = typeof grievance.$inferSelect;

/** Staff: the queue, assigning, answering and resolving. */
export const handlesGrievances = (p: Principal | null) => p?.permissions.has('HANDLE_GRIEVANCE') === true;
const actorOf = (p: Principal) => ({ id: p.id, name: p.name });
const grievanceNotFound = () => notFound(MSG.grievanceNotFound);

/** Grievances being raised take turns for their number (max + 1 per financial year). */
const GRIEVANCE_NUMBERS = 'grievance-number';

/** `G2026-27-000123`: the financial year and the number in it, six digits at least. */
export const grievanceNumber = (fy: string, seq: number) => `G${fy}-${String(seq).padStart(6, '0')}`;

type NewGrievance = {
  subject: GrievanceSubject;
  subjectId: string | null;
  title: string;
  text: string;
  reportReason: ReportReason | null;
  contact: string | null;
  raiser: { id: string; name: string } | null;
};

/**
 * Inserts a grievance with the next number of the financial year, inside the caller's
 * transaction: the raises take turns (PostgreSQL: an advisory lock until the commit; SQLite runs
 * one transaction at a time), so that fifty at once get fifty consecutive numbers.
 */
async function insertNumbered(tx: Tx, g: NewGrievance, now: number): Promise<Row> {
  await takeTurns(tx, GRIEVANCE_NUMBERS);
  const fy = financialYearOf(now);
  const last = await first(tx.select({ n: sql<number>`coalesce(max(${grievance.seq}), 0)` }).from(grievance).where(eq(grievance.financialYear, fy)));
  const seq = Number(last?.n ?? 0) + 1;
  const row = (await first(
    tx
      .insert(grievance)
      .values({
        number: grievanceNumber(fy, seq),
        financialYear: fy,
        seq,
        subject: g.subject,
        subjectId: g.subjectId,
        title: g.title,
        text: g.text,
        reportReason: g.reportReason,
        contact: g.contact,
        raiserId: g.raiser?.id ?? null,
        raiserName: g.raiser?.name ?? null,
        status: 'OPEN',
        dueAt: oneMonthAfter(now),
        createdAt: now,
        updatedAt: now,
      })
      .returning(),
  ))!;
  await logActivity(tx, { actor: g.raiser, action: 'CREATE', entity: 'grievance', entityId: row.id, newValue: { ...row, contact: row.contact ? 'given' : null } });
  return row;
}

/** A donation is the person's: given signed in as them, or as a guest with their e-mail address. */
async function ownDonation(db: Conn, p: Principal, orderId: string): Promise<boolean> {
  const me = await first(db.select({ email: person.email }).from(person).where(eq(person.id, p.id)));
  const mine = me?.email ? or(eq(donation.personId, p.id), eq(donation.email, me.email.toLowerCase())) : eq(donation.personId, p.id);
  return Boolean(await first(db.select({ id: donation.orderId }).from(donation).where(and(eq(donation.orderId, orderId), mine))));
}

/**
 * What a grievance may be about (docs/charity.md "Grievances"): a donation of the person's own (or
 * of their e-mail's), a campaign they can see (public or their own), any withdrawal id (the
 * withdrawal module checks its own), their own account; OTHER names nothing. Answers the id kept.
 */
async function checkedSubject(db: Conn, p: Principal, subject: GrievanceSubject, subjectId: string | undefined): Promise<string | null> {
  if (subject === 'OTHER') {
    if (subjectId !== undefined) throw badRequest(MSG.grievanceSubjectIdNotAllowed);
    return null;
  }
  if (subject === 'ACCOUNT') {
    if (subjectId !== undefined && subjectId !== p.id) throw badRequest(MSG.grievanceAccountNotYours);
    return p.id;
  }
  if (subjectId === undefined) throw badRequest(MSG.grievanceSubjectIdRequired);
  if (subject === 'DONATION' && !(await ownDonation(db, p, subjectId))) throw badRequest(MSG.grievanceDonationNotYours);
  // A withdrawal its requester, its campaign's owner, staff or trustees may read (docs/charity.md "Withdrawals").
  if (subject === 'WITHDRAWAL') {
    await readableWithdrawal(db, p, subjectId).catch(() => {
      throw badRequest(MSG.grievanceWithdrawalNotYours);
    });
  }
  if (subject === 'CAMPAIGN') {
    await readableCampaign(db, p, subjectId).catch(() => {
      throw badRequest(MSG.grievanceCampaignUnknown);
    });
  }
  return subjectId;
}

/** POST /api/grievance: a new OPEN grievance of the caller, numbered, due one month ahead. */
export async function raiseGrievance(deps: Deps, p: Principal, input: GrievanceRaise, now = Date.now()) {
  const subjectId = await checkedSubject(deps.db, p, input.subject, input.subjectId);
  const row = await transaction(deps.db, (tx) =>
    insertNumbered(tx, { subject: input.subject, subjectId, title: input.title, text: input.text, reportReason: null, contact: null, raiser: actorOf(p) }, now),
  );
  return { success: true as const, msg: MSG.grievanceRaised, data: await viewOf(deps.db, row, p) };
}

/** The title a report gets in the queue: its reason, in English (staff read the text for the rest). */
const REPORT_TITLES: Record<ReportReason, string> = {
  FRAUD: 'Report: this campaign may be a fraud',
  WRONG_INFO: 'Report: this campaign has wrong information',
  OFFENSIVE: 'Report: this campaign is offensive',
  OTHER: 'Report: this campaign looks wrong',
};

/**
 * POST /api/campaign/:id/report: anyone, guests too. The answer is the same whether or not the
 * campaign exists or is public (no enumeration): a report of a campaign the reporter cannot see
 * is not stored. A stored one is a grievance of subject CAMPAIGN in the staff queue, its raiser
 * the reporter when signed in, nobody for a guest.
 */
export async function reportCampaign(deps: Deps, p: Principal | null, campaignId: string, input: CampaignReport, now = Date.now()) {
  const visible = await readableCampaign(deps.db, p, campaignId).then(
    () => true,
    () => false,
  );
  if (visible) {
    await transaction(deps.db, (tx) =>
      insertNumbered(
        tx,
        { subject: 'CAMPAIGN', subjectId: campaignId, title: REPORT_TITLES[input.reason], text: input.text, reportReason: input.reason, contact: input.contact ?? null, raiser: p ? actorOf(p) : null },
        now,
      ),
    );
  }
  return { success: true as const, msg: MSG.reportReceived };
}

// ---------------------------------------------------------------------------------------------
// Reading

/** The names of these people, by id (owners; authors whose names were not kept). */
async function namesOf(db: Conn, ids: (string | null)[]): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((i): i is string => i !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await db.select({ id: person.id, name: person.name }).from(person).where(inArray(person.id, wanted));
  return new Map(rows.map((r) => [r.id, r.name]));
}

function rowOf(r: Row, names: Map<string, string>, now: number): GrievanceRow {
  const status = r.status as GrievanceStatus;
  return {
    id: r.id,
    number: r.number,
    subject: r.subject as GrievanceSubject,
    subjectId: r.subjectId,
    title: r.title,
    status,
    reportReason: r.reportReason as ReportReason | null,
    raiser: r.raiserId ? { id: r.raiserId, name: r.raiserName ?? '' } : null,
    owner: r.ownerId ? { id: r.ownerId, name: names.get(r.ownerId) ?? '' } : null,
    dueAt: r.dueAt,
    overdue: status !== 'RESOLVED' && r.dueAt < now,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    resolvedAt: r.resolvedAt,
  };
}

async function rowsOf(db: Conn, rows: Row[], now = Date.now()): Promise<GrievanceRow[]> {
  const names = await namesOf(
    db,
    rows.map((r) => r.ownerId),
  );
  return rows.map((r) => rowOf(r, names, now));
}

/** One grievance with its thread; a report's contact only for staff. */
async function viewOf(db: Conn, r: Row, p: Principal, now = Date.now()): Promise<GrievanceView> {
  const messages = await db.select().from(grievanceMessage).where(eq(grievanceMessage.grievanceId, r.id)).orderBy(asc(grievanceMessage.createdAt), asc(grievanceMessage.id));
  const [row] = await rowsOf(db, [r], now);
  const thread: GrievanceMessage[] = messages.map((m) => ({
    id: m.id,
    author: m.authorId ? { id: m.authorId, name: m.authorName ?? '' } : null,
    staff: m.staff,
    text: m.text,
    createdAt: m.createdAt,
  }));
  return {
    ...row!,
    text: r.text,
    contact: handlesGrievances(p) ? r.contact : null,
    resolutionNote: r.resolutionNote,
    reopenUntil: reopenUntil(r.status as GrievanceStatus, r.resolvedAt),
    messages: thread,
  };
}

/** The grievance, when the caller may read it (its raiser, or staff); else 404, as one that does not exist. */
async function readableGrievance(db: Conn, p: Principal, id: string): Promise<Row> {
  const row = await first(db.select().from(grievance).where(eq(grievance.id, id)));
  if (!row || !(row.raiserId === p.id || handlesGrievances(p))) throw grievanceNotFound();
  return row;
}

/** GET /api/grievance/:id: the raiser or staff; 404 for anyone else. */
export async function getGrievance(deps: Deps, p: Principal, id: string) {
  return { success: true as const, data: await viewOf(deps.db, await readableGrievance(deps.db, p, id), p) };
}

/** GET /api/grievance/mine: the caller's grievances (and signed-in reports), newest first. */
export async function myGrievances(deps: Deps, p: Principal) {
  const rows = await deps.db.select().from(grievance).where(eq(grievance.raiserId, p.id)).orderBy(desc(grievance.createdAt), desc(grievance.seq));
  return { success: true as const, data: await rowsOf(deps.db, rows) };
}

/**
 * GET /api/grievance/queue (staff): grievances not resolved (or of the status asked for), the
 * overdue first, then by due time; `q` finds a number, a title or a raiser's name.
 */
export async function grievanceQueue(deps: Deps, input: { status?: GrievanceStatus | undefined; q?: string | undefined; page: number }, now = Date.now()) {
  const db = deps.db;
  const where = and(
    input.status ? eq(grievance.status, input.status) : ne(grievance.status, 'RESOLVED'),
    input.q ? or(containsText(db, grievance.number, input.q), containsText(db, grievance.title, input.q), containsText(db, grievance.raiserName, input.q)) : undefined,
  );
  const total = (await first(db.select({ n: count() }).from(grievance).where(where)))?.n ?? 0;
  const overdueFirst = sql`case when ${grievance.status} <> 'RESOLVED' and ${grievance.dueAt} < ${now} then 0 else 1 end`;
  const rows = await db
    .select()
    .from(grievance)
    .where(where)
    .orderBy(asc(overdueFirst), asc(grievance.dueAt), asc(grievance.seq))
    .limit(GRIEVANCE_PAGE_SIZE)
    .offset((input.page - 1) * GRIEVANCE_PAGE_SIZE);
  return { success: true as const, data: await rowsOf(db, rows, now), total: Number(total) };
}

// ---------------------------------------------------------------------------------------------
// Moves

const MOVE_MESSAGES: Record<GrievanceMove, string> = {
  reply: MSG.grievanceMessagePosted,
  write: MSG.grievanceMessagePosted,
  resolve: MSG.grievanceResolved,
  reopen: MSG.grievanceReopened,
};

/** The columns a move sets besides the status. */
function moveColumns(move: GrievanceMove, note: string | null, now: number): Partial<Row> {
  if (move === 'resolve') return { resolutionNote: note, resolvedAt: now };
  // A reopened grievance is due one month after it was reopened (the terms' month, again).
  if (move === 'reopen') return { resolutionNote: null, resolvedAt: null, dueAt: oneMonthAfter(now) };
  return {};
}

/**
 * One move of grievances.machine.ts, with the message that goes with it (a reply, the raiser's
 * words, the resolution's note, a reopening's reason), as one conditional write of the status it
 * was read with: of two staff resolving at once, one resolves and the other gets 409.
 */
async function applyMove(deps: Deps, p: Principal, id: string, move: GrievanceMove, text: string | null, now: number): Promise<Row> {
  const row = await transaction(deps.db, async (tx) => {
    await lockRows(tx, grievance, eq(grievance.id, id));
    const current = await readableGrievance(tx, p, id);
    const from = current.status as GrievanceStatus;
    const decided = decideMove(from, move, current.resolvedAt, now);
    if ('refused' in decided) throw new AppError('CONFLICT', decided.refused === 'reopen-expired' ? MSG.grievanceReopenExpired : MSG.grievanceMoveNotAllowed, { status: from });
    const moved = await first(
      tx
        .update(grievance)
        .set({ status: decided.to, updatedAt: now, ...moveColumns(move, text, now) })
        .where(and(eq(grievance.id, id), eq(grievance.status, from)))
        .returning(),
    );
    if (!moved) throw new AppError('CONFLICT', MSG.grievanceMoveNotAllowed, { status: from });
    const staff = move === 'reply' || move === 'resolve';
    if (text !== null) await tx.insert(grievanceMessage).values({ grievanceId: id, authorId: p.id, authorName: p.name, staff, text, createdAt: now });
    await logActivity(tx, {
      actor: actorOf(p),
      action: 'UPDATE',
      entity: 'grievance',
      entityId: id,
      oldValue: { status: from, dueAt: current.dueAt },
      newValue: { status: decided.to, move, dueAt: moved.dueAt, ...(text !== null && { text }) },
    });
    if (staff) afterCommit(tx, () => void tellRaiser(deps, moved, text ?? '').catch((err: unknown) => deps.log.error({ err, grievanceId: id }, 'grievance answer notice failed')));
    return moved;
  });
  return row;
}

/**
 * Tells the raiser that staff answered or resolved (docs/charity.md "Grievances"): a push message
 * to their devices and an e-mail through the outbox to their address, or a guest reporter's
 * e-mail contact.
 */
async function tellRaiser(deps: Deps, g: Row, text: string): Promise<void> {
  const resolved = g.status === 'RESOLVED';
  if (g.raiserId) await deps.push.notify([g.raiserId], grievanceAnswered({ id: g.id, number: g.number, resolved }));
  const raiser = g.raiserId ? await first(deps.db.select({ email: person.email }).from(person).where(eq(person.id, g.raiserId))) : undefined;
  const to = raiser?.email ?? (g.contact?.includes('@') ? g.contact : null);
  if (!to) return;
  const link = g.raiserId ? siteUrl(deps.config, `/grievances/${encodeURIComponent(g.id)}`) : null;
  const body = [
    resolved ? `Your grievance ${g.number} "${g.title}" has been resolved:` : `The trust answered your grievance ${g.number} "${g.title}":`,
    '',
    text,
    '',
    link ? `Read the thread and answer: ${link}` : '',
    resolved ? 'If this does not settle it, you may reopen it within 30 days.' : '',
    '',
    resolved ? `आपकी शिकायत ${g.number} का निपटारा हो गया है (ऊपर ट्रस्ट का नोट देखें)।` : `ट्रस्ट ने आपकी शिकायत ${g.number} का उत्तर दिया है (ऊपर देखें)।`,
    link ? `पूरी बातचीत पढ़ें और उत्तर दें: ${link}` : '',
  ]
    .filter((l, i, all) => l !== '' || all[i - 1] !== '')
    .join('\n');
  await deps.outbox.send({ channel: 'email', to, subject: `Grievance ${g.number} / शिकायत ${g.number}`, body });
}

/** POST /api/grievance/:id/messages: staff answer (→ ANSWERED), the raiser writes (→ OPEN). */
export async function postGrievanceMessage(deps: Deps, p: Principal, id: string, text: string, now = Date.now()) {
  const read = await readableGrievance(deps.db, p, id);
  // The raiser writes as the raiser even when they are staff too; staff answer others' grievances.
  const move: GrievanceMove = read.raiserId === p.id ? 'write' : 'reply';
  const row = await applyMove(deps, p, id, move, text, now);
  return { success: true as const, msg: MOVE_MESSAGES[move], data: await viewOf(deps.db, row, p) };
}

/** POST /api/grievance/:id/resolve (staff): RESOLVED, with the note the raiser reads. */
export async function resolveGrievance(deps: Deps, p: Principal, id: string, note: string, now = Date.now()) {
  const row = await applyMove(deps, p, id, 'resolve', note, now);
  return { success: true as const, msg: MOVE_MESSAGES.resolve, data: await viewOf(deps.db, row, p) };
}

/** POST /api/grievance/:id/reopen (the raiser, within 30 days of the resolution): OPEN again. */
export async function reopenGrievance(deps: Deps, p: Principal, id: string, text: string | undefined, now = Date.now()) {
  const read = await readableGrievance(deps.db, p, id);
  if (read.raiserId !== p.id) throw grievanceNotFound();
  const row = await applyMove(deps, p, id, 'reopen', text ?? null, now);
  return { success: true as const, msg: MOVE_MESSAGES.reopen, data: await viewOf(deps.db, row, p) };
}

/** Whether the person is active and holds HANDLE_GRIEVANCE (someone a grievance may be assigned to). */
async function handlerExists(db: Conn, personId: string): Promise<boolean> {
  const r = await first(
    db
      .select({ id: person.id })
      .from(person)
      .innerJoin(personPermission, eq(personPermission.personId, person.id))
      .innerJoin(permission, eq(permission.id, personPermission.permissionId))
      .where(and(eq(person.id, personId), eq(person.status, 'ACTIVE'), eq(permission.permission, 'HANDLE_GRIEVANCE'))),
  );
  return r !== undefined;
}

/** POST /api/grievance/:id/assign (staff): its owner, a person holding HANDLE_GRIEVANCE; not a state change. */
export async function assignGrievance(deps: Deps, p: Principal, id: string, ownerId: string, now = Date.now()) {
  if (!(await handlerExists(deps.db, ownerId))) throw badRequest(MSG.grievanceOwnerNotStaff);
  const row = await transaction(deps.db, async (tx) => {
    await lockRows(tx, grievance, eq(grievance.id, id));
    const current = await readableGrievance(tx, p, id);
    if (current.status === 'RESOLVED') throw new AppError('CONFLICT', MSG.grievanceMoveNotAllowed, { status: current.status });
    const changed = (await first(tx.update(grievance).set({ ownerId, updatedAt: now }).where(eq(grievance.id, id)).returning()))!;
    await logActivity(tx, { actor: actorOf(p), action: 'UPDATE', entity: 'grievance', entityId: id, oldValue: { ownerId: current.ownerId }, newValue: { ownerId } });
    return changed;
  });
  return { success: true as const, msg: MSG.grievanceAssigned, data: await viewOf(deps.db, row, p) };
}

/** GET /api/grievance/handlers (staff): who a grievance may be assigned to. */
export async function grievanceHandlers(deps: Deps) {
  const rows = await deps.db
    .select({ id: person.id, name: person.name })
    .from(person)
    .innerJoin(personPermission, eq(personPermission.personId, person.id))
    .innerJoin(permission, eq(permission.id, personPermission.permissionId))
    .where(and(eq(person.status, 'ACTIVE'), eq(permission.permission, 'HANDLE_GRIEVANCE')))
    .orderBy(asc(person.name), asc(person.id));
  return { success: true as const, data: rows };
}

