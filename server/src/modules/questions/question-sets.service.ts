import { randomUUID } from 'node:crypto';
import { and, count, desc, eq, inArray } from 'drizzle-orm';
import { MSG } from '@pm/protocol/messages';
import { distinctSetQuestionIds, type QuestionSet } from '@pm/protocol/question-set';
import type { Deps, Principal } from '../../context';
import type { Conn } from '../../db/client';
import { examResult, question, questionSet, questionSetVersion } from '../../db/schema';
import { first, transaction } from '../../db/transaction';
import { logActivity } from '../../lib/activity';
import { badRequest, conflict, notFound } from '../../lib/errors';
import { nextRev } from '../../lib/revision';
import { sanitizeRichText } from '../../lib/sanitize';
import { publishDueIn } from './publish';
import { DetailedError } from './detailed-error';
import { bumpPracticeSetsSharing, isVisibleSet, visibleSetCondition } from './question-access';

type SetRow = typeof questionSet.$inferSelect;
type SetInput = Omit<QuestionSet, 'id'> & { id?: string | undefined; newVersion?: boolean | undefined };

/**
 * A set as the API returns it (docs/glossary.md "Question sets"; sync-protocol QuestionSetView), with its
 * publication state, draft flag, languages and version; `taken` (how many results it has) where
 * the caller counted them (editor and set APIs; a result's own copy of its set goes without).
 */
export function setView(r: SetRow, taken?: number) {
  return {
    id: r.id,
    l: r.l,
    mpq: r.mpq,
    tm: r.tm,
    nm: r.nm,
    dur: r.dur,
    isM: r.isM,
    free: r.free,
    inst: r.inst,
    q: r.q,
    sections: r.sections,
    pts: r.pts,
    draft: r.draft,
    langs: r.langs as QuestionSet['langs'],
    trans: r.trans as QuestionSet['trans'],
    published: r.published,
    version: r.version,
    ...(taken !== undefined && { taken }),
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

/** How many results each of `ids` has (exam_result by qsid, result_qsid_idx). */
export async function takenCounts(db: Conn, ids: string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ qsid: examResult.qsid, n: count() })
    .from(examResult)
    .where(inArray(examResult.qsid, ids))
    .groupBy(examResult.qsid);
  return new Map(rows.map((r) => [r.qsid, r.n]));
}
const takenOf = async (db: Conn, id: string) => (await takenCounts(db, [id])).get(id) ?? 0;

async function liveSet(db: Conn, id: string): Promise<SetRow> {
  const row = await first(db.select().from(questionSet).where(eq(questionSet.id, id)));
  if (!row || row.deleted) throw notFound(MSG.questionSetNotFound);
  return row;
}

/**
 * GET /api/question/getQuestionSet/{id}. Editors read every live set; learners and guests only
 * those they see (question-access.ts: a draft or a set whose publish time has not come is "not
 * found" to them, as an unknown id is).
 */
export async function getSet(deps: Deps, id: string, { editor }: { editor: boolean }) {
  const row = await liveSet(deps.db, id);
  if (!editor && !isVisibleSet(row)) throw notFound(MSG.questionSetNotFound);
  return { success: true as const, data: setView(row, await takenOf(deps.db, id)) };
}

/**
 * GET /api/question/getQuestionSetList: live sets, most recently changed first; for learners and
 * guests the published ones (the sets their exam list shows).
 */
export async function listSets(deps: Deps, page: { l: number; o: number }, { editor }: { editor: boolean }) {
  const rows = await deps.db
    .select()
    .from(questionSet)
    .where(editor ? eq(questionSet.deleted, false) : visibleSetCondition())
    .orderBy(desc(questionSet.updatedAt), desc(questionSet.rev))
    .limit(page.l)
    .offset(page.o);
  const taken = await takenCounts(deps.db, rows.map((r) => r.id));
  return { success: true as const, data: rows.map((r) => setView(r, taken.get(r.id) ?? 0)) };
}

/**
 * Every question a set names must exist and not be deleted; a set that is not a draft (published
 * now or when its time comes) may hold APPROVED questions only (docs/authoring.md "Publishing and unpublishing"): 400 naming the
 * others (`ids` in the body too). A draft may hold any, and can be previewed.
 */
async function checkQuestions(db: Conn, ids: string[], draft: boolean) {
  if (ids.length === 0) return;
  const rows = await db
    .select({ id: question.id, st: question.st })
    .from(question)
    .where(and(inArray(question.id, ids), eq(question.deleted, false)));
  const found = new Map(rows.map((r) => [r.id, r.st]));
  const missing = ids.find((id) => !found.has(id));
  if (missing) throw badRequest(`${MSG.unknownQuestion} ${missing}`);
  if (draft) return;
  const unapproved = ids.filter((id) => found.get(id) !== 'APPROVED');
  if (unapproved.length > 0) throw new DetailedError('BAD_REQUEST', `${MSG.questionNotApproved} ${unapproved.join(', ')}`, { ids: unapproved });
}

type Scored = Pick<SetRow, 'q' | 'mpq' | 'nm' | 'sections'>;

/**
 * What a result depends on (docs/authoring.md "Publishing and unpublishing"): which questions each part holds, each part's marks per
 * question and negative marking, and the parts themselves (sections, sub-sections, with or
 * without sub-sections). Not a typed total: a result is out of questions × marks per question
 * (docs/exams.md "Total marks"), which a total only restates. Not the order of parts or of questions in a part (a result is
 * scored per question and part, whatever the order), nor the label, instructions, duration,
 * publish time, languages or draft flag.
 */
function scoringShape(s: Scored): string {
  const part = (p: { q: string[]; mpq: number; nm: number }) => ({ q: [...p.q].sort(), mpq: p.mpq, nm: p.nm });
  const byName = <T>(map: Record<string, T>) => Object.keys(map).sort().map((k) => [k, map[k]!] as const);
  return JSON.stringify({
    main: part(s),
    sections: byName(s.sections).map(([name, sec]) => [name, sec.ss, part(sec), byName(sec.sub ?? {}).map(([n, sub]) => [n, part(sub)])]),
  });
}

/**
 * Keeps the set as it is now as version `before.version` (question_set_version): the set, and
 * each of its questions' current version (`qv`), as the results scored so far were scored.
 */
async function snapshot(tx: Conn, before: SetRow, actor: Principal) {
  const ids = distinctSetQuestionIds(before);
  const rows = ids.length === 0 ? [] : await tx.select({ id: question.id, version: question.version }).from(question).where(inArray(question.id, ids));
  const qv = Object.fromEntries(rows.map((r) => [r.id, r.version]));
  await tx
    .insert(questionSetVersion)
    .values({ setId: before.id, version: before.version, data: { ...setView(before), qv }, actorId: actor.id, createdAt: Date.now() })
    .onConflictDoNothing();
}

/**
 * PATCH /api/question/updateQuestionSet: creates the set when the body has no id, else replaces
 * it. The set takes new revisions (question_set and qs_detail) so devices pull it; a set whose
 * publish time has already come is published in the same transaction (and one moved into the
 * future, or made a draft, is withdrawn), so learners see it without waiting for the publish job.
 * A save that changes which questions mock tests hold also gives new revisions to the practice
 * sets sharing them: their correct answers come or go (question-access.ts).
 *
 * Versions (docs/authoring.md "Publishing and unpublishing"): once learners have results at a set, a save changing what those
 * results depend on (scoringShape) is refused with 409 MSG.setTakenNewVersion and `taken`,
 * nothing stored, unless `newVersion` is true: then the set as it was is kept as its version
 * (question_set_version) and the set moves to the next one. Results name the version they were
 * scored against (exam_result.set_version) and show its questions as they were (sync.docs.ts).
 */
export async function saveSet(deps: Deps, actor: Principal, input: SetInput) {
  const created = input.id === undefined;
  const data = await transaction(deps.db, (tx) => writeSet(tx, actor, input));
  deps.events.emit({ collections: ['question_set', 'qs_detail'] });
  return { success: true as const, id: data.id, msg: created ? MSG.questionSetCreated : MSG.questionSetUpdated, data };
}

/**
 * The write of saveSet inside the caller's transaction (the API's save, and an editor's device
 * pushing `ed_question_set`). `createId`: the set does not exist yet and is created under this
 * id (one made on a device keeps the id it was given there). The caller announces the change.
 */
export async function writeSet(tx: Conn, actor: Principal, input: SetInput, createId?: string) {
  const { id: givenId, newVersion, ...fields } = input;
  const values = {
    ...fields,
    inst: sanitizeRichText(fields.inst),
    trans: Object.fromEntries(Object.entries(fields.trans).map(([lang, tr]) => [lang, { l: tr?.l ?? '', inst: sanitizeRichText(tr?.inst ?? '') }])),
  };
  const now = Date.now();
  const created = givenId === undefined || createId !== undefined;
  let before: SetRow | undefined;
  let id: string;
  if (created) {
    await checkQuestions(tx, distinctSetQuestionIds(values), values.draft);
    id = createId ?? randomUUID();
    const rev = await nextRev(tx);
    const detailRev = await nextRev(tx);
    await tx.insert(questionSet).values({ ...values, id, createdBy: actor.id, updatedAt: now, rev, detailRev });
  } else {
    id = givenId;
    before = await liveSet(tx, id);
    // A save never takes a set away from learners (docs/authoring.md "Publishing and
    // unpublishing"): a set that is not a draft becomes one only through unpublishSet.
    if (!before.draft && values.draft) throw conflict(MSG.setPublishedSaveKeeps);
    await checkQuestions(tx, distinctSetQuestionIds(values), values.draft);
    let version = before.version;
    if (scoringShape(before) !== scoringShape(values)) {
      const taken = await takenOf(tx, id);
      if (taken > 0 && newVersion !== true) throw new DetailedError('CONFLICT', MSG.setTakenNewVersion, { taken });
      if (taken > 0) {
        await snapshot(tx, before, actor);
        version += 1;
      }
    }
    const rev = await nextRev(tx);
    const detailRev = await nextRev(tx);
    await tx
      .update(questionSet)
      .set({ ...values, version, updatedAt: now, rev, detailRev })
      .where(eq(questionSet.id, id));
  }
  await publishDueIn(tx, now, id);
  const after = await liveSet(tx, id);
  await bumpPracticeSetsSharing(tx, id, before, after);
  await logActivity(tx, {
    actor,
    action: created ? 'CREATE' : 'UPDATE',
    entity: 'question_set',
    entityId: id,
    ...(before && { oldValue: setView(before) }),
    newValue: setView(after),
  });
  return setView(after, created ? 0 : await takenOf(tx, id));
}

/**
 * PATCH /api/question/unpublishQuestionSet `{ id }` (docs/authoring.md "Publishing and
 * unpublishing"): the editor's explicit, confirmed Unpublish. The set becomes a draft, learners'
 * devices drop it (it replicates as deleted to them), and it keeps its questions, marks, version
 * and results; publishing it again is a save with `draft: false`. 409 for a draft.
 */
export async function unpublishSet(deps: Deps, actor: Principal, id: string) {
  const data = await transaction(deps.db, async (tx) => {
    const before = await liveSet(tx, id);
    if (before.draft) throw conflict(MSG.questionSetNotPublished);
    const now = Date.now();
    const rev = await nextRev(tx);
    const detailRev = await nextRev(tx);
    // updatedAt: an editor's change, so a device holding the set as it was has a conflict to
    // settle rather than publishing it again unseen (docs/authoring.md "Offline authoring").
    await tx.update(questionSet).set({ draft: true, updatedAt: now, rev, detailRev }).where(eq(questionSet.id, id));
    await publishDueIn(tx, now, id);
    const after = await liveSet(tx, id);
    await bumpPracticeSetsSharing(tx, id, before, after);
    await logActivity(tx, { actor, action: 'UPDATE', entity: 'question_set', entityId: id, oldValue: setView(before), newValue: setView(after) });
    return setView(after, await takenOf(tx, id));
  });
  deps.events.emit({ collections: ['question_set', 'qs_detail'] });
  return { success: true as const, id, msg: MSG.questionSetUnpublished, data };
}

/**
 * DELETE /api/question/deleteQuestionSet/{id}: a soft delete. Devices drop the set (it
 * replicates as deleted); attempts and results at it are kept.
 */
export async function deleteSet(deps: Deps, actor: Principal, id: string) {
  await transaction(deps.db, (tx) => removeSet(tx, actor, id));
  deps.events.emit({ collections: ['question_set', 'qs_detail'] });
  return { success: true as const, msg: MSG.questionSetDeleted };
}

/** The delete of deleteSet inside the caller's transaction (also an editor device's pushed deletion). */
export async function removeSet(tx: Conn, actor: Principal, id: string) {
  const before = await liveSet(tx, id);
  const rev = await nextRev(tx);
  const detailRev = await nextRev(tx);
  await tx.update(questionSet).set({ deleted: true, updatedAt: Date.now(), rev, detailRev }).where(eq(questionSet.id, id));
  await bumpPracticeSetsSharing(tx, id, before, undefined);
  await logActivity(tx, { actor, action: 'DELETE', entity: 'question_set', entityId: id, oldValue: setView(before) });
}
