import { randomUUID } from 'node:crypto';
import { and, asc, count, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { MSG } from '../../../../sync-protocol/src/messages';
import { QUESTION_PAGE_SIZE, questionInputSchema, type QuestionListQuery } from '../../../../sync-protocol/src/question';
import type { Deps, Principal } from '../../context';
import type { Conn } from '../../db/client';
import { question, questionSet, tag } from '../../db/schema';
import { logActivity } from '../../lib/activity';
import { badRequest, conflict, notFound } from '../../lib/errors';
import { parseWith } from '../../lib/http';
import { nextRev } from '../../lib/revision';
import { sanitizeMap, sanitizeRichText } from '../../lib/sanitize';
import { accessTo, type QuestionAccess, type Reader, setsHolding, withoutAnswers } from './question-access';

type QuestionRow = typeof question.$inferSelect;
type ParsedQuestion = ReturnType<typeof questionInputSchema.parse>;

/** A question as the editor API returns it. */
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
    trans: r.trans,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
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
    trans: Object.fromEntries(
      Object.entries(input.trans).map(([lang, tr]) => [lang, { q: sanitizeRichText(tr.q), ops: sanitizeMap(tr.ops), ca: tr.ca }]),
    ),
  };
  return parseWith(questionInputSchema, cleaned);
}

/** The tags a question names must exist (spec §3: c, s, t, e hold tag ids). */
function checkTags(db: Conn, v: ParsedQuestion) {
  const tids = [...new Set([...v.c, ...v.t, ...v.e, ...(v.s ? [v.s] : [])])];
  if (tids.length === 0) return;
  const found = new Set(
    db
      .select({ tid: tag.tid })
      .from(tag)
      .where(and(inArray(tag.tid, tids), eq(tag.deleted, false)))
      .all()
      .map((t) => t.tid),
  );
  const missing = tids.find((t) => !found.has(t));
  if (missing) throw badRequest(`${MSG.unknownTag} ${missing}`);
}

/**
 * Whether a list query is one a reader without QUESTION_EDITOR may make: questions by id only
 * (spec §7: a test "fetches limit 1000, offset 0" with `qids`). Listing and filtering the bank
 * is authoring.
 */
export function isReadByIds(query: QuestionListQuery): boolean {
  const { qids, l: _l, o: _o, ...filters } = query;
  return Boolean(qids?.length) && Object.values(filters).every((v) => v === undefined || (Array.isArray(v) && v.length === 0));
}

/** A question as `access` lets its reader have it: without correct answers unless `withAnswers`. */
function readerView(r: QuestionRow, access: QuestionAccess) {
  const view = questionView(r);
  return access.withAnswers ? view : withoutAnswers(view);
}

/**
 * A changed question changes the offline copy of every set that holds it: the sets take new
 * revisions (question_set and qs_detail), so devices pull them again. Returns how many.
 */
function bumpSetsContaining(tx: Conn, id: string): number {
  const sets = setsHolding(tx, [id]);
  for (const s of sets) {
    tx.update(questionSet).set({ rev: nextRev(tx), detailRev: nextRev(tx) }).where(eq(questionSet.id, s.id)).run();
  }
  return sets.length;
}

function liveQuestion(db: Conn, id: string): QuestionRow {
  const row = db.select().from(question).where(eq(question.id, id)).get();
  if (!row || row.deleted) throw notFound(MSG.questionNotFound);
  return row;
}

/**
 * GET /api/question/{id}. Who reads what is decided by question-access.ts: editors any live
 * question; others one of a visible set, with its answers only where that allows (else 404, the
 * same answer as for an id that does not exist).
 */
export function get(deps: Deps, id: string, reader: Reader) {
  const row = liveQuestion(deps.db, id);
  const access = accessTo(deps.db, [row], reader).get(id);
  if (!access) throw notFound(MSG.questionNotFound);
  return { success: true as const, data: readerView(row, access) };
}

/** Any-of filter on a JSON list column (c, t, e hold lists of tag ids). */
function anyOf(column: typeof question.c, values: string[]): SQL {
  return sql`exists (select 1 from json_each(${column}) where value in (${sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  )}))`;
}

function filters(f: Omit<QuestionListQuery, 'l' | 'o'>): SQL | undefined {
  const where: (SQL | undefined)[] = [eq(question.deleted, false)];
  if (f.qids?.length) where.push(inArray(question.id, f.qids));
  if (f.s?.length) where.push(inArray(question.s, f.s));
  if (f.c?.length) where.push(anyOf(question.c, f.c));
  if (f.t?.length) where.push(anyOf(question.t, f.t));
  if (f.e?.length) where.push(anyOf(question.e, f.e));
  if (f.qt?.length) where.push(inArray(question.qt, f.qt));
  if (f.d?.length) where.push(inArray(question.d, f.d));
  if (f.st?.length) where.push(inArray(question.st, f.st));
  return and(...where);
}

/**
 * GET /api/question?l&o&qids&s&c&t&e&qt&d: newest first; with `qids`, in the order of `qids`
 * (a test's questions in the set's order). A reader without QUESTION_EDITOR reads by ids only
 * (the route refuses the rest) and each id is decided on its own (question-access.ts) BEFORE the
 * page is cut: a hidden id taking a place in the page would tell that it exists.
 */
export function list(deps: Deps, query: QuestionListQuery, reader: Reader) {
  const limit = query.l ?? (query.qids?.length ? query.qids.length : QUESTION_PAGE_SIZE);
  let rows: QuestionRow[];
  let access: Map<string, QuestionAccess>;
  if (reader.editor) {
    rows = deps.db.select().from(question).where(filters(query)).orderBy(desc(question.createdAt), asc(question.id)).limit(limit).offset(query.o).all();
    access = accessTo(deps.db, rows, reader);
  } else if (!query.qids?.length) {
    // Listing the bank is authoring: without ids a non-editor reads nothing, whatever the route.
    return { success: true as const, data: [] };
  } else {
    const candidates = deps.db.select().from(question).where(filters(query)).orderBy(desc(question.createdAt), asc(question.id)).all();
    access = accessTo(deps.db, candidates, reader);
    rows = candidates.filter((r) => access.has(r.id)).slice(query.o, query.o + limit);
  }
  if (query.qids?.length) {
    const order = new Map(query.qids.map((id, i) => [id, i]));
    rows.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
  }
  return {
    success: true as const,
    data: rows.flatMap((r) => {
      const a = access.get(r.id);
      return a ? [readerView(r, a)] : [];
    }),
  };
}

/** GET /api/question/getQuestionsCount with the list's filters. */
export function countOf(deps: Deps, query: Omit<QuestionListQuery, 'l' | 'o'>) {
  const row = deps.db.select({ n: count() }).from(question).where(filters(query)).get();
  return { success: true as const, count: row?.n ?? 0 };
}

/** POST /api/question */
export function create(deps: Deps, actor: Principal, input: ParsedQuestion) {
  const v = clean(input);
  checkTags(deps.db, v);
  const data = deps.db.transaction((tx) => {
    const row = tx
      .insert(question)
      .values({ ...v, id: randomUUID(), s: v.s ?? null, createdBy: actor.id, updatedAt: Date.now(), rev: nextRev(tx) })
      .returning()
      .get();
    const view = questionView(row);
    logActivity(tx, { actor, action: 'CREATE', entity: 'question', entityId: row.id, newValue: view });
    return view;
  });
  return { success: true as const, id: data.id, msg: MSG.questionCreated, data };
}

/** PATCH /api/question: the whole question replaces the stored one. */
export function update(deps: Deps, actor: Principal, input: ParsedQuestion & { id: string }) {
  const { id, ...rest } = input;
  const v = clean(rest);
  checkTags(deps.db, v);
  let bumped = 0;
  const data = deps.db.transaction((tx) => {
    const before = liveQuestion(tx, id);
    const row = tx
      .update(question)
      .set({ ...v, s: v.s ?? null, updatedAt: Date.now(), rev: nextRev(tx) })
      .where(eq(question.id, id))
      .returning()
      .get();
    bumped = bumpSetsContaining(tx, id);
    const view = questionView(row);
    logActivity(tx, { actor, action: 'UPDATE', entity: 'question', entityId: id, oldValue: questionView(before), newValue: view });
    return view;
  });
  if (bumped > 0) deps.events.emit({ collections: ['question_set', 'qs_detail'] });
  return { success: true as const, id, msg: MSG.questionUpdated, data };
}

/**
 * DELETE /api/question/{id}: a soft delete (results keep showing the question). A question a
 * live set still holds is refused (409) with the sets' labels: deleting it would silently change
 * a test learners may be taking. Remove it from those sets first.
 */
export function remove(deps: Deps, actor: Principal, id: string) {
  deps.db.transaction((tx) => {
    const before = liveQuestion(tx, id);
    const sets = setsHolding(tx, [id]);
    if (sets.length > 0) throw conflict(`${MSG.questionInUse} ${sets.map((s) => s.l).join(', ')}`);
    tx.update(question).set({ deleted: true, updatedAt: Date.now(), rev: nextRev(tx) }).where(eq(question.id, id)).run();
    logActivity(tx, { actor, action: 'DELETE', entity: 'question', entityId: id, oldValue: questionView(before) });
  });
  return { success: true as const, msg: MSG.questionDeleted };
}
