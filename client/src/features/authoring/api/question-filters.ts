import type { QuestionStatus, QuestionType } from '@pm/protocol/question';

/*
 * The question list's filters, a type of their own: the API's calls (api/questions.ts) and the
 * bank on the device (offline/local-questions.ts) both filter by them, and neither imports the
 * other for it.
 */

/** Filters of the question list and its count: s, c, t, e, qt, d, status (st) and search. */
export type QuestionFilters = {
  s?: string[];
  c?: string[];
  t?: string[];
  e?: string[];
  qt?: QuestionType[];
  d?: string[];
  st?: QuestionStatus[];
  search?: string;
  /** The translation filter, `missing:hi`, `stale:hi` or `draft:hi` (docs/configuration.md "Machine translation"). */
  tr?: string;
};
