import { and, eq, or, type SQL } from 'drizzle-orm';
import { distinctSetQuestionIds } from '@pm/protocol/question-set';
import type { Conn } from '../../db/client';
import { jsonArrayHasAny, jsonHasAnyString } from '../../db/dialect';
import { questionSet } from '../../db/schema';
import { nextRev } from '../../lib/revision';

/*
 * Who reads which question of the bank, and with its correct answers (docs/security.md "Answer keys"). Every path
 * that gives question content to someone asks here — GET /question (by ids), GET /question/:id,
 * getQuestionSet(List) and the replication of question_set and qs_detail — so that the rule is
 * written once and a new path cannot forget half of it:
 *
 * - An editor (QUESTION_EDITOR) reads every live question with its answers.
 * - Anyone else (a guest, a learner, an admin without QUESTION_EDITOR) reads a live question only
 *   through a set learners see (published, not a draft, not deleted) that holds it, and that is
 *   free or of a kind their plan lets them start now (Reader.download; docs/payments.md). Each id is decided on its
 *   own: a hidden id is answered exactly as an unknown one (absent, or 404 by itself).
 * - Correct answers (`ca` and the `ca` of every translation; for a subjective question `ca` is the
 *   model answer) come with it only when a visible practice set holds it AND no live mock test
 *   does. A mock test not yet published counts: it is a future test whose answers a practice set
 *   must not give away first. A learner gets a mock test's answers only in the result of their
 *   own submission (exam_result, modules/results).
 */

type SetRow = typeof questionSet.$inferSelect;

/** What a reader may have of one question. */
export type QuestionAccess = { withAnswers: boolean };

/**
 * Who reads: editors hold QUESTION_EDITOR; replication reads as a non-editor for everyone.
 * `download`: for a non-editor, the kinds of paid set they may start now (entitlements.service
 * downloadAccess: 'm' mock tests, 'p' practice exams; '' for a guest or without a plan), asked
 * only when a paid set is what would give access (most reads never need the plan). When
 * given, a set that is not free gives access to its questions only for a kind listed
 * (docs/payments.md "Without a plan"); replication filters whole sets itself (sync.service).
 */
export type Reader = { editor: boolean; download?: () => Promise<string> };

/**
 * Whether learners and guests see a set: published (the flag the publish job and every save keep
 * in step with `pts`, so a set whose publish time has not come is not published), not a draft
 * (docs/authoring.md "Publishing and unpublishing": drafts are never published; the flag is checked too, so that a draft is hidden
 * even in the moment before the publish job withdraws it) and not deleted.
 */
export function isVisibleSet(s: Pick<SetRow, 'published' | 'deleted' | 'draft'>): boolean {
  return s.published && !s.draft && !s.deleted;
}

/** `isVisibleSet` as a condition on question_set, for queries that list sets. */
export function visibleSetCondition(): SQL {
  return and(eq(questionSet.published, true), eq(questionSet.draft, false), eq(questionSet.deleted, false))!;
}

/**
 * Live (not deleted) sets holding at least one of `ids`, each with the ids of `ids` it holds.
 * The database looks into the JSON columns (the main part's list, and every text value of `sections`:
 * section names are keys there, the only texts are question ids); membership is then confirmed on
 * the parsed set, so the set's own shape stays the one definition of "holds".
 */
export async function setsHolding(db: Conn, ids: readonly string[]) {
  if (ids.length === 0) return [];
  const wanted = JSON.stringify([...new Set(ids)]);
  const rows = await db
    .select({
      id: questionSet.id,
      l: questionSet.l,
      isM: questionSet.isM,
      free: questionSet.free,
      published: questionSet.published,
      draft: questionSet.draft,
      deleted: questionSet.deleted,
      q: questionSet.q,
      sections: questionSet.sections,
    })
    .from(questionSet)
    .where(
      // `or` inside `and`: drizzle parenthesises each, so the set's own conditions bind to every
      // alternative (an unparenthesised `or` here let deleted and unpublished sets through).
      and(
        eq(questionSet.deleted, false),
        or(
          jsonArrayHasAny(db, questionSet.q, wanted),
          jsonHasAnyString(db, questionSet.sections, wanted),
        ),
      ),
    );
  const want = new Set(ids);
  return rows
    .map((s) => ({ ...s, holds: distinctSetQuestionIds(s).filter((id) => want.has(id)) }))
    .filter((s) => s.holds.length > 0);
}

/**
 * Live sets that are not drafts (published, or to be published when their time comes) holding
 * any of `ids`: such a set may hold only APPROVED questions (docs/authoring.md "Publishing and unpublishing"), so these questions
 * must stay approved while it holds them.
 */
export async function releasedSetsHolding(db: Conn, ids: readonly string[]) {
  return (await setsHolding(db, ids)).filter((s) => !s.draft);
}

/**
 * The one decision: which of these questions `reader` may read, and whether with their correct
 * answers. Questions absent from the map are not readable (deleted, unknown, or in no visible set).
 * Takes the rows the caller has read (only `id` and `deleted` matter).
 */
export async function accessTo(db: Conn, questions: readonly { id: string; deleted: boolean }[], reader: Reader): Promise<Map<string, QuestionAccess>> {
  const live = questions.filter((q) => !q.deleted).map((q) => q.id);
  const out = new Map<string, QuestionAccess>();
  if (reader.editor) {
    for (const id of live) out.set(id, { withAnswers: true });
    return out;
  }
  const inVisiblePractice = new Set<string>();
  const inLiveMock = new Set<string>();
  let download: string | undefined;
  for (const s of await setsHolding(db, live)) {
    if (s.isM) for (const id of s.holds) inLiveMock.add(id);
    if (!isVisibleSet(s)) continue;
    if (reader.download && !s.free && !(download ??= await reader.download()).includes(s.isM ? 'm' : 'p')) continue;
    for (const id of s.holds) {
      if (!s.isM) inVisiblePractice.add(id);
      if (!out.has(id)) out.set(id, { withAnswers: false });
    }
  }
  for (const [id, access] of out) access.withAnswers = inVisiblePractice.has(id) && !inLiveMock.has(id);
  return out;
}

/**
 * A question's fields without its correct answers, in every language; and without its
 * explanation, which gives the answer away (docs/exams.md "Explanations": it goes where `ca` goes).
 */
export function withoutAnswers<T extends { ca: string[]; expl?: string; trans: Record<string, { ca: string[]; expl?: string }> }>(q: T): T {
  return {
    ...q,
    ca: [],
    ...(q.expl !== undefined && { expl: '' }),
    trans: Object.fromEntries(
      Object.entries(q.trans).map(([lang, tr]) => {
        const { expl: _expl, ...rest } = tr;
        return [lang, { ...rest, ca: [] }];
      }),
    ),
  };
}

/**
 * After a set was saved or deleted: when mock-test membership of questions changed (a mock gained
 * or lost questions, a set became or stopped being a mock, a mock was deleted), the practice sets
 * sharing those questions now carry (or no longer carry) their answers, so they take new
 * revisions and devices pull their qs_detail again. Inside the saving transaction. Returns how many.
 */
export async function bumpPracticeSetsSharing(
  tx: Conn,
  setId: string,
  before: Pick<SetRow, 'isM' | 'q' | 'sections' | 'deleted'> | undefined,
  after: Pick<SetRow, 'isM' | 'q' | 'sections' | 'deleted'> | undefined,
): Promise<number> {
  const mockIds = (s: typeof before) => new Set(s && s.isM && !s.deleted ? distinctSetQuestionIds(s) : []);
  const was = mockIds(before);
  const is = mockIds(after);
  const changed = [...was, ...is].filter((id) => was.has(id) !== is.has(id));
  if (changed.length === 0) return 0;
  const sets = (await setsHolding(tx, changed)).filter((s) => s.id !== setId && !s.isM);
  if (sets.length === 0) return 0;
  for (const s of sets) {
    const rev = await nextRev(tx);
    const detailRev = await nextRev(tx);
    await tx.update(questionSet).set({ rev, detailRev }).where(eq(questionSet.id, s.id));
  }
  return sets.length;
}
