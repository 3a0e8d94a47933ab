import type { TestQuestion } from '../../../../../sync-protocol/src/sync/qs-detail';

/** Placeholder while issue 17 is being built (replaced in this session). */
export default function QuestionPreview(_props: { question: TestQuestion; lang: string; width?: number }) {
  return null;
}
