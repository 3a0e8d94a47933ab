/**
 * The fields the question list can show (Question, Options, Correct Anwer,
 * Class, Difficulty Level, Topic, Exam, Subject, Question Type, Status), in the spec's order.
 */
export const COLUMNS = ['q', 'ops', 'ca', 'c', 'd', 't', 'e', 's', 'qt', 'st'] as const;
export type Column = (typeof COLUMNS)[number];

/**
 * Shown until the editor chooses otherwise: enough to recognise a question and where it stands
 * without the options and answers, which make every row several lines tall.
 */
export const DEFAULT_COLUMNS: Column[] = ['q', 's', 't', 'qt', 'd', 'st'];

/** localStorage key of the editor's choice (per browser, as a column layout is a habit). */
export const COLUMNS_STORAGE_KEY = 'authoring.questionList.columns';

/**
 * The stored choice, kept in the spec's order; unknown names (a column renamed in a later
 * version) are dropped, and a choice that leaves nothing falls back to the default.
 */
export function normaliseColumns(value: unknown): Column[] {
  if (!Array.isArray(value)) return DEFAULT_COLUMNS;
  const chosen = COLUMNS.filter((c) => value.includes(c));
  return chosen.length > 0 ? chosen : DEFAULT_COLUMNS;
}
