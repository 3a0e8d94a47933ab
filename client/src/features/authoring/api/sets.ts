import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { offlineOr } from './questions';
import type { QuestionSetSave, QuestionSetView } from '@pm/protocol/question-set';
import type { QuestionSetDoc } from '@pm/protocol/sync/question-set';
import type { QsDetailDoc } from '@pm/protocol/sync/qs-detail';

/*
 * Question sets (docs/exams.md, docs/authoring.md "Publishing and unpublishing"). Offline (docs/authoring.md "Offline authoring") the list, a set, its save
 * and its deletion are answered by the editor's replica (offline/local-sets.ts) and uploaded when
 * the network is back; the preview needs the server.
 */
const localSets = () => import('../offline/local-sets');

export const setKeys = {
  all: ['authoring', 'sets'] as const,
  list: () => ['authoring', 'sets', 'list'] as const,
  one: (id: string) => ['authoring', 'sets', 'one', id] as const,
  preview: (id: string) => ['authoring', 'sets', 'preview', id] as const,
};

/** GET /api/question/getQuestionSetList: every live set (editors), most recently changed first. */
export function getQuestionSetList(): Promise<{ success: boolean; data: QuestionSetView[] }> {
  return offlineOr(
    () => api('/question/getQuestionSetList'),
    async (r) => (await localSets()).localSetList(r),
  );
}
export function useQuestionSetList() {
  return useQuery({ queryKey: setKeys.list(), queryFn: getQuestionSetList, select: (r) => r.data });
}

/** GET /api/question/getQuestionSet/{id}. */
export function getQuestionSet(id: string): Promise<{ success: boolean; data: QuestionSetView }> {
  return offlineOr(
    () => api(`/question/getQuestionSet/${encodeURIComponent(id)}`),
    async (r) => (await localSets()).localSet(r, id),
  );
}
export function useQuestionSet(id: string | null) {
  return useQuery({ queryKey: setKeys.one(id ?? ''), queryFn: () => getQuestionSet(id ?? ''), select: (r) => r.data, enabled: Boolean(id) });
}

/**
 * PATCH /api/question/updateQuestionSet: created without id, replaced with one. Silent: the
 * screen shows the refusal itself (a 409 MSG.setTakenNewVersion asks the editor to confirm a new
 * version, then the same body is sent again with `newVersion: true`).
 */
export function saveQuestionSet(body: QuestionSetSave): Promise<{ success: boolean; id: string; msg: string; data: QuestionSetView }> {
  return offlineOr(
    () => api('/question/updateQuestionSet', { method: 'PATCH', body, silent: true }),
    async (r) => (await localSets()).localSaveSet(r, body),
  );
}
export function useSaveQuestionSet() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: saveQuestionSet, onSuccess: () => qc.invalidateQueries({ queryKey: ['authoring'] }) });
}

/**
 * PATCH /api/question/unpublishQuestionSet (docs/authoring.md "Publishing and unpublishing"): the
 * set becomes a draft and leaves learners. Online only: learners' devices learn it from the
 * server, and an editor's device cannot decide it for them.
 */
export function unpublishQuestionSet(id: string): Promise<{ success: boolean; id: string; msg: string; data: QuestionSetView }> {
  return api('/question/unpublishQuestionSet', { method: 'PATCH', body: { id }, silent: true });
}
export function useUnpublishQuestionSet() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: unpublishQuestionSet, onSuccess: () => qc.invalidateQueries({ queryKey: ['authoring'] }) });
}

/** DELETE /api/question/deleteQuestionSet/{id} → 'Question set deleted successfully'. */
export function deleteQuestionSet(id: string): Promise<{ success: boolean; msg: string }> {
  return offlineOr(
    () => api(`/question/deleteQuestionSet/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    async (r) => (await localSets()).localDeleteSet(r, id),
  );
}
export function useDeleteQuestionSet() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: deleteQuestionSet, onSuccess: () => qc.invalidateQueries({ queryKey: setKeys.all }) });
}

/**
 * GET /api/question/previewQuestionSet/{id}: the set and its questions exactly as a learner's
 * device would hold them (the replicated documents question_set and qs_detail), drafts included,
 * with correct answers: what the test screen needs to run the set as a preview.
 */
export type SetPreview = { success: boolean; set: QuestionSetDoc; detail: QsDetailDoc };
export function previewQuestionSet(id: string): Promise<SetPreview> {
  return api(`/question/previewQuestionSet/${encodeURIComponent(id)}`);
}
export function useSetPreview(id: string | null) {
  return useQuery({ queryKey: setKeys.preview(id ?? ''), queryFn: () => previewQuestionSet(id ?? ''), enabled: Boolean(id), staleTime: 0, gcTime: 0 });
}
