import type { QuestionType } from '@pm/protocol/question';

/** What an export writes of a question: its content and tags (the status and history stay home). */
export type ExportQuestion = {
  q: string;
  ops: Record<string, string>;
  ca: string[];
  qt: QuestionType;
  d: string;
  c: string[];
  s: string | null;
  t: string[];
  e: string[];
  /** The explanation in English ('' for none). */
  expl?: string;
  trans: Record<string, { q: string; ops: Record<string, string>; ca: string[]; expl?: string }>;
};
