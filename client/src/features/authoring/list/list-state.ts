import {
  DEFAULT_MAX_QUESTIONS,
  selectionLimitMessage,
} from '@pm/protocol/question-set';
import {
  QUESTION_STATUSES,
  QUESTION_TYPES,
  type QuestionStatus,
  type QuestionType,
} from '@pm/protocol/question';
import type { QuestionFilters } from '../api/question-filters';
import { isTranslationFilter } from './translation-filter';

/** What the question list shows: its filters and the page (1-based). */
export type ListState = { filters: QuestionFilters; page: number };

export const EMPTY_LIST_STATE: ListState = { filters: {}, page: 1 };

/** The list filters that hold several values, in the order the URL writes them. */
const LIST_KEYS = ['s', 'c', 't', 'e', 'qt', 'd', 'st'] as const;
type ListKey = (typeof LIST_KEYS)[number];

const DIFFICULTIES = ['1', '2', '3', '4', '5'];
const allowedValues: Partial<Record<ListKey, readonly string[]>> = { qt: QUESTION_TYPES, d: DIFFICULTIES, st: QUESTION_STATUSES };

/**
 * The list's state from the address's search parameters (`?s=phy&d=3,4&search=acid&page=2`), so
 * that a reload, a shared link or coming back from the editor shows the same questions. Values
 * the server would refuse (an unknown type or status, a page below 1) are dropped here rather than
 * turned into an error page.
 */
export function readListState(params: URLSearchParams): ListState {
  const filters: QuestionFilters = {};
  for (const key of LIST_KEYS) {
    const raw = params.get(key);
    if (!raw) continue;
    const allowed = allowedValues[key];
    const values = [...new Set(raw.split(',').map((v) => v.trim()))].filter((v) => v !== '' && (!allowed || allowed.includes(v)));
    if (values.length === 0) continue;
    if (key === 'qt') filters.qt = values as QuestionType[];
    else if (key === 'st') filters.st = values as QuestionStatus[];
    else filters[key] = values;
  }
  const search = params.get('search')?.trim();
  if (search) filters.search = search;
  const tr = params.get('tr');
  if (isTranslationFilter(tr)) filters.tr = tr;
  const page = Number(params.get('page'));
  return { filters, page: Number.isInteger(page) && page > 1 ? page : 1 };
}

/** The search parameters of a list state; empty filters and the first page are left out. */
export function writeListState(state: ListState): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of LIST_KEYS) {
    const values = state.filters[key];
    if (values && values.length > 0) params.set(key, values.join(','));
  }
  const search = state.filters.search?.trim();
  if (search) params.set('search', search);
  if (state.filters.tr) params.set('tr', state.filters.tr);
  if (state.page > 1) params.set('page', String(state.page));
  return params;
}

/** Whether any filter is set (the "Clear filters" button shows then). */
export function hasFilters(f: QuestionFilters): boolean {
  return LIST_KEYS.some((k) => (f[k]?.length ?? 0) > 0) || Boolean(f.search?.trim()) || Boolean(f.tr);
}

/** How many pages `count` questions make at `pageSize` a page (at least one). */
export function pageCount(count: number, pageSize: number): number {
  return Math.max(1, Math.ceil(count / pageSize));
}

/** The outcome of ticking or unticking a question in selection mode. */
export type ToggleResult = { ok: true; ids: string[] } | { ok: false; allowed: number; part: string | null; english: string };

/**
 * Ticks or unticks `id` in `selected`: an unticked question leaves, a ticked one is added at the
 * end (the order in which an editor picks is the order in the set until rearranged) — unless the
 * part already holds `allowed` questions, when the spec's 'Only N questions are allowed in
 * <section or Main> section' refuses it (the English text from sync-protocol, as the server
 * says it).
 */
export function toggleSelection(selected: string[], id: string, allowed: number, part: string | null): ToggleResult {
  if (selected.includes(id)) return { ok: true, ids: selected.filter((x) => x !== id) };
  const limit = Number.isFinite(allowed) && allowed >= 0 ? allowed : DEFAULT_MAX_QUESTIONS;
  if (selected.length >= limit) return { ok: false, allowed: limit, part, english: selectionLimitMessage(limit, part) };
  return { ok: true, ids: [...selected, id] };
}
