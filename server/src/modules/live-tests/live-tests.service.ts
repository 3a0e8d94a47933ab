import { and, asc, eq, gt, inArray, lte, sql } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import { formatUnlockCode, type LiveDetail, type LiveTestView, MAX_DAYS_AHEAD, type RegisterLive, type ScheduleLive, newLiveKey, sealPaper, unlockCodeOf, windowEnd, wrapLiveKey } from '@pm/protocol/live-test';
import { MSG } from '@pm/protocol/messages';
import type { PullResponse } from '@pm/protocol/sync/envelopes';
import type { LiveKeyDoc } from '@pm/protocol/sync/live-key';
import type { Deps, Principal } from '../../context';
import type { Conn } from '../../db/client';
import { inJsonArray, perHandle, prepared } from '../../db/dialect';
import { examResult, liveRegistration, liveTest, person, questionSet } from '../../db/schema';
import { first, transaction } from '../../db/transaction';
import { logActivity } from '../../lib/activity';
import { runExclusive } from '../../lib/exclusive';
import { type OutgoingMessage, SECRET_MASK } from '../../lib/outbox';
import { nextRev, nextRevs } from '../../lib/revision';
import { badRequest, conflict, notFound, paymentRequired } from '../../lib/errors';
import { downloadAccess } from '../entitlements/entitlements.service';
import { renderTemplate, SMS_TEMPLATES } from '../sms/templates';

/*
 * Live tests (docs/live-tests.md): an editor schedules a question set to open at one minute for
 * everyone; learners register; the paper replicates sealed with a per-test key (qs_detail.live);
 * the key reaches registered learners in their `live_key` document once the server's clock
 * passes the start, and offline as an unlock code (by SMS when they asked for it).
 */

type LiveRow = typeof liveTest.$inferSelect;
type SetRow = typeof questionSet.$inferSelect;

/** A test's duration in ms: the set's `dur` minutes, 0 meaning 90 (docs/exams.md "Answers and marking"). */
const durationMs = (dur: number) => (dur > 0 ? dur : 90) * 60_000;

/**
 * How far before the start a device's start time may be and still be taken as on time: its
 * clock is the server's as last measured (client server-clock.ts), off by a few seconds at most.
 */
export const START_SKEW_MS = 60_000;

/** The live tests of `qsids`, by set id (one read). */
export async function liveOfSets(db: Conn, qsids: readonly string[]): Promise<Map<string, LiveRow>> {
  if (qsids.length === 0) return new Map();
  const rows = (await liveStatement(db).all({ ids: JSON.stringify([...new Set(qsids)]) })) as LiveRow[];
  return new Map(rows.map((r) => [r.qsid, r]));
}

/**
 * The live tests of some sets, in one statement prepared once per handle (db/dialect.ts
 * statementKey): every push asks it inside its transaction (sync.service pushTestSummaries), and
 * building and preparing the statement there cost more than running it.
 */
const liveStatement = perHandle(
  (db) => prepared(db, db.select().from(liveTest).where(inJsonArray(db, liveTest.qsid, sql.placeholder('ids')))) as unknown as { all: (values: { ids: string }) => Promise<unknown[]> },
);

/** The live test of one set, if it is one. */
export function liveOf(db: Conn, qsid: string): Promise<LiveRow | undefined> {
  return first(db.select().from(liveTest).where(eq(liveTest.qsid, qsid)));
}

/**
 * PUT /api/live/schedule: schedules a set as a live test, or moves one whose start has not come
 * (its key stays: the sealed paper may be on devices already). Refused, naming the field: a set
 * that is not live for learners, a start in the past or too far ahead, a result time before the
 * window and the test's duration are over.
 */
export async function schedule(deps: Deps, me: Principal, input: ScheduleLive, now = Date.now()): Promise<{ success: true; msg: string; data: LiveTestView }> {
  const set = await first(deps.db.select().from(questionSet).where(eq(questionSet.id, input.qsid)));
  if (!set || set.deleted || set.draft) throw badRequest(MSG.liveSetUnknown);
  if (input.start <= now) throw badRequest(MSG.liveStartPast);
  if (input.start > now + MAX_DAYS_AHEAD * 86_400_000) throw badRequest(MSG.liveStartTooFar);
  const win = input.winMin * 60_000;
  if (input.res < input.start + win + durationMs(set.dur)) throw badRequest(MSG.liveResultTooEarly);
  const before = await liveOf(deps.db, input.qsid);
  if (before && before.startAt <= now) throw conflict(MSG.liveStarted);
  // Made before the transaction: PBKDF2 over the unlock code takes a while, and a transaction must not wait on it.
  const key = before?.key ?? newLiveKey();
  const wrapped = before?.wrapped ?? (await wrapLiveKey(key, input.qsid));
  const row = await transaction(deps.db, async (tx) => {
    const [rev, detailRev] = await nextRevs(tx, 2);
    const values = { startAt: input.start, windowMs: win, resultAt: input.res, updatedAt: now, rev: rev! };
    const saved = (await first(
      tx
        .insert(liveTest)
        .values({ qsid: input.qsid, key, wrapped, createdBy: me.id, createdAt: now, ...values })
        .onConflictDoUpdate({ target: liveTest.qsid, set: values })
        .returning(),
    ))!;
    // The set's offline copy carries the times and the sealed paper now (qs_detail.live).
    await tx.update(questionSet).set({ detailRev: detailRev! }).where(eq(questionSet.id, input.qsid));
    await logActivity(tx, {
      actor: me,
      action: before ? 'UPDATE' : 'CREATE',
      entity: 'live_test',
      entityId: input.qsid,
      oldValue: before ? { start: before.startAt, win: before.windowMs, res: before.resultAt } : null,
      newValue: { start: saved.startAt, win: saved.windowMs, res: saved.resultAt },
    });
    return saved;
  });
  deps.events.emit({ collections: ['qs_detail', 'live_key'] });
  return { success: true, msg: MSG.liveScheduled, data: viewOf(row, set, false) };
}

function viewOf(r: LiveRow, set: SetRow, registered: boolean): LiveTestView {
  return { qsid: r.qsid, l: set.l, start: r.startAt, win: r.windowMs, res: r.resultAt, dur: set.dur, free: set.free, isM: set.isM, registered };
}

/** GET /api/live/tests: live tests whose results are still to come, of sets learners see, with whether the caller registered. */
export async function list(deps: Deps, me: Principal, now = Date.now()): Promise<{ success: true; data: LiveTestView[] }> {
  const rows = await deps.db
    .select({ live: liveTest, set: questionSet, reg: liveRegistration.personId })
    .from(liveTest)
    .innerJoin(questionSet, eq(questionSet.id, liveTest.qsid))
    .leftJoin(liveRegistration, and(eq(liveRegistration.qsid, liveTest.qsid), eq(liveRegistration.personId, me.id)))
    .where(and(gt(liveTest.resultAt, now), eq(questionSet.published, true), eq(questionSet.draft, false), eq(questionSet.deleted, false)))
    .orderBy(asc(liveTest.startAt))
    .limit(200);
  return { success: true, data: rows.map((r) => viewOf(r.live, r.set, r.reg !== null)) };
}

/**
 * POST /api/live/register: the caller registers (again: their SMS choice is updated) for a live
 * test whose window has not closed. A set that is not free needs a plan the caller could start it
 * with now (entitlements downloadAccess, docs/payments.md "Without a plan"); the attempt itself is
 * counted against the plan when it arrives, as every attempt is.
 */
export async function register(deps: Deps, me: Principal, input: RegisterLive, now = Date.now()): Promise<{ success: true; msg: string }> {
  const live = await liveOf(deps.db, input.qsid);
  const set = live && (await first(deps.db.select().from(questionSet).where(eq(questionSet.id, input.qsid))));
  if (!live || !set || !set.published || set.draft || set.deleted) throw notFound(MSG.liveNotFound);
  if (now > windowEnd({ start: live.startAt, win: live.windowMs })) throw badRequest(MSG.liveRegistrationClosed);
  if (!set.free && !(await downloadAccess(deps.db, me.id, now)).includes(set.isM ? 'm' : 'p')) throw paymentRequired(MSG.planRequired);
  await transaction(deps.db, async (tx) => {
    const rev = await nextRev(tx);
    await tx
      .insert(liveRegistration)
      .values({ qsid: input.qsid, personId: me.id, sms: input.sms, lang: input.lang, createdAt: now, rev })
      .onConflictDoUpdate({ target: [liveRegistration.qsid, liveRegistration.personId], set: { sms: input.sms, lang: input.lang, rev } });
  });
  deps.events.emit({ collections: ['live_key'], personId: me.id });
  // Registered after the start (inside the window): the code by SMS at once, as the release job would have sent it.
  if (input.sms && live.released) {
    const mobile = (await first(deps.db.select({ mobile: person.mobile }).from(person).where(eq(person.id, me.id))))?.mobile;
    if (mobile) {
      const message = await unlockSms(live, set.l, mobile, input.lang);
      deps.afterAnswer.run('live test unlock code', () => deps.outbox.send(message), me.id);
    }
  }
  return { success: true, msg: MSG.liveRegistered };
}

/** Whether `personId` registered for the live test of `qsid`. */
export async function isRegistered(db: Conn, qsid: string, personId: string): Promise<boolean> {
  return (await first(db.select({ q: liveRegistration.qsid }).from(liveRegistration).where(and(eq(liveRegistration.qsid, qsid), eq(liveRegistration.personId, personId))))) !== undefined;
}

// --- The live_key collection --------------------------------------------------------------------------

/**
 * GET /api/sync/v1/live_key/pull: the caller's registrations, each as a document whose revision is
 * the greater of the registration's and the test's (both from the one counter, so no two documents
 * of one person share one). The key is in it only once the server's clock has passed the start:
 * a document pulled before says null, and the release job gives the test a new revision at the start.
 */
export async function pullLiveKeys(db: Conn, personId: string, rev: number, limit: number, now = Date.now()): Promise<PullResponse<LiveKeyDoc>> {
  const rows = (await liveKeysStatement(db).all({ personId, rev, limit })) as { live: LiveRow; sms: boolean; rev: number }[];
  const documents = rows.map(({ live, sms }) => ({
    id: live.qsid,
    key: now >= live.startAt ? live.key : null,
    start: live.startAt,
    win: live.windowMs,
    res: live.resultAt,
    sms,
    updatedAt: now,
    _deleted: false,
  }));
  return { documents, checkpoint: { rev: rows.length > 0 ? Number(rows.at(-1)!.rev) : rev } };
}

/**
 * The pull's statement, prepared once per handle (db/dialect.ts perHandle): at a live test's
 * start every registered device pulls at once, and building this query each time cost more than
 * running it (docs/live-tests.md "The key at scale").
 */
const liveKeysStatement = perHandle((db) => {
  const docRev = sql<number>`case when ${liveTest.rev} > ${liveRegistration.rev} then ${liveTest.rev} else ${liveRegistration.rev} end`;
  return prepared(
    db,
    db
      .select({ live: liveTest, sms: liveRegistration.sms, rev: docRev })
      .from(liveRegistration)
      .innerJoin(liveTest, eq(liveTest.qsid, liveRegistration.qsid))
      .where(and(eq(liveRegistration.personId, sql.placeholder('personId')), sql`${docRev} > ${sql.placeholder('rev')}`))
      .orderBy(docRev)
      .limit(sql.placeholder('limit')),
  ) as unknown as { all: (values: { personId: string; rev: number; limit: number }) => Promise<unknown[]> };
});

// --- The sealed paper in qs_detail ---------------------------------------------------------------------

/**
 * Sealed papers by set, valid while the set's detail revision and the test's revision stay:
 * sealing is AES-GCM over ~100 kB, and every device pulling the set would otherwise pay it again.
 */
const sealedPapers = new LRUCache<string, LiveDetail>({ max: 200 });

/**
 * `qs_detail.live` of a live set: its times, the key wrapped under the unlock code, and the
 * questions (already built without correct answers) sealed with the test's key.
 */
export async function sealedDetail(live: LiveRow, detailRev: number, questions: unknown): Promise<LiveDetail> {
  const cacheKey = `${live.qsid}:${detailRev}:${live.updatedAt}`;
  const hit = sealedPapers.get(cacheKey);
  if (hit) return hit;
  const detail: LiveDetail = { start: live.startAt, win: live.windowMs, res: live.resultAt, wk: live.wrapped, paper: await sealPaper(live.key, live.qsid, questions) };
  sealedPapers.set(cacheKey, detail);
  return detail;
}

// --- Attempts -----------------------------------------------------------------------------------------

/**
 * Why a new attempt at a live test is refused (null: taken), until its result time: its person
 * did not register, or it started outside the window — before the start (the key did not exist;
 * START_SKEW_MS for the device's clock) or after the window closed. `startedAt` is the start as
 * the server bounds it (sync-protocol scoring boundedStart: never after the server first saw it).
 * After the result time the set is an ordinary one; its attempts are never ranked
 * (docs/live-tests.md "Live tests").
 */
export function liveStartRefusal(live: Pick<LiveRow, 'startAt' | 'windowMs' | 'resultAt'>, registered: boolean, startedAt: number, now: number): 'unregistered' | 'early' | 'closed' | null {
  if (now >= live.resultAt) return null;
  if (!registered) return 'unregistered';
  if (startedAt < live.startAt - START_SKEW_MS) return 'early';
  return startedAt > windowEnd({ start: live.startAt, win: live.windowMs }) ? 'closed' : null;
}

/** Whether results of `qsid` (its answer key and ranks) are still withheld at `now`: a live test before its result time. */
export async function resultsWithheld(db: Conn, qsid: string, now = Date.now()): Promise<LiveRow | null> {
  const live = await liveOf(db, qsid);
  return live && now < live.resultAt ? live : null;
}

/** The sets among `qsids` whose results the replication holds back: live tests whose results have not opened. */
export async function heldBackSets(db: Conn, qsids: readonly string[]): Promise<Set<string>> {
  if (qsids.length === 0) return new Set();
  const rows = await db
    .select({ qsid: liveTest.qsid })
    .from(liveTest)
    .where(and(inArray(liveTest.qsid, [...new Set(qsids)]), eq(liveTest.resultsOpened, false)));
  return new Set(rows.map((r) => r.qsid));
}

// --- The release job ------------------------------------------------------------------------------------

/** The unlock code's SMS (docs/sms.md "DLT templates": `live_unlock`); the code is its secret. */
export async function unlockSms(live: LiveRow, title: string, mobile: string, lang: string): Promise<OutgoingMessage> {
  const l = lang === 'hi' ? 'hi' : 'en';
  const code = await unlockCodeOf(live.key, live.qsid);
  const vars = { title, code: SECRET_MASK };
  return {
    channel: 'sms',
    to: mobile,
    subject: SMS_TEMPLATES.live_unlock.subject,
    body: renderTemplate('live_unlock', l, vars),
    secret: formatUnlockCode(code),
    template: { kind: 'live_unlock', lang: l, vars },
  };
}

/**
 * Releases what is due at `now`: each live test whose start has come gets a new revision (its
 * registered learners' `live_key` documents now carry the key), their devices are told through
 * the stream, and those who asked get the unlock code by SMS; each whose result time has come
 * opens its results (they replicate again, with the answer key) and runs deps.afterResultsOpen
 * (its score distribution is built). Claimed with a conditional
 * update, so that two instances never release one test twice. Returns how many of each.
 */
export async function releaseDue(deps: Pick<Deps, 'db' | 'events' | 'outbox' | 'log' | 'afterResultsOpen'>, now = Date.now()): Promise<{ released: number; opened: number }> {
  const due = await deps.db.select().from(liveTest).where(and(eq(liveTest.released, false), lte(liveTest.startAt, now)));
  let released = 0;
  for (const live of due) if (await releaseKey(deps, live)) released++;
  const ending = await deps.db.select().from(liveTest).where(and(eq(liveTest.resultsOpened, false), lte(liveTest.resultAt, now)));
  let opened = 0;
  for (const live of ending) if (await openResults(deps, live, now)) opened++;
  return { released, opened };
}

async function releaseKey(deps: Pick<Deps, 'db' | 'events' | 'outbox' | 'log'>, live: LiveRow): Promise<boolean> {
  const claimed = await transaction(deps.db, async (tx) => {
    const rev = await nextRev(tx);
    return first(
      tx
        .update(liveTest)
        .set({ released: true, rev })
        .where(and(eq(liveTest.qsid, live.qsid), eq(liveTest.released, false)))
        .returning({ qsid: liveTest.qsid }),
    );
  });
  if (!claimed) return false;
  const people = await deps.db
    .select({ id: liveRegistration.personId, sms: liveRegistration.sms, lang: liveRegistration.lang, mobile: person.mobile })
    .from(liveRegistration)
    .innerJoin(person, eq(person.id, liveRegistration.personId))
    .where(eq(liveRegistration.qsid, live.qsid));
  // The key rides in the event itself: a connected device opens the paper on it, before its pull
  // of the new `live_key` document (docs/live-tests.md "The key at scale").
  const keys = [{ qsid: live.qsid, key: live.key }];
  for (const p of people) deps.events.emit({ collections: ['live_key'], personId: p.id, keys });
  const title = (await first(deps.db.select({ l: questionSet.l }).from(questionSet).where(eq(questionSet.id, live.qsid))))?.l ?? '';
  for (const p of people) {
    if (!p.sms) continue;
    const message = await unlockSms(live, title, p.mobile, p.lang);
    void deps.outbox.send(message).catch((err: unknown) => deps.log.error({ err, qsid: live.qsid, person: p.id }, 'live test unlock SMS failed'));
  }
  deps.log.info({ qsid: live.qsid, registered: people.length }, 'live test key released');
  return true;
}

/**
 * What reacts to a live test's results opening (deps.afterResultsOpen, wired in compose.ts), once
 * the release job has opened them: the set's score distribution is built then and there
 * (modules/results score-dist), not at the distribution job's next run, so that devices rank a
 * score as soon as results open (docs/live-tests.md "When it is refreshed").
 */
export type ResultsOpenedHook = (qsid: string, now: number) => Promise<void>;

/**
 * The results of a live test replicate again at its result time, now with the answer key
 * (sync.service holds them back before), and what reacts to it runs. A hook that fails is logged
 * and leaves the results open: the distribution job rebuilds the set at its next run anyway.
 */
async function openResults(deps: Pick<Deps, 'db' | 'events' | 'log' | 'afterResultsOpen'>, live: LiveRow, now: number): Promise<boolean> {
  const people = await transaction(deps.db, async (tx) => {
    const claimed = await first(
      tx
        .update(liveTest)
        .set({ resultsOpened: true })
        .where(and(eq(liveTest.qsid, live.qsid), eq(liveTest.resultsOpened, false)))
        .returning({ qsid: liveTest.qsid }),
    );
    if (!claimed) return null;
    const rows = await tx.select({ id: examResult.id, personId: examResult.personId }).from(examResult).where(eq(examResult.qsid, live.qsid)).orderBy(asc(examResult.rev));
    const revs = await nextRevs(tx, rows.length);
    for (const [i, r] of rows.entries()) await tx.update(examResult).set({ rev: revs[i]! }).where(eq(examResult.id, r.id));
    return new Set(rows.map((r) => r.personId));
  });
  if (!people) return false;
  for (const personId of people) deps.events.emit({ collections: ['exam_result'], personId });
  for (const hook of deps.afterResultsOpen) {
    await hook(live.qsid, now).catch((err: unknown) => deps.log.error({ err, qsid: live.qsid }, 'live test results-open hook failed'));
  }
  return true;
}

/** The earliest start or result time still to come within `horizonMs` of `now`, if any (what the release job must not miss by a poll). */
export async function nextDue(db: Conn, now: number, horizonMs: number): Promise<number | null> {
  const until = now + horizonMs;
  const [start] = await db
    .select({ at: liveTest.startAt })
    .from(liveTest)
    .where(and(eq(liveTest.released, false), gt(liveTest.startAt, now), lte(liveTest.startAt, until)))
    .orderBy(asc(liveTest.startAt))
    .limit(1);
  const [result] = await db
    .select({ at: liveTest.resultAt })
    .from(liveTest)
    .where(and(eq(liveTest.resultsOpened, false), gt(liveTest.resultAt, now), lte(liveTest.resultAt, until)))
    .orderBy(asc(liveTest.resultAt))
    .limit(1);
  const times = [start?.at, result?.at].filter((t): t is number => t !== undefined);
  return times.length > 0 ? Math.min(...times) : null;
}

/**
 * Runs releaseDue every `everyMs`, once across instances (lib/exclusive), each run in a turn of
 * its own; and at the very moment of a start or result time that comes before the next run (each
 * run looks `everyMs` ahead and sets a timer for it): a poll alone would release a key up to
 * `everyMs` after its start, on average half of it, which every device would wait on top of its
 * pull (docs/live-tests.md "The key at scale").
 */
export function startLiveRelease(deps: Deps, everyMs = 1000): () => void {
  let running = false;
  // A run asked for while one was going (the exact timer during a poll): it runs right after.
  let again = false;
  let stopped = false;
  let exact: ReturnType<typeof setTimeout> | null = null;
  const aimAtNext = async () => {
    const now = Date.now();
    const at = await nextDue(deps.db, now, everyMs);
    if (stopped || at === null) return;
    if (exact) clearTimeout(exact);
    exact = setTimeout(run, at - now);
    exact.unref();
  };
  const run = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    again = false;
    runExclusive(deps.db, 'live-release', () => releaseDue(deps))
      .then(aimAtNext)
      .catch((err: unknown) => deps.log.error({ err }, 'live test release job failed'))
      .finally(() => {
        running = false;
        if (again) run();
      });
  };
  const initial = setImmediate(run);
  const timer = setInterval(run, everyMs);
  timer.unref();
  return () => {
    stopped = true;
    clearImmediate(initial);
    clearInterval(timer);
    if (exact) clearTimeout(exact);
  };
}
