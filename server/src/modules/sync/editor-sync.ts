import { asc, eq, gt } from 'drizzle-orm';
import type { EdPushAnswer, EdQuestionDoc } from '@pm/protocol/sync/ed-question';
import type { EdQuestionSetDoc } from '@pm/protocol/sync/ed-question-set';
import { questionSetSaveSchema } from '@pm/protocol/question-set';
import type { EditorCollectionName, PullResponse } from '@pm/protocol/sync/envelopes';
import { MSG } from '@pm/protocol/messages';
import type { Deps, Principal } from '../../context';
import { question, questionSet } from '../../db/schema';
import type { Conn } from '../../db/client';
import { first, transaction } from '../../db/transaction';
import { AppError, forbidden, notFound } from '../../lib/errors';
import { parseWith } from '../../lib/http';
import { removeSet, setView, takenCounts, writeSet } from '../questions/question-sets.service';
import { writeFromDevice } from '../questions/questions.service';

/*
 * The editors' collections of the replication protocol (docs/authoring.md "Offline authoring"; sync-protocol
 * EDITOR_COLLECTIONS): the question bank on an editor's device, pulled by checkpoint like every
 * collection and pushed with RxDB's assumed master state. Only people holding the
 * QUESTION_EDITOR permission may pull or push them: they carry every question's correct answer.
 */

/** The permission the editors' collections need (the question bank's own, docs/admin.md "Who sees what"). */
export const EDITOR_PERMISSION = 'QUESTION_EDITOR';

function mustEdit(me: Principal) {
  if (!me.permissions.has(EDITOR_PERMISSION)) throw forbidden(MSG.permissionDenied);
}

type QuestionRow = typeof question.$inferSelect;

/** A question as the `ed_question` collection holds it; a deleted one as a tombstone. */
export function edQuestionDoc(r: QuestionRow): EdQuestionDoc {
  return {
    id: r.id,
    q: r.q,
    ops: r.ops,
    c: r.c,
    d: r.d as EdQuestionDoc['d'],
    ca: r.ca,
    qt: r.qt as EdQuestionDoc['qt'],
    s: r.s,
    t: r.t,
    e: r.e,
    st: r.st as EdQuestionDoc['st'],
    reason: r.reason,
    trans: r.trans as EdQuestionDoc['trans'],
    expl: r.expl,
    version: r.version,
    updatedAt: r.updatedAt,
    _deleted: r.deleted,
  };
}

/** A set as the `ed_question_set` collection holds it (the editor API's fields); a deleted one as a tombstone. */
export function edQuestionSetDoc(r: SetRow, taken: number): EdQuestionSetDoc {
  const v = setView(r, taken);
  return {
    id: v.id,
    l: v.l,
    mpq: v.mpq,
    tm: v.tm,
    nm: v.nm,
    dur: v.dur,
    isM: v.isM,
    free: v.free,
    inst: v.inst,
    q: v.q,
    sections: v.sections as EdQuestionSetDoc['sections'],
    pts: v.pts,
    draft: v.draft,
    langs: v.langs,
    trans: Object.fromEntries(Object.entries(v.trans).flatMap(([lang, tr]) => (tr ? [[lang, { l: tr.l, inst: tr.inst }]] : []))),
    published: v.published,
    version: v.version,
    taken,
    createdAt: v.createdAt,
    updatedAt: v.updatedAt,
    _deleted: r.deleted,
  };
}

/**
 * GET /api/sync/v1/{ed_question|ed_question_set}/pull: every question (or set) changed after the
 * checkpoint, deleted ones as tombstones.
 */
export async function pullEditor(
  deps: Deps,
  me: Principal,
  collection: EditorCollectionName,
  rev: number,
  limit: number,
): Promise<PullResponse<EdQuestionDoc | EdQuestionSetDoc>> {
  mustEdit(me);
  switch (collection) {
    case 'ed_question': {
      const rows = await deps.db.select().from(question).where(gt(question.rev, rev)).orderBy(asc(question.rev)).limit(limit);
      return { documents: rows.map(edQuestionDoc), checkpoint: { rev: rows.at(-1)?.rev ?? rev } };
    }
    case 'ed_question_set': {
      const rows = await deps.db.select().from(questionSet).where(gt(questionSet.rev, rev)).orderBy(asc(questionSet.rev)).limit(limit);
      const taken = await takenCounts(deps.db, rows.map((r) => r.id));
      return { documents: rows.map((r) => edQuestionSetDoc(r, taken.get(r.id) ?? 0)), checkpoint: { rev: rows.at(-1)?.rev ?? rev } };
    }
  }
}

type Row = { newDocumentState: EdQuestionDoc; assumedMasterState?: EdQuestionDoc | null | undefined };

/**
 * Whether two JSON values are the same document: equal numbers, strings, booleans and nulls,
 * arrays equal item by item, objects with the same keys (in any order: PostgreSQL's jsonb does
 * not keep the order) holding equal values. A key holding `undefined` counts as absent.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => sameJson(x, b[i]));
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const ka = Object.keys(ra).filter((k) => ra[k] !== undefined);
  const kb = Object.keys(rb).filter((k) => rb[k] !== undefined);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(rb, k) && sameJson(ra[k], rb[k]));
}

/**
 * Whether the device's assumed master state is the server's document: the WHOLE document as the
 * pull gives it (RxDB's replication protocol compares the assumed master state with the real
 * one), not its version number alone — a state copied from another question with the same
 * version, or with its words changed, is not the server's (docs/replication.md). A device that
 * never saw the question (assumed null) conflicts with any question that exists.
 */
function assumedIsMaster(assumed: EdQuestionDoc | null | undefined, master: QuestionRow | undefined): boolean {
  if (!master) return true;
  if (!assumed) return false;
  return sameJson(assumed, edQuestionDoc(master));
}

/**
 * POST /api/sync/v1/ed_question/push: each row in its own transaction, so that one refused row
 * does not hold back the others. A row whose assumed master state is not the server's is a
 * conflict: nothing is written, and the server's document is answered for the editor to choose
 * or merge (never overwritten silently). A row the rules refuse is answered in `refused` with its
 * message. Everything else is stored as the API would store it (versions, index, activity log).
 */
export async function pushEdQuestions(deps: Deps, me: Principal, rows: Row[]): Promise<EdPushAnswer<EdQuestionDoc>> {
  mustEdit(me);
  const answer: EdPushAnswer<EdQuestionDoc> = { conflicts: [], refused: [], stored: [] };
  let bumped = 0;
  let changed = false;
  for (const { newDocumentState: doc, assumedMasterState } of rows) {
    try {
      const result = await transaction(deps.db, async (tx) => {
        const master = await first(tx.select().from(question).where(eq(question.id, doc.id)));
        if (!assumedIsMaster(assumedMasterState, master)) return { conflict: master! };
        // A delete of a question the server does not have (made and deleted offline) is nothing.
        if (!master && doc._deleted) return null;
        return writeFromDevice(tx, me, master, { ...doc, s: doc.s ?? null });
      });
      if (result && 'conflict' in result) {
        answer.conflicts.push(edQuestionDoc(result.conflict));
      } else if (result) {
        changed = true;
        bumped += result.bumped;
        if (result.row) answer.stored.push(edQuestionDoc(result.row));
      }
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      answer.refused.push({ id: doc.id, msg: err.message });
    }
  }
  if (changed) deps.events.emit({ collections: ['ed_question'] });
  if (bumped > 0) deps.events.emit({ collections: ['question_set', 'qs_detail'] });
  return answer;
}

type SetRow = typeof questionSet.$inferSelect;
/** A set as the server now holds it, as its pull would give it. */
async function storedSet(tx: Conn, id: string): Promise<EdQuestionSetDoc> {
  const row = (await first(tx.select().from(questionSet).where(eq(questionSet.id, id))))!;
  return edQuestionSetDoc(row, (await takenCounts(tx, [id])).get(id) ?? 0);
}

type SetPushRow = { newDocumentState: EdQuestionSetDoc; assumedMasterState?: EdQuestionSetDoc | null | undefined };

/**
 * Whether the device's assumed master state of a set is the server's: the same `updatedAt` (which
 * only an editor's save changes) and the same deletion. A device that never saw the set (assumed
 * null) conflicts with any set that exists.
 */
function assumedSetIsMaster(assumed: EdQuestionSetDoc | null | undefined, master: SetRow | undefined): boolean {
  if (!master) return true;
  if (!assumed) return false;
  return assumed.updatedAt === master.updatedAt && assumed._deleted === master.deleted;
}

/**
 * POST /api/sync/v1/ed_question_set/push: as pushEdQuestions, for sets. A set assembled on a
 * device is checked by the API's own schema and rules (labels, sections, selection limits,
 * approved questions unless a draft, a taken set's marks) and stored as the API stores it, under
 * the id the device gave it. A change to a set learners have taken that would need a new version
 * is refused with its message (the editor confirms it online, where the question is asked).
 */
export async function pushEdQuestionSets(deps: Deps, me: Principal, rows: SetPushRow[]): Promise<EdPushAnswer<EdQuestionSetDoc>> {
  mustEdit(me);
  const answer: EdPushAnswer<EdQuestionSetDoc> = { conflicts: [], refused: [], stored: [] };
  let changed = false;
  for (const { newDocumentState: doc, assumedMasterState } of rows) {
    try {
      const result = await transaction(deps.db, async (tx) => {
        const master = await first(tx.select().from(questionSet).where(eq(questionSet.id, doc.id)));
        if (!assumedSetIsMaster(assumedMasterState, master)) return { conflict: edQuestionSetDoc(master!, (await takenCounts(tx, [master!.id])).get(master!.id) ?? 0) };
        if (doc._deleted) {
          // Made and deleted offline, or deleted already: nothing to do.
          if (!master || master.deleted) return null;
          await removeSet(tx, me, doc.id);
          return { written: await storedSet(tx, doc.id) };
        }
        if (master?.deleted) throw notFound(MSG.questionSetNotFound);
        const { id, _deleted, published: _p, version: _v, taken: _t, createdAt: _c, updatedAt: _u, ...fields } = doc;
        const input = parseWith(questionSetSaveSchema, { ...fields, ...(master && { id }) });
        await writeSet(tx, me, { ...input, id: master ? id : undefined }, master ? undefined : id);
        return { written: await storedSet(tx, id) };
      });
      if (result && 'conflict' in result && result.conflict) answer.conflicts.push(result.conflict);
      else if (result && 'written' in result) {
        changed = true;
        answer.stored.push(result.written);
      }
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      answer.refused.push({ id: doc.id, msg: err.message });
    }
  }
  if (changed) deps.events.emit({ collections: ['ed_question_set', 'question_set', 'qs_detail'] });
  return answer;
}
