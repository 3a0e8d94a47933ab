import { and, desc, eq } from 'drizzle-orm';
import { MSG } from '@pm/protocol/messages';
import type { QuestionVersionData, QuestionVersionEntry } from '@pm/protocol/question';
import type { Conn } from '../../db/client';
import { question, questionVersion } from '../../db/schema';
import type { Actor } from '../../lib/activity';
import { first } from '../../db/transaction';
import { notFound } from '../../lib/errors';

/*
 * Every version of every question (docs/authoring.md): a question's create, each save, each review
 * step and each restore writes the question as it then is into question_version, numbered as
 * question.version after the write. The editor's history shows them newest first, with who
 * wrote each, and any of them can be restored (it becomes the newest version). Results name the
 * versions they were scored against (exam_result.qv), and show those (sync.docs.ts).
 */

type QuestionRow = typeof question.$inferSelect;
export type VersionAction = QuestionVersionEntry['action'];

/** The question's own fields, as a version keeps them (no id, no times, no bookkeeping). */
export function versionData(r: Pick<QuestionRow, 'q' | 'ops' | 'c' | 'd' | 'ca' | 'qt' | 's' | 't' | 'e' | 'st' | 'trans' | 'reason' | 'expl'>): QuestionVersionData {
  return {
    q: r.q,
    ops: r.ops,
    c: r.c,
    d: r.d as QuestionVersionData['d'],
    ca: r.ca,
    qt: r.qt as QuestionVersionData['qt'],
    s: r.s,
    t: r.t,
    e: r.e,
    st: r.st as QuestionVersionData['st'],
    trans: r.trans,
    reason: r.reason,
    expl: r.expl,
  };
}

/**
 * Writes the version `row.version` of a question (call inside the transaction that wrote the
 * row). A restore names the version it brought back; it is kept in the data (as `restoredFrom`),
 * which needs no column of its own and is split off again when the history is read.
 */
export async function writeVersion(tx: Conn, row: QuestionRow, action: VersionAction, actor: Actor, restoredFrom?: number): Promise<void> {
  await tx
    .insert(questionVersion)
    .values({
      questionId: row.id,
      version: row.version,
      data: { ...versionData(row), ...(restoredFrom !== undefined && { restoredFrom }) },
      action,
      actorId: actor?.id ?? null,
      actorName: actor?.name ?? null,
      createdAt: row.updatedAt,
    })
    .onConflictDoNothing();
}

type VersionRow = typeof questionVersion.$inferSelect;

function entryOf(r: VersionRow): QuestionVersionEntry {
  const { restoredFrom, ...data } = r.data as QuestionVersionData & { restoredFrom?: number };
  return {
    version: r.version,
    action: r.action as VersionAction,
    actor: { id: r.actorId, name: r.actorName },
    createdAt: r.createdAt,
    ...(typeof restoredFrom === 'number' && { restoredFrom }),
    data,
  };
}

/** One version of a question, or 404 (MSG.versionNotFound). */
export async function versionOf(db: Conn, id: string, version: number): Promise<QuestionVersionEntry> {
  const row = await first(
    db
      .select()
      .from(questionVersion)
      .where(and(eq(questionVersion.questionId, id), eq(questionVersion.version, version))),
  );
  if (!row) throw notFound(MSG.versionNotFound);
  return entryOf(row);
}

/** GET /api/question/getQuestionHistory/{id}: every version of a live question, newest first. */
export async function history(db: Conn, id: string): Promise<{ success: true; data: QuestionVersionEntry[] }> {
  const q = await first(db.select({ deleted: question.deleted }).from(question).where(eq(question.id, id)));
  if (!q || q.deleted) throw notFound(MSG.questionNotFound);
  const rows = await db.select().from(questionVersion).where(eq(questionVersion.questionId, id)).orderBy(desc(questionVersion.version));
  return { success: true, data: rows.map(entryOf) };
}
