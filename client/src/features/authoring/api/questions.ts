import { keepPreviousData, type QueryClient, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError } from '@/lib/api-client';
import type { EditorReplica } from '@/db/editor/editor-replica';
import type { QuestionInput, QuestionStatus, QuestionVersionEntry, QuestionView } from '@pm/protocol/question';
import type { QuestionFilters } from './question-filters';

/*
 * The question bank's calls (docs/exams.md, docs/authoring.md): TanStack Query, online only. Every
 * write invalidates the bank's queries (['authoring', …]).
 */

function filterQuery(f: QuestionFilters): Record<string, string | undefined> {
  const list = (v: string[] | undefined) => (v && v.length > 0 ? v.join(',') : undefined);
  return {
    s: list(f.s),
    c: list(f.c),
    t: list(f.t),
    e: list(f.e),
    qt: list(f.qt),
    d: list(f.d),
    st: list(f.st),
    search: f.search?.trim() ? f.search.trim() : undefined,
    tr: f.tr || undefined,
  };
}

/*
 * Offline (docs/authoring.md "Offline authoring"): the bank's reads and writes are answered by the editor's replica of the
 * question bank (offline/), which the replication uploads when the network is back. Online, the
 * API answers, and the replica is opened in the background so that it is there when the network
 * goes.
 */
let warmed = false;
const store = () => import('../offline/editor-replica-store');
const localApi = () => import('../offline/local-questions');

/** Only a browser with IndexedDB keeps the bank (not a very old one, nor a test's jsdom). */
const canHoldBank = () => typeof indexedDB !== 'undefined';

/** The API's answer online; the editor's replica's (`offline`) when the device is offline or the network fails. Also used by api/sets.ts. */
export async function offlineOr<T>(online: () => Promise<T>, offline: (replica: EditorReplica) => Promise<T>): Promise<T> {
  if (canHoldBank() && navigator.onLine === false) {
    const replica = await (await store()).editorReplica();
    if (replica) return offline(replica);
  }
  if (!warmed && canHoldBank()) {
    warmed = true;
    void store()
      .then((m) => m.editorReplica())
      .catch(() => (warmed = false));
  }
  try {
    return await online();
  } catch (err) {
    if (!(err instanceof ApiError) || err.code !== 'NETWORK' || !canHoldBank()) throw err;
    const replica = await (await store()).editorReplica();
    if (!replica) throw err;
    return offline(replica);
  }
}

/** GET /api/question?l&o&…filters: one page of the bank, newest first. */
export function getQuestions(f: QuestionFilters, page: { l: number; o: number }): Promise<{ success: boolean; data: QuestionView[] }> {
  return offlineOr(
    () => api('/question', { query: { ...filterQuery(f), l: page.l, o: page.o } }),
    async (r) => (await localApi()).localQuestions(r, f, page),
  );
}
/** GET /api/question/getQuestionsCount with the same filters. */
export function getQuestionsCount(f: QuestionFilters): Promise<{ success: boolean; count: number }> {
  return offlineOr(
    () => api('/question/getQuestionsCount', { query: filterQuery(f) }),
    async (r) => (await localApi()).localCount(r, f),
  );
}
/** GET /api/question?qids=…: questions by id, in that order (a set's questions). */
export function getQuestionsByIds(ids: string[]): Promise<{ success: boolean; data: QuestionView[] }> {
  return offlineOr(
    () => api('/question', { query: { qids: ids.join(','), l: Math.max(1, ids.length), o: 0 } }),
    async (r) => (await import('../offline/local-sets')).localQuestionsByIds(r, ids),
  );
}

export const questionKeys = {
  all: ['authoring'] as const,
  list: (f: QuestionFilters, page: { l: number; o: number }) => ['authoring', 'questions', f, page] as const,
  count: (f: QuestionFilters) => ['authoring', 'questions-count', f] as const,
  byIds: (ids: string[]) => ['authoring', 'questions-by-id', ids] as const,
  one: (id: string) => ['authoring', 'question', id] as const,
  history: (id: string) => ['authoring', 'question-history', id] as const,
};

/**
 * `enabled`: asked whenever TanStack Query would fetch (a function, so that pausing needs no
 * render of the list): the question list passes one that is false while the editor is open over it.
 */
export function useQuestions(f: QuestionFilters, page: { l: number; o: number }, enabled: () => boolean = () => true) {
  // networkMode 'always': offline the device's bank answers (offlineOr), so the query must run.
  return useQuery({ queryKey: questionKeys.list(f, page), queryFn: () => getQuestions(f, page), select: (r) => r.data, placeholderData: keepPreviousData, enabled, networkMode: 'always' });
}
export function useQuestionsCount(f: QuestionFilters, enabled: () => boolean = () => true) {
  return useQuery({ queryKey: questionKeys.count(f), queryFn: () => getQuestionsCount(f), select: (r) => r.count, placeholderData: keepPreviousData, enabled, networkMode: 'always' });
}
/** The list and its count, asked again where they are shown and out of date (after the editor over the list closes). */
export function refreshQuestionLists(qc: QueryClient): void {
  void qc.refetchQueries({ queryKey: ['authoring', 'questions'], type: 'active', stale: true });
  void qc.refetchQueries({ queryKey: ['authoring', 'questions-count'], type: 'active', stale: true });
}
export function useQuestionsByIds(ids: string[]) {
  return useQuery({ queryKey: questionKeys.byIds(ids), queryFn: () => getQuestionsByIds(ids), select: (r) => r.data, enabled: ids.length > 0 });
}

/** GET /api/question/{id} (editors get the correct answers). */
export function getQuestion(id: string): Promise<{ success: boolean; data: QuestionView }> {
  return offlineOr(
    () => api(`/question/${encodeURIComponent(id)}`),
    async (r) => (await localApi()).localQuestion(r, id),
  );
}
export const questionQueryOptions = (id: string) => queryOptions({ queryKey: questionKeys.one(id), queryFn: () => getQuestion(id), select: (r) => r.data });
/**
 * Starts loading a question before its editor opens (the list's Edit, on pointer or keyboard
 * focus): by the click the answer is in hand or on its way, and the editor draws it in the same
 * pass as the page instead of after a loader.
 */
export function usePrefetchQuestion() {
  const qc = useQueryClient();
  return (id: string, row?: QuestionView) => {
    // The list's row is the whole question as the editor loads it (the same view, with its sets):
    // the editor draws it at once and takes the server's answer when it comes (docs/authoring.md,
    // 'pm:editor-open'). Dated as the list's page, so it is never taken for a fresher copy.
    if (row) {
      const key = questionKeys.one(id);
      const have = qc.getQueryState(key);
      const updatedAt = Math.max(0, ...qc.getQueryCache().findAll({ queryKey: ['authoring', 'questions'] }).map((q) => q.state.dataUpdatedAt));
      if (updatedAt > 0 && (!have?.data || have.dataUpdatedAt < updatedAt)) qc.setQueryData(key, { success: true, data: row }, { updatedAt });
    }
    void qc.prefetchQuery(questionQueryOptions(id));
  };
}
/** The question as last known on this device (the list's row or an earlier load), or undefined. */
export function useKnownQuestion(id: string | null): QuestionView | undefined {
  const qc = useQueryClient();
  return id ? qc.getQueryData<{ success: boolean; data: QuestionView }>(questionKeys.one(id))?.data : undefined;
}

export function useQuestion(id: string | null) {
  return useQuery({ ...questionQueryOptions(id ?? ''), enabled: Boolean(id) });
}

type SaveAnswer = { success: boolean; id: string; msg: string; data: QuestionView };

/** What a save sends: the question, and for one that exists its id and the version it was edited from. */
export type QuestionSave = QuestionInput & { id?: string; version?: number };

/**
 * POST /api/question (no id: created) or PATCH /api/question (with id and version: updated). A
 * PATCH from a version that is no longer the current one is refused 409 with the current question
 * (docs/authoring.md, "Two editors at once"); the editor shows that itself (changedMeanwhile),
 * so lib/api-client does not notify a 409.
 */
export function saveQuestion(q: QuestionSave): Promise<SaveAnswer> {
  return offlineOr(
    () => (q.id ? api('/question', { method: 'PATCH', body: q, silentFor: [409] }) : api('/question', { method: 'POST', body: q })),
    async (r) => (await localApi()).localSave(r, q),
  );
}

/** The current question of a save refused because another editor saved first (409 with `current`), else null. */
export function changedMeanwhile(err: unknown): QuestionView | null {
  if (!(err instanceof ApiError) || err.status !== 409) return null;
  return (err.body as { current?: QuestionView } | null | undefined)?.current ?? null;
}
export function useSaveQuestion() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: saveQuestion, onSuccess: () => qc.invalidateQueries({ queryKey: questionKeys.all }) });
}

/** DELETE /api/question/{id}: refused (409, with the sets' names) while a set holds it. */
export function deleteQuestion(id: string): Promise<{ success: boolean; msg: string }> {
  return offlineOr(
    () => api(`/question/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    async (r) => (await localApi()).localDelete(r, id),
  );
}
export function useDeleteQuestion() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: deleteQuestion, onSuccess: () => qc.invalidateQueries({ queryKey: questionKeys.all }) });
}

/** PATCH /api/question/updateStatus {id, st, reason}: a review step. */
export function updateQuestionStatus(body: { id: string; st: QuestionStatus; reason?: string | null }): Promise<SaveAnswer> {
  return api('/question/updateStatus', { method: 'PATCH', body });
}
export function useUpdateQuestionStatus() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: updateQuestionStatus, onSuccess: () => qc.invalidateQueries({ queryKey: questionKeys.all }) });
}

/** GET /api/question/getQuestionHistory/{id}: every version, newest first. */
export function getQuestionHistory(id: string): Promise<{ success: boolean; data: QuestionVersionEntry[] }> {
  return api(`/question/getQuestionHistory/${encodeURIComponent(id)}`);
}
export function useQuestionHistory(id: string | null) {
  return useQuery({ queryKey: questionKeys.history(id ?? ''), queryFn: () => getQuestionHistory(id ?? ''), select: (r) => r.data, enabled: Boolean(id) });
}

/** POST /api/question/restoreQuestionVersion {id, version}: that version's content becomes the newest. */
export function restoreQuestionVersion(body: { id: string; version: number }): Promise<SaveAnswer> {
  return api('/question/restoreQuestionVersion', { method: 'POST', body });
}
export function useRestoreQuestionVersion() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: restoreQuestionVersion, onSuccess: () => qc.invalidateQueries({ queryKey: questionKeys.all }) });
}
