import { createHash } from 'node:crypto';
import { distinctSetQuestionIds } from '@pm/protocol/question-set';
import { isDeepStrictEqual } from 'node:util';
import { and, asc, eq, getTableColumns, gt, sql } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import { type CollectionName, GUEST_COLLECTIONS, type PullResponse } from '@pm/protocol/sync/envelopes';
import type { TestSummaryDoc } from '@pm/protocol/sync/test-summary';
import { MSG } from '@pm/protocol/messages';
import { receiptPayload } from '@pm/protocol/receipt';
import { boundedStart, boundedSubmittedAt } from '@pm/protocol/scoring';
import type { Deps, Principal } from '../../context';
import type { DB, Tx } from '../../db/client';
import { databaseKey, greater, inJsonArray, prepared as prepare, statementKey } from '../../db/dialect';
import { attempt, examResult, person, questionSet, scoreDist, tag } from '../../db/schema';
import { AppError, badRequest, forbidden, unauthenticated } from '../../lib/errors';
import { groupCommit } from '../../lib/group-commit';
import { rawStatement, rowEncoder } from '../../lib/raw-statement';
import { revsOf } from '../../lib/revision';
import { flagDiffering, markCompleted, smsRowsOf, uploadMatches } from './sms-upload';
import { heldBackSets, isRegistered, liveOfSets, liveStartRefusal, pullLiveKeys } from '../live-tests/live-tests.service';
import { bumpEntitlement, countAttempt, downloadAccess, entitlementDoc, entitlementRev, lockedAmong, newCountTally, ONLINE_START_MS, plansOf } from '../entitlements/entitlements.service';
import { examResultDocs, guestSetDocs, qsDetailDocs, questionSetDocs, scoreDistDocOf, scoreDistListsDoc, tagDoc, testSummaryDoc } from './sync.docs';

/**
 * What a pull needs to know of the device beyond the checkpoint: `g`, the checkpoint's record of
 * what qs_detail held back; `compactDist`, whether its app reads score_dist in the compact form
 * (its protocol version, sync-protocol sync/score-dist.ts readsCompactDist).
 */
export type PullOptions = { g?: string; compactDist?: boolean };

/**
 * GET /api/sync/v1/{collection}/pull: documents with a revision greater than `rev`, in revision
 * order, at most `limit`, and the checkpoint to ask from next time. Per-person collections only
 * ever read the caller's own rows. A guest (`me` null) pulls GUEST_COLLECTIONS only, and of the
 * sets those marked free, without correct answers (sync.docs DocOptions.guest).
 */
export async function pull(deps: Deps, me: Principal | null, collection: CollectionName, rev: number, limit: number, opts: PullOptions = {}): Promise<PullResponse<unknown>> {
  const { g, compactDist = true } = opts;
  if (!me) {
    if (!(GUEST_COLLECTIONS as readonly CollectionName[]).includes(collection)) throw unauthenticated(MSG.loginRequired);
    return guestPull(deps, collection, rev, limit);
  }
  const db = deps.db;
  switch (collection) {
    case 'tag': {
      const rows = await db.select().from(tag).where(gt(tag.rev, rev)).orderBy(asc(tag.rev)).limit(limit);
      return { documents: rows.map(tagDoc), checkpoint: { rev: rows.at(-1)?.rev ?? rev } };
    }
    case 'question_set': {
      const rows = await db.select().from(questionSet).where(gt(questionSet.rev, rev)).orderBy(asc(questionSet.rev)).limit(limit);
      return { documents: await questionSetDocs(db, rows), checkpoint: { rev: rows.at(-1)?.rev ?? rev } };
    }
    case 'qs_detail': {
      // A paid set's questions go only to a person who may start it now (docs/payments.md
      // "Without a plan"); `g` names what that was when the device last pulled. When it may
      // download a kind it could not then, the pull starts over, so that held-back sets arrive.
      // A checkpoint without `g` was made when nothing was held back: it goes on from `rev`.
      const access = await downloadAccess(db, me.id);
      const from = g !== undefined && [...access].some((k) => !g.includes(k)) ? 0 : rev;
      const rows = await db.select().from(questionSet).where(gt(questionSet.detailRev, from)).orderBy(asc(questionSet.detailRev)).limit(limit);
      const allowed = rows.filter((r) => r.free || r.deleted || !r.published || access.includes(r.isM ? 'm' : 'p'));
      return { documents: await qsDetailDocs(db, allowed), checkpoint: { rev: rows.at(-1)?.detailRev ?? from, g: access } };
    }
    case 'test_summary': {
      const rows = await db
        .select()
        .from(attempt)
        .where(and(eq(attempt.personId, me.id), gt(attempt.rev, rev)))
        .orderBy(asc(attempt.rev))
        .limit(limit);
      return { documents: rows.map(testSummaryDoc), checkpoint: { rev: rows.at(-1)?.rev ?? rev } };
    }
    case 'exam_result': {
      const rows = await db
        .select()
        .from(examResult)
        .where(and(eq(examResult.personId, me.id), gt(examResult.rev, rev)))
        .orderBy(asc(examResult.rev))
        .limit(limit);
      // A locked attempt's result stays on the server until a plan opens it (a new revision
      // then): docs/payments.md "Without a plan".
      const locked = await lockedAmong(db, rows.map((r) => r.attemptId));
      // A live test's results (their answer key) stay on the server until its result time, when
      // they take a new revision (docs/live-tests.md "Live tests").
      const held = await heldBackSets(db, rows.map((r) => r.qsid));
      const open = locked.size === 0 && held.size === 0 ? rows : rows.filter((r) => !locked.has(r.attemptId) && !held.has(r.qsid));
      return { documents: await examResultDocs(db, open), checkpoint: { rev: rows.at(-1)?.rev ?? rev } };
    }
    case 'score_dist': {
      // Every set's, as every set's questions come (docs/live-tests.md "Provisional rank on the
      // device"); an app of protocol 1.0 gets the form it knows ("Older apps").
      const rows = await db.select().from(scoreDist).where(gt(scoreDist.rev, rev)).orderBy(asc(scoreDist.rev)).limit(limit);
      const documents = compactDist ? rows.map((r) => scoreDistDocOf(db, r)) : rows.map(scoreDistListsDoc);
      return { documents, checkpoint: { rev: rows.at(-1)?.rev ?? rev } };
    }
    case 'entitlement': {
      // Owner only: the caller's one document, when its revision is past the checkpoint. Built
      // as of now, so a plan period that has ended shows as ended (entitlements.service.ts).
      const now = Date.now();
      const current = await entitlementRev(db, me.id, now);
      if (current <= rev) return { documents: [], checkpoint: { rev } };
      return { documents: [await entitlementDoc(db, me.id, now)], checkpoint: { rev: current } };
    }
    case 'live_key':
      // Owner only; the key once the server's clock has passed the start (docs/live-tests.md "The key schedule").
      return pullLiveKeys(db, me.id, rev, limit);
  }
}

async function guestPull(deps: Deps, collection: CollectionName, rev: number, limit: number): Promise<PullResponse<unknown>> {
  const db = deps.db;
  if (collection === 'question_set') {
    const rows = await db.select().from(questionSet).where(gt(questionSet.rev, rev)).orderBy(asc(questionSet.rev)).limit(limit);
    return { documents: await guestSetDocs(db, rows), checkpoint: { rev: rows.at(-1)?.rev ?? rev } };
  }
  if (collection === 'qs_detail') {
    const rows = await db.select().from(questionSet).where(gt(questionSet.detailRev, rev)).orderBy(asc(questionSet.detailRev)).limit(limit);
    return { documents: await qsDetailDocs(db, rows, { guest: true }), checkpoint: { rev: rows.at(-1)?.detailRev ?? rev } };
  }
  const rows = await db.select().from(tag).where(gt(tag.rev, rev)).orderBy(asc(tag.rev)).limit(limit);
  return { documents: rows.map(tagDoc), checkpoint: { rev: rows.at(-1)?.rev ?? rev } };
}

/** Fields the server owns: a device's copy may lag behind them without that being a conflict. */
function comparable(d: TestSummaryDoc | null | undefined) {
  if (!d) return null;
  const { sfs: _sfs, ...rest } = d;
  return rest;
}

/**
 * What a hook learns besides the submitted row: the database handle, the attempt as the server
 * held it before this push (undefined when first seen now) and the server time the submission
 * arrived. A hook runs inside the push's transaction: its statements go through `tx` (statements
 * prepared once are prepared on `tx` and kept per db/dialect.ts statementKey); `db` is for what
 * runs after the transaction (and as a key per database), never inside it.
 */
export type SubmittedContext = {
  db: DB;
  previous: typeof attempt.$inferSelect | undefined;
  now: number;
  /**
   * From the push: the set's `detail_rev` as it read it in this transaction (a hook need not
   * read it again), and a revision it took for the result with its own (one counter update per
   * push, lib/revision.ts). Absent elsewhere (the start-up repair): the hook reads and takes them.
   */
  setDetailRev?: number;
  resultRev?: number;
};
export type AttemptSubmittedHook = (tx: Tx, row: typeof attempt.$inferSelect, ctx: SubmittedContext) => Promise<boolean> | boolean;

/**
 * What reacts to an attempt that became SUBMITTED (deps.afterSubmit, wired in compose.ts), in
 * order, inside the transaction that stores it; also for one that became SUBMITTED by another way
 * (the start-up repair of results.scoreUnscored). True when a hook wrote an exam result.
 */
export async function runSubmittedHooks(deps: Pick<Deps, 'afterSubmit'>, tx: Tx, row: typeof attempt.$inferSelect, ctx: SubmittedContext): Promise<boolean> {
  let scored = false;
  for (const hook of deps.afterSubmit) scored = (await hook(tx, row, ctx)) || scored;
  return scored;
}

/**
 * Most bytes of answers one person may have stored (docs/security.md "Times, ranking and sync quotas": one learner grew the database by
 * 10 MB in 10 pushes). An answer costs ~80 bytes (question id, answer, state, time), so a
 * 100-question mock test is ~8 KB and 10 MB holds ~1,250 of them — a test a day for over three
 * years — while bounding what one account can make the server keep. Subjective answers (up to
 * 5,000 characters each) cost more and are rare. Charged per push, with the growth of the
 * answers it stores (`person.storage_bytes`, UTF-8 bytes of the stored JSON).
 */
export const STORAGE_QUOTA_BYTES = 10 * 1024 * 1024;

/** Bytes an attempt's answers take as stored (Drizzle keeps JSON columns as JSON text). */
const answerBytes = (answers: unknown) => Buffer.byteLength(JSON.stringify(answers));

/**
 * Statements of the push path, prepared once per handle they run on — the transaction's handle
 * (`tx`), kept per db/dialect.ts statementKey (SQLite: one object for every transaction of a
 * database; PostgreSQL: per connection): building SQL per row would cost more than running it
 * (a device pushes batches; a submission storm pushes many).
 */
const prepared = new WeakMap<object, ReturnType<typeof preparePush>>();
function pushQueries(db: DB) {
  const key = statementKey(db);
  let q = prepared.get(key);
  if (!q) {
    q = preparePush(db);
    prepared.set(key, q);
  }
  return q;
}
function preparePush(db: DB) {
  type Row = typeof attempt.$inferSelect;
  // Every column gets a placeholder, so that a column added later is written too (the row built
  // below must have every column: its type is the table's row type). Run by the driver with
  // values encoded once (lib/raw-statement.ts).
  const cols = Object.keys(getTableColumns(attempt)) as (keyof Row)[];
  const P = (n: string) => sql`${sql.placeholder(n)}`;
  const encode = rowEncoder(attempt);
  const insert = rawStatement(db, db.insert(attempt).values(Object.fromEntries(cols.map((c) => [c, P(c)])) as unknown as typeof attempt.$inferInsert));
  const update = rawStatement(
    db,
    db
      .update(attempt)
      .set(Object.fromEntries(cols.filter((c) => c !== 'id').map((c) => [c, P(c)])))
      .where(eq(attempt.id, P('id'))),
  );
  return {
    // All masters of a batch in one statement: the ids go in as one JSON array (db/dialect.ts).
    masters: prepare(db, db.select().from(attempt).where(inJsonArray(db, attempt.id, sql.placeholder('ids')))),
    set: prepare(
      db,
      db
        .select({ publishedAt: questionSet.publishedAt, detailRev: questionSet.detailRev, isM: questionSet.isM, free: questionSet.free })
        .from(questionSet)
        .where(eq(questionSet.id, sql.placeholder('id'))),
    ),
    setQuestions: prepare(
      db,
      db
        .select({ q: questionSet.q, sections: questionSet.sections })
        .from(questionSet)
        .where(eq(questionSet.id, sql.placeholder('id'))),
    ),
    /**
     * Question ids per set, valid while the set's `detail_rev` (bumped by every change of it)
     * stays: one cache per database (PostgreSQL gives every transaction a handle of its own).
     */
    questionIds: questionIdCache(db),
    // The quota is one conditional write in the push's transaction (CONVENTIONS rule 12): a push
    // that shrinks the answers always passes; one that grows them only while the total stays
    // within the quota. RETURNING nothing means refused.
    // Run by the driver directly (lib/raw-statement): one row changed means charged.
    charge: rawStatement(
      db,
      db
        .update(person)
        .set({ storageBytes: greater(db, sql`${person.storageBytes} + ${sql.placeholder('n')}`, sql`0`) })
        .where(and(eq(person.id, sql.placeholder('id')), sql`(${sql.placeholder('n')} <= 0 or ${person.storageBytes} + ${sql.placeholder('n')} <= ${sql.placeholder('quota')})`)),
    ),
    // `answersJson` is the row's answers as stored, already written once to count their bytes
    // for the quota: an attempt's answers are ~8 kB of JSON, and encoding them twice showed.
    insert: (row: Row, answersJson: string) => insert.run({ ...encode({ ...row, answers: null as unknown as Row['answers'] }), answers: answersJson }),
    update: (row: Row, answersJson: string) => update.run({ ...encode({ ...row, answers: null as unknown as Row['answers'] }), answers: answersJson }),
    revs: revsOf(db),
  };
}

type QuestionIdCache = LRUCache<string, { detailRev: number; ids: ReadonlySet<string> }>;
const questionIdCaches = new WeakMap<object, QuestionIdCache>();
function questionIdCache(db: DB): QuestionIdCache {
  const key = databaseKey(db);
  let cache = questionIdCaches.get(key);
  if (!cache) {
    cache = new LRUCache({ max: 1000 });
    questionIdCaches.set(key, cache);
  }
  return cache;
}

/** The question ids of a set as they are now (sync-protocol distinctSetQuestionIds), cached per detail revision. */
async function questionIdsOfSet(q: ReturnType<typeof preparePush>, qsid: string, detailRev: number): Promise<ReadonlySet<string>> {
  const hit = q.questionIds.get(qsid);
  if (hit && hit.detailRev === detailRev) return hit.ids;
  const row = await q.setQuestions.get({ id: qsid });
  // A set row without sections (a damaged row) still has its main questions.
  const ids = new Set(row ? distinctSetQuestionIds({ q: row.q ?? [], sections: row.sections ?? {} }) : []);
  q.questionIds.set(qsid, { detailRev, ids });
  return ids;
}

/**
 * POST /api/sync/v1/test_summary/push, in one transaction. Per row: a document already equal to
 * the master is a no-op (re-pushing a batch changes nothing); otherwise the write applies only
 * if the device's assumed master state equals the server's (compare-and-set), else the master is
 * returned as a conflict. A submitted attempt never changes again. The owner is the caller.
 * Masters and sets are read with one query each and new attempts inserted with one statement:
 * a device pushes in batches, and per-row statements would dominate the cost. The promise
 * settles once the push is committed.
 * Refused whole, with nothing stored (docs/security.md "Times, ranking and sync quotas"): an answer to a question that is not in the
 * attempt's set (400), and a push that would take the person's answers past
 * STORAGE_QUOTA_BYTES (413). A submission's time is stored bounded by the server's own times.
 * A new attempt of a set that is not free is counted against the learner's plan allowance
 * (entitlements.service.ts countAttempt), in the same transaction; past the allowance it is
 * stored and scored as always and recorded as over the limit. The event then names `entitlement`.
 * `written`, when given, receives the ids of the attempts this push itself wrote, once committed
 * (a row equal to the master is no write: another push stored it first).
 * A submission whose answer code came by SMS first (modules/sms-answers, docs/sms.md "When the
 * data comes") is compared with what the SMS said: the same answers complete the attempt without
 * scoring it again (or, when its written answers followed by data, are stored and scored as seen
 * when the SMS came); different ones are refused and flagged for staff. `opts.sms`: this push is
 * the SMS's own.
 */
export async function pushTestSummaries(
  deps: Deps,
  me: Principal,
  rows: { newDocumentState: TestSummaryDoc; assumedMasterState?: TestSummaryDoc | null | undefined }[],
  written?: Set<string>,
  opts: { offline?: boolean; sms?: boolean } = {},
): Promise<TestSummaryDoc[]> {
  let writtenIds: string[] = [];
  let scored = false;
  let counted = false;
  // The receipt of each submission in the batch, over the document exactly as it arrived (the
  // learner's device computed the same over what it sent: docs/offline-integrity.md). Node's own
  // SHA-256, synchronously: WebCrypto's digest (what the device uses) costs several times more
  // per call in Node, and the same payload gives the same hash. Only the row that makes an
  // attempt SUBMITTED keeps it.
  const receipts = rows.map((r) => (r.newDocumentState.status === 'SUBMITTED' ? createHash('sha256').update(receiptPayload(r.newDocumentState)).digest('hex') : null));
  // Pushes arriving together share one transaction (lib/group-commit.ts); each is all or nothing.
  const conflicts = await groupCommit(deps.db)(async (tx) => {
    const now = Date.now();
    const out: TestSummaryDoc[] = [];
    const q = pushQueries(tx);
    const masters = new Map<string, typeof attempt.$inferSelect>();
    for (const m of await q.masters.all({ ids: JSON.stringify(rows.map((r) => r.newDocumentState.id)) })) {
      // Another person's attempt: refuse the whole batch without saying anything about it.
      if (m.personId !== me.id) throw forbidden(MSG.permissionDenied);
      masters.set(m.id, m);
    }
    const previous = new Map(masters);
    const sets = new Map<string, { publishedAt: number | null; detailRev: number; isM: boolean; free: boolean } | undefined>();
    // The question ids of each set, read here per set rather than per row (cached per detail revision).
    const inSetOf = new Map<string, ReadonlySet<string>>();
    for (const id of new Set(rows.map((r) => r.newDocumentState.qsid))) {
      const set = await q.set.get({ id });
      sets.set(id, set);
      if (set) inSetOf.set(id, await questionIdsOfSet(q, id, set.detailRev));
    }
    const lives = await liveOfSets(tx, [...sets.keys()]);

    type Row = typeof attempt.$inferSelect;
    const inserts: Row[] = [];
    const updates: Row[] = [];
    const answersJsonOf = new Map<Row, string>();
    // Submissions whose answer code came by SMS first (docs/sms.md "When the data comes").
    // (The push an SMS itself makes is the submission those are compared with.)
    const smsRows = opts.sms ? new Map<string, never>() : await smsRowsOf(tx, rows);
    /** Uploads that complete an attempt the SMS stored: written, never scored again. */
    const completions = new Set<string>();
    let grown = 0;
    for (const [i, row] of rows.entries()) {
      const next = row.newDocumentState;
      const masterRow = masters.get(next.id);
      const master = masterRow ? testSummaryDoc(masterRow) : null;
      if (master && isDeepStrictEqual(comparable(master), comparable(next))) continue;
      if (!master && next._deleted) continue; // deleted before it ever reached the server
      const sms = next._deleted ? undefined : smsRows.get(next.id);
      if (sms && sms.completedAt === null && masterRow?.personId === me.id) {
        if (sms.differedAt !== null || next.qsid !== sms.qsid || !uploadMatches(sms, next)) {
          if (sms.differedAt === null) await flagDiffering(tx, deps.log, sms, next, { id: me.id, name: me.name }, now);
          if (master) out.push(master);
          continue;
        }
        await markCompleted(tx, sms, now);
        if (master?.status === 'SUBMITTED') {
          // The SMS's submission stands (its time, receipt and result); the upload adds how the test went.
          const saved: Row = { ...masterRow!, lsq: next.lsq, idx: next.index, selectedSection: next.selectedSection, answers: next.answers, elapsed: next.elapsed ?? masterRow!.elapsed, updatedAt: next.updatedAt, rev: 0 };
          const answersJson = JSON.stringify(saved.answers);
          answersJsonOf.set(saved, answersJson);
          grown += Buffer.byteLength(answersJson) - answerBytes(masterRow!.answers);
          updates.push(saved);
          masters.set(saved.id, saved);
          completions.add(saved.id);
          continue;
        }
      } else if (sms && sms.completedAt === null && !masterRow) {
        // Written answers that followed by data: the choices must be what the SMS said.
        if (next.qsid !== sms.qsid || !uploadMatches(sms, next)) {
          if (sms.differedAt === null) await flagDiffering(tx, deps.log, sms, next, { id: me.id, name: me.name }, now);
          continue;
        }
        await markCompleted(tx, sms, now);
      }
      if (master && (master.status === 'SUBMITTED' || !isDeepStrictEqual(comparable(master), comparable(row.assumedMasterState)))) {
        out.push(master);
        continue;
      }
      // An attempt never moves to another set: answered with the master (a conflict), not a 400
      // that would fail the whole batch on every retry.
      if (master && masterRow && masterRow.qsid !== next.qsid) {
        out.push(master);
        continue;
      }
      if (!masterRow && sets.get(next.qsid)?.publishedAt == null) {
        // A learner can only hold a set that was published once (it may be withdrawn or deleted
        // since: the attempt is still taken). An unknown set is skipped, not refused: a batch
        // that can never succeed would block the device's replication for good.
        deps.log.warn({ person: me.id, attempt: next.id, qsid: next.qsid }, 'attempt at an unknown question set skipped');
        continue;
      }
      const live = masterRow ? undefined : lives.get(next.qsid);
      if (live) {
        // A live test takes only its registered learners' attempts started inside its window
        // (docs/live-tests.md "Live tests"); refused as an unknown set is, without failing the batch.
        const started = boundedStart({ st: next.st, firstSeen: now });
        const refusal = liveStartRefusal(live, await isRegistered(tx, next.qsid, me.id), started, now);
        if (refusal) {
          deps.log.warn({ person: me.id, attempt: next.id, qsid: next.qsid, refusal }, 'attempt at a live test refused');
          continue;
        }
      }
      // Answers only to questions of the set (docs/security.md "Times, ranking and sync quotas": answers to made-up ids grew the database).
      // One the server already holds for this attempt stays allowed: the question was in the set
      // when it was stored, and an editor taking it out since must not block the device's sync.
      const inSet = inSetOf.get(next.qsid);
      if (inSet) {
        for (const qid of Object.keys(next.answers)) {
          if (!inSet.has(qid) && !(masterRow && Object.hasOwn(masterRow.answers as object, qid))) throw badRequest(`${MSG.questionNotInSet} ${qid}`);
        }
      }
      // An SMS of this submission came first: the server saw it then (docs/sms.md "When the data comes").
      const smsSeen = sms && sms.completedAt === null ? sms.receivedAt : now;
      const serverFirstSeen = Math.min(masterRow?.serverFirstSeen ?? now, smsSeen);
      const saved: Row = {
        id: next.id,
        personId: me.id,
        serverFirstSeen,
        qsid: next.qsid,
        startedAt: next.st,
        lsq: next.lsq,
        idx: next.index,
        selectedSection: next.selectedSection,
        answers: next.answers,
        status: next.status,
        // Bounded by the server's own times (ARCHITECTURE decision 5, docs/security.md "Times, ranking and sync quotas"): the submission
        // time decides which result is the latest, so a device clock cannot put it in the future.
        submittedAt:
          next.status === 'SUBMITTED'
            ? boundedSubmittedAt({ st: next.st, submittedAt: next.submittedAt, firstSeen: serverFirstSeen, seenBefore: previous.has(next.id), receivedAt: smsSeen })
            : null,
        elapsed: next.elapsed ?? null,
        // A submitted master never reaches here (it answers as a conflict above), so this is the
        // push that submits: the receipt is of this document.
        receipt: next.status === 'SUBMITTED' ? receipts[i]! : null,
        updatedAt: next.updatedAt,
        deleted: next._deleted,
        rev: 0,
      };
      const answersJson = JSON.stringify(saved.answers);
      answersJsonOf.set(saved, answersJson);
      grown += Buffer.byteLength(answersJson) - (masterRow ? answerBytes(masterRow.answers) : 0);
      (masterRow ? updates : inserts).push(saved);
      // A later row of the same batch compares against this state.
      masters.set(saved.id, saved);
    }
    if (grown !== 0 && (await q.charge.run({ id: me.id, n: grown, quota: STORAGE_QUOTA_BYTES })).changes !== 1) {
      throw new AppError('PAYLOAD_TOO_LARGE', MSG.storageFull);
    }
    // Every revision the push takes in one update of the counter: the attempts', one per result
    // its hooks may store, and the entitlement document's when a new attempt may count against a
    // plan (one not needed is a gap, which the protocol allows: only the order counts).
    const stored = [...inserts, ...updates];
    const toScore = [...new Map(stored.map((x) => [x.id, x])).values()].filter((r) => r.status === 'SUBMITTED' && !r.deleted && !completions.has(r.id));
    const mayCount = inserts.some((r) => sets.get(r.qsid)?.free === false);
    const revs = await q.revs(stored.length + toScore.length + (mayCount ? 1 : 0));
    stored.forEach((r, i) => (r.rev = revs[i]!));
    // New attempts first: a later row of the batch with the same id became an update.
    for (const r of inserts) await q.insert(r, answersJsonOf.get(r)!);
    for (const r of updates) await q.update(r, answersJsonOf.get(r)!);
    writtenIds = stored.map((r) => r.id);
    // A new attempt of a set that is not free uses one of the plan's allowance; past it, one
    // started online is refused (402) and one made offline is stored locked (docs/payments.md).
    // The learner's plans read once for every new attempt of the push (a learner has a few).
    const plans = mayCount ? await plansOf(tx, me.id) : [];
    // The allowance's counts read once for the push and counted on as its attempts are (entitlements.service CountTally).
    const tally = newCountTally(me.id);
    for (const r of inserts) {
      const set = sets.get(r.qsid);
      if (!set) continue;
      const startedAt = boundedStart({ st: r.startedAt, firstSeen: r.serverFirstSeen });
      // Seen as it starts, the device is online: past the allowance it is refused, not locked
      // (docs/payments.md "Without a plan"). An answer file is the offline way by definition.
      const refuseOver = opts.offline !== true && Math.abs(now - r.startedAt) <= ONLINE_START_MS;
      if (await countAttempt(tx, { attemptId: r.id, personId: me.id, qsid: r.qsid, isM: set.isM, free: set.free, startedAt, actor: { id: me.id, name: me.name }, refuseOver }, { bump: false, fresh: true, plans, tally })) {
        counted = true;
      }
    }
    // The learner's entitlement document takes one new revision for all this push counted.
    if (counted) await bumpEntitlement(tx, me.id, now, revs.at(-1)!);
    for (const [i, r] of toScore.entries()) {
      const ctx: SubmittedContext = { db: deps.db, previous: previous.get(r.id), now, setDetailRev: sets.get(r.qsid)?.detailRev, resultRev: revs[stored.length + i]! };
      scored = (await runSubmittedHooks(deps, tx, r, ctx)) || scored;
    }
    return out;
  });
  for (const id of writtenIds) written?.add(id);
  if (writtenIds.length > 0) {
    const collections: CollectionName[] = ['test_summary'];
    if (scored) collections.push('exam_result');
    if (counted) collections.push('entitlement');
    deps.events.emit({ collections, personId: me.id });
  }
  return conflicts;
}
