import type { QuestionView } from '@pm/protocol/question';
import { type QuestionSetSave, type QuestionSetView, questionSetSaveSchema } from '@pm/protocol/question-set';
import type { EdQuestion, EdQuestionSet, EditorReplica } from '@/db/editor/editor-replica';
import { ApiError } from '@/lib/api-client';
import i18n from '@/lib/i18n';
import { translateServerMessage } from '@/lib/server-messages';
import { toView } from './local-questions';

/*
 * The question-set calls answered from the editor's replica while the device is offline
 * (docs/authoring.md "Offline authoring"): the same shapes as the API's answers, so the set page works unchanged. A set is checked by
 * the same zod rules as the server's (labels, sections, selection limits, duplicates) and stored
 * on the device; the replication uploads it when the network is back, after the questions saved
 * on this device, and the server checks it again (approved questions unless a draft; a taken
 * set's marks). Its refusal or a conflict is shown by the sync bar.
 */

const toSetView = (d: EdQuestionSet): QuestionSetView => ({
  id: d.id,
  l: d.l,
  mpq: d.mpq,
  tm: d.tm,
  nm: d.nm,
  dur: d.dur,
  isM: d.isM,
  free: d.free,
  inst: d.inst,
  q: d.q,
  sections: d.sections,
  pts: d.pts,
  draft: d.draft,
  langs: d.langs,
  trans: d.trans,
  published: d.published,
  version: d.version,
  taken: d.taken,
  createdAt: d.createdAt,
  updatedAt: d.updatedAt,
});

const notOnDevice = () => new ApiError(404, i18n.t('authoring-bank:offline.notOnDevice'), 'NOT_FOUND');

/** Every live set on the device, most recently changed first (the API's order). */
export async function localSetList(replica: EditorReplica) {
  const docs = (await replica.db.ed_question_set.find().exec()).map((d) => d.toJSON() as EdQuestionSet);
  docs.sort((a, b) => b.updatedAt - a.updatedAt);
  return { success: true, data: docs.map(toSetView) };
}

export async function localSet(replica: EditorReplica, id: string) {
  const d = await replica.db.ed_question_set.findOne(id).exec();
  if (!d) throw notOnDevice();
  return { success: true, data: toSetView(d.toJSON() as EdQuestionSet) };
}

/** A set saved offline: the server's rules (zod), then the device; created with a new id when it has none. */
export async function localSaveSet(replica: EditorReplica, body: QuestionSetSave) {
  const parsed = questionSetSaveSchema.safeParse(body);
  if (!parsed.success) {
    await i18n.loadNamespaces('messages').catch(() => undefined);
    throw new ApiError(400, translateServerMessage(parsed.error.issues[0]?.message ?? ''), 'BAD_REQUEST');
  }
  const { id, newVersion: _n, ...v } = parsed.data;
  const before = id ? ((await replica.db.ed_question_set.findOne(id).exec())?.toJSON() as EdQuestionSet | undefined) : undefined;
  if (id && !before) throw notOnDevice();
  const now = Date.now();
  const doc: EdQuestionSet = {
    ...v,
    id: id ?? crypto.randomUUID(),
    // What the server decides (publication, version, results) stays as last known until it answers.
    published: before?.published ?? false,
    version: before?.version ?? 0,
    taken: before?.taken ?? 0,
    createdAt: before?.createdAt ?? now,
    updatedAt: now,
  };
  try {
    await replica.saveSet(doc);
  } catch (err) {
    console.error('saving the question set on this device failed', err);
    throw new ApiError(0, i18n.t('authoring-bank:offline.notSaved'), 'LOCAL');
  }
  return { success: true, id: doc.id, msg: i18n.t('authoring-bank:offline.setSavedOnDevice') as string, data: toSetView(doc) };
}

export async function localDeleteSet(replica: EditorReplica, id: string) {
  await replica.removeSet(id);
  return { success: true, msg: i18n.t('authoring-bank:offline.setDeletedOnDevice') as string };
}

/** Questions by id, in that order (a set's questions), from the device's bank. */
export async function localQuestionsByIds(replica: EditorReplica, ids: string[]): Promise<{ success: boolean; data: QuestionView[] }> {
  const found = await replica.db.ed_question.findByIds(ids).exec();
  return { success: true, data: ids.flatMap((id) => (found.has(id) ? [toView(found.get(id)!.toJSON() as EdQuestion)] : [])) };
}
