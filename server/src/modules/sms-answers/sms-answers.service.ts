import { and, eq } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import { normaliseMobile } from '@pm/protocol/common';
import {
  type CodeEnvelope,
  decodeAnswers,
  looksLikeAnswerCode,
  readAnswerCode,
  type SmsAnswerKeyResponse,
  type SmsQuestion,
  smsQuestions,
  smsSetTag,
  verifyAnswerCode,
} from '@pm/protocol/sms-answer-code';
import type { TestSummaryDoc } from '@pm/protocol/sync/test-summary';
import type { Deps, Principal } from '../../context';
import type { DB } from '../../db/client';
import { databaseKey } from '../../db/dialect';
import { attempt, examResult, person, questionSet, smsAnswer } from '../../db/schema';
import { first } from '../../db/transaction';
import { groupCommit } from '../../lib/group-commit';
import type { InboundSms, InboundSmsHandler } from '../../lib/sms-inbound';
import { qsDetailDocs, testSummaryDoc } from '../sync/sync.docs';
import { pushTestSummaries } from '../sync/sync.service';
import { liveKeysOf, smsKeyOf } from './sms-key';
import { type SmsReply, smsReplyMessage } from './sms-reply';

/*
 * Answers home by SMS (docs/sms.md "Answers by SMS"). A device with no data packs a submitted
 * attempt into an answer code (sync-protocol sms-answer-code.ts) signed with its session's SMS key,
 * and the learner sends it from their phone. The SMS adapter checks the provider's signature and
 * hands the message on (deps.smsInbound); here it is checked again for what only we can check —
 * the sender is a person's mobile, the MAC is under one of that person's live sessions' keys, the
 * attempt came by SMS only once — and then stored and scored by replication's own push
 * (sync.service pushTestSummaries), so the server's time bounds, the first-attempt rule, the plan
 * counting and the receipt are a push's. Whatever fails changes nothing and is answered with
 * nothing: an attacker learns nothing from trying.
 */

/** GET /api/sms-answers/key: the caller's session's key, and our number (null: the installation takes no codes). */
export function smsAnswerKey(deps: Deps, me: Principal): SmsAnswerKeyResponse {
  return {
    success: true,
    key: Buffer.from(smsKeyOf(deps.config.jwtSecret, me.sessionId)).toString('base64url'),
    number: deps.config.SMS_ANSWER_NUMBER ?? null,
    personId: me.id,
  };
}

/** Set ids by smsSetTag, per database; rebuilt when a tag is not found, at most every REBUILD_MS. */
const REBUILD_MS = 10_000;
const setTags = new WeakMap<object, { at: number; byTag: Map<number, string[]> }>();

async function setsOfTag(db: DB, tag: number, now: number): Promise<string[]> {
  const key = databaseKey(db);
  let cache = setTags.get(key);
  if (!cache || (!cache.byTag.has(tag) && now - cache.at > REBUILD_MS)) {
    const byTag = new Map<number, string[]>();
    for (const { id } of await db.select({ id: questionSet.id }).from(questionSet)) {
      const t = smsSetTag(id);
      byTag.set(t, [...(byTag.get(t) ?? []), id]);
    }
    cache = { at: now, byTag };
    setTags.set(key, cache);
  }
  return cache.byTag.get(tag) ?? [];
}

/** Each set's questions as a code is read against them, per database, valid while the set's detail_rev (bumped by every change of it) stays. */
const questionCaches = new WeakMap<object, LRUCache<string, { detailRev: number; questions: SmsQuestion[] | null }>>();

/**
 * The questions of a set as a device holding it sees them (the qs_detail document replication
 * sends), built once per revision of the set: answer codes come in bursts after a test, all for
 * the same few sets, and building the document is most of a code's cost.
 */
async function questionsOf(db: DB, qsid: string): Promise<SmsQuestion[] | null> {
  const key = databaseKey(db);
  let cache = questionCaches.get(key);
  if (!cache) {
    cache = new LRUCache({ max: 200 });
    questionCaches.set(key, cache);
  }
  const head = await first(db.select({ detailRev: questionSet.detailRev, publishedAt: questionSet.publishedAt }).from(questionSet).where(eq(questionSet.id, qsid)));
  if (!head || head.publishedAt === null) return null;
  const hit = cache.get(qsid);
  if (hit && hit.detailRev === head.detailRev) return hit.questions;
  const row = await first(db.select().from(questionSet).where(eq(questionSet.id, qsid)));
  if (!row || row.publishedAt === null) return null;
  const [doc] = await qsDetailDocs(db, [row]);
  const byId = doc && !doc._deleted ? new Map(doc.questions.map((q) => [q.id, q])) : null;
  const questions = doc && byId ? smsQuestions(doc.questions.map((q) => q.id), (id) => byId.get(id)) : null;
  cache.set(qsid, { detailRev: row.detailRev, questions });
  return questions;
}

type Verified = { env: CodeEnvelope; owner: { id: string; name: string }; sessionId: string; qsid: string; questions: SmsQuestion[] };

/** The person whose mobile sent it and whose live session's key signed it, and the set it is for; null otherwise. */
async function verify(deps: Deps, m: InboundSms, env: CodeEnvelope, now: number): Promise<Verified | null> {
  const mobile = normaliseMobile(m.from);
  if (!mobile) return null;
  const owner = await first(
    deps.db
      .select({ id: person.id, name: person.name })
      .from(person)
      .where(and(eq(person.mobile, mobile), eq(person.status, 'ACTIVE'))),
  );
  if (!owner) return null;
  // The number's budget is spent before the MAC is tried and given back when it was right
  // (lib/rate-limit.ts RULES.smsAnswerNumber): a forger has that many 2^-32 chances a day.
  try {
    await deps.rates.consume('smsAnswerNumber', mobile);
  } catch {
    return null;
  }
  const keys = await liveKeysOf(deps.db, deps.config.jwtSecret, owner.id, now);
  for (const qsid of await setsOfTag(deps.db, env.setTag, now)) {
    const questions = await questionsOf(deps.db, qsid);
    if (!questions) continue;
    for (const { sessionId, key } of keys) {
      if (await verifyAnswerCode(env, qsid, questions, key)) {
        await deps.rates.refund([['smsAnswerNumber', mobile]]);
        return { env, owner, sessionId, qsid, questions };
      }
    }
  }
  return null;
}

/** The attempt a code stands for, as its device stored it at submission (its time per question aside). */
function attemptOfCode(v: Verified, answers: TestSummaryDoc['answers']): TestSummaryDoc {
  const { env } = v;
  return {
    id: env.attemptId,
    qsid: v.qsid,
    st: env.st,
    sfs: 0,
    lsq: null,
    index: 0,
    selectedSection: null,
    answers,
    status: 'SUBMITTED',
    submittedAt: env.submittedAt,
    ...(env.elapsed !== undefined && { elapsed: env.elapsed }),
    updatedAt: env.submittedAt,
    _deleted: false,
  };
}

/** The receipt and, for a practice set, the score of an attempt the SMS stored. */
async function replyOf(deps: Deps, attemptId: string, qsid: string): Promise<SmsReply | null> {
  const row = await first(deps.db.select({ receipt: attempt.receipt }).from(attempt).where(eq(attempt.id, attemptId)));
  if (!row?.receipt) return null;
  const set = await first(deps.db.select({ isM: questionSet.isM }).from(questionSet).where(eq(questionSet.id, qsid)));
  if (set?.isM !== false) return { receipt: row.receipt };
  const result = await first(deps.db.select({ marks: examResult.totalMarks, outOf: examResult.total }).from(examResult).where(eq(examResult.attemptId, attemptId)));
  return result ? { receipt: row.receipt, score: result } : { receipt: row.receipt };
}

/**
 * Takes one answer code: verified, recorded once (sms_answer's key is the attempt: a replay or a
 * second SMS of the attempt finds it there), then stored and scored by the push. The record and
 * the push are two transactions: a push that fails takes the record back, so that the same SMS
 * sent again is taken.
 */
export async function takeAnswerCode(deps: Deps, m: InboundSms): Promise<void> {
  const now = Date.now();
  const env = readAnswerCode(m.text);
  const v = env && (await verify(deps, m, env, now));
  const decoded = v && decodeAnswers(v.env, v.questions);
  if (!v || !decoded) {
    deps.log.warn({ provider: m.provider, providerMessageId: m.providerMessageId }, 'an answer code was not taken (unreadable, unknown sender, or a wrong MAC)');
    return;
  }
  // One statement among the writes of its event-loop turn (lib/group-commit.ts): codes come in bursts.
  const recorded = await groupCommit(deps.db)(
    (tx) =>
      tx
        .insert(smsAnswer)
        .values({
          attemptId: v.env.attemptId,
          personId: v.owner.id,
          qsid: v.qsid,
          receivedAt: now,
          provider: m.provider,
          providerMessageId: m.providerMessageId,
          answers: decoded,
          textsFollow: v.env.textsFollow,
        })
        .onConflictDoNothing()
        .returning({ id: smsAnswer.attemptId }),
    { oneStatement: true },
  );
  if (recorded.length === 0) {
    deps.log.info({ person: v.owner.id, attempt: v.env.attemptId }, 'an answer code of an attempt already taken: nothing changes');
    return;
  }
  const reply = v.env.textsFollow ? ({ textsFollow: true } as const) : await storeByPush(deps, v, decoded as TestSummaryDoc['answers']);
  // The reply leaves after the provider's callback has its answer: it does not hold the callback
  // (a provider waits for it, and a storm of them waits behind the slowest).
  if (reply) {
    const message = smsReplyMessage(v.env.lang, normaliseMobile(m.from)!, reply);
    deps.afterAnswer.run('answer code reply', () => deps.outbox.send(message));
  }
}

/** The push of the attempt a code stands for; the reply when it stored it (null: the data came first). */
async function storeByPush(deps: Deps, v: Verified, answers: TestSummaryDoc['answers']): Promise<SmsReply | null> {
  const doc = attemptOfCode(v, answers);
  const master = await first(deps.db.select().from(attempt).where(eq(attempt.id, doc.id)));
  if (master && (master.personId !== v.owner.id || master.status === 'SUBMITTED')) {
    deps.log.info({ person: v.owner.id, attempt: doc.id }, 'an answer code of an attempt the data brought first: nothing changes');
    return null;
  }
  const me: Principal = { id: v.owner.id, name: v.owner.name, permissions: new Set(), sessionId: v.sessionId };
  const written = new Set<string>();
  try {
    await pushTestSummaries(deps, me, [{ newDocumentState: doc, assumedMasterState: master ? testSummaryDoc(master) : null }], written, { offline: true, sms: true });
  } catch (err) {
    await deps.db.delete(smsAnswer).where(eq(smsAnswer.attemptId, doc.id));
    throw err;
  }
  if (!written.has(doc.id)) return null;
  await groupCommit(deps.db)((tx) => tx.update(smsAnswer).set({ stored: true }).where(eq(smsAnswer.attemptId, doc.id)), { oneStatement: true });
  return replyOf(deps, doc.id, v.qsid);
}

/** The InboundSmsHandler of answer codes (compose.ts): every message with the code's prefix is ours, taken or not. */
export function answerCodeHandler(deps: Deps): InboundSmsHandler {
  return async (m) => {
    if (!looksLikeAnswerCode(m.text)) return false;
    await takeAnswerCode(deps, m);
    return true;
  };
}
