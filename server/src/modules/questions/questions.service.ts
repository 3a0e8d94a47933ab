import { randomUUID } from 'node:crypto';
import { and, desc, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import { MSG } from '@pm/protocol/messages';
import {
  canMoveStatus,
  QUESTION_PAGE_SIZE,
  questionInputSchema,
  type QuestionListQuery,
  type QuestionStatus,
  type QuestionVersionData,
} from '@pm/protocol/question';
import type { Deps, Principal } from '../../context';
import { type Conn, type DB, inOpenTransaction } from '../../db/client';
import { question, questionSet, tag } from '../../db/schema';
import { statementKey } from '../../db/dialect';
import { first, transaction } from '../../db/transaction';
import { logActivity } from '../../lib/activity';
import { badRequest, notFound } from '../../lib/errors';
import { parseWith } from '../../lib/http';
import { rawStatement, rowEncoder } from '../../lib/raw-statement';
import { nextRev, revsOf } from '../../lib/revision';
import { sanitizeMap, sanitizeRichText } from '../../lib/sanitize';
import { DetailedError } from './detailed-error';
import { accessTo, isVisibleSet, type QuestionAccess, type Reader, releasedSetsHolding, setsHolding, withoutAnswers } from './question-access';
import { versionData, versionOf, type VersionAction } from './question-history';
import { countQuestions, indexQuestion, indexQuestions, listCondition, unindexQuestion } from './question-index';
import { settleTranslations } from './translation-state';
import { englishSourceHash } from '@pm/protocol/translate';

type QuestionRow = typeof question.$inferSelect;
type ParsedQuestion = ReturnType<typeof questionInputSchema.parse>;

/** A question as the editor API returns it (sync-protocol QuestionView). */
export function questionView(r: QuestionRow) {
  return {
    id: r.id,
    q: r.q,
    ops: r.ops,
    c: r.c,
    d: r.d,
    ca: r.ca,
    qt: r.qt,
    s: r.s,
    t: r.t,
    e: r.e,
    st: r.st,
    reason: r.reason,
    trans: r.trans,
    expl: r.expl,
    version: r.version,
    createdBy: r.createdBy,
    updatedBy: r.updatedBy,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

/** A live set holding a question, as the editor's views name it. */
type HoldingSet = { id: string; l: string; published: boolean; draft: boolean };

/**
 * The live sets holding each of `ids` (QuestionView `sets`, the editor's list only): where a
 * question is used, and whether a published set keeps it approved and undeletable. Not on the
 * single question, which the editor sends back whole as its PATCH body.
 */
async function setsOf(db: Conn, ids: readonly string[]): Promise<Map<string, HoldingSet[]>> {
  const out = new Map<string, HoldingSet[]>();
  for (const s of await setsHolding(db, ids)) {
    for (const id of s.holds) {
      const list = out.get(id) ?? [];
      list.push({ id: s.id, l: s.l, published: isVisibleSet(s), draft: s.draft });
      out.set(id, list);
    }
  }
  return out;
}

/**
 * Rich text is sanitised (lib/sanitize.ts), then the question is checked again: what sanitising
 * removed may leave a blank question or option ('Option cannot be blank').
 */
function clean(input: ParsedQuestion): ParsedQuestion {
  const cleaned = {
    ...input,
    q: sanitizeRichText(input.q),
    ops: sanitizeMap(input.ops),
    // The explanation is rich text as the question is (docs/exams.md "Explanations").
    expl: input.expl ? sanitizeRichText(input.expl) : '',
    trans: Object.fromEntries(
      Object.entries(input.trans).map(([lang, tr]) => [
        lang,
        { ...tr, q: sanitizeRichText(tr.q), ops: sanitizeMap(tr.ops), ...(tr.expl !== undefined && { expl: tr.expl ? sanitizeRichText(tr.expl) : '' }) },
      ]),
    ),
  };
  return parseWith(questionInputSchema, cleaned);
}

/** The tags questions name must exist (docs/glossary.md "Questions": c, s, t, e hold tag ids). */
async function checkTags(db: Conn, ...vs: QuestionVersionData[]) {
  const tids = [...new Set(vs.flatMap((v) => [...v.c, ...v.t, ...v.e, ...(v.s ? [v.s] : [])]))];
  if (tids.length === 0) return;
  const found = new Set<string>();
  // In parts: a batch (createManyCheckedInTransaction) may name more tags than SQLite takes parameters.
  for (let i = 0; i < tids.length; i += 500) {
    for (const t of await db
      .select({ tid: tag.tid })
      .from(tag)
      .where(and(inArray(tag.tid, tids.slice(i, i + 500)), eq(tag.deleted, false)))) {
      found.add(t.tid);
    }
  }
  const missing = tids.find((t) => !found.has(t));
  if (missing) throw badRequest(`${MSG.unknownTag} ${missing}`);
}

/**
 * Whether a list query is one a reader without QUESTION_EDITOR may make: questions by id only
 * (docs/exams.md: a test "fetches limit 1000, offset 0" with `qids`). Listing and filtering the bank
 * is authoring. Empty filters (`s=`, `search=`) are no filters.
 */
export function isReadByIds(query: QuestionListQuery): boolean {
  const { qids, l: _l, o: _o, ...filters } = query;
  return Boolean(qids?.length) && Object.values(filters).every((v) => v === undefined || v.length === 0);
}

/** A question as `access` lets its reader have it: without correct answers unless `withAnswers`. */
function readerView(r: QuestionRow, access: QuestionAccess) {
  const view = questionView(r);
  return access.withAnswers ? view : withoutAnswers(view);
}

/**
 * A changed question changes the offline copy of every set that holds it: the sets take new
 * revisions (question_set and qs_detail), so devices pull them again, and scoring compiles their
 * marking (and the question versions results record) afresh. Returns how many.
 */
async function bumpSetsContaining(tx: Conn, id: string): Promise<number> {
  const sets = await setsHolding(tx, [id]);
  for (const s of sets) {
    const rev = await nextRev(tx);
    const detailRev = await nextRev(tx);
    await tx.update(questionSet).set({ rev, detailRev }).where(eq(questionSet.id, s.id));
  }
  return sets.length;
}

async function liveQuestion(db: Conn, id: string): Promise<QuestionRow> {
  const row = await first(db.select().from(question).where(eq(question.id, id)));
  if (!row || row.deleted) throw notFound(MSG.questionNotFound);
  return row;
}

/**
 * GET /api/question/{id}. Who reads what is decided by question-access.ts: editors any live
 * question; others one of a visible set, with its answers only where
 * that allows (else 404, the same answer as for an id that does not exist).
 */
export async function get(deps: Deps, id: string, reader: Reader) {
  const row = await liveQuestion(deps.db, id);
  const access = (await accessTo(deps.db, [row], reader)).get(id);
  if (!access) throw notFound(MSG.questionNotFound);
  return { success: true as const, data: readerView(row, access) };
}

/**
 * Newest first; ties (questions created in the same millisecond, as imports and seeds make them)
 * by id, in the direction of question_list_idx (deleted, created_at, id), which then serves the
 * order without sorting.
 */
const newestFirst = () => [desc(question.createdAt), desc(question.id)];

/**
 * GET /api/question?l&o&qids&s&c&t&e&qt&d&st&search (filters: question-index.ts): newest first; with `qids`, in the order of
 * `qids` (a test's questions in the set's order). A reader without QUESTION_EDITOR reads by ids
 * only (the route refuses the rest) and each id is decided on its own (question-access.ts)
 * BEFORE the page is cut: a hidden id taking a place in the page would tell that it exists.
 */
export async function list(deps: Deps, query: QuestionListQuery, reader: Reader) {
  const limit = query.l ?? (query.qids?.length ? query.qids.length : QUESTION_PAGE_SIZE);
  const byIds = (rows: QuestionRow[]) => {
    if (!query.qids?.length) return rows;
    const order = new Map(query.qids.map((id, i) => [id, i]));
    return rows.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
  };
  if (reader.editor) {
    const rows = byIds(await deps.db.select().from(question).where(listCondition(deps.db, query)).orderBy(...newestFirst()).limit(limit).offset(query.o));
    const sets = await setsOf(deps.db, rows.map((r) => r.id));
    return { success: true as const, data: rows.map((r) => ({ ...questionView(r), sets: sets.get(r.id) ?? [] })) };
  }
  // Listing the bank is authoring: without ids a non-editor reads nothing, whatever the route.
  if (!query.qids?.length) return { success: true as const, data: [] };
  const candidates = await deps.db.select().from(question).where(listCondition(deps.db, query)).orderBy(...newestFirst());
  const access = await accessTo(deps.db, candidates, reader);
  const rows = byIds(candidates.filter((r) => access.has(r.id)).slice(query.o, query.o + limit));
  return { success: true as const, data: rows.map((r) => readerView(r, access.get(r.id)!)) };
}

/** GET /api/question/getQuestionsCount with the list's filters (question-index.ts). */
export async function countOf(deps: Deps, query: Omit<QuestionListQuery, 'l' | 'o'>) {
  return { success: true as const, count: await countQuestions(deps.db, query) };
}

/**
 * A question held by a live set that is not a draft (published, or to be published when its time
 * comes) must stay APPROVED (docs/authoring.md "Publishing and unpublishing"): such a set holds approved questions only, and
 * un-approving one would put an unreviewed question in front of learners. 409 naming the sets.
 */
async function keepApproved(tx: Conn, id: string) {
  const sets = await releasedSetsHolding(tx, [id]);
  if (sets.length === 0) return;
  throw new DetailedError('CONFLICT', `${MSG.questionInPublishedSet} ${sets.map((s) => s.l).join(', ')}`, { sets: sets.map((s) => ({ id: s.id, l: s.l })) });
}

/**
 * Writes a question (created when `before` is undefined) as one new version: the review rule
 * (STATUS_NEXT; a new question moves from PENDING), the published-set rule, the tags, the
 * search index, the version row, the revisions of the sets holding it and the activity entry,
 * all in the caller's transaction. A reason is kept only with REJECTED.
 */
async function write(
  tx: Conn,
  actor: Principal,
  before: QuestionRow | undefined,
  v: QuestionVersionData,
  action: VersionAction,
  restoredFrom?: number,
  newId?: string,
): Promise<{ row: QuestionRow; bumped: number }> {
  const from = (before?.st ?? 'PENDING') as QuestionStatus;
  if (!canMoveStatus(from, v.st)) throw badRequest(MSG.statusNotAllowed);
  if (before && from === 'APPROVED' && v.st !== 'APPROVED') await keepApproved(tx, before.id);
  // A review step changes no content: tags deleted since the last save do not block it.
  if (action !== 'STATUS') await checkTags(tx, v);
  const fields = {
    q: v.q,
    ops: v.ops,
    c: v.c,
    d: v.d,
    ca: v.ca,
    qt: v.qt,
    s: v.s ?? null,
    t: v.t,
    e: v.e,
    st: v.st,
    // Which translations are current, stale or machine drafts (translation-state.ts; docs/configuration.md "Machine translation").
    trans: settleTranslations(before, v),
    reason: v.st === 'REJECTED' ? (v.reason ?? null) : null,
    expl: v.expl ?? '',
    updatedBy: actor.id,
    updatedAt: Date.now(),
    rev: await nextRev(tx),
  };
  // On the version read (compare-and-set): on PostgreSQL two transactions may both have read
  // `before`; the second's UPDATE then finds another version and changes nothing (docs/authoring.md,
  // "Two editors at once").
  const written = before
    ? await first(
        tx
          .update(question)
          .set({ ...fields, version: before.version + 1 })
          .where(and(eq(question.id, before.id), eq(question.version, before.version)))
          .returning(),
      )
    : undefined;
  if (before && !written) {
    const current = (await first(tx.select().from(question).where(eq(question.id, before.id))))!;
    throw new DetailedError('CONFLICT', MSG.questionChanged, { current: questionView(current) });
  }
  const row = (
    before
      ? written
      : await first(
          tx
            .insert(question)
            .values({ ...fields, id: newId ?? randomUUID(), version: 1, createdBy: actor.id })
            .returning(),
        )
  )!;
  await indexQuestion(tx, row, { action, actor, ...(restoredFrom !== undefined && { restoredFrom }) });
  const bumped = before ? await bumpSetsContaining(tx, row.id) : 0;
  await logActivity(tx, {
    actor,
    action: before ? 'UPDATE' : 'CREATE',
    entity: 'question',
    entityId: row.id,
    ...(before && { oldValue: questionView(before) }),
    newValue: questionView(row),
  });
  return { row, bumped };
}

/** After a write: devices pull the sets whose questions changed. */
function announce(deps: Deps, bumped: number) {
  if (bumped > 0) deps.events.emit({ collections: ['question_set', 'qs_detail'] });
}

/** POST /api/question: version 1, its status moving from PENDING (a reviewer approves it later). */
export async function create(deps: Deps, actor: Principal, input: ParsedQuestion) {
  const v = clean(input);
  const { row } = await transaction(deps.db, (tx) => write(tx, actor, undefined, v, 'CREATE'));
  return { success: true as const, id: row.id, msg: MSG.questionCreated, data: questionView(row) };
}

/**
 * The INSERT of a whole question row, prepared once per handle it runs on
 * (createManyCheckedInTransaction). Returns what the raw statement's run returns (a promise on
 * PostgreSQL, to be awaited; the result itself on SQLite).
 */
const preparedInserts = new WeakMap<object, (row: QuestionRow) => unknown>();
function questionInserter(db: DB): (row: QuestionRow) => unknown {
  const key = statementKey(db);
  let insert = preparedInserts.get(key);
  if (!insert) {
    // Every column a placeholder, so that a column added later is written too (the row built by
    // the caller has the table's row type) and no JS-side default is drawn once for all rows.
    const cols = Object.keys(getTableColumns(question)) as (keyof QuestionRow)[];
    const stmt = rawStatement(db, db.insert(question).values(Object.fromEntries(cols.map((c) => [c, sql`${sql.placeholder(c)}`])) as unknown as QuestionRow));
    const encode = rowEncoder(question);
    insert = (row) => stmt.run(encode(row));
    preparedInserts.set(key, insert);
  }
  return insert;
}

/**
 * New questions in the caller's transaction, each stored exactly as POST /api/question stores
 * one (write() without `before`): the same checks (status from PENDING, the tags exist), each its
 * own revision (reserved together, in order), version 1 with its version row and the list's
 * index. The import stores its rows with it (docs/authoring.md "Import and export") and logs itself as ONE activity entry
 * (docs/security.md, "Files in and out"): a per-question entry made 10,000 log rows of one
 * import. `values` are questions as `clean` leaves them (sanitised, then checked by
 * questionInputSchema): the import has checked every row before it stores any, and sanitising
 * again would cost a third of the store.
 *
 * Written together rather than by write() one at a time: the rows are built here as the
 * database returns them, and every statement is prepared once and run by the driver
 * directly. Built by Drizzle, the five INSERTs of each question cost several times what SQLite
 * took to run them (5,000 rows: 7.3 s in write(), 2 s here, of which 1.5 s SQLite; the
 * full-text index is most of that). Call inside a transaction, with its handle `tx` (the
 * statements are prepared on it, once: it is one object for every transaction of a database),
 * which a thrown error rolls back whole.
 */
export async function createManyCheckedInTransaction(tx: DB, actor: Principal, values: readonly QuestionVersionData[]): Promise<QuestionRow[]> {
  if (!inOpenTransaction(tx)) throw new Error('createManyCheckedInTransaction: call it inside a transaction, with its handle');
  if (values.length === 0) return [];
  for (const v of values) if (!canMoveStatus('PENDING', v.st)) throw badRequest(MSG.statusNotAllowed);
  await checkTags(tx, ...values);
  const revs = await revsOf(tx)(values.length);
  const insert = questionInserter(tx);
  const pending: Promise<unknown>[] = [];
  const rows = values.map((v, i): QuestionRow => {
    const now = Date.now();
    // The fields of write(), then what the INSERT there leaves to the table's defaults.
    const row: QuestionRow = {
      id: randomUUID(),
      q: v.q,
      ops: v.ops,
      c: v.c,
      d: v.d,
      ca: v.ca,
      qt: v.qt,
      s: v.s ?? null,
      t: v.t,
      e: v.e,
      st: v.st,
      trans: settleTranslations(undefined, v),
      reason: v.st === 'REJECTED' ? (v.reason ?? null) : null,
      expl: v.expl ?? '',
      version: 1,
      createdBy: actor.id,
      updatedBy: actor.id,
      createdAt: now,
      updatedAt: now,
      rev: revs[i]!,
      deleted: false,
    };
    const run = insert(row);
    if (run instanceof Promise) pending.push(run);
    return row;
  });
  await Promise.all(pending);
  await indexQuestions(tx, rows, { action: 'CREATE', actor });
  return rows;
}

/**
 * PATCH /api/question: the whole question replaces the stored one, as a new version, when
 * `version` (the version the editor's changes were made from) is still the current one. Else 409
 * with the current question in `current`, nothing written: another editor saved in between, and
 * the editor is shown both versions to choose (docs/authoring.md, "Two editors at once"). The
 * check and the write are one transaction, so two saves from the same version cannot both pass.
 */
export async function update(deps: Deps, actor: Principal, input: ParsedQuestion & { id: string; version: number }) {
  const { id, version, ...rest } = input;
  const v = clean(rest);
  const { row, bumped } = await transaction(deps.db, async (tx) => {
    const before = await liveQuestion(tx, id);
    if (before.version !== version) throw new DetailedError('CONFLICT', MSG.questionChanged, { current: questionView(before) });
    return write(tx, actor, before, v, 'UPDATE');
  });
  announce(deps, bumped);
  return { success: true as const, id, msg: MSG.questionUpdated, data: questionView(row) };
}

/** PATCH /api/question/updateStatus {id, st, reason}: a review step, as a new version. */
export async function updateStatus(deps: Deps, actor: Principal, input: { id: string; st: QuestionStatus; reason?: string | null | undefined }) {
  const { row, bumped } = await transaction(deps.db, async (tx) => {
    const before = await liveQuestion(tx, input.id);
    return write(tx, actor, before, { ...versionData(before), st: input.st, reason: input.reason ?? null }, 'STATUS');
  });
  announce(deps, bumped);
  return { success: true as const, id: row.id, msg: MSG.questionStatusUpdated, data: questionView(row) };
}

/**
 * POST /api/question/restoreQuestionVersion {id, version}: the content of that version becomes a
 * new version, under the rules of an update (its tags must still exist). The review status and
 * reason stay as they are now, as in Moodle's question history: restoring words is an edit, not
 * a review step (and a question a published set holds stays approved).
 */
export async function restore(deps: Deps, actor: Principal, input: { id: string; version: number }) {
  const { row, bumped } = await transaction(deps.db, async (tx) => {
    const before = await liveQuestion(tx, input.id);
    const old = await versionOf(tx, input.id, input.version);
    // Checked again: a version is as good as the rules of its day, and sanitising may have changed since.
    const v = clean(parseWith(questionInputSchema, { ...old.data, st: before.st, reason: before.reason }));
    return write(tx, actor, before, v, 'RESTORE', input.version);
  });
  announce(deps, bumped);
  return { success: true as const, id: row.id, msg: MSG.versionRestored, data: questionView(row) };
}

/**
 * DELETE /api/question/{id}: a soft delete (results keep showing the question). A question a
 * live set still holds is refused (409) with the sets' labels: deleting it would silently change
 * a test learners may be taking. Remove it from those sets first.
 */
export async function remove(deps: Deps, actor: Principal, id: string) {
  await transaction(deps.db, async (tx) => {
    const before = await liveQuestion(tx, id);
    const sets = await setsHolding(tx, [id]);
    if (sets.length > 0) {
      throw new DetailedError('CONFLICT', `${MSG.questionInUse} ${sets.map((s) => s.l).join(', ')}`, { sets: sets.map((s) => ({ id: s.id, l: s.l })) });
    }
    await tx
      .update(question)
      .set({ deleted: true, updatedBy: actor.id, updatedAt: Date.now(), rev: await nextRev(tx) })
      .where(eq(question.id, id));
    await unindexQuestion(tx, id);
    await logActivity(tx, { actor, action: 'DELETE', entity: 'question', entityId: id, oldValue: questionView(before) });
  });
  return { success: true as const, msg: MSG.questionDeleted };
}

/**
 * A question pushed from an editor's device (the `ed_question` collection, docs/authoring.md "Offline authoring"), in the
 * caller's transaction, under the rules of the API: a new one (no row with its id) is created with
 * the device's id, a live one updated as a new version, `_deleted` deletes it (refused while a set
 * holds it). The caller has already checked the assumed master state. Throws AppError when a rule
 * refuses it (nothing written). Returns the stored row and how many sets it bumped.
 */
export async function writeFromDevice(
  tx: Conn,
  actor: Principal,
  before: QuestionRow | undefined,
  doc: QuestionVersionData & { id: string; _deleted: boolean },
): Promise<{ row: QuestionRow | undefined; bumped: number }> {
  if (doc._deleted) {
    if (!before || before.deleted) return { row: before, bumped: 0 };
    const sets = await setsHolding(tx, [before.id]);
    if (sets.length > 0) throw new DetailedError('CONFLICT', `${MSG.questionInUse} ${sets.map((s) => s.l).join(', ')}`, { sets: sets.map((s) => ({ id: s.id, l: s.l })) });
    const row = await first(
      tx
        .update(question)
        .set({ deleted: true, updatedBy: actor.id, updatedAt: Date.now(), rev: await nextRev(tx) })
        .where(eq(question.id, before.id))
        .returning(),
    );
    await unindexQuestion(tx, before.id);
    await logActivity(tx, { actor, action: 'DELETE', entity: 'question', entityId: before.id, oldValue: questionView(before) });
    return { row, bumped: 0 };
  }
  const { id, _deleted, version: _version, updatedAt: _updatedAt, ...content } = doc as typeof doc & { version?: number; updatedAt?: number };
  const v = clean(parseWith(questionInputSchema, content));
  if (before?.deleted) throw notFound(MSG.questionNotFound);
  return write(tx, actor, before, v, before ? 'UPDATE' : 'CREATE', undefined, before ? undefined : id);
}

/**
 * Machine translations (generateInDiffLang; docs/configuration.md "Machine translation") saved as drafts into `lang`, each
 * question as a new version under the rules of an update, all in one transaction. A question
 * deleted, or whose English changed, since it was sent for translation is not saved (`outdated`):
 * its translation would be of words it no longer has.
 *
 * The stored English is not cleaned again (it was when it was saved), and a translation whose
 * placeholders came back in their order (`inOrder`) is the stored, sanitised markup with escaped
 * words between (translate/placeholders.ts), so it is not either (that would render every
 * formula of every question again for nothing). One whose markup came back reordered is
 * sanitised like any input.
 */
export async function saveMachineTranslations(
  deps: Deps,
  actor: Principal,
  lang: string,
  items: { id: string; english: string; inOrder: boolean; tr: { q: string; ops: Record<string, string>; ca: string[]; expl?: string } }[],
) {
  const saved: string[] = [];
  const outdated: string[] = [];
  let bumped = 0;
  await transaction(deps.db, async (tx) => {
    const found = await tx
      .select()
      .from(question)
      .where(inArray(question.id, items.map((i) => i.id)));
    const rows = new Map(found.map((r) => [r.id, r]));
    for (const item of items) {
      const before = rows.get(item.id);
      if (!before || before.deleted || englishSourceHash(before) !== item.english) {
        outdated.push(item.id);
        continue;
      }
      const tr = item.inOrder ? item.tr : { q: sanitizeRichText(item.tr.q), ops: sanitizeMap(item.tr.ops), ca: item.tr.ca, ...(item.tr.expl ? { expl: sanitizeRichText(item.tr.expl) } : {}) };
      const data = versionData(before);
      const v = parseWith(questionInputSchema, { ...data, trans: { ...data.trans, [lang]: { ...tr, src: item.english, mt: true } } });
      bumped += (await write(tx, actor, before, v, 'UPDATE')).bumped;
      saved.push(item.id);
    }
  });
  announce(deps, bumped);
  return { saved, outdated };
}
