import type { QsDetailDoc } from '../../../../../sync-protocol/src/sync/qs-detail';
import type { QuestionSetDoc } from '../../../../../sync-protocol/src/sync/question-set';

/** Placeholder while issue 17 is being built (replaced in this session). */
export default function SetPreviewDialog(_props: { set: QuestionSetDoc; detail: QsDetailDoc; onClose: () => void }) {
  return null;
}
