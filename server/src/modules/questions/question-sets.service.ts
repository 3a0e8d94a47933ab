import { randomUUID } from 'node:crypto';
import { and, desc, eq, inArray } from 'drizzle-orm';
import { MSG } from '../../../../sync-protocol/src/messages';
import { type QuestionSet, setQuestionIds } from '../../../../sync-protocol/src/question-set';
import type { Deps, Principal } from '../../context';
import type { Conn } from '../../db/client';
import { question, questionSet } from '../../db/schema';
import { logActivity } from '../../lib/activity';
import { badRequest, notFound } from '../../lib/errors';
import { nextRev } from '../../lib/revision';
import { sanitizeRichText } from '../../lib/sanitize';
import { publishDueIn } from '../sync/publish';
import { bumpPracticeSetsSharing, isVisibleSet, visibleSetCondition } from './question-access';

type SetRow = typeof questionSet.$inferSelect;
type SetInput = Omit<QuestionSet, 'id'> & { id?: string | undefined };

/** A set as the editor API returns it (spec §3 Question set), with its publication state. */
export function setView(r: SetRow) {
  return {
    id: r.id,
    l: r.l,
    mpq: r.mpq,
    tm: r.tm,
    nm: r.nm,
    dur: r.dur,
    isM: r.isM,
    inst: r.inst,
    q: r.q,
    sections: r.sections,
    pts: r.pts,
    published: r.published,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

function liveSet(db: Conn, id: string): SetRow {
  const row = db.select().from(questionSet).where(eq(questionSet.id, id)).get();
  if (!row || row.deleted) throw notFound(MSG.questionSetNotFound);
  return row;
}

/**
 * GET /api/question/getQuestionSet/{id}. Editors read every live set; learners and guests only
 * those they see (question-access.ts: a draft or a set whose publish time has not come is "not
 * found" to them, as an unknown id is).
 */
export function getSet(deps: Deps, id: string, { editor }: { editor: boolean }) {
  const row = liveSet(deps.db, id);
  if (!editor && !isVisibleSet(row)) throw notFound(MSG.questionSetNotFound);
  return { success: true as const, data: setView(row) };
}

/**
 * GET /api/question/getQuestionSetList: live sets, most recently changed first; for learners and
 * guests the published ones (the sets their exam list shows).
 */
export function listSets(deps: Deps, page: { l: number; o: number }, { editor }: { editor: boolean }) {
  const rows = deps.db
    .select()
    .from(questionSet)
    .where(editor ? eq(questionSet.deleted, false) : visibleSetCondition())
    .orderBy(desc(questionSet.updatedAt), desc(questionSet.rev))
    .limit(page.l)
    .offset(page.o)
    .all();
  return { success: true as const, data: rows.map(setView) };
}

/** Every question a set names must exist and not be deleted. */
function checkQuestions(db: Conn, ids: string[]) {
  if (ids.length === 0) return;
  const found = new Set(
    db
      .select({ id: question.id })
      .from(question)
      .where(and(inArray(question.id, ids), eq(question.deleted, false)))
      .all()
      .map((r) => r.id),
  );
  const missing = ids.find((id) => !found.has(id));
  if (missing) throw badRequest(`${MSG.unknownQuestion} ${missing}`);
}

/**
 * PATCH /api/question/updateQuestionSet: creates the set when the body has no id, else replaces
 * it. The set takes new revisions (question_set and qs_detail) so devices pull it; a set whose
 * publish time has already come is published in the same transaction (and one moved into the
 * future is withdrawn), so learners see it without waiting for the publish job. A save that
 * changes which questions mock tests hold also gives new revisions to the practice sets sharing
 * them: their correct answers come or go (question-access.ts).
 */
export function saveSet(deps: Deps, actor: Principal, input: SetInput) {
  const { id: givenId, ...fields } = input;
  const values = { ...fields, inst: sanitizeRichText(fields.inst) };
  const now = Date.now();
  const created = givenId === undefined;
  const data = deps.db.transaction((tx) => {
    checkQuestions(tx, [...new Set(setQuestionIds(values))]);
    let before: SetRow | undefined;
    let id: string;
    if (created) {
      id = randomUUID();
      tx.insert(questionSet)
        .values({ ...values, id, createdBy: actor.id, updatedAt: now, rev: nextRev(tx), detailRev: nextRev(tx) })
        .run();
    } else {
      id = givenId;
      before = liveSet(tx, id);
      tx.update(questionSet)
        .set({ ...values, updatedAt: now, rev: nextRev(tx), detailRev: nextRev(tx) })
        .where(eq(questionSet.id, id))
        .run();
    }
    publishDueIn(tx, now, id);
    const after = liveSet(tx, id);
    bumpPracticeSetsSharing(tx, id, before, after);
    logActivity(tx, {
      actor,
      action: created ? 'CREATE' : 'UPDATE',
      entity: 'question_set',
      entityId: id,
      ...(before && { oldValue: setView(before) }),
      newValue: setView(after),
    });
    return setView(after);
  });
  deps.events.emit({ collections: ['question_set', 'qs_detail'] });
  return { success: true as const, id: data.id, msg: created ? MSG.questionSetCreated : MSG.questionSetUpdated, data };
}

/**
 * DELETE /api/question/deleteQuestionSet/{id}: a soft delete. Devices drop the set (it
 * replicates as deleted); attempts and results at it are kept.
 */
export function deleteSet(deps: Deps, actor: Principal, id: string) {
  deps.db.transaction((tx) => {
    const before = liveSet(tx, id);
    tx.update(questionSet)
      .set({ deleted: true, updatedAt: Date.now(), rev: nextRev(tx), detailRev: nextRev(tx) })
      .where(eq(questionSet.id, id))
      .run();
    bumpPracticeSetsSharing(tx, id, before, undefined);
    logActivity(tx, { actor, action: 'DELETE', entity: 'question_set', entityId: id, oldValue: setView(before) });
  });
  deps.events.emit({ collections: ['question_set', 'qs_detail'] });
  return { success: true as const, msg: MSG.questionSetDeleted };
}
