import { randomUUID } from 'node:crypto';
import { distinctSetQuestionIds } from '@pm/protocol/question-set';
import { and, asc, desc, eq, type SQL, sql } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import { MSG } from '@pm/protocol/messages';
import type { ExamResultResponse, RankResponse, Submission } from '@pm/protocol/result';
import { newAttempt, type TestSummaryDoc } from '@pm/protocol/sync/test-summary';
import type { Deps, Principal } from '../../context';
import type { Conn, DB, Tx } from '../../db/client';
import { attempt, examResult, meta, person, question, questionSet } from '../../db/schema';
import { databaseKey, inJsonArray, prepared as prepareOn } from '../../db/dialect';
import { first, row, transaction } from '../../db/transaction';
import { logActivity } from '../../lib/activity';
import { badRequest, forbidden, notFound, paymentRequired } from '../../lib/errors';
import type { Logger } from '../../lib/logger';
import { rawStatement, rowEncoder } from '../../lib/raw-statement';
import { nextRev, nextRevs, revsOf } from '../../lib/revision';
import { isOverLimit } from '../entitlements/entitlements.service';
import { liveOf, resultsWithheld } from '../live-tests/live-tests.service';
import { setView } from '../questions/question-sets.service';
import { examResultDocs } from '../sync/sync.docs';
import { rankedResults, startedInWindow } from './score-dist';
import { type AttemptSubmittedHook, pushTestSummaries, runSubmittedHooks, type SubmittedContext } from '../sync/sync.service';
import { boundedSubmittedAt, isEmptyAnswer, isLate, keyQuestion, partsOf, round, score, type ScoringPart } from '@pm/protocol/scoring';

type AttemptRow = typeof attempt.$inferSelect;
type ResultRow = typeof examResult.$inferSelect;

/**
 * A set's marking as scoring needs it, valid while the set's detail revision stays the same
 * (every new version of the set or of one of its questions bumps it). `setVersion` and `qv`
 * (each question's version, already as the JSON the column stores) are what a result records
 * it was scored against (docs/authoring.md "Publishing and unpublishing").
 */
type Scheme = { detailRev: number; dur: number; parts: ScoringPart[]; setVersion: number; qv: string };

/*
 * Statements of the scoring path, prepared once per handle (a submission storm scores
 * thousands of attempts a second; building SQL per attempt would cost more than running it).
 * A statement is bound to the handle it was prepared on: scoring runs inside the push's
 * transaction, so its statements are prepared on the transaction's handle (`tx`: on SQLite one
 * object for every transaction of a database, so they are prepared once; on PostgreSQL one per
 * transaction, on its connection), the reads outside a transaction on the database handle.
 * Compiled marking schemes are cached per set (and database) and checked
 * against the set's `detail_rev`, which every change of the set or of one of its questions bumps
 * (questions module, publish job).
 */
const prepared = new WeakMap<DB, ReturnType<typeof prepare>>();
function queries(db: DB) {
  let q = prepared.get(db);
  if (!q) {
    q = prepare(db);
    prepared.set(db, q);
  }
  return q;
}
function prepare(db: DB) {
  const P = (n: string) => sql.placeholder(n);
  return {
    setHead: prepareOn(db, db.select({ detailRev: questionSet.detailRev }).from(questionSet).where(eq(questionSet.id, P('id')))),
    setRow: prepareOn(db, db.select().from(questionSet).where(eq(questionSet.id, P('id')))),
    questions: prepareOn(
      db,
      db
        .select({ id: question.id, qt: question.qt, ca: question.ca, trans: question.trans, deleted: question.deleted, version: question.version })
        .from(question)
        .where(inJsonArray(db, question.id, P('ids'))),
    ),
    rev: revsOf(db),
    // Run by better-sqlite3 with values encoded once (lib/raw-statement.ts).
    insert: rawStatement(
      db,
      db
        .insert(examResult)
        .values({
          id: P('id'),
          personId: P('personId'),
          qsid: P('qsid'),
          attemptId: P('attemptId'),
          marks: P('marks'),
          outOf: P('outOf'),
          userRes: P('userRes'),
          totalMarks: P('totalMarks'),
          total: P('total'),
          late: P('late'),
          // Decided by the insert itself (docs/security.md "Times, ranking and sync quotas"): a person's first result at a set is
          // ranked, every later one is practice. One statement, in the transaction that stores
          // the submission, so two submissions arriving together cannot both be first.
          practice: sql`exists (select 1 from ${examResult} where ${examResult.personId} = ${P('personId')} and ${examResult.qsid} = ${P('qsid')})`,
          setVersion: P('setVersion'),
          qv: P('qv'),
          pending: P('pending'),
          maxOf: P('maxOf'),
          submittedAt: P('submittedAt'),
          elapsed: P('elapsed'),
          et: P('et'),
          receipt: P('receipt'),
          createdAt: P('createdAt'),
          rev: P('rev'),
        })
        .onConflictDoNothing({ target: examResult.attemptId }),
    ),
    encodeResult: rowEncoder(examResult),
    resultOfAttempt: prepareOn(db, db.select().from(examResult).where(eq(examResult.attemptId, P('attemptId')))),
    schemes: schemesOf(db),
  };
}

/**
 * The compiled schemes of a database, for every handle on it: on PostgreSQL each transaction has
 * a handle (and statements) of its own, and the cache must outlive it.
 */
const schemeCaches = new WeakMap<object, LRUCache<string, Scheme>>();
function schemesOf(db: DB): LRUCache<string, Scheme> {
  const key = databaseKey(db);
  let c = schemeCaches.get(key);
  if (!c) {
    c = new LRUCache<string, Scheme>({ max: 1000 });
    schemeCaches.set(key, c);
  }
  return c;
}

/** The set's marking scheme; `detailRev`: the set's detail revision as the caller read it in this transaction. */
async function schemeOf(tx: Tx, qsid: string, detailRev?: number): Promise<Scheme | undefined> {
  const q = queries(tx);
  const head = detailRev === undefined ? await q.setHead.get({ id: qsid }) : { detailRev };
  if (!head) return undefined;
  const cached = q.schemes.get(qsid);
  if (cached && cached.detailRev === head.detailRev) return cached;
  const set = await q.setRow.get({ id: qsid });
  if (!set) return undefined;
  // Deleted questions are left out, as qs_detail leaves them out of the test.
  const rows = (await q.questions.all({ ids: JSON.stringify(distinctSetQuestionIds(set)) })).filter((r) => !r.deleted);
  const keys = new Map(rows.map((r) => [r.id, keyQuestion(r)]));
  const qv = JSON.stringify(Object.fromEntries(rows.map((r) => [r.id, r.version])));
  const scheme: Scheme = { detailRev: head.detailRev, dur: set.dur, parts: partsOf(set, (id) => keys.get(id)), setVersion: set.version, qv };
  q.schemes.set(qsid, scheme);
  return scheme;
}

/**
 * Scores a submitted attempt and stores its result, inside the transaction that stored the
 * submission. Idempotent: `exam_result.attempt_id` is unique, so a second arrival of the same
 * submission neither rescores nor duplicates (and the push path calls this only when an attempt
 * becomes SUBMITTED, which happens once: a submitted attempt never changes again).
 * Returns whether a result was written.
 */
export async function scoreSubmitted(tx: Tx, row: AttemptRow, ctx: SubmittedContext, log?: Logger): Promise<boolean> {
  // A failure here must not fail the push: the device would send the same batch for ever. The
  // attempt is kept, and scoreUnscored scores it at the next start.
  try {
    return await storeScore(tx, row, ctx);
  } catch (err) {
    log?.error({ err, attempt: row.id, qsid: row.qsid }, 'scoring failed; the attempt is kept and scored at the next start');
    return false;
  }
}

async function storeScore(tx: Tx, row: AttemptRow, ctx: SubmittedContext): Promise<boolean> {
  const scheme = await schemeOf(tx, row.qsid, ctx.setDetailRev);
  if (!scheme) return false;
  const s = score(scheme.parts, row.answers);
  // Stored already bounded by the push (sync.service); the bound holds for older rows too.
  const times = {
    st: row.startedAt,
    submittedAt: row.submittedAt,
    elapsed: row.elapsed,
    seenElapsed: ctx.previous?.elapsed ?? null,
    firstSeen: row.serverFirstSeen,
    seenBefore: ctx.previous !== undefined,
    receivedAt: ctx.now,
  };
  const submittedAt = boundedSubmittedAt(times);
  const q = queries(tx);
  const rev = ctx.resultRev ?? (await q.rev(1))[0]!;
  const values = q.encodeResult({
    id: randomUUID(),
    personId: row.personId,
    qsid: row.qsid,
    attemptId: row.id,
    marks: s.marks,
    outOf: s.outOf,
    userRes: s.userRes,
    totalMarks: s.totalMarks,
    total: s.total,
    late: isLate({ ...times, durMinutes: scheme.dur }),
    pending: s.pending,
    maxOf: s.maxOf,
    submittedAt,
    elapsed: row.elapsed,
    // End time (docs/glossary.md, epoch seconds): the submission, never later than its arrival.
    et: Math.floor(Math.min(submittedAt, ctx.now) / 1000),
    // The receipt the push computed over the submission as it arrived (docs/exams.md "Submission receipt").
    receipt: row.receipt,
    createdAt: ctx.now,
    rev,
  });
  // Encoded once per scheme, not per submission.
  values.setVersion = scheme.setVersion;
  values.qv = scheme.qv;
  return (await q.insert.run(values)).changes > 0;
}

/**
 * Scoring as the push path runs it (deps.afterSubmit, compose.ts): a failure is logged to `log`
 * and the attempt kept for the start-up repair (scoreUnscored).
 */
export function scoringHook(log: Logger): AttemptSubmittedHook {
  return (tx, row, ctx) => scoreSubmitted(tx, row, ctx, log);
}

/** Most attempts one start scores afresh (the rest wait for the next start). */
const MAX_RESCORED = 10_000;

/**
 * Scores submitted attempts that have no result — the repair for a scoring failure (see
 * scoreSubmitted), run when the app starts. Each in its own transaction, as the push would,
 * through the push's hooks (deps.afterSubmit).
 * Returns how many results were written.
 */
export async function scoreUnscored(deps: Pick<Deps, 'db' | 'events' | 'afterSubmit'>): Promise<number> {
  const rows = await deps.db
    .select()
    .from(attempt)
    .where(
      and(
        eq(attempt.status, 'SUBMITTED'),
        eq(attempt.deleted, false),
        sql`not exists (select 1 from ${examResult} where ${examResult.attemptId} = ${attempt.id})`,
      ),
    )
    .limit(MAX_RESCORED);
  let written = 0;
  for (const row of rows) {
    const now = Date.now();
    // Through the push's hooks (scoring is one), so that the result-ready message
    // (modules/push) goes out as it would have at the push.
    if (await transaction(deps.db, (tx) => runSubmittedHooks(deps, tx, row, { db: deps.db, previous: undefined, now }))) {
      written++;
      deps.events.emit({ collections: ['exam_result'], personId: row.personId });
    }
  }
  return written;
}

/**
 * The start-up repairs (compose.ts runs them once the app is built): submissions whose scoring
 * failed earlier (logged then) are scored, and the results migration 0006 marked practice
 * replicate again (once per database).
 */
export async function repairResults(deps: Pick<Deps, 'db' | 'events' | 'afterSubmit' | 'log'>): Promise<void> {
  const rescored = await scoreUnscored(deps);
  if (rescored > 0) deps.log.warn({ rescored }, 'submitted attempts without a result were scored');
  const resent = await replicatePracticeFlags(deps);
  if (resent > 0) deps.log.info({ resent }, 'results marked practice by migration 0006 replicate again');
}

/** `meta` key set once every result marked practice by migration 0006 has been sent again. */
const PRACTICE_FLAGS_SENT = 'exam_result.practice.replicated';

/**
 * Migration 0006 marked results that were not a learner's first as practice without a new
 * revision, so devices holding them would never learn it. Once per database, those results get
 * a new revision and replicate again with `practice` set. The `meta` row is written with
 * ON CONFLICT DO NOTHING in the same transaction: a second start does nothing. Returns how many
 * results were sent again.
 */
export async function replicatePracticeFlags(deps: Pick<Deps, 'db'>): Promise<number> {
  return transaction(deps.db, async (tx) => {
    const marked = await first(tx.insert(meta).values({ key: PRACTICE_FLAGS_SENT, value: new Date().toISOString() }).onConflictDoNothing().returning());
    if (!marked) return 0;
    const ids = await tx.select({ id: examResult.id }).from(examResult).where(eq(examResult.practice, true)).orderBy(asc(examResult.rev));
    const revs = await nextRevs(tx, ids.length);
    for (const [i, { id }] of ids.entries()) await tx.update(examResult).set({ rev: revs[i]! }).where(eq(examResult.id, id));
    return ids.length;
  });
}

async function response(db: DB, row: ResultRow, set: typeof questionSet.$inferSelect | undefined): Promise<Omit<ExamResultResponse, 'success'>> {
  // A locked attempt (stored past the plan's allowance) shows nothing of its result, answer key
  // included, until a plan opens it (docs/payments.md "Without a plan").
  if (await isOverLimit(db, row.attemptId)) throw paymentRequired(MSG.resultLocked);
  // A live test's results open for everyone at its result time (docs/live-tests.md "Live tests").
  if (await resultsWithheld(db, row.qsid)) throw forbidden(MSG.liveResultsLater);
  const [doc] = await examResultDocs(db, [row]);
  const { _deleted: _d, ...rest } = doc!;
  return { qs: set ? setView(set) : null, ...rest, overLimit: false };
}

/**
 * POST /api/question/submitUserResponse {qsid, ures}: the online way to submit. It becomes a
 * submitted attempt of the caller with a server-chosen id, stored and scored through the push
 * path of replication (so it is the same attempt and result a device would sync). It starts now,
 * online: a paid set past the caller's allowance is refused (402) with nothing stored
 * (docs/payments.md "Without a plan").
 */
export async function submit(deps: Deps, me: Principal, input: Submission): Promise<ExamResultResponse> {
  const q = queries(deps.db);
  const set = await q.setRow.get({ id: input.qsid });
  if (!set || set.deleted || !set.published) throw badRequest(MSG.questionSetNotConfigured);
  // A live test runs on the device, from its sealed paper, until its result time (docs/live-tests.md).
  if (await resultsWithheld(deps.db, set.id)) throw badRequest(MSG.liveTakenInApp);
  const inSet = new Set(distinctSetQuestionIds(set));
  for (const qid of Object.keys(input.ures)) {
    if (!inSet.has(qid)) throw badRequest(`${MSG.questionNotInSet} ${qid}`);
  }
  const now = Date.now();
  // An attempt started and submitted at once, with the answers sent; no device clock measured it.
  const { elapsed: _unmeasured, ...started } = newAttempt(randomUUID(), set.id, now);
  const doc: TestSummaryDoc = {
    ...started,
    answers: Object.fromEntries(Object.entries(input.ures).map(([qid, ua]) => [qid, { ua, status: isEmptyAnswer(ua) ? 'VISITED' : 'ANSWERED' }])),
    status: 'SUBMITTED',
    submittedAt: now,
    _deleted: false,
  };
  await pushTestSummaries(deps, me, [{ newDocumentState: doc, assumedMasterState: null }]);
  const row = await q.resultOfAttempt.get({ attemptId: doc.id });
  if (!row) throw new Error('submission was not scored');
  return { success: true, msg: MSG.testSubmitted, ...(await response(deps.db, row, set)) };
}

/**
 * The caller's latest result for a set: the latest submission, then the latest stored. It may be
 * a practice attempt (its document says so); submission times are bounded by the server.
 */
function latestOf(db: Conn, personId: string, qsid: string): Promise<ResultRow | undefined> {
  return first(
    db
      .select()
      .from(examResult)
      .where(and(eq(examResult.personId, personId), eq(examResult.qsid, qsid), eq(examResult.deleted, false)))
      .orderBy(desc(examResult.submittedAt), desc(examResult.rev))
      .limit(1),
  );
}

/** The caller's ranked result for a set: their first, the one result of theirs that is not practice. */
function rankedOf(db: Conn, personId: string, qsid: string): Promise<ResultRow | undefined> {
  return first(
    db
      .select()
      .from(examResult)
      .where(and(eq(examResult.personId, personId), eq(examResult.qsid, qsid), eq(examResult.practice, false), eq(examResult.deleted, false)))
      .orderBy(asc(examResult.createdAt), asc(examResult.rev))
      .limit(1),
  );
}

/** GET /api/question/getExamResult?qsid: only ever the caller's own result. */
export async function getExamResult(deps: Deps, me: Principal, qsid: string): Promise<ExamResultResponse> {
  const row = await latestOf(deps.db, me.id, qsid);
  if (!row) throw notFound(MSG.resultNotFound);
  return { success: true, ...(await response(deps.db, row, await queries(deps.db).setRow.get({ id: row.qsid }))) };
}

/**
 * GET /api/question/getRank?qsid: the caller's place among the learners of the set, each by
 * their first submitted attempt (docs/security.md "Times, ranking and sync quotas": later attempts are practice, never ranked, so
 * re-submitting after the answers were shown changes no rank). Rank is 1 + the learners with
 * more marks (equal marks share a rank); percentile is the share of learners with the same or
 * fewer marks (NTA's definition), to 2 decimals.
 */
export async function rank(deps: Deps, me: Principal, qsid: string): Promise<RankResponse> {
  const mine = await rankedOf(deps.db, me.id, qsid);
  if (!mine) throw notFound(MSG.resultNotFound);
  // Locked results have no rank and are not counted in others' (docs/payments.md).
  if (await isOverLimit(deps.db, mine.attemptId)) throw paymentRequired(MSG.resultLocked);
  // A live test ranks at its result time, for everyone at once, the first attempts that started
  // inside its window (docs/live-tests.md "Live tests").
  const live = await liveOf(deps.db, qsid);
  if (live && Date.now() < live.resultAt) throw forbidden(MSG.liveResultsLater);
  const inWindow = live ? startedInWindow(live) : sql`1 = 1`;
  if (live && !(await row(deps.db, sql`select 1 as ok from ${examResult} where ${examResult.id} = ${mine.id} and ${inWindow}`))) throw notFound(MSG.liveNotRanked);
  const counts = await rankCounts(deps.db, qsid, mine.totalMarks, inWindow);
  return { success: true, rank: counts.above + 1, of: counts.of, percentile: Math.round((counts.atOrBelow / counts.of) * 10_000) / 100 };
}

/**
 * Where `marks` stands among a set's ranked learners (those `scope` keeps): how many there are,
 * how many have more, how many the same or fewer. Exactly the results the published distribution
 * counts (score-dist.ts rankedResults).
 */
export async function rankCounts(db: DB, qsid: string, marks: number, scope: SQL): Promise<{ of: number; above: number; atOrBelow: number }> {
  const counts = (await row<{ of: number; above: number; atOrBelow: number }>(
    db,
    sql`
    with ranked as (${rankedResults(qsid, scope)})
    select count(*) as "of",
           coalesce(sum(case when total_marks > ${marks} then 1 else 0 end), 0) as "above",
           coalesce(sum(case when total_marks <= ${marks} then 1 else 0 end), 0) as "atOrBelow"
    from ranked where n = 1`,
  ))!;
  return { of: Number(counts.of), above: Number(counts.above), atOrBelow: Number(counts.atOrBelow) };
}

/** GET /api/generic/getParticipantsCount?quesSetId → `{ success, p }`: learners with an attempt at the set. */
export async function participants(deps: Deps, qsid: string) {
  const row = await first(
    deps.db
      .select({ p: sql<number>`count(distinct ${attempt.personId})` })
      .from(attempt)
      .where(and(eq(attempt.qsid, qsid), eq(attempt.deleted, false))),
  );
  return { success: true as const, p: row?.p ?? 0 };
}

/**
 * GET /api/question/getPendingEvaluations?qsid&l&o: what an editor has to evaluate — one entry
 * per answered subjective question still without marks, from the oldest submissions on, paged
 * by result (`count` is the number of results with something pending).
 */
export async function pendingEvaluations(deps: Deps, query: { qsid?: string | undefined; l: number; o: number }) {
  const where = and(eq(examResult.deleted, false), sql`${examResult.pending} > 0`, query.qsid ? eq(examResult.qsid, query.qsid) : undefined);
  const rows = await deps.db
    .select({ r: examResult, name: person.name })
    .from(examResult)
    .innerJoin(person, eq(person.id, examResult.personId))
    .where(where)
    .orderBy(asc(examResult.submittedAt), asc(examResult.rev))
    .limit(query.l)
    .offset(query.o);
  const data = rows.flatMap(({ r, name }) =>
    Object.values(r.userRes).flatMap((part) =>
      Object.entries(part)
        .filter(([, v]) => v.mg === null)
        .map(([qid, v]) => ({ resultId: r.id, qsid: r.qsid, person: { id: r.personId, name }, qid, ua: v.ua, max: r.maxOf[qid] ?? 0, submittedAt: r.submittedAt })),
    ),
  );
  const count = (await first(deps.db.select({ n: sql<number>`count(*)` }).from(examResult).where(where)))?.n ?? 0;
  return { success: true as const, data, count };
}

/**
 * PATCH /api/question/evaluate {resultId, qid, mg}: an editor awards marks to an answered
 * subjective question (0 ≤ mg ≤ its part's marks per question at scoring time); the part's
 * marks, the total and the pending count follow, and the result replicates to its learner.
 */
export async function evaluate(deps: Deps, actor: Principal, input: { resultId: string; qid: string; mg: number }) {
  const after = await transaction(deps.db, async (tx) => {
    const before = await first(tx.select().from(examResult).where(eq(examResult.id, input.resultId)));
    if (!before || before.deleted) throw notFound('Result not found');
    const part = Object.keys(before.userRes).find((k) => Object.hasOwn(before.userRes[k]!, input.qid));
    const max = before.maxOf[input.qid];
    if (part === undefined || max === undefined) throw badRequest(MSG.onlySubjective);
    if (input.mg < 0 || input.mg > max) throw badRequest(`Marks must be between 0 and ${max}`);
    const old = before.userRes[part]![input.qid]!;
    const delta = input.mg - (old.mg ?? 0);
    const userRes = { ...before.userRes, [part]: { ...before.userRes[part], [input.qid]: { ua: old.ua, mg: input.mg } } };
    const rev = await nextRev(tx);
    const after = (await first(
      tx
        .update(examResult)
        .set({
          userRes,
          marks: { ...before.marks, [part]: round((before.marks[part] ?? 0) + delta) },
          totalMarks: round(before.totalMarks + delta),
          pending: before.pending - (old.mg === null ? 1 : 0),
          rev,
        })
        .where(eq(examResult.id, before.id))
        .returning(),
    ))!;
    await logActivity(tx, {
      actor,
      action: 'UPDATE',
      entity: 'exam_result',
      entityId: before.id,
      oldValue: { qid: input.qid, mg: old.mg, totalMarks: before.totalMarks, pending: before.pending },
      newValue: { qid: input.qid, mg: input.mg, totalMarks: after.totalMarks, pending: after.pending },
    });
    return after;
  });
  deps.events.emit({ collections: ['exam_result'], personId: after.personId });
  return { success: true as const, msg: MSG.answerEvaluated, data: (await examResultDocs(deps.db, [after]))[0]! };
}
