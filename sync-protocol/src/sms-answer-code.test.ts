import { describe, expect, test } from 'vitest';
import { receiptPayload } from './receipt';
import {
  decodeAnswers,
  fromSmsText,
  packAnswerCode,
  readAnswerCode,
  sameAsCode,
  SMS_ALPHABET,
  SMS_ANSWER_PREFIX,
  type SmsAttempt,
  type SmsQuestion,
  smsParts,
  toSmsText,
  verifyAnswerCode,
} from './sms-answer-code';

const KEY = Uint8Array.from({ length: 16 }, (_, i) => i + 1);
const OTHER_KEY = Uint8Array.from({ length: 16 }, (_, i) => 200 - i);
const ABCD = ['a', 'b', 'c', 'd'];
const ID = '3f1c2a9e-7b4d-4c1e-9a2f-5d6e7f8a9b0c';

/** A small deterministic generator, so that a failure can be replayed. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const choiceSet = (n: number): SmsQuestion[] => Array.from({ length: n }, (_, i) => ({ id: `q${i}`, qt: 'mcq1', options: ABCD }));

function attemptOf(answers: SmsAttempt['answers'], over: Partial<SmsAttempt> = {}): SmsAttempt {
  return { id: ID, qsid: 'qs-mock-ssc-1', st: 1_795_330_000_123, submittedAt: 1_795_333_440_456, elapsed: 3_400_000, answers, ...over };
}

/** Every question answered with a choice (the longest a set of choice questions packs to). */
function answeredAll(questions: SmsQuestion[], rnd = random(7)): SmsAttempt['answers'] {
  return Object.fromEntries(questions.map((q) => [q.id, { ua: q.options[Math.floor(rnd() * q.options.length)]!, status: 'ANSWERED' as const }]));
}

/** Every type and every state, at random. */
function mixed(n: number, rnd: () => number): { questions: SmsQuestion[]; answers: SmsAttempt['answers'] } {
  const types = ['mcq1', 'mcq2', 'f', 'n', 's'] as const;
  const questions: SmsQuestion[] = [];
  const answers: SmsAttempt['answers'] = {};
  for (let i = 0; i < n; i++) {
    const qt = types[Math.floor(rnd() * types.length)]!;
    const options = qt === 'mcq1' || qt === 'mcq2' ? ABCD.slice(0, 2 + Math.floor(rnd() * 3)) : [];
    const q: SmsQuestion = { id: `q-${i}`, qt, options };
    questions.push(q);
    const state = Math.floor(rnd() * 5);
    if (state === 0) continue;
    if (state === 1) answers[q.id] = { ua: null, status: 'VISITED' };
    else if (state === 2) answers[q.id] = { ua: null, status: 'MARKED' };
    else {
      const status = state === 3 ? 'ANSWERED' : 'ANSWERED_MARKED';
      let ua: string | string[];
      if (qt === 'mcq1') ua = options[Math.floor(rnd() * options.length)]!;
      else if (qt === 'mcq2') {
        ua = options.filter(() => rnd() < 0.5);
        if (ua.length === 0) ua = [options[0]!];
      } else ua = qt === 'n' ? String(Math.floor(rnd() * 1000) / 10) : rnd() < 0.5 ? 'नई दिल्ली' : 'Delhi';
      answers[q.id] = { ua, status, t: 1000 };
    }
  }
  return { questions, answers };
}

/** Everything the server rebuilds from a code, as a push would carry it (without `t`). */
async function roundTrip(a: SmsAttempt, questions: SmsQuestion[]) {
  const packed = await packAnswerCode(a, questions, KEY);
  expect(packed).not.toBeNull();
  const env = readAnswerCode(packed!.text)!;
  expect(env).not.toBeNull();
  expect(await verifyAnswerCode(env, a.qsid, questions, KEY)).toBe(true);
  const answers = decodeAnswers(env, questions)!;
  expect(answers).not.toBeNull();
  return { packed: packed!, env, answers };
}

const withoutTime = (answers: SmsAttempt['answers']) => Object.fromEntries(Object.entries(answers).map(([k, v]) => [k, { ua: v.ua, status: v.status }]));

describe('the alphabet', () => {
  test('is 64 characters of the GSM-7 basic set at their ASCII codes, without `_`', () => {
    expect(new Set(SMS_ALPHABET).size).toBe(64);
    expect(SMS_ALPHABET).toMatch(/^[A-Za-z0-9.-]{64}$/);
  });

  test('bytes round trip; a stray character, a lost character and set padding bits are refused', () => {
    const rnd = random(1);
    for (let n = 0; n < 40; n++) {
      const bytes = Uint8Array.from({ length: n }, () => Math.floor(rnd() * 256));
      expect(fromSmsText(toSmsText(bytes))).toEqual(bytes);
    }
    expect(fromSmsText('AB_C')).toBeNull();
    expect(fromSmsText('ABCDE')).toBeNull();
    expect(fromSmsText('AQ')).toEqual(Uint8Array.of(1));
    expect(fromSmsText('AR')).toBeNull();
  });
});

describe('packing', () => {
  test('round trips 1 to 200 questions of every type and state, receipt and all', async () => {
    for (let n = 1; n <= 200; n += n < 20 ? 1 : 13) {
      const { questions, answers } = mixed(n, random(n));
      const a = attemptOf(answers);
      const { packed, env, answers: back } = await roundTrip(a, questions);
      expect(env).toMatchObject({ attemptId: a.id, submittedAt: a.submittedAt, st: a.st, elapsed: a.elapsed, count: n });
      if (packed.textsFollow) {
        expect(sameAsCode(back, a.answers)).toBe(true);
        continue;
      }
      expect(back).toEqual(withoutTime(answers));
      // What the server rebuilds has the receipt the device computed at submit.
      expect(receiptPayload({ id: env.attemptId, qsid: a.qsid, submittedAt: env.submittedAt, answers: back as SmsAttempt['answers'] })).toBe(receiptPayload(a));
      expect(packed.parts).toBeLessThanOrEqual(3);
    }
  });

  test('every state of a choice question and of a written one', async () => {
    const questions: SmsQuestion[] = [
      { id: 'a', qt: 'mcq1', options: ABCD },
      { id: 'b', qt: 'mcq1', options: ABCD },
      { id: 'c', qt: 'mcq1', options: ABCD },
      { id: 'd', qt: 'mcq1', options: ABCD },
      { id: 'e', qt: 'mcq2', options: ABCD },
      { id: 'f', qt: 'mcq2', options: ABCD },
      { id: 'g', qt: 'f', options: [] },
      { id: 'h', qt: 'n', options: [] },
      { id: 'i', qt: 's', options: [] },
      { id: 'j', qt: 'f', options: [] },
      { id: 'k', qt: 'mcq1', options: ABCD },
    ];
    const answers: SmsAttempt['answers'] = {
      b: { ua: null, status: 'VISITED' },
      c: { ua: null, status: 'MARKED' },
      d: { ua: 'd', status: 'ANSWERED_MARKED' },
      e: { ua: ['a', 'c', 'd'], status: 'ANSWERED' },
      f: { ua: ['b'], status: 'ANSWERED_MARKED' },
      g: { ua: 'Jawaharlal Nehru', status: 'ANSWERED' },
      h: { ua: '-12.5', status: 'ANSWERED_MARKED' },
      i: { ua: 'पानी H₂O है', status: 'ANSWERED' },
      j: { ua: null, status: 'MARKED' },
      k: { ua: 'a', status: 'ANSWERED' },
    };
    const { answers: back, packed } = await roundTrip(attemptOf(answers), questions);
    expect(back).toEqual(answers);
    expect(packed.textsFollow).toBe(false);
  });

  test('the language of the reply travels with the code', async () => {
    const qs = choiceSet(2);
    const hi = await packAnswerCode(attemptOf({}), qs, KEY, 'hi');
    expect(readAnswerCode(hi!.text)!.lang).toBe('hi');
    expect(readAnswerCode((await packAnswerCode(attemptOf({}), qs, KEY))!.text)!.lang).toBe('en');
  });

  test('an id that is not a UUID, no elapsed, a start after the submission', async () => {
    for (const over of [{ id: 'attempt-0001' }, { id: '0123456789abcdef0123456789abcdef' }, { elapsed: undefined }, { st: 1_795_333_440_999 }]) {
      const { env } = await roundTrip(attemptOf({ q0: { ua: 'b', status: 'ANSWERED' } }, over), choiceSet(3));
      const a = attemptOf({}, over);
      expect(env).toMatchObject({ attemptId: a.id, st: a.st, elapsed: a.elapsed });
    }
  });

  test('100 choice answers fit one message; 200 take two', async () => {
    const hundred = choiceSet(100);
    const one = await packAnswerCode(attemptOf(answeredAll(hundred)), hundred, KEY);
    expect(one!.text.length).toBe(116);
    expect(one!.parts).toBe(1);
    // Multiple choice with four options each, all marked for review: still one.
    const multi = hundred.map((q) => ({ ...q, qt: 'mcq2' as const }));
    const many = await packAnswerCode(attemptOf(Object.fromEntries(multi.map((q) => [q.id, { ua: ['a', 'd'], status: 'ANSWERED_MARKED' as const }]))), multi, KEY);
    expect(many!.text.length).toBeLessThanOrEqual(160);
    const twoHundred = choiceSet(200);
    const two = await packAnswerCode(attemptOf(answeredAll(twoHundred)), twoHundred, KEY);
    expect(two!.text.length).toBe(175);
    expect(two!.parts).toBe(2);
    expect(smsParts('x'.repeat(160))).toBe(1);
    expect(smsParts('x'.repeat(161))).toBe(2);
    expect(smsParts('x'.repeat(459))).toBe(3);
  });

  test('written answers beyond three parts follow by data; the choices still go', async () => {
    const questions: SmsQuestion[] = [...choiceSet(50), { id: 'essay', qt: 's', options: [] }];
    const answers: SmsAttempt['answers'] = { ...answeredAll(choiceSet(50)), essay: { ua: 'लंबा उत्तर '.repeat(60), status: 'ANSWERED' as const } };
    const { packed, env, answers: back } = await roundTrip(attemptOf(answers), questions);
    expect(packed.textsFollow).toBe(true);
    expect(env.textsFollow).toBe(true);
    expect(packed.parts).toBe(1);
    expect(back.essay).toEqual({ ua: undefined, status: 'ANSWERED' });
    expect(sameAsCode(back, answers)).toBe(true);
    expect(sameAsCode(back, { ...answers, q0: { ua: 'd', status: 'ANSWERED' } })).toBe(answers.q0!.ua === 'd');
  });

  test('what the test screen never writes is not packed', async () => {
    const qs = choiceSet(2);
    expect(await packAnswerCode(attemptOf({ q0: { ua: 'z', status: 'ANSWERED' } }), qs, KEY)).toBeNull();
    expect(await packAnswerCode(attemptOf({ q0: { ua: 'a', status: 'VISITED' } }), qs, KEY)).toBeNull();
    expect(await packAnswerCode(attemptOf({ other: { ua: 'a', status: 'ANSWERED' } }), qs, KEY)).toBeNull();
    expect(await packAnswerCode(attemptOf({}, { submittedAt: null }), qs, KEY)).toBeNull();
    const multi: SmsQuestion[] = [{ id: 'm', qt: 'mcq2', options: ABCD }];
    expect(await packAnswerCode(attemptOf({ m: { ua: ['c', 'a'], status: 'ANSWERED' } }), multi, KEY)).toBeNull();
  });
});

describe('the MAC', () => {
  const qs = choiceSet(20);
  const a = attemptOf(answeredAll(qs));

  test('another key, another set, or the set changed since: refused', async () => {
    const env = readAnswerCode((await packAnswerCode(a, qs, KEY))!.text)!;
    expect(await verifyAnswerCode(env, a.qsid, qs, OTHER_KEY)).toBe(false);
    expect(await verifyAnswerCode(env, 'qs-other', qs, KEY)).toBe(false);
    const changed = qs.map((q, i) => (i === 3 ? { ...q, options: ['a', 'b', 'c', 'e'] } : q));
    expect(await verifyAnswerCode(env, a.qsid, changed, KEY)).toBe(false);
  });

  test('any changed character is refused; a lost one does not read', async () => {
    const text = (await packAnswerCode(a, qs, KEY))!.text;
    const body = text.slice(SMS_ANSWER_PREFIX.length);
    for (let i = 0; i < body.length; i++) {
      const ch = SMS_ALPHABET[(SMS_ALPHABET.indexOf(body[i]!) + 1) % 64]!;
      const env = readAnswerCode(SMS_ANSWER_PREFIX + body.slice(0, i) + ch + body.slice(i + 1));
      if (env) expect(await verifyAnswerCode(env, a.qsid, qs, KEY)).toBe(false);
    }
    for (const cut of [1, 2, 4, 10]) {
      const env = readAnswerCode(text.slice(0, -cut));
      if (env) expect(await verifyAnswerCode(env, a.qsid, qs, KEY)).toBe(false);
    }
    expect(readAnswerCode('PM1')).toBeNull();
    expect(readAnswerCode('hello')).toBeNull();
  });

  test('white space where a phone broke the parts is no change', async () => {
    const text = (await packAnswerCode(a, qs, KEY))!.text;
    const broken = `${text.slice(0, 50)}\n${text.slice(50)} `;
    expect(await verifyAnswerCode(readAnswerCode(broken)!, a.qsid, qs, KEY)).toBe(true);
  });
});
