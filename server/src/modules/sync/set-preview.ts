import { eq } from 'drizzle-orm';
import { MSG } from '@pm/protocol/messages';
import type { QsDetailDoc } from '@pm/protocol/sync/qs-detail';
import type { QuestionSetDoc } from '@pm/protocol/sync/question-set';
import type { Deps } from '../../context';
import { questionSet } from '../../db/schema';
import { first } from '../../db/transaction';
import { notFound } from '../../lib/errors';
import { previewSetDoc, qsDetailDocs } from './sync.docs';

/**
 * GET /api/question/previewQuestionSet/{id} (docs/authoring.md "Publishing and unpublishing"): a live set, drafts and sets whose time
 * has not come included, as the documents a learner's device would hold for it (question_set and
 * qs_detail, built by the replication's own builders), with every correct answer: the editor runs
 * it in the real test screen. Nothing is written: no attempt, no result, no revision.
 */
export async function previewSet(deps: Deps, id: string): Promise<{ success: true; set: QuestionSetDoc; detail: QsDetailDoc }> {
  const row = await first(deps.db.select().from(questionSet).where(eq(questionSet.id, id)));
  if (!row || row.deleted) throw notFound(MSG.questionSetNotFound);
  return { success: true, set: await previewSetDoc(deps.db, row), detail: (await qsDetailDocs(deps.db, [row], { preview: true }))[0]! };
}
