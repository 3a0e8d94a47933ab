import { and, asc, desc, eq, gt, isNull, lte, or, sql } from 'drizzle-orm';
import { addMonths, type MyPlan, planRuleOf, UNNAMED_PLAN } from '@pm/protocol/payment';
import type { EntitlementDoc } from '@pm/protocol/sync/entitlement';
import type { CollectionName } from '@pm/protocol/sync/envelopes';
import type { Deps } from '../../context';
import type { Conn, DB } from '../../db/client';
import { entitlement, entitlementState, entitlementUse, examResult, person, plan } from '../../db/schema';
import { inJsonArray, lockRows, prepared as prepareOn } from '../../db/dialect';
import { first, transaction } from '../../db/transaction';
import { type Actor, logActivity } from '../../lib/activity';
import { runExclusive } from '../../lib/exclusive';
import { paymentRequired } from '../../lib/errors';
import { nextRev, nextRevs, revsOf } from '../../lib/revision';
import { rawStatement, rowEncoder } from '../../lib/raw-statement';

/*
 * What a learner's paid plans allow (docs/payments.md "Without a plan"; sync-protocol/src/sync/entitlement.ts).
 *
 * - A paid plan order grants one `entitlement` row for [paidAt, addMonths(paidAt, months)) with
 *   the plan's limits (PLAN_RULES; null = unlimited).
 * - Plans stack: the allowance in force at a time t is the sum of the limits of the plans active
 *   at t (an unlimited one makes it unlimited); what is used of it is every attempt counted with
 *   a start inside the active periods (they all hold t, so together they are one window
 *   [earliest start, latest end)). Without an active plan the allowance is 0.
 * - Starting a mock test (isM) or a practice exam (not isM) of a set that is not free uses one,
 *   counted when the attempt first reaches the server, against the plans active when it started
 *   (its start bounded by the server's first sighting: an offline start within the plan counts
 *   within it, whenever it syncs). Resuming (the same attempt id) counts nothing.
 * - Paid content stays paid (docs/payments.md "Without a plan"). An attempt started online (the
 *   server sees it within ONLINE_START_MS of its start: submitUserResponse, a device pushing as
 *   the learner starts) past the allowance is refused, 402, nothing stored. One that arrives past
 *   the allowance otherwise (made offline) is stored and scored, never dropped, and *locked*
 *   (`over_limit`): it uses nothing, its result is not replicated, it has no rank and its answer
 *   key is not shown. A plan granted later opens locked attempts oldest first, within its
 *   allowance (openLocked): they are charged to it and their results replicate.
 * - A refunded plan order ends its plan at the refund (endGrant); what was counted stays.
 * - The replicated document (one per learner, id = person id) has its revision in
 *   `entitlement_state`: bumped when a plan is granted, an attempt is counted, or a period ends
 *   (bumpEndedPlans). Its state row is created on the learner's first pull, so a learner without
 *   any plan also gets a document (limits 0).
 */

type Kind = 'mock' | 'practice';
type EntRow = typeof entitlement.$inferSelect;

/**
 * Statements of the counting path, prepared once per handle (the push runs them per attempt). A
 * statement is bound to the handle it was prepared on: inside a transaction, its handle (`tx`,
 * one object for every transaction of a database, so they are prepared once).
 */
const prepared = new WeakMap<object, ReturnType<typeof prepare>>();
function queries(conn: Conn) {
  let q = prepared.get(conn);
  if (!q) {
    q = prepare(conn);
    prepared.set(conn, q);
  }
  return q;
}
function prepare(conn: Conn) {
  const P = (n: string) => sql.placeholder(n);
  const encodeUse = rowEncoder(entitlementUse);
  /**
   * One row per counted attempt, run by the driver (lib/raw-statement.ts: in a transaction
   * only): one row changed means counted now, none that it was counted before.
   */
  const insertUse = rawStatement(
    conn,
    conn
      .insert(entitlementUse)
      .values({
        attemptId: P('attemptId'),
        personId: P('personId'),
        qsid: P('qsid'),
        kind: P('kind'),
        entitlementId: P('entitlementId'),
        overLimit: P('overLimit'),
        startedAt: P('startedAt'),
        createdAt: P('createdAt'),
      })
      .onConflictDoNothing(),
  );
  return {
    counted: prepareOn(conn, conn.select({ id: entitlementUse.attemptId }).from(entitlementUse).where(eq(entitlementUse.attemptId, P('id')))),
    /** Every plan of a person (a learner has a few): the push reads them once for its attempts. */
    plansOf: prepareOn(conn, conn.select().from(entitlement).where(eq(entitlement.personId, P('personId')))),
    /** Plans active at `t`, earliest end first. */
    activeAt: prepareOn(
      conn,
      conn
        .select()
        .from(entitlement)
        .where(and(eq(entitlement.personId, P('personId')), gt(entitlement.endsAt, P('t')), lte(entitlement.startsAt, P('t'))))
        .orderBy(asc(entitlement.endsAt), asc(entitlement.startsAt)),
    ),
    /** Attempts of a kind counted with a start in [from, to). */
    usedIn: prepareOn(
      conn,
      conn
        .select({ n: sql<number>`count(*)` })
        .from(entitlementUse)
        .where(
          and(
            eq(entitlementUse.personId, P('personId')),
            eq(entitlementUse.kind, P('kind')),
            eq(entitlementUse.overLimit, false),
            sql`${entitlementUse.startedAt} >= ${P('from')}`,
            sql`${entitlementUse.startedAt} < ${P('to')}`,
          ),
        ),
    ),
    /** Attempts of a kind charged within the limit to each of the given plans (ids as a JSON array). */
    chargedTo: prepareOn(
      conn,
      conn
        .select({ id: entitlementUse.entitlementId, n: sql<number>`count(*)` })
        .from(entitlementUse)
        .where(
          and(
            eq(entitlementUse.personId, P('personId')),
            eq(entitlementUse.kind, P('kind')),
            eq(entitlementUse.overLimit, false),
            inJsonArray(conn, entitlementUse.entitlementId, P('ids')),
          ),
        )
        .groupBy(entitlementUse.entitlementId),
    ),
    insertUse: (row: typeof entitlementUse.$inferInsert) => insertUse.run(encodeUse(row)),
    /** The document's new revision (bumpEntitlement). */
    bumpState: prepareOn(
      conn,
      conn
        .insert(entitlementState)
        .values({ personId: P('personId'), rev: P('rev'), updatedAt: P('updatedAt') })
        .onConflictDoUpdate({ target: entitlementState.personId, set: { rev: sql`excluded.rev`, updatedAt: sql`excluded.updated_at` } }),
    ),
  };
}

/** The allowance of one kind of the plans `active` (non-empty): null when one of them is unlimited. */
function limitOf(active: EntRow[], kind: Kind): number | null {
  let sum = 0;
  for (const e of active) {
    const l = kind === 'mock' ? e.mockLimit : e.practiceLimit;
    if (l === null) return null;
    sum += l;
  }
  return sum;
}

/** The window of the plans `active` (non-empty): [earliest start, latest end). */
function windowOf(active: EntRow[]) {
  return { from: Math.min(...active.map((e) => e.startsAt)), to: Math.max(...active.map((e) => e.endsAt)) };
}

/**
 * Gives the person's `entitlement` document a new revision (devices pull it), creating its
 * state row when there is none. Call inside the transaction of the change.
 */
export async function bumpEntitlement(tx: Conn, personId: string, now = Date.now(), taken?: number): Promise<number> {
  // Prepared once per handle: the push bumps a document per learner it counts for (with a
  // revision it took together with its own: `taken`).
  const rev = taken ?? (await revsOf(tx)(1))[0]!;
  await queries(tx).bumpState.run({ personId, rev, updatedAt: now });
  return rev;
}

/**
 * What a paid plan order grants: one entitlement for [paidAt, paidAt + the plan's months) with
 * the plan's limits (planRuleOf). Idempotent on the order (entitlement.order_id is unique): a
 * second call for the same order grants nothing and returns null. Call inside the transaction
 * that marks the order PAID; the caller tells devices (events 'entitlement' for the person)
 * after the commit.
 */
export async function grantPlan(tx: Conn, input: { orderId: string; personId: string; planCode: string; paidAt: number }): Promise<EntRow | null> {
  const rule = planRuleOf(input.planCode);
  const row = await first(
    tx
      .insert(entitlement)
    .values({
      personId: input.personId,
      orderId: input.orderId,
      planCode: input.planCode,
      startsAt: input.paidAt,
      endsAt: addMonths(input.paidAt, rule.months),
      mockLimit: rule.mock,
      practiceLimit: rule.practice,
      createdAt: Date.now(),
    })
    .onConflictDoNothing({ target: entitlement.orderId })
    .returning(),
  );
  if (!row) return null;
  await bumpEntitlement(tx, input.personId);
  await logActivity(tx, { actor: null, action: 'CREATE', entity: 'entitlement', entityId: row.id, newValue: row });
  await openLocked(tx, input.personId);
  return row;
}

/**
 * Opens the person's locked attempts (stored past an allowance) oldest first, as far as the
 * allowance in force at `now` has room for each kind: each is charged to the latest-ending
 * active plan and counted from the plan's window (its `started_at` moved into it, so that the
 * window counts it), and its result gets a new revision so that devices pull it. Call inside
 * the transaction that granted the plan; the caller's GRANT_COLLECTIONS event makes devices pull.
 * Returns the opened attempt ids.
 */
export async function openLocked(tx: Conn, personId: string, now = Date.now()): Promise<string[]> {
  const locked = await tx
    .select()
    .from(entitlementUse)
    .where(and(eq(entitlementUse.personId, personId), eq(entitlementUse.overLimit, true)))
    .orderBy(asc(entitlementUse.startedAt), asc(entitlementUse.createdAt), asc(entitlementUse.attemptId));
  if (locked.length === 0) return [];
  await lockRows(tx, person, eq(person.id, personId));
  const a = await allowancesAt(tx, personId, now);
  if (!a.window) return [];
  const room = (k: { limit: number | null; used: number }) => (k.limit === null ? Infinity : k.limit - k.used);
  const left: Record<Kind, number> = { mock: room(a.mock), practice: room(a.practice) };
  const plan = a.active[0]!;
  const opened: string[] = [];
  for (const u of locked) {
    const kind = u.kind as Kind;
    if (left[kind] <= 0) continue;
    left[kind] -= 1;
    await tx
      .update(entitlementUse)
      .set({ overLimit: false, entitlementId: plan.id, startedAt: Math.max(u.startedAt, a.window.from) })
      .where(eq(entitlementUse.attemptId, u.attemptId));
    opened.push(u.attemptId);
  }
  if (opened.length === 0) return [];
  const results = await tx.select({ id: examResult.id, qsid: examResult.qsid }).from(examResult).where(inJsonArray(tx, examResult.attemptId, JSON.stringify(opened)));
  const revs = await nextRevs(tx, results.length);
  for (const [i, r] of results.entries()) await tx.update(examResult).set({ rev: revs[i]! }).where(eq(examResult.id, r.id));
  for (const qsid of new Set(results.map((r) => r.qsid))) await rankFirstOpen(tx, personId, qsid);
  await bumpEntitlement(tx, personId, now);
  await logActivity(tx, { actor: null, action: 'UPDATE', entity: 'entitlement', entityId: plan.id, newValue: { personId, opened } });
  return opened;
}

/**
 * The ranked result of a person at a set is their first attempt (docs/security.md); a locked one
 * does not rank. When opening attempts leaves the person without an open ranked result at the
 * set, the earliest open one (by submission) becomes it and the others are practice.
 */
async function rankFirstOpen(tx: Conn, personId: string, qsid: string): Promise<void> {
  const rows = await tx
    .select({ id: examResult.id, attemptId: examResult.attemptId, practice: examResult.practice })
    .from(examResult)
    .where(and(eq(examResult.personId, personId), eq(examResult.qsid, qsid), eq(examResult.deleted, false)))
    .orderBy(asc(examResult.submittedAt), asc(examResult.createdAt));
  const locked = await lockedAmong(tx, rows.map((r) => r.attemptId));
  if (rows.some((r) => !r.practice && !locked.has(r.attemptId))) return;
  const firstOpen = rows.find((r) => !locked.has(r.attemptId));
  if (!firstOpen) return;
  for (const r of rows) {
    const practice = r !== firstOpen;
    if (r.practice === practice) continue;
    const set = locked.has(r.attemptId) ? { practice } : { practice, rev: await nextRev(tx) };
    await tx.update(examResult).set(set).where(eq(examResult.id, r.id));
  }
}

/**
 * A refunded plan order ends its plan from `now` (docs/payments.md): attempts already counted
 * against it stay counted. Call inside the transaction that marks the order REFUNDED; the
 * caller tells devices ('entitlement') after the commit. Returns the person whose plan ended.
 */
export async function endGrant(tx: Conn, orderId: string, now = Date.now()): Promise<string | null> {
  const row = await first(tx.select().from(entitlement).where(eq(entitlement.orderId, orderId)));
  if (!row) return null;
  if (row.endsAt > now) {
    await tx
      .update(entitlement)
      .set({ endsAt: Math.max(row.startsAt, now) })
      .where(eq(entitlement.id, row.id));
  }
  await bumpEntitlement(tx, row.personId, now);
  await logActivity(tx, { actor: null, action: 'UPDATE', entity: 'entitlement', entityId: row.id, oldValue: { endsAt: row.endsAt }, newValue: { endsAt: Math.min(row.endsAt, Math.max(row.startsAt, now)), refunded: orderId } });
  return row.personId;
}

/**
 * What a person's device may download of paid sets now (docs/payments.md): 'm' when a mock
 * test can be started (an allowance with room, or unlimited), 'p' likewise for a practice exam.
 * The qs_detail pull sends a paid set's questions only for a kind listed here, and names this
 * string in its checkpoint: when a kind is added, the device pulls every set again.
 */
export async function downloadAccess(db: Conn, personId: string, now = Date.now()): Promise<string> {
  const a = await allowancesAt(db, personId, now);
  if (!a.window) return '';
  const open = (k: { limit: number | null; used: number }) => k.limit === null || k.used < k.limit;
  return `${open(a.mock) ? 'm' : ''}${open(a.practice) ? 'p' : ''}`;
}

/** The attempts among `attemptIds` that are locked (stored past an allowance, not yet opened). */
export async function lockedAmong(db: Conn, attemptIds: readonly string[]): Promise<Set<string>> {
  if (attemptIds.length === 0) return new Set();
  const rows = await db
    .select({ id: entitlementUse.attemptId })
    .from(entitlementUse)
    .where(and(inJsonArray(db, entitlementUse.attemptId, JSON.stringify(attemptIds)), eq(entitlementUse.overLimit, true)));
  return new Set(rows.map((r) => r.id));
}

export type AttemptUse = {
  attemptId: string;
  personId: string;
  qsid: string;
  /** The set is a mock test (else a practice exam). */
  isM: boolean;
  /** The set is free: nothing is counted. */
  free: boolean;
  /** When the attempt started (ms, server-bounded: never after the server first saw it). */
  startedAt: number;
  /** Who is logged as counting it (the learner pushing the attempt). */
  actor?: Actor;
  /**
   * The attempt is being started online (docs/payments.md): past the allowance it is refused
   * (402, the caller's transaction rolls back) instead of stored locked.
   */
  refuseOver?: boolean;
};

/**
 * How close to its start the server must first see an attempt to know the device was online
 * when it started (a device pushes an attempt as the learner starts it; submitUserResponse
 * starts and submits at once).
 */
export const ONLINE_START_MS = 30_000;

export type Counted = { kind: Kind; overLimit: boolean; entitlementId: string | null };

/**
 * How countAttempt may save statements when it counts many attempts in one transaction (a push):
 * - `bump: false`: the caller bumps the person's document once (bumpEntitlement) for all;
 * - `fresh`: the attempt was stored for the first time in this transaction, so it cannot have
 *   been counted before (the use row's insert still does nothing on a second count);
 * - `plans`: every plan of the person (plansOf), read once in this transaction.
 */
export type CountOptions = { bump?: boolean; fresh?: boolean; plans?: readonly EntRow[]; tally?: CountTally };

/**
 * What the counting of one transaction has read and written of one person's allowance
 * (`CountOptions.tally`, newCountTally): a push of 20 new attempts reads how much of a window is
 * used, and how much each plan carries, once, and counts on from there as it inserts their use
 * rows, instead of asking the database again per attempt. Exact: the person's counting is
 * serialised (SQLite's one writer; on PostgreSQL the person's row, locked by the first count that
 * has a limit, until the commit), so nothing else changes those counts meanwhile. One tally per
 * transaction and person; a transaction that rolls back drops it with it.
 */
export type CountTally = {
  personId: string;
  used: Map<string, { kind: Kind; from: number; to: number; n: number }>;
  charged: Map<string, { kind: Kind; n: Map<string, number> }>;
  locked: boolean;
};

export function newCountTally(personId: string): CountTally {
  return { personId, used: new Map(), charged: new Map(), locked: false };
}

/** Every plan of a person, for countAttempt's `plans` (read inside the counting transaction). */
export function plansOf(conn: Conn, personId: string): Promise<EntRow[]> {
  return queries(conn).plansOf.all({ personId });
}

/** The plans of `plans` active at `t`, earliest end first (as the activeAt query orders them). */
function activeOf(plans: readonly EntRow[], t: number): EntRow[] {
  return plans.filter((e) => e.startsAt <= t && e.endsAt > t).sort((a, b) => a.endsAt - b.endsAt || a.startsAt - b.startsAt);
}

/** Uses of `kind` within the allowance that started in [from, to): from the tally when it has read them. */
async function usedIn(q: ReturnType<typeof queries>, tally: CountTally | undefined, personId: string, kind: Kind, from: number, to: number): Promise<number> {
  const key = `${kind}|${from}|${to}`;
  const hit = tally?.used.get(key);
  if (hit) return hit.n;
  const n = (await q.usedIn.get({ personId, kind, from, to }))!.n;
  tally?.used.set(key, { kind, from, to, n });
  return n;
}

/** Uses of `kind` within the allowance charged to each plan of `active` (every one of them a key, 0 when none). */
async function chargedTo(q: ReturnType<typeof queries>, tally: CountTally | undefined, personId: string, kind: Kind, active: EntRow[]): Promise<Map<string, number>> {
  const ids = active.map((e) => e.id);
  const key = `${kind}|${ids.join(',')}`;
  const hit = tally?.charged.get(key);
  if (hit) return hit.n;
  const rows = await q.chargedTo.all({ personId, kind, ids: JSON.stringify(ids) });
  const n = new Map(ids.map((id) => [id, 0]));
  for (const r of rows) if (r.id !== null) n.set(r.id, r.n);
  tally?.charged.set(key, { kind, n });
  return n;
}

/**
 * Counts a new attempt against the allowance in force when it started. Nothing for a free set
 * or an attempt already counted (null). Otherwise one entitlement_use row: within the allowance
 * charged to the earliest-ending active plan with room left, or past it (`overLimit`, charged
 * to nothing) — the attempt itself is stored and scored either way by the caller. Bumps the
 * person's document and logs the counting (entity 'entitlement', the attempt's id). Call inside
 * the transaction that stores the attempt, where concurrent pushes of the person count one after
 * another, so an allowance of n lets exactly n attempts within.
 * `conn` is that transaction's handle (its statements are prepared once per handle).
 */
export async function countAttempt(conn: Conn, input: AttemptUse, opts: CountOptions = {}): Promise<Counted | null> {
  if (input.free) return null;
  const q = queries(conn);
  // The push's reading of this person's allowance (CountTally), counted on below.
  const tally = opts.tally?.personId === input.personId ? opts.tally : undefined;
  if (!opts.fresh && (await q.counted.get({ id: input.attemptId }))) return null;
  const kind: Kind = input.isM ? 'mock' : 'practice';
  const active = opts.plans ? activeOf(opts.plans, input.startedAt) : await q.activeAt.all({ personId: input.personId, t: input.startedAt });
  let within = false;
  let entitlementId: string | null = null;
  if (active.length > 0) {
    const limit = limitOf(active, kind);
    // Pushes of one person count one after another (SQLite: its one writer; PostgreSQL: the
    // person's row, locked until the commit), so an allowance of n lets exactly n within.
    if (limit !== null && !tally?.locked) {
      await lockRows(conn, person, eq(person.id, input.personId));
      if (tally) tally.locked = true;
    }
    const { from, to } = windowOf(active);
    within = limit === null || (await usedIn(q, tally, input.personId, kind, from, to)) < limit;
    const limitOfPlan = (e: EntRow) => (kind === 'mock' ? e.mockLimit : e.practiceLimit);
    if (within && limitOfPlan(active[0]!) === null) {
      // The earliest-ending plan is unlimited for this kind: it has room, whatever was charged.
      entitlementId = active[0]!.id;
    } else if (within) {
      const charged = await chargedTo(q, tally, input.personId, kind, active);
      const room = active.find((e) => {
        const l = limitOfPlan(e);
        return l === null || (charged.get(e.id) ?? 0) < l;
      });
      // Plans that started at different times share one window; when each is full on its own
      // account the pool still has room, and the latest-ending plan carries it.
      entitlementId = (room ?? active.at(-1)!).id;
    }
  }
  if (!within && input.refuseOver) throw paymentRequired();
  const now = Date.now();
  const inserted = await q.insertUse({
    attemptId: input.attemptId,
    personId: input.personId,
    qsid: input.qsid,
    kind,
    entitlementId,
    overLimit: !within,
    startedAt: input.startedAt,
    createdAt: now,
  });
  if (inserted.changes !== 1) return null;
  if (within && tally) {
    // What the database would now answer to the tally's questions: one more use in every window
    // that holds this start, one more charged to its plan.
    for (const u of tally.used.values()) if (u.kind === kind && u.from <= input.startedAt && input.startedAt < u.to) u.n++;
    if (entitlementId !== null) for (const c of tally.charged.values()) if (c.kind === kind && c.n.has(entitlementId)) c.n.set(entitlementId, c.n.get(entitlementId)! + 1);
  }
  // The push bumps once for all it counted (opts.bump false); a single count bumps here.
  if (opts.bump !== false) await bumpEntitlement(conn, input.personId, now);
  const counted: Counted = { kind, overLimit: !within, entitlementId };
  // Admins are told of the exceptions: an attempt past the allowance. One within it is the
  // normal case, recorded in entitlement_use, and not worth an activity entry per test started.
  if (within) return counted;
  await logActivity(conn, {
    actor: input.actor ?? null,
    action: 'CREATE',
    entity: 'entitlement',
    entityId: input.attemptId,
    newValue: { personId: input.personId, qsid: input.qsid, startedAt: input.startedAt, ...counted },
  });
  return counted;
}

/**
 * What a granted plan changes on the learner's devices: the entitlement document, paid sets'
 * questions they may now download (qs_detail) and the results of attempts it opened
 * (exam_result). Emitted by whoever granted, after the commit.
 */
export const GRANT_COLLECTIONS = ['entitlement', 'qs_detail', 'exam_result'] as const satisfies readonly CollectionName[];

/** Most attempt ids a document lists (the schema's bound). */
const MAX_IDS = 2000;

async function planNameOf(db: Conn, code: string): Promise<{ en: string; hi: string }> {
  return (await first(db.select({ name: plan.name }).from(plan).where(eq(plan.code, code)).limit(1)))?.name ?? UNNAMED_PLAN;
}

/** The plans active at `now`, latest end first. */
function activeAt(db: Conn, personId: string, now: number): Promise<EntRow[]> {
  return db
    .select()
    .from(entitlement)
    .where(and(eq(entitlement.personId, personId), gt(entitlement.endsAt, now), lte(entitlement.startsAt, now)))
    .orderBy(desc(entitlement.endsAt), desc(entitlement.startsAt));
}

type Allowances = {
  active: EntRow[];
  window: { from: number; to: number } | null;
  mock: { limit: number | null; used: number };
  practice: { limit: number | null; used: number };
};

async function allowancesAt(db: Conn, personId: string, now: number): Promise<Allowances> {
  const active = await activeAt(db, personId, now);
  if (active.length === 0) return { active, window: null, mock: { limit: 0, used: 0 }, practice: { limit: 0, used: 0 } };
  const window = windowOf(active);
  const used = Object.fromEntries(
    (
      await db
        .select({ kind: entitlementUse.kind, n: sql<number>`count(*)` })
        .from(entitlementUse)
        .where(
          and(
            eq(entitlementUse.personId, personId),
            eq(entitlementUse.overLimit, false),
            sql`${entitlementUse.startedAt} >= ${window.from}`,
            sql`${entitlementUse.startedAt} < ${window.to}`,
          ),
        )
        .groupBy(entitlementUse.kind)
    ).map((r) => [r.kind, r.n]),
  );
  return {
    active,
    window,
    mock: { limit: limitOf(active, 'mock'), used: used.mock ?? 0 },
    practice: { limit: limitOf(active, 'practice'), used: used.practice ?? 0 },
  };
}

/**
 * The learner's `entitlement` document as of `now` (built at pull time, so a period that has
 * ended is not shown as active): the allowance in force, what is used of it, the attempts
 * counted in the active window, and every attempt of theirs that arrived past an allowance
 * (latest first, at most 2000 each). `updatedAt` is the time of the document's revision.
 */
export async function entitlementDoc(db: Conn, personId: string, now = Date.now()): Promise<EntitlementDoc> {
  const a = await allowancesAt(db, personId, now);
  const latest = a.active[0];
  const counted = a.window
    ? (
        await db
          .select({ id: entitlementUse.attemptId })
          .from(entitlementUse)
          .where(
            and(
              eq(entitlementUse.personId, personId),
              eq(entitlementUse.overLimit, false),
              sql`${entitlementUse.startedAt} >= ${a.window.from}`,
              sql`${entitlementUse.startedAt} < ${a.window.to}`,
            ),
          )
          .orderBy(desc(entitlementUse.startedAt), desc(entitlementUse.attemptId))
          .limit(MAX_IDS)
      ).map((r) => r.id)
    : [];
  const overLimit = (
    await db
      .select({ id: entitlementUse.attemptId })
      .from(entitlementUse)
      .where(and(eq(entitlementUse.personId, personId), eq(entitlementUse.overLimit, true)))
      .orderBy(desc(entitlementUse.startedAt), desc(entitlementUse.attemptId))
      .limit(MAX_IDS)
  ).map((r) => r.id);
  const state = await first(db.select({ at: entitlementState.updatedAt }).from(entitlementState).where(eq(entitlementState.personId, personId)));
  return {
    id: personId,
    planCode: latest?.planCode ?? null,
    planName: latest ? await planNameOf(db, latest.planCode) : null,
    startsAt: a.window?.from ?? null,
    endsAt: a.window?.to ?? null,
    mock: a.mock,
    practice: a.practice,
    counted,
    overLimit,
    // The time of its revision, not of the pull: the same revision is the same document.
    updatedAt: state?.at ?? now,
    _deleted: false,
  };
}

/** GET /api/payment/my's plan: the allowance in force as the document says it, or null without an active plan. */
export async function myPlan(db: Conn, personId: string, now = Date.now()): Promise<MyPlan | null> {
  const a = await allowancesAt(db, personId, now);
  const latest = a.active[0];
  if (!latest || !a.window) return null;
  return { planCode: latest.planCode, name: await planNameOf(db, latest.planCode), startsAt: a.window.from, endsAt: a.window.to, mock: a.mock, practice: a.practice };
}

/** Whether an attempt is locked: counted past the allowance and not opened since. */
export async function isOverLimit(db: Conn, attemptId: string): Promise<boolean> {
  return (await lockedAmong(db, [attemptId])).has(attemptId);
}

/**
 * The person's document revision, its state row created (with a new revision) when there is
 * none yet: the first pull of a learner without any plan gets a document with limits 0.
 */
export async function entitlementRev(db: DB, personId: string, now = Date.now()): Promise<number> {
  return transaction(db, async (tx) => {
    const row = await first(tx.select({ rev: entitlementState.rev }).from(entitlementState).where(eq(entitlementState.personId, personId)));
    return row ? row.rev : bumpEntitlement(tx, personId, now);
  });
}

/**
 * A period's end changes a learner's document although no row changes: people with a plan that
 * ended since their document's last revision (`entitlement_state.updated_at`), or who have
 * plans but no state row yet, get a new revision so their devices pull it. Returns how many.
 */
export async function bumpEndedPlans(deps: Pick<Deps, 'db' | 'events'>, now = Date.now()): Promise<number> {
  const people = await transaction(deps.db, async (tx) => {
    const ids = (
      await tx
        .selectDistinct({ personId: entitlement.personId })
        .from(entitlement)
        .leftJoin(entitlementState, eq(entitlementState.personId, entitlement.personId))
        .where(
          or(
            isNull(entitlementState.personId),
            and(lte(entitlement.endsAt, now), gt(entitlement.endsAt, entitlementState.updatedAt)),
          ),
        )
    ).map((r) => r.personId);
    for (const id of ids) await bumpEntitlement(tx, id, now);
    return ids;
  });
  for (const personId of people) deps.events.emit({ collections: ['entitlement'], personId });
  return people.length;
}

/**
 * Runs bumpEndedPlans at once and then every `intervalMs` (default a minute), next to the publish
 * job. Each run starts in a turn of the event loop of its own (the first one too: setImmediate),
 * so that its transaction never meets another job's statements started in the same turn.
 */
export function startPlanExpiry(deps: Deps, intervalMs = 60_000): () => void {
  const run = () => {
    // Once across instances (lib/exclusive).
    runExclusive(deps.db, 'plan-expiry', () => bumpEndedPlans(deps), { everyMs: intervalMs }).catch((err: unknown) => deps.log.error({ err }, 'plan expiry job failed'));
  };
  const initial = setImmediate(run);
  const timer = setInterval(run, intervalMs);
  timer.unref();
  return () => {
    clearImmediate(initial);
    clearInterval(timer);
  };
}

