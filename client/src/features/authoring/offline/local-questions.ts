import { type QuestionInput, questionInputSchema, type QuestionView } from '../../../../../sync-protocol/src/question';
import type { EdQuestion, EditorReplica } from '../../../db/editor-replica';
import { ApiError } from '../../../lib/api-client';
import i18n from '../../../lib/i18n';
import { translateServerMessage } from '../../../lib/server-messages';
import type { QuestionFilters } from '../api/questions';

/*
 * The question bank's calls answered from the editor's replica while the device is offline
 * (issue 19 §5): the same shapes as the API's answers, so the list and the editor work unchanged.
 * A save is checked by the same zod rules as the server's and stored on the device; the
 * replication uploads it when the network is back (conflicts and refusals: db/editor-replica.ts).
 */

export function toView(d: EdQuestion): QuestionView {
  return {
    id: d.id,
    q: d.q,
    ops: d.ops,
    c: d.c,
    d: d.d,
    ca: d.ca,
    qt: d.qt,
    s: d.s,
    t: d.t,
    e: d.e,
    st: d.st,
    reason: d.reason,
    trans: d.trans,
    version: d.version,
    createdAt: d.updatedAt,
    updatedAt: d.updatedAt,
    createdBy: null,
    updatedBy: null,
  } as QuestionView;
}

const words = (html: string) =>
  html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .toLowerCase();

/** Whether a question passes the list's filters (the server's meaning: any of the values of a filter). */
export function matches(d: EdQuestion, f: QuestionFilters): boolean {
  const anyOf = (want: string[] | undefined, have: readonly string[]) => !want?.length || want.some((w) => have.includes(w));
  if (f.s?.length && !(d.s && f.s.includes(d.s))) return false;
  if (!anyOf(f.c, d.c) || !anyOf(f.t, d.t) || !anyOf(f.e, d.e)) return false;
  if (f.qt?.length && !f.qt.includes(d.qt)) return false;
  if (f.d?.length && !f.d.includes(d.d)) return false;
  if (f.st?.length && !f.st.includes(d.st)) return false;
  const search = f.search?.trim().toLowerCase();
  if (search) {
    const text = [d.q, ...Object.values(d.ops), ...d.ca, ...Object.values(d.trans).flatMap((t) => [t.q, ...Object.values(t.ops)])].map(words).join(' ');
    if (!search.split(/\s+/).every((w) => text.includes(w))) return false;
  }
  return true;
}

async function all(replica: EditorReplica): Promise<EdQuestion[]> {
  const docs = await replica.db.ed_question.find().exec();
  return docs.map((x) => x.toJSON() as EdQuestion).sort((a, b) => b.updatedAt - a.updatedAt || (a.id < b.id ? 1 : -1));
}

export async function localQuestions(replica: EditorReplica, f: QuestionFilters, page: { l: number; o: number }) {
  const found = (await all(replica)).filter((d) => matches(d, f));
  return { success: true, data: found.slice(page.o, page.o + page.l).map(toView) };
}

export async function localCount(replica: EditorReplica, f: QuestionFilters) {
  return { success: true, count: (await all(replica)).filter((d) => matches(d, f)).length };
}

export async function localQuestion(replica: EditorReplica, id: string) {
  const d = await replica.db.ed_question.findOne(id).exec();
  if (!d) throw new ApiError(404, i18n.t('authoring-bank:offline.notOnDevice'), 'NOT_FOUND');
  return { success: true, data: toView(d.toJSON() as EdQuestion) };
}

/** A save made offline: the server's rules (zod), then the device; created with a new id when it has none. */
export async function localSave(replica: EditorReplica, q: QuestionInput & { id?: string }) {
  const { id, ...rest } = q;
  const parsed = questionInputSchema.safeParse(rest);
  if (!parsed.success) {
    await i18n.loadNamespaces('messages').catch(() => undefined);
    throw new ApiError(400, translateServerMessage(parsed.error.issues[0]?.message ?? ''), 'BAD_REQUEST');
  }
  const before = id ? ((await replica.db.ed_question.findOne(id).exec())?.toJSON() as EdQuestion | undefined) : undefined;
  const v = parsed.data;
  const doc: EdQuestion = {
    id: id ?? crypto.randomUUID(),
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
    reason: v.st === 'REJECTED' ? (v.reason ?? null) : null,
    trans: v.trans as EdQuestion['trans'],
    // The version this edit is based on; 0 for a question made on this device.
    version: before?.version ?? 0,
    updatedAt: Date.now(),
  };
  try {
    await replica.save(doc);
  } catch (err) {
    // Not an answer of the server: the caller's catch would show nothing.
    console.error('saving the question on this device failed', err);
    throw new ApiError(0, i18n.t('authoring-bank:offline.notSaved'), 'LOCAL');
  }
  return { success: true, id: doc.id, msg: i18n.t('authoring-bank:offline.savedOnDevice') as string, data: toView(doc) };
}

export async function localDelete(replica: EditorReplica, id: string) {
  await replica.remove(id);
  return { success: true, msg: i18n.t('authoring-bank:offline.deletedOnDevice') as string };
}
