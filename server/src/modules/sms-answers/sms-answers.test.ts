import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { receiptHash, shortReceipt } from '@pm/protocol/receipt';
import { packAnswerCode, SMS_ALPHABET, type SmsAnswerKeyResponse, type SmsQuestion, smsQuestions } from '@pm/protocol/sms-answer-code';
import type { QsDetailDoc } from '@pm/protocol/sync/qs-detail';
import type { TestSummaryDoc } from '@pm/protocol/sync/test-summary';
import { PROTOCOL_VERSION } from '@pm/protocol/version';
import { activityLog, attempt, examResult, smsAnswer } from '../../db/schema';
import { first } from '../../db/transaction';
import { readLocalInbox } from '../../lib/outbox';
import type { InboundSms } from '../../lib/sms-inbound';
import { type Harness, startHarness } from '../../test/harness';

const LEARNER_MOBILE = '+919000000003';
const EDITOR_MOBILE = '+919000000002';
const V = { 'x-sync-protocol': PROTOCOL_VERSION };

let h: Harness;
let learnerToken: string;
let key: Uint8Array;
let keyAnswer: SmsAnswerKeyResponse;
let questions: SmsQuestion[];
beforeAll(async () => {
  h = await startHarness();
  learnerToken = await h.tokenOf('learner');
  const r = await h.request('GET', '/sms-answers/key', { token: learnerToken });
  expect(r.status).toBe(200);
  keyAnswer = r.body as SmsAnswerKeyResponse;
  key = Buffer.from(keyAnswer.key, 'base64url');
  // The set's questions as the learner's device holds them (replication's qs_detail).
  const pulled = await h.request('GET', '/sync/v1/qs_detail/pull?rev=0&limit=1000', { token: learnerToken, headers: V });
  const doc = (pulled.body.documents as QsDetailDoc[]).find((d) => d.id === 'qs-practice-gk')!;
  const byId = new Map(doc.questions.map((q) => [q.id, q]));
  questions = smsQuestions(
    doc.questions.map((q) => q.id),
    (id) => byId.get(id),
  );
});
afterAll(() => h.destroy());

let seq = 0;
/** A submitted attempt at the free practice set, as the device stores it: q-gk-001 right (b), q-gk-003 wrong (a), q-gk-005 marked. */
function submitted(over: Partial<TestSummaryDoc> = {}): TestSummaryDoc {
  seq++;
  const now = Date.now();
  return {
    id: `5e1f0000-0000-4000-8000-${(now + seq).toString(16).padStart(12, '0').slice(-12)}`,
    qsid: 'qs-practice-gk',
    st: now - 10 * 60_000,
    sfs: 0,
    lsq: 'q-gk-005',
    index: 2,
    selectedSection: null,
    answers: {
      'q-gk-001': { ua: 'b', status: 'ANSWERED', t: 4000 },
      'q-gk-003': { ua: 'a', status: 'ANSWERED', t: 3000 },
      'q-gk-005': { ua: null, status: 'MARKED', t: 1000 },
    },
    status: 'SUBMITTED',
    submittedAt: now - 60_000,
    elapsed: 9 * 60_000,
    updatedAt: now - 60_000,
    _deleted: false,
    ...over,
  };
}

const codeOf = async (a: TestSummaryDoc, k = key, lang: 'en' | 'hi' = 'en') => (await packAnswerCode(a, questions, k, lang))!.text;

let messageSeq = 0;
/** What the SMS adapter hands on after checking the provider's signature: every handler in order until one takes it. */
async function inbound(text: string, from = LEARNER_MOBILE, providerMessageId = `msg-${++messageSeq}`): Promise<boolean> {
  const m: InboundSms = { from, to: keyAnswer.number!, text, provider: 'twilio', providerMessageId, receivedAt: new Date() };
  for (const handle of h.deps.smsInbound) if (await handle(m)) return true;
  return false;
}

const push = (rows: unknown, token = learnerToken) => h.request('POST', '/sync/v1/test_summary/push', { token, headers: V, body: rows });
const attemptRow = (id: string) => first(h.deps.db.select().from(attempt).where(eq(attempt.id, id)));
const resultsOf = (id: string) => h.deps.db.select().from(examResult).where(eq(examResult.attemptId, id));
/** The replies sent so far (a reply leaves after the callback's answer: deps.afterAnswer). */
const repliesTo = async (mobile: string) => {
  await h.deps.afterAnswer.settled();
  return readLocalInbox(path.join(h.dataDir, 'local-inbox.jsonl')).filter((m) => m.channel === 'sms' && m.to === mobile && m.subject === 'Answers received');
};
const flagsOf = (id: string) =>
  h.deps.db
    .select()
    .from(activityLog)
    .where(and(eq(activityLog.entityAffected, 'sms_answer'), eq(activityLog.entityId, id)));

describe('the key', () => {
  test('is the session\'s: 16 bytes, another for another sign-in, with our number', async () => {
    expect(keyAnswer).toEqual({ success: true, key: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/), number: '+919999900000', personId: 'demo-learner' });
    const other = await h.request('GET', '/sms-answers/key', { token: await h.tokenOf('learner') });
    expect(other.body.key).not.toBe(keyAnswer.key);
    expect(other.headers.get('cache-control')).toBe('no-store');
  });
});

describe('an answer code by SMS', () => {
  test('is stored and scored as a push would, with the device\'s own receipt; the reply carries it and the practice score', async () => {
    const a = submitted();
    const before = (await repliesTo(LEARNER_MOBILE)).length;
    expect(await inbound(await codeOf(a))).toBe(true);
    const row = (await attemptRow(a.id))!;
    expect(row).toMatchObject({ personId: 'demo-learner', status: 'SUBMITTED', qsid: 'qs-practice-gk', submittedAt: a.submittedAt, elapsed: a.elapsed });
    const receipt = await receiptHash(a);
    expect(row.receipt).toBe(receipt);
    const [result, ...more] = await resultsOf(a.id);
    expect(more).toEqual([]);
    expect(result).toMatchObject({ totalMarks: 1, practice: false });
    const replies = (await repliesTo(LEARNER_MOBILE));
    expect(replies.length).toBe(before + 1);
    expect(replies.at(-1)!.body).toBe(`Pariksha Mitra: answers received. Receipt ${shortReceipt(receipt)}. Score 1/10.`);
  });

  test('a message without the prefix is left to the next handler', async () => {
    expect(await inbound('hello')).toBe(false);
  });

  test('from another number, an unknown one, under another key, tampered or cut short: nothing changes and nobody is answered', async () => {
    const a = submitted();
    const text = await codeOf(a);
    const before = readLocalInbox(path.join(h.dataDir, 'local-inbox.jsonl')).length;
    expect(await inbound(text, EDITOR_MOBILE)).toBe(true);
    expect(await inbound(text, '+919111111111')).toBe(true);
    expect(await inbound(await codeOf(a, Uint8Array.from({ length: 16 }, () => 7)))).toBe(true);
    // One answer changed in the code: the character holding the answers, moved by one.
    const i = text.length - 10;
    const tampered = text.slice(0, i) + SMS_ALPHABET[(SMS_ALPHABET.indexOf(text[i]!) + 1) % 64] + text.slice(i + 1);
    expect(await inbound(tampered)).toBe(true);
    expect(await inbound(text.slice(0, -3))).toBe(true);
    expect(await inbound('PM1 not a code at all!')).toBe(true);
    expect(await attemptRow(a.id)).toBeUndefined();
    expect(await first(h.deps.db.select().from(smsAnswer).where(eq(smsAnswer.attemptId, a.id)))).toBeUndefined();
    await h.deps.afterAnswer.settled();
    expect(readLocalInbox(path.join(h.dataDir, 'local-inbox.jsonl')).length).toBe(before);
  });

  test('a session that ended takes its key with it', async () => {
    const token = await h.tokenOf('learner');
    const k = Buffer.from((await h.request('GET', '/sms-answers/key', { token })).body.key, 'base64url');
    expect((await h.request('POST', '/UserLogin/logout', { token })).status).toBe(200);
    const a = submitted();
    expect(await inbound(await codeOf(a, k))).toBe(true);
    expect(await attemptRow(a.id)).toBeUndefined();
  });

  test('the same SMS again, and a second SMS of the attempt: stored once, answered once', async () => {
    const a = submitted();
    const text = await codeOf(a);
    const before = (await repliesTo(LEARNER_MOBILE)).length;
    await inbound(text, LEARNER_MOBILE, 'same-id');
    await inbound(text, LEARNER_MOBILE, 'same-id');
    await inbound(text);
    await inbound(await codeOf(a, key, 'hi'));
    expect(await resultsOf(a.id)).toHaveLength(1);
    expect((await repliesTo(LEARNER_MOBILE)).length).toBe(before + 1);
  });

  test('50 identical SMS at once: stored and scored once, answered once', async () => {
    const a = submitted();
    const text = await codeOf(a);
    const before = (await repliesTo(LEARNER_MOBILE)).length;
    await Promise.all(Array.from({ length: 50 }, (_, i) => inbound(text, LEARNER_MOBILE, `storm-${i}`)));
    expect(await resultsOf(a.id)).toHaveLength(1);
    expect(await h.deps.db.select().from(smsAnswer).where(eq(smsAnswer.attemptId, a.id))).toHaveLength(1);
    expect((await repliesTo(LEARNER_MOBILE)).length).toBe(before + 1);
  });

  test('in Hindi when the device was', async () => {
    const a = submitted();
    await inbound(await codeOf(a, key, 'hi'));
    expect((await repliesTo(LEARNER_MOBILE)).at(-1)!.body).toMatch(/^परीक्षा मित्र: उत्तर मिले। रसीद [0-9A-Z ]{19}। अंक 1\/10।$/);
  });
});

describe('when the data comes', () => {
  test('after the SMS, the same answers complete the attempt (time per question) without scoring it again', async () => {
    const a = submitted();
    await inbound(await codeOf(a));
    const [scored] = await resultsOf(a.id);
    const stored = (await attemptRow(a.id))!;
    const r = await push([{ newDocumentState: a, assumedMasterState: null }]);
    expect(r.status).toBe(200);
    expect(r.body).toEqual([]);
    const row = (await attemptRow(a.id))!;
    expect(row.answers).toEqual(a.answers);
    expect(row).toMatchObject({ lsq: 'q-gk-005', idx: 2, receipt: stored.receipt, submittedAt: stored.submittedAt });
    expect(await resultsOf(a.id)).toEqual([scored]);
    expect((await first(h.deps.db.select().from(smsAnswer).where(eq(smsAnswer.attemptId, a.id))))!.completedAt).not.toBeNull();
    // Pushed again: nothing more.
    expect((await push([{ newDocumentState: a, assumedMasterState: null }])).status).toBe(200);
    expect(await resultsOf(a.id)).toEqual([scored]);
  });

  test('after the SMS, different answers are refused (the SMS\'s attempt comes back) and flagged for staff', async () => {
    const a = submitted();
    await inbound(await codeOf(a));
    const stored = (await attemptRow(a.id))!;
    const changed = { ...a, answers: { ...a.answers, 'q-gk-003': { ua: 'c', status: 'ANSWERED' as const, t: 3000 } } };
    const r = await push([{ newDocumentState: changed, assumedMasterState: null }]);
    expect(r.status).toBe(200);
    expect(r.body).toHaveLength(1);
    expect(r.body[0]).toMatchObject({ id: a.id, status: 'SUBMITTED', answers: stored.answers });
    expect((await attemptRow(a.id))!.answers).toEqual(stored.answers);
    expect(await resultsOf(a.id)).toHaveLength(1);
    const flags = await flagsOf(a.id);
    expect(flags).toHaveLength(1);
    expect(flags[0]!.newValue).toMatchObject({ flag: 'UPLOAD_DIFFERS_FROM_SMS' });
  });

  test('before the SMS: the SMS changes nothing and is not answered', async () => {
    const a = submitted();
    expect((await push([{ newDocumentState: a, assumedMasterState: null }])).status).toBe(200);
    const [scored] = await resultsOf(a.id);
    const row = await attemptRow(a.id);
    const before = (await repliesTo(LEARNER_MOBILE)).length;
    await inbound(await codeOf(a));
    expect(await attemptRow(a.id)).toEqual(row);
    expect(await resultsOf(a.id)).toEqual([scored]);
    expect((await repliesTo(LEARNER_MOBILE)).length).toBe(before);
  });
});
