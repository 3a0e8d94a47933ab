import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MSG } from '@pm/protocol/messages';
import { PROTOCOL_VERSION } from '@pm/protocol/version';
import type { QuestionSetDoc } from '@pm/protocol/sync/question-set';
import { activityLog, questionSet } from '../../db/schema';
import { first } from '../../db/transaction';
import { type Harness, startHarness } from '../../test/harness';

/*
 * Question sets through the HTTP app (docs/authoring.md "Total marks", "Publishing and
 * unpublishing", "Set texts in two languages"): totals are the questions × marks, a save never
 * takes a set away from learners, and titles, instructions and section names come in Hindi too.
 */

let h: Harness;
let editor: string;
let learner: string;
beforeAll(async () => {
  h = await startHarness();
  [editor, learner] = await Promise.all([h.tokenOf('editor'), h.tokenOf('learner')]);
});
afterAll(() => h.destroy());

const V = { 'x-sync-protocol': PROTOCOL_VERSION };
const minuteNow = () => Math.floor(Date.now() / 60_000);
const body = (over: Record<string, unknown> = {}) => ({
  l: 'Two sections at 2 marks',
  mpq: 2,
  tm: 0,
  nm: 0.5,
  dur: 20,
  isM: false,
  inst: '<p>Read carefully</p>',
  q: [],
  sections: {
    'General Knowledge': { q: ['q-gk-001', 'q-gk-003', 'q-gk-005'], mpq: 2, tm: 0, nm: 0.5, o: 1 },
    Arithmetic: { q: ['q-arithmetic-001', 'q-arithmetic-003', 'q-arithmetic-005'], mpq: 2, tm: 0, nm: 0.5, o: 2 },
  },
  pts: minuteNow() - 1,
  ...over,
});
const save = (b: unknown, token = editor) => h.request('PATCH', '/question/updateQuestionSet', { token, body: b });
const unpublish = (b: unknown, token?: string) => h.request('PATCH', '/question/unpublishQuestionSet', { ...(token && { token }), body: b });
const setRow = async (id: string) => (await first(h.deps.db.select().from(questionSet).where(eq(questionSet.id, id))))!;
const counts = async () => ({ sets: (await h.deps.db.select().from(questionSet)).length, log: (await h.deps.db.select().from(activityLog)).length });
async function pulledSet(id: string): Promise<QuestionSetDoc | undefined> {
  const r = await h.request('GET', '/sync/v1/question_set/pull?rev=0&limit=1000', { token: learner, headers: V });
  expect(r.status).toBe(200);
  return (r.body.documents as QuestionSetDoc[]).find((d) => d.id === id);
}
const learnerList = async () => ((await h.request('GET', '/question/getQuestionSetList', { token: learner })).body.data as { id: string }[]).map((s) => s.id);

describe('total marks are the questions × marks per question', () => {
  test('a set saved with its totals left at 0 reaches learners with the totals its questions give, never 0', async () => {
    const r = await save(body());
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const id = r.body.id as string;
    // What the editor typed is kept (0: "count them")…
    expect(r.body.data).toMatchObject({ tm: 0, sections: { 'General Knowledge': { tm: 0 }, Arithmetic: { tm: 0 } } });
    // …and what a device gets is counted: 3 × 2 per section, 12 in all (the result's "out of").
    const doc = await pulledSet(id);
    expect(doc).toMatchObject({ _deleted: false, total: 12, count: 6, tm: 0, sections: { 'General Knowledge': { n: 3, tm: 6 }, Arithmetic: { n: 3, tm: 6 } } });
    const detail = (await h.request('GET', '/sync/v1/qs_detail/pull?rev=0&limit=1000', { token: learner, headers: V })).body.documents.find((d: { id: string }) => d.id === id);
    expect(detail.sections['General Knowledge'].tm).toBe(6);
    const submitted = await h.request('POST', '/question/submitUserResponse', { token: learner, body: { qsid: id, ures: { 'q-gk-001': 'a' } } });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    expect(submitted.body.total).toBe(doc!.total);
  });

  test('the demo sets and sets stored with totals of 0 are counted on read (no migration needed)', async () => {
    expect(await pulledSet('qs-mock-ssc-1')).toMatchObject({ tm: 0, total: 48, sections: { 'General Knowledge': { tm: 16 }, Reasoning: { tm: 16 } } });
    // A set stored before the rule, its totals at 0 (as the issue found it).
    const id = (await save(body({ l: 'Stored with zeros' }))).body.id as string;
    await h.deps.db.update(questionSet).set({ tm: 0 }).where(eq(questionSet.id, id));
    expect((await pulledSet(id))?.total).toBe(12);
    expect((await pulledSet('qs-hindi-sub'))).toMatchObject({ total: 30, sections: { Hindi: { tm: 0, sub: { Grammar: { tm: 7 }, Vocabulary: { tm: 11 } } }, Reasoning: { tm: 12 } } });
  });

  test.each([
    ['a section', { sections: { 'General Knowledge': { q: ['q-gk-001', 'q-gk-003'], mpq: 2, tm: 10, o: 1 } } }, 'Total marks of General Knowledge section should be 4 (questions × marks per question: 2 × 2), or 0 to have them counted'],
    ['the main part', { q: ['q-gk-001'], tm: 5, sections: {} }, 'Total marks of Main section should be 2 (questions × marks per question: 1 × 2), or 0 to have them counted'],
    [
      'a sub-section',
      { sections: { Hindi: { ss: true, sub: { Grammar: { q: ['q-hindi-001'], mpq: 1, tm: 3 } } } } },
      'Total marks of Grammar section should be 1 (questions × marks per question: 1 × 1), or 0 to have them counted',
    ],
  ])('a typed total of %s that disagrees with its questions is refused (400 naming the part), nothing stored', async (_, over, msg) => {
    const before = await counts();
    const r = await save(body(over));
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ success: false, code: 'BAD_REQUEST', msg });
    expect(await counts()).toEqual(before);
  });

  test('a total typed as the questions give it is taken; a draft may keep a larger target, but cannot be published with it', async () => {
    expect((await save(body({ sections: { GK: { q: ['q-gk-001', 'q-gk-003'], mpq: 2, tm: 4, o: 1 } } }))).status).toBe(201);
    const draft = await save(body({ draft: true, sections: { GK: { q: ['q-gk-001'], mpq: 2, tm: 10, o: 1 } } }));
    expect(draft.status).toBe(201);
    const id = draft.body.id as string;
    const published = await save(body({ id, draft: false, sections: { GK: { q: ['q-gk-001'], mpq: 2, tm: 10, o: 1 } } }));
    expect(published.status).toBe(400);
    expect(published.body.msg).toMatch(/^Total marks of GK section should be 2/);
    expect(await setRow(id)).toMatchObject({ draft: true, published: false });
  });
});

describe('publishing and unpublishing', () => {
  test('an editor saves a published set: it stays published and learners keep it', async () => {
    const id = (await save(body({ l: 'Live set' }))).body.id as string;
    expect(await learnerList()).toContain(id);
    const edited = await save(body({ id, l: 'Live set, edited', dur: 25 }));
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.data).toMatchObject({ l: 'Live set, edited', draft: false, published: true });
    expect(await learnerList()).toContain(id);
    expect(await pulledSet(id)).toMatchObject({ l: 'Live set, edited', _deleted: false });
  });

  test('a save asking to make a published set a draft is refused (409): only Unpublish takes it from learners', async () => {
    const id = (await save(body({ l: 'Kept live' }))).body.id as string;
    const before = { ...(await counts()), row: await setRow(id) };
    const r = await save(body({ id, l: 'Kept live', draft: true }));
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ success: false, code: 'CONFLICT', msg: MSG.setPublishedSaveKeeps });
    expect({ ...(await counts()), row: await setRow(id) }).toEqual(before);
    expect(await learnerList()).toContain(id);
  });

  test('Unpublish: editors only; the set becomes a draft, leaves learners (replicated as deleted) and keeps its results; published again by a save', async () => {
    const id = (await save(body({ l: 'To unpublish' }))).body.id as string;
    expect((await h.request('POST', '/question/submitUserResponse', { token: learner, body: { qsid: id, ures: {} } })).status).toBe(200);
    const before = await counts();
    expect((await unpublish({ id })).status).toBe(401);
    expect((await unpublish({ id }, learner)).status).toBe(403);
    expect(await counts()).toEqual(before);
    expect(await learnerList()).toContain(id);

    const r = await unpublish({ id }, editor);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ success: true, id, msg: MSG.questionSetUnpublished, data: { draft: true, published: false, taken: 1 } });
    expect(await learnerList()).not.toContain(id);
    expect(await pulledSet(id)).toMatchObject({ _deleted: true });
    expect((await h.request('GET', `/question/getQuestionSet/${id}`, { token: learner })).status).toBe(404);
    const log = await h.deps.db.select().from(activityLog).where(eq(activityLog.entityId, id));
    expect(log.at(-1)).toMatchObject({ actionType: 'UPDATE' });
    // The learner's result at it stays.
    expect((await h.request('GET', `/question/getExamResult?qsid=${id}`, { token: learner })).status).toBe(200);

    // Twice: 409; an unknown set: 404; no id: 400 naming it. Nothing changes.
    const after = { ...(await counts()), row: await setRow(id) };
    expect((await unpublish({ id }, editor)).body).toMatchObject({ success: false, code: 'CONFLICT', msg: MSG.questionSetNotPublished });
    expect((await unpublish({ id: 'no-such-set' }, editor)).status).toBe(404);
    const noId = await unpublish({}, editor);
    expect(noId.status).toBe(400);
    expect(noId.body.msg).toBe(`id ${MSG.fieldRequired}`);
    expect({ ...(await counts()), row: await setRow(id) }).toEqual(after);

    // Publish is a save with draft false.
    expect((await save(body({ id, l: 'To unpublish', draft: false }))).status).toBe(200);
    expect(await learnerList()).toContain(id);
  });
});

describe('set texts in two languages', () => {
  const hindi = {
    trans: { hi: { l: 'दो खंडों का सेट', inst: '<p>ध्यान से पढ़ें</p><script>alert(1)</script>' } },
    sections: {
      'General Knowledge': { q: ['q-gk-001'], mpq: 2, tm: 0, o: 1, names: { hi: 'सामान्य ज्ञान' } },
      Hindi: { ss: true, o: 2, names: { hi: 'हिंदी' }, sub: { Grammar: { q: ['q-hindi-001'], mpq: 1, tm: 0, names: { hi: ' व्याकरण ' } } } },
    },
  };

  test('an editor writes the title, instructions and section names in Hindi; learners get them in the set document', async () => {
    const r = await save(body(hindi));
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const id = r.body.id as string;
    expect(r.body.data.trans).toEqual({ hi: { l: 'दो खंडों का सेट', inst: '<p>ध्यान से पढ़ें</p>' } });
    expect(r.body.data.sections.Hindi).toMatchObject({ names: { hi: 'हिंदी' }, sub: { Grammar: { names: { hi: 'व्याकरण' } } } });
    expect((await h.request('GET', `/question/getQuestionSet/${id}`, { token: learner })).body.data.trans.hi.l).toBe('दो खंडों का सेट');
    expect(await pulledSet(id)).toMatchObject({
      l: 'Two sections at 2 marks',
      trans: { hi: { l: 'दो खंडों का सेट', inst: '<p>ध्यान से पढ़ें</p>' } },
      sections: { 'General Knowledge': { names: { hi: 'सामान्य ज्ञान' } }, Hindi: { names: { hi: 'हिंदी' }, sub: { Grammar: { names: { hi: 'व्याकरण' } } } } },
    });
  });

  test('old payloads without translations stay valid; the demo sets come with Hindi', async () => {
    const r = await save(body());
    expect(r.status).toBe(201);
    expect(r.body.data.trans).toEqual({});
    expect(await pulledSet('qs-mock-ssc-1')).toMatchObject({ trans: { hi: { l: expect.stringContaining('मॉक टेस्ट') } }, sections: { Reasoning: { names: { hi: 'तर्कशक्ति' } } } });
  });

  test.each([
    ['English as a translation', { trans: { en: { l: 'Again' } } }, 'Unknown field: en'],
    ['a language the sets do not offer', { trans: { fr: { l: 'Ensemble' } } }, 'Unknown field: fr'],
    ['a Hindi title too long', { trans: { hi: { l: 'क'.repeat(201) } } }, `trans.hi.l ${MSG.fieldTooLong}`],
    ['a section name too long', { sections: { GK: { q: [], mpq: 1, tm: 0, names: { hi: 'क'.repeat(81) } } } }, `sections.GK.names.hi ${MSG.fieldTooLong}`],
  ])('%s is refused (400 naming the field), nothing stored', async (_, over, msg) => {
    const before = await counts();
    const r = await save(body(over));
    expect(r.status).toBe(400);
    if (typeof msg === 'string') expect(r.body.msg).toBe(msg);
    else expect(r.body.msg).toMatch(msg);
    expect(await counts()).toEqual(before);
  });
});
