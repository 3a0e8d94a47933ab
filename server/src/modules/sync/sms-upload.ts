import { eq, sql } from 'drizzle-orm';
import { type DecodedAnswers, sameAsCode } from '@pm/protocol/sms-answer-code';
import type { TestSummaryDoc } from '@pm/protocol/sync/test-summary';
import type { Tx } from '../../db/client';
import { inJsonArray, perHandle, prepared } from '../../db/dialect';
import { smsAnswer } from '../../db/schema';
import { logActivity } from '../../lib/activity';
import type { Logger } from '../../lib/logger';

/*
 * How an upload by data meets an answer code that came by SMS first (docs/sms.md "When the data
 * comes"), inside the push's transaction (sync.service pushTestSummaries). The SMS is the
 * submission: an upload with the same answers completes the attempt (time per question, the
 * device's place in the test) and is never scored again; one whose answers differ is refused and
 * flagged for staff, and the attempt stays as the SMS said.
 */

export type SmsRow = typeof smsAnswer.$inferSelect;

/** The SMS rows of the attempts a push submits, by attempt id (one statement; none for most pushes). */
export async function smsRowsOf(tx: Tx, rows: readonly { newDocumentState: TestSummaryDoc }[]): Promise<Map<string, SmsRow>> {
  const ids = rows.filter((r) => r.newDocumentState.status === 'SUBMITTED').map((r) => r.newDocumentState.id);
  if (ids.length === 0) return new Map();
  const found = (await smsStatement(tx).all({ ids: JSON.stringify(ids) })) as SmsRow[];
  return new Map(found.map((r) => [r.attemptId, r]));
}

/** The statement of smsRowsOf, prepared once per handle (db/dialect.ts statementKey): every push of a submission runs it. */
const smsStatement = perHandle(
  (tx) => prepared(tx, tx.select().from(smsAnswer).where(inJsonArray(tx, smsAnswer.attemptId, sql.placeholder('ids')))) as unknown as { all: (values: { ids: string }) => Promise<unknown[]> },
);

/** Whether an uploaded submission says what the SMS said. */
export function uploadMatches(sms: SmsRow, next: TestSummaryDoc): boolean {
  return sameAsCode(sms.answers as DecodedAnswers, next.answers);
}

/** The upload completed what the SMS began: recorded once. */
export async function markCompleted(tx: Tx, sms: SmsRow, now: number): Promise<void> {
  if (sms.completedAt === null) await tx.update(smsAnswer).set({ completedAt: now }).where(eq(smsAnswer.attemptId, sms.attemptId));
}

/**
 * An upload whose answers differ from its SMS: refused, and flagged for staff in the activity log
 * (docs/admin.md) with what each said, and in the server's log.
 */
export async function flagDiffering(tx: Tx, log: Logger, sms: SmsRow, next: TestSummaryDoc, actor: { id: string; name: string }, now: number): Promise<void> {
  await tx.update(smsAnswer).set({ differedAt: now }).where(eq(smsAnswer.attemptId, sms.attemptId));
  await logActivity(tx, {
    actor,
    action: 'UPDATE',
    entity: 'sms_answer',
    entityId: sms.attemptId,
    oldValue: { flag: 'UPLOAD_DIFFERS_FROM_SMS', answers: sms.answers, receivedAt: sms.receivedAt },
    newValue: { flag: 'UPLOAD_DIFFERS_FROM_SMS', answers: next.answers, submittedAt: next.submittedAt },
  });
  log.warn({ person: sms.personId, attempt: sms.attemptId }, 'an upload differs from the answers that came by SMS: refused, flagged for staff');
}
