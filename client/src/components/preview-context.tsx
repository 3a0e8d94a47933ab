import { type ComponentType, createContext, useContext } from 'react';
import type { QsDetailDoc, TestQuestion } from '@pm/protocol/sync/qs-detail';
import type { QuestionSetDoc } from '@pm/protocol/sync/question-set';

/**
 * The learner's test screen, lent to the authoring screens. Features do not import each other
 * (CONVENTIONS rule on features): the app layer (app/router.tsx) gives authoring the exams
 * feature's previews through this context, so an editor sees a question or a set exactly as a
 * learner would, drawn by the same components.
 */
export type Previews = {
  /** One question as the test screen shows it, in a language, at a phone's width (360 px). */
  QuestionPreview: ComponentType<{ question: TestQuestion; lang: string; width?: number }>;
  /** A whole set in the real test screen, run in memory: no attempt or result is recorded. */
  SetPreview: ComponentType<{ set: QuestionSetDoc; detail: QsDetailDoc; onClose: () => void }>;
};

const PreviewContext = createContext<Previews | null>(null);
export const PreviewProvider = PreviewContext.Provider;

export function usePreviews(): Previews {
  const p = useContext(PreviewContext);
  if (!p) throw new Error('usePreviews needs a PreviewProvider (app/router.tsx)');
  return p;
}
