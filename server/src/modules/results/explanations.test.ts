import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MSG } from '@pm/protocol/messages';
import { examResultDocSchema } from '@pm/protocol/sync/exam-result';
import { type QsDetailDoc, qsDetailDocSchema } from '@pm/protocol/sync/qs-detail';
import { PROTOCOL_VERSION } from '@pm/protocol/version';
import { submittedAttempt } from '../../test/builders';
import { type Harness, startHarness } from '../../test/harness';

/*
 * Explanations and numerical questions through the real app (docs/exams.md "Explanations",
 * "Numerical questions"): an explanation goes exactly where the correct answers go, so a mock
 * test's reaches a device only in the learner's own result, after the submission; a practice
 * set carries it. A numerical answer is scored by the shared marking on the server.
 */

let h: Harness;
let learner: string;
let editor: string;
beforeAll(async () => {
  h = await startHarness();
  [learner, editor] = await Promise.all([h.tokenOf('learner'), h.tokenOf('editor')]);
});
afterAll(() => h.destroy());

const V = { 'x-sync-protocol': PROTOCOL_VERSION };
const pull = (token: string, collection: string, rev = 0) => h.request('GET', `/sync/v1/${collection}/pull?rev=${rev}&limit=1000`, { token, headers: V });
const push = (token: string, rows: unknown) => h.request('POST', '/sync/v1/test_summary/push', { token, headers: V, body: rows });

const EXPL_EN = '<p>Speed = distance ÷ time = 150 ÷ 2.5 = <strong>60</strong> km/h.</p>';
const EXPL_HI = '<p>चाल = दूरी ÷ समय = 150 ÷ 2.5 = 60 किमी/घंटा।</p>';

/** A question created and approved, as a published set needs it. */
async function approved(body: Record<string, unknown>): Promise<string> {
  const r = await h.request('POST', '/question', { token: editor, body: { d: '3', s: 'arithmetic', c: [], t: [], e: [], ...body } });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  for (const st of ['REVIEWED', 'APPROVED']) {
    const s = await h.request('PATCH', '/question/updateStatus', { token: editor, body: { id: r.body.id, st } });
    expect(s.status, JSON.stringify(s.body)).toBe(200);
  }
  return r.body.id;
}

async function publishedSet(isM: boolean, q: string[]): Promise<string> {
  const r = await h.request('PATCH', '/question/updateQuestionSet', {
    token: editor,
    body: { l: isM ? 'Numerical mock' : 'Numerical practice', mpq: 4, tm: 0, nm: 1, dur: 30, isM, free: true, inst: '', q, sections: {}, pts: Math.floor(Date.now() / 60_000) - 1 },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.id;
}

describe('a numerical question with an explanation', () => {
  let num: string;
  let mcq: string;
  let mock: string;

  beforeAll(async () => {
    num = await approved({
      q: '<p>A car covers 150 km in 2.5 hours. Its average speed in km/h is ____.</p>',
      qt: 'n',
      ops: {},
      ca: ['60:0.5'],
      expl: `${EXPL_EN}<script>alert(1)</script>`,
      trans: { hi: { q: '<p>एक कार 2.5 घंटे में 150 किमी चलती है। उसकी औसत चाल ____ किमी/घंटा है।</p>', ops: {}, ca: ['60:0.5'], expl: EXPL_HI } },
    });
    mcq = await approved({
      q: '<p>Which is a prime number?</p>',
      qt: 'mcq1',
      ops: { a: '<p>9</p>', b: '<p>11</p>' },
      ca: ['b'],
      expl: '<p>11 has no divisors but 1 and itself.</p>',
      trans: {},
    });
    mock = await publishedSet(true, [num, mcq]);
  });

  test('the explanation is stored sanitised and read back by the editor, in every language', async () => {
    const r = await h.request('GET', `/question/${num}`, { token: editor });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ qt: 'n', ca: ['60:0.5'], expl: EXPL_EN, trans: { hi: { expl: EXPL_HI } } });
  });

  test("a mock test's explanation is not on the device before the submission, nor readable over the API", async () => {
    const details: QsDetailDoc[] = (await pull(learner, 'qs_detail')).body.documents.map((d: unknown) => qsDetailDocSchema.parse(d));
    const detail = details.find((d) => d.id === mock)!;
    expect(detail.questions.map((q) => q.id).sort()).toEqual([num, mcq].sort());
    for (const q of detail.questions) {
      expect(q.ca).toBeUndefined();
      expect(q.expl).toBeUndefined();
      for (const tr of Object.values(q.trans)) expect(tr.expl).toBeUndefined();
    }
    expect(JSON.stringify(detail)).not.toContain('km/h.');
    const byId = await h.request('GET', `/question/${num}`, { token: learner });
    expect(byId.status).toBe(200);
    expect(byId.body.data).toMatchObject({ ca: [], expl: '' });
    expect(byId.body.data.trans.hi.expl).toBeUndefined();
    const list = await h.request('GET', `/question?qids=${num},${mcq}`);
    expect(JSON.stringify(list.body)).not.toContain('km/h.');
  });

  test('after the submission the result carries it in every language, and the server scores the number typed', async () => {
    const cp = (await pull(learner, 'exam_result')).body.checkpoint.rev;
    const doc = submittedAttempt('expl', {
      qsid: mock,
      answers: { [num]: { ua: '६०.४', status: 'ANSWERED' }, [mcq]: { ua: 'a', status: 'ANSWERED' } },
    });
    const r = await push(learner, [{ newDocumentState: doc, assumedMasterState: null }]);
    expect(r.status).toBe(200);
    expect(r.body).toEqual([]);
    const docs = (await pull(learner, 'exam_result', cp)).body.documents;
    expect(docs).toHaveLength(1);
    const res = examResultDocSchema.parse(docs[0]);
    // 60.4 is within 60 ± 0.5: +4; the wrong option: −1.
    expect(res.userRes.wos).toEqual({ [num]: { ua: '६०.४', mg: 4 }, [mcq]: { ua: 'a', mg: -1 } });
    expect(res.totalMarks).toBe(3);
    const q = res.questions.find((x) => x.id === num)!;
    expect(q).toMatchObject({ qt: 'n', ca: ['60:0.5'], expl: EXPL_EN, trans: { hi: { expl: EXPL_HI } } });
    expect(res.questions.find((x) => x.id === mcq)?.expl).toBe('<p>11 has no divisors but 1 and itself.</p>');
  });

  test('submitUserResponse scores numbers by the same rule: outside the tolerance is wrong, the boundary right', async () => {
    const right = await h.request('POST', '/question/submitUserResponse', { token: learner, body: { qsid: mock, ures: { [num]: '59.5' } } });
    expect(right.status, JSON.stringify(right.body)).toBe(200);
    expect(right.body.userRes.wos[num]).toEqual({ ua: '59.5', mg: 4 });
    const wrong = await h.request('POST', '/question/submitUserResponse', { token: learner, body: { qsid: mock, ures: { [num]: '60.51' } } });
    expect(wrong.body.userRes.wos[num]).toEqual({ ua: '60.51', mg: -1 });
    expect(wrong.body.questions.find((x: { id: string }) => x.id === num).expl).toBe(EXPL_EN);
  });

  test('a practice set carries the explanation with its answers', async () => {
    const own = await approved({ q: '<p>2.5 × 4 = ?</p>', qt: 'n', ops: {}, ca: ['10'], expl: '<p>2.5 × 4 = 10</p>', trans: {} });
    const practice = await publishedSet(false, [own]);
    const detail = (await pull(learner, 'qs_detail')).body.documents.find((d: { id: string }) => d.id === practice);
    expect(detail.questions[0]).toMatchObject({ id: own, qt: 'n', ca: ['10'], expl: '<p>2.5 × 4 = 10</p>' });
  });

  test('a numerical answer that is no number, tolerance or range is refused, naming the rule, and nothing is stored', async () => {
    const before = (await h.request('GET', '/question/getQuestionsCount', { token: editor })).body.count;
    for (const ca of [['sixty'], ['60:-1'], ['5..1'], ['60', '1,5']]) {
      const r = await h.request('POST', '/question', { token: editor, body: { q: '<p>Speed?</p>', qt: 'n', ops: {}, ca, trans: {} } });
      expect(r.status).toBe(400);
      expect(r.body.msg).toContain(MSG.numericAnswerInvalid);
    }
    expect((await h.request('GET', '/question/getQuestionsCount', { token: editor })).body.count).toBe(before);
  });
});
