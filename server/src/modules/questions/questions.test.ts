import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PROTOCOL_VERSION } from '@pm/protocol/version';
import { activityLog, question, questionSet } from '../../db/schema';
import { first } from '../../db/transaction';
import { type Harness, startHarness } from '../../test/harness';
import { mcqQuestion } from '../../test/builders';

let h: Harness;
let editor: string;
let learner: string;
beforeAll(async () => {
  h = await startHarness();
  [editor, learner] = await Promise.all([h.tokenOf('editor'), h.tokenOf('learner')]);
});
afterAll(() => h.destroy());

const V = { 'x-sync-protocol': PROTOCOL_VERSION };
const pull = (collection: string, rev = 0) => h.request('GET', `/sync/v1/${collection}/pull?rev=${rev}&limit=1000`, { token: learner, headers: V });
const questionCount = async () => (await h.deps.db.select().from(question)).length;
const setCount = async () => (await h.deps.db.select().from(questionSet)).length;
const logCount = async () => (await h.deps.db.select().from(activityLog)).length;
const logOf = async (entityId: string) => await h.deps.db.select().from(activityLog).where(eq(activityLog.entityId, entityId));
const minuteNow = () => Math.floor(Date.now() / 60_000);

const mcq = mcqQuestion;

/** A write that must be refused: status, message, and nothing written (rows and activity log). */
async function refused(method: string, url: string, body: unknown, status: number, msg: string | RegExp) {
  const before = [await questionCount(), await setCount(), await logCount()];
  const r = await h.request(method, url, { token: editor, body });
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(r.body.success).toBe(false);
  if (typeof msg === 'string') expect(r.body.msg).toBe(msg);
  else expect(r.body.msg).toMatch(msg);
  expect([await questionCount(), await setCount(), await logCount()]).toEqual(before);
}

describe('permissions', () => {
  const routes: [string, string, unknown?][] = [
    // Listing and filtering the bank is authoring; reading by id is not (see below).
    ['GET', '/question'],
    ['GET', '/question?qt=mcq1'],
    ['GET', '/question?qids=q-gk-001&s=gk'],
    ['GET', '/question/getQuestionsCount'],
    ['POST', '/question', mcq()],
    ['PATCH', '/question', { ...mcq(), id: 'q-gk-001', version: 1 }],
    ['DELETE', '/question/q-gk-001'],
    ['PATCH', '/question/updateQuestionSet', { l: 'x', q: ['q-gk-001'], pts: 0 }],
    ['DELETE', '/question/deleteQuestionSet/qs-practice-gk'],
  ];
  test.each(routes)('%s %s: 401 without a login, 403 for a learner, and nothing changes', async (method, url, body) => {
    const before = [await questionCount(), await setCount(), await logCount()];
    const anon = await h.request(method, url, { body });
    expect(anon.status).toBe(401);
    const r = await h.request(method, url, { token: learner, body });
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({ success: false, msg: 'Permission denied' });
    expect([await questionCount(), await setCount(), await logCount()]).toEqual(before);
  });
});

describe('questions', () => {
  test('POST creates a question: {success, id, msg}, activity log with the new value, readable by id', async () => {
    const r = await h.request('POST', '/question', { token: editor, body: mcq() });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ success: true, id: expect.any(String), msg: 'Question created successfully' });
    const got = await h.request('GET', `/question/${r.body.id}`, { token: editor });
    expect(got.status).toBe(200);
    expect(got.body.data).toMatchObject({ id: r.body.id, qt: 'mcq1', ca: ['b'], st: 'PENDING', s: 'gk', trans: { hi: { ca: ['b'] } } });
    const log = await logOf(r.body.id);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ actionType: 'CREATE', entityAffected: 'question', personId: 'demo-editor', oldValue: null });
    expect(log[0]!.newValue).toMatchObject({ id: r.body.id, ca: ['b'] });
  });

  test.each([
    ['no correct answer', { ca: [] }, 'Correct answer is missing.'],
    ['a blank correct answer', { ca: [' '] }, 'Correct answer is missing.'],
    ['mcq1 with two correct options', { ca: ['a', 'b'] }, 'Correct answer is missing.'],
    ['a correct key that is no option', { ca: ['e'] }, 'Correct answer is missing.'],
    ['a blank option', { ops: { a: '<p> </p>', b: 'x' } }, 'Option cannot be blank'],
    ['an option of nothing but &nbsp;', { ops: { a: '<p>&nbsp;</p>', b: 'x' } }, 'Option cannot be blank'],
    ['an option that is only a script', { ops: { a: '<script>alert(1)</script>', b: 'Mars' }, trans: {} }, 'Option cannot be blank'],
    ['an English translation', { trans: { en: { q: 'x', ops: { a: 'a', b: 'b', c: 'c', d: 'd' }, ca: ['b'] } } }, 'Selected language should not be english'],
    ['a question that sanitises to nothing', { q: '<script>alert(1)</script>' }, 'Question cannot be blank'],
    ['options on a fill-in question', { qt: 'f', ca: ['Mars'] }, 'Only multiple-choice questions have options'],
    ['an unknown type', { qt: 'mcq3' }, /qt|Invalid/],
    ['an unknown tag', { s: 'astrology' }, 'Tag does not exist: astrology'],
    ['an unknown field', { owner: 'demo-admin' }, 'Unknown field: owner'],
  ])('POST refuses %s with its message and writes nothing', async (_n, over, msg) => {
    await refused('POST', '/question', mcq(over), 400, msg);
  });

  test('malformed JSON and a wrong content type are 400 and write nothing', async () => {
    const before = await questionCount();
    expect((await h.request('POST', '/question', { token: editor, rawBody: '{"q":' })).status).toBe(400);
    expect((await h.request('POST', '/question', { token: editor, rawBody: 'q=1', headers: { 'content-type': 'text/plain' } })).status).toBe(400);
    expect(await questionCount()).toBe(before);
  });

  test('rich text is sanitised: scripts, handlers and url() styles go, formatting, tables, images and KaTeX spans stay', async () => {
    const q =
      '<p onclick="steal()">H<sub>2</sub>O and x<sup>2</sup> <b>bold</b><script>alert(1)</script></p>' +
      '<img src="https://example.org/a.png" onerror="alert(1)"><img src="data:image/png;base64,iVBORw0KGgo=">' +
      '<img src="data:image/svg+xml;base64,PHN2Zz4=">' +
      '<table><tr><td colspan="2">cell</td></tr></table><ul><li>one</li></ul>' +
      '<span class="katex"><span class="mord" style="height:0.64em;vertical-align:-0.08em">x</span></span>' +
      '<p style="background:url(https://evil.example/x);color:red">styled</p><a href="javascript:alert(1)">link</a><iframe src="https://evil.example"></iframe>';
    const r = await h.request('POST', '/question', {
      token: editor,
      body: mcq({ q, ops: { a: '<p>Mars <img src=x onerror=alert(1)></p>', b: 'Venus' }, ca: ['a'], trans: { hi: { q: `<p>हिंदी</p>${q}`, ops: { a: 'मंगल<script>x()</script>', b: 'शुक्र' }, ca: ['a'] } } }),
    });
    expect(r.status).toBe(201);
    const row = (await first(h.deps.db.select().from(question).where(eq(question.id, r.body.id))))!;
    for (const html of [row.q, ...Object.values(row.ops), row.trans.hi!.q, ...Object.values(row.trans.hi!.ops)]) {
      expect(html).not.toMatch(/<script|onerror|onclick|javascript:|url\(|<iframe|svg\+xml/i);
    }
    expect(row.q).toContain('H<sub>2</sub>O and x<sup>2</sup> <b>bold</b>');
    expect(row.q).toContain('<img src="https://example.org/a.png" />');
    expect(row.q).toContain('data:image/png;base64');
    expect(row.q).toContain('<td colspan="2">cell</td>');
    expect(row.q).toContain('<span class="mord" style="height:0.64em;vertical-align:-0.08em">x</span>');
    expect(row.q).toContain('<p style="color:red">styled</p>');
    // What a relative image address keeps is lib/sanitize's rule (media addresses); its handler never stays.
    expect(row.ops.a).toMatch(/^<p>Mars /);
    expect(row.ops.a).not.toMatch(/onerror|alert/);
    expect(row.trans.hi!.ops.a).toBe('मंगल');
  });

  test('PATCH replaces a question; the sets holding it take new revisions and reach devices; old and new values are logged', async () => {
    const before = (await pull('qs_detail')).body.checkpoint.rev;
    const setRevs = (await first(h.deps.db.select({ rev: questionSet.rev }).from(questionSet).where(eq(questionSet.id, 'qs-practice-gk'))))!.rev;
    // Approved it stays: a published set holds it (docs/authoring.md "Publishing and unpublishing").
    const r = await h.request('PATCH', '/question', { token: editor, body: { ...mcq({ q: '<p>Battle of Plassey: which year?</p>', ca: ['b'], st: 'APPROVED' }), id: 'q-gk-001', version: (await h.request('GET', `/question/${'q-gk-001'}`, { token: editor })).body.data.version } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, id: 'q-gk-001', msg: 'Question updated successfully' });
    expect((await first(h.deps.db.select({ rev: questionSet.rev }).from(questionSet).where(eq(questionSet.id, 'qs-practice-gk'))))!.rev).toBeGreaterThan(setRevs);
    const detail = (await pull('qs_detail', before)).body.documents;
    expect(detail.map((d: { id: string }) => d.id)).toEqual(['qs-practice-gk']);
    expect(detail[0].questions.find((q: { id: string }) => q.id === 'q-gk-001').q).toBe('<p>Battle of Plassey: which year?</p>');
    const log = (await logOf('q-gk-001')).at(-1)!;
    expect(log.actionType).toBe('UPDATE');
    expect(log.oldValue).toMatchObject({ q: '<p>In which year was the Battle of Plassey fought?</p>' });
    expect(log.newValue).toMatchObject({ q: '<p>Battle of Plassey: which year?</p>' });
  });

  test('PATCH of an unknown or deleted question is 404; without an id it is 400', async () => {
    await refused('PATCH', '/question', { ...mcq(), id: 'no-such-question', version: 1 }, 404, 'Question not found');
    await refused('PATCH', '/question', { ...mcq(), version: 1 }, 400, 'id is required');
    await refused('PATCH', '/question', { ...mcq({ ops: { a: '', b: 'x' } }), id: 'q-gk-001', version: 1 }, 400, 'Option cannot be blank');
  });

  test('GET /question pages by 25 by default, up to 1000; filters match the count; empty filters are no filters', async () => {
    const all = (await h.request('GET', '/question?l=1000', { token: editor })).body.data;
    expect(all.length).toBeGreaterThan(60);
    const first = await h.request('GET', '/question', { token: editor });
    expect(first.body.data).toHaveLength(25);
    const second = (await h.request('GET', '/question?o=25', { token: editor })).body.data;
    expect(second[0].id).toBe(all[25].id);
    expect((await h.request('GET', '/question?l=1001', { token: editor })).status).toBe(400);
    expect((await h.request('GET', '/question?l=5&x=1', { token: editor })).status).toBe(400);
    expect((await h.request('GET', '/question?qt=mcq9', { token: editor })).status).toBe(400);

    const cases = ['s=gk', 'qt=f', 'qt=f,s', 'd=1', 'c=class-10', 't=indian-polity', 'e=ctet', 's=gk&qt=mcq2&d=1,2,3', 's=&c=&t=&e=&qt=&d='];
    for (const query of cases) {
      const list = (await h.request('GET', `/question?l=1000&${query}`, { token: editor })).body.data as { s: string; qt: string; d: string; c: string[]; t: string[]; e: string[] }[];
      const count = (await h.request('GET', `/question/getQuestionsCount?${query}`, { token: editor })).body;
      expect(count, query).toEqual({ success: true, count: list.length });
      const params = new URLSearchParams(query);
      for (const [k, v] of params) {
        if (!v) continue;
        const wanted = v.split(',');
        for (const q of list) {
          const value = q[k as 's' | 'qt' | 'd' | 'c' | 't' | 'e'];
          expect(Array.isArray(value) ? value.some((x) => wanted.includes(x)) : wanted.includes(value), `${query}: ${k}`).toBe(true);
        }
      }
    }
    expect((await h.request('GET', '/question/getQuestionsCount?s=&c=&t=&e=&qt=&d=', { token: editor })).body.count).toBe(all.length);
    expect((await h.request('GET', '/question/getQuestionsCount?s=gk&qt=s', { token: editor })).body.count).toBe(2);
  });

  test('a test fetch by qids answers in the order of qids', async () => {
    const qids = ['q-reasoning-001', 'q-gk-003', 'q-hindi-018', 'q-arithmetic-002'];
    const r = await h.request('GET', `/question?l=1000&o=0&qids=${qids.join(',')}`, { token: editor });
    expect(r.body.data.map((q: { id: string }) => q.id)).toEqual(qids);
    const many = (await h.request('GET', '/question?l=40', { token: editor })).body.data.map((q: { id: string }) => q.id);
    expect(many).toHaveLength(40);
    // Without l, every question asked for (not a page of 25).
    expect((await h.request('GET', `/question?qids=${many.join(',')}`, { token: editor })).body.data).toHaveLength(40);
  });

  test('DELETE refuses a question a set holds (409 naming the set), soft-deletes one no set holds', async () => {
    await refused('DELETE', '/question/q-gk-003', undefined, 409, /Practice Set: General Knowledge/);
    const created = await h.request('POST', '/question', { token: editor, body: mcq() });
    const r = await h.request('DELETE', `/question/${created.body.id}`, { token: editor });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: true, msg: 'Question deleted successfully' });
    expect(await first(h.deps.db.select().from(question).where(eq(question.id, created.body.id)))).toMatchObject({ deleted: true });
    expect((await h.request('GET', `/question/${created.body.id}`, { token: editor })).status).toBe(404);
    expect((await h.request('DELETE', `/question/${created.body.id}`, { token: editor })).body.msg).toBe('Question not found');
    const ids = (await h.request('GET', '/question?l=1000', { token: editor })).body.data.map((q: { id: string }) => q.id);
    expect(ids).not.toContain(created.body.id);
    expect((await logOf(created.body.id)).map((l) => l.actionType)).toEqual(['CREATE', 'DELETE']);
  });
});

describe('question sets', () => {
  const base = (over: Record<string, unknown> = {}) => ({
    l: 'Weekly quiz',
    mpq: 1,
    tm: 2,
    nm: 0.25,
    dur: 10,
    isM: true,
    inst: '<p>Read carefully</p>',
    q: ['q-gk-002', 'q-gk-004'],
    sections: { Reasoning: { q: ['q-reasoning-001'], mpq: 2, tm: 2, nm: 0.5, o: 1 } },
    pts: minuteNow() - 1,
    ...over,
  });

  test('created without an id ({success, id}); with its publish time past, learners pull it at once, without correct answers', async () => {
    const setsCp = (await pull('question_set')).body.checkpoint.rev;
    const detailCp = (await pull('qs_detail')).body.checkpoint.rev;
    const r = await h.request('PATCH', '/question/updateQuestionSet', { token: editor, body: base({ inst: '<p onmouseover="x()">Read carefully<script>x()</script></p>' }) });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ success: true, id: expect.any(String), msg: 'Question set created successfully' });
    const sets = (await pull('question_set', setsCp)).body.documents;
    expect(sets).toEqual([expect.objectContaining({ id: r.body.id, _deleted: false, l: 'Weekly quiz', inst: '<p>Read carefully</p>', count: 3, total: 4 })]);
    const detail = (await pull('qs_detail', detailCp)).body.documents;
    expect(detail).toEqual([expect.objectContaining({ id: r.body.id, _deleted: false, isM: true })]);
    expect(JSON.stringify(detail[0])).not.toContain('"ca"');
    expect(await logOf(r.body.id)).toEqual([expect.objectContaining({ actionType: 'CREATE', entityAffected: 'question_set' })]);
    const got = await h.request('GET', `/question/getQuestionSet/${r.body.id}`, { token: editor });
    expect(got.body.data).toMatchObject({ id: r.body.id, published: true, sections: { Reasoning: { q: ['q-reasoning-001'] } } });
    const list = (await h.request('GET', '/question/getQuestionSetList', { token: editor })).body.data;
    expect(list[0].id).toBe(r.body.id);
  });

  test('a set for later stays off devices; an update moving a published set into the future withdraws it', async () => {
    const cp = (await pull('question_set')).body.checkpoint.rev;
    const later = await h.request('PATCH', '/question/updateQuestionSet', { token: editor, body: base({ pts: minuteNow() + 60 }) });
    expect((await pull('question_set', cp)).body.documents).toEqual([expect.objectContaining({ id: later.body.id, _deleted: true })]);

    const now = await h.request('PATCH', '/question/updateQuestionSet', { token: editor, body: base() });
    const cp2 = (await pull('question_set')).body.checkpoint.rev;
    const r = await h.request('PATCH', '/question/updateQuestionSet', { token: editor, body: base({ id: now.body.id, l: 'Moved', pts: minuteNow() + 60 }) });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, id: now.body.id, msg: 'Question set updated successfully' });
    expect((await pull('question_set', cp2)).body.documents).toEqual([expect.objectContaining({ id: now.body.id, _deleted: true })]);
    const log = (await logOf(now.body.id)).at(-1)!;
    expect(log).toMatchObject({ actionType: 'UPDATE', oldValue: expect.objectContaining({ l: 'Weekly quiz' }), newValue: expect.objectContaining({ l: 'Moved', published: false }) });
  });

  test.each([
    ['no label', { l: '' }, 'Question set cannot be saved without label'],
    ['a missing label', { l: undefined }, 'Question set cannot be saved without label'],
    ['no section and no question', { q: [], sections: {} }, 'Question set cannot be saved without any section'],
    ['negative marking below 0', { nm: -1 }, 'Negative marking should be a positive number'],
    ['a section’s negative marking below 0', { sections: { GK: { q: [], mpq: 1, tm: 1, nm: -0.5 } } }, 'Negative marking should be a positive number'],
    ['a section named q', { sections: { q: { q: [], mpq: 1, tm: 1 } } }, 'Invalid section name'],
    ['a section named NONE', { sections: { NONE: { q: [], mpq: 1, tm: 1 } } }, 'Invalid section name'],
    ['a section named tm', { sections: { tm: { q: [], mpq: 1, tm: 1 } } }, 'Invalid section name'],
    ['a blank section name', { sections: { '  ': { q: [], mpq: 1, tm: 1 } } }, 'Invalid section name'],
    ['a section named Main', { sections: { Main: { q: [], mpq: 1, tm: 1 } } }, 'Section with this name cannot be created. Add question without section. It is automatically added to main section.'],
    ['two sections differing only in case and spaces', { sections: { Reasoning: { q: [], mpq: 1, tm: 1 }, ' reasoning': { q: [], mpq: 1, tm: 1 } } }, 'Duplicate section name.'],
    ['two sub-sections with the same name', { sections: { Hindi: { ss: true, sub: { Grammar: { q: [], mpq: 1, tm: 1 }, GRAMMAR: { q: [], mpq: 1, tm: 1 } } } } }, 'Duplicate section name.'],
    ['more main questions than tm / mpq', { tm: 2, mpq: 1, q: ['q-gk-002', 'q-gk-004', 'q-gk-006'] }, 'Only 2 questions are allowed in Main section'],
    ['more section questions than tm / mpq', { sections: { GK: { q: ['q-gk-007', 'q-gk-009', 'q-gk-010'], mpq: 2, tm: 5 } } }, 'Only 2 questions are allowed in GK section'],
    ['more sub-section questions than tm / mpq', { sections: { Hindi: { ss: true, sub: { Grammar: { q: ['q-hindi-001', 'q-hindi-002'], mpq: 1, tm: 1 } } } } }, 'Only 1 questions are allowed in Grammar section'],
    ['more than 100 questions where tm is 0', { tm: 0, q: Array.from({ length: 101 }, (_, i) => `q-x-${i}`) }, 'Only 100 questions are allowed in Main section'],
    ['a question twice', { q: ['q-gk-002', 'q-gk-002'] }, 'Question q-gk-002 is in this question set more than once'],
    ['a question that does not exist', { q: ['q-gk-002', 'q-nope'] }, 'Question does not exist: q-nope'],
    ['sub-sections on a section without ss', { sections: { Hindi: { sub: { Grammar: { q: [], mpq: 1, tm: 1 } } } } }, /ss is false/],
    ['an unknown field', { owner: 'x' }, 'Unknown field: owner'],
    ['an unknown field in a section', { sections: { GK: { q: [], mpq: 1, tm: 1, colour: 'red' } } }, /Unknown field: colour/],
  ])('refuses %s with its message and writes nothing', async (_n, over, msg) => {
    await refused('PATCH', '/question/updateQuestionSet', base(over), 400, msg);
  });

  test('an update of an unknown set is 404; a section with sub-sections keeps no marks of its own', async () => {
    await refused('PATCH', '/question/updateQuestionSet', base({ id: 'no-such-set' }), 404, 'Question set not found');
    const r = await h.request('PATCH', '/question/updateQuestionSet', {
      token: editor,
      body: base({ q: [], tm: 0, sections: { Hindi: { ss: true, mpq: 5, tm: 5, nm: 1, sub: { Grammar: { q: ['q-hindi-001'], mpq: 1, tm: 1 } } } } }),
    });
    expect(r.status).toBe(201);
    expect(r.body.data.sections.Hindi).toMatchObject({ ss: true, mpq: 0, tm: 0, nm: 0 });
  });

  test('DELETE soft-deletes: devices drop it, editors no longer read it', async () => {
    const created = await h.request('PATCH', '/question/updateQuestionSet', { token: editor, body: base() });
    const cp = (await pull('question_set')).body.checkpoint.rev;
    const r = await h.request('DELETE', `/question/deleteQuestionSet/${created.body.id}`, { token: editor });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: true, msg: 'Question set deleted successfully' });
    expect((await pull('question_set', cp)).body.documents).toEqual([expect.objectContaining({ id: created.body.id, _deleted: true })]);
    expect((await h.request('GET', `/question/getQuestionSet/${created.body.id}`, { token: editor })).status).toBe(404);
    expect((await h.request('DELETE', `/question/deleteQuestionSet/${created.body.id}`, { token: editor })).body.msg).toBe('Question set not found');
    expect(await first(h.deps.db.select().from(questionSet).where(and(eq(questionSet.id, created.body.id), eq(questionSet.deleted, true))))).toBeDefined();
    expect((await logOf(created.body.id)).map((l) => l.actionType)).toEqual(['CREATE', 'DELETE']);
    // A deleted set no longer holds its questions for DELETE /question's check.
    expect((await h.request('GET', '/question/getQuestionSetList', { token: editor })).body.data.map((s: { id: string }) => s.id)).not.toContain(created.body.id);
  });

  test('the seeded sets are valid under the rules and the mock covers all four question types', async () => {
    const mock = (await h.request('GET', '/question/getQuestionSet/qs-mock-ssc-1', { token: editor })).body.data;
    const ids = Object.values(mock.sections as Record<string, { q: string[] }>).flatMap((s) => s.q);
    const types = new Set((await h.request('GET', `/question?l=1000&qids=${ids.join(',')}`, { token: editor })).body.data.map((q: { qt: string }) => q.qt));
    expect([...types].sort()).toEqual(['f', 'mcq1', 'mcq2', 's']);
  });
});

describe('reading as a learner or a guest (what replication gives a device)', () => {
  type Q = { id: string; ca: string[]; trans: Record<string, { ca?: string[] }> };
  const asLearner = (url: string) => h.request('GET', url, { token: learner });
  const asGuest = (url: string) => h.request('GET', url);

  test('getQuestionSetList lists the published sets only; a set whose publish time has not come is not there', async () => {
    for (const read of [asLearner, asGuest]) {
      const r = await read('/question/getQuestionSetList');
      expect(r.status).toBe(200);
      const ids = r.body.data.map((s: { id: string }) => s.id);
      expect(ids).toEqual(expect.arrayContaining(['qs-practice-gk', 'qs-mock-ssc-1', 'qs-hindi-sub']));
      expect(ids).not.toContain('qs-future-mock');
      expect(r.body.data.every((s: { published: boolean }) => s.published)).toBe(true);
    }
    // The editor sees the unpublished one too.
    expect((await h.request('GET', '/question/getQuestionSetList', { token: editor })).body.data.map((s: { id: string }) => s.id)).toContain('qs-future-mock');
  });

  test('getQuestionSet reads a published set; an unpublished one is not found', async () => {
    const r = await asLearner('/question/getQuestionSet/qs-mock-ssc-1');
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ id: 'qs-mock-ssc-1', isM: true, published: true });
    for (const read of [asLearner, asGuest]) {
      const hidden = await read('/question/getQuestionSet/qs-future-mock');
      expect(hidden.status).toBe(404);
      expect(hidden.body).toMatchObject({ success: false, msg: 'Question set not found' });
    }
    expect((await h.request('GET', '/question/getQuestionSet/qs-future-mock', { token: editor })).status).toBe(200);
  });

  test('questions by id: those of a mock test come without correct answers in any language, those of a practice set with them', async () => {
    const mock = (await asLearner('/question/getQuestionSet/qs-mock-ssc-1')).body.data;
    const mockIds: string[] = [...mock.q, ...Object.values(mock.sections as Record<string, { q: string[] }>).flatMap((x) => x.q)];
    for (const read of [asLearner, asGuest]) {
      const r = await read(`/question?l=1000&o=0&qids=${mockIds.join(',')}`);
      expect(r.status).toBe(200);
      const got = r.body.data as Q[];
      // In the order asked for.
      expect(got.map((q) => q.id)).toEqual(mockIds);
      for (const q of got) {
        // Even where a published practice set also holds it (question-access.ts; docs/security.md "Answer keys").
        expect(q.ca, q.id).toEqual([]);
        for (const tr of Object.values(q.trans)) expect(tr.ca ?? []).toEqual([]);
        expect(JSON.stringify(q)).not.toContain('"ca":["');
      }
    }
    const one = await asLearner('/question/q-gk-002');
    expect(one.status).toBe(200);
    expect(one.body.data.ca).toEqual([]);

    const practice = (await asLearner('/question/getQuestionSet/qs-practice-gk')).body.data;
    const r = await asLearner(`/question?qids=${practice.q.join(',')}`);
    expect((r.body.data as Q[]).every((q) => q.ca.length > 0)).toBe(true);
    // The editor reads the mock's answers.
    expect((await h.request('GET', '/question/q-gk-002', { token: editor })).body.data.ca.length).toBeGreaterThan(0);
  });

  test('a question no published set holds is not found by id and left out of a list', async () => {
    const loose = (await h.request('POST', '/question', { token: editor, body: mcq() })).body.id as string;
    for (const read of [asLearner, asGuest]) {
      const r = await read(`/question/${loose}`);
      expect(r.status).toBe(404);
      expect(r.body).toMatchObject({ success: false, msg: 'Question not found' });
      const list = await read(`/question?qids=${loose},q-gk-001`);
      expect(list.body.data.map((q: Q) => q.id)).toEqual(['q-gk-001']);
    }
    // Only in the set whose publish time has not come: hidden too.
    type SetView = { q: string[]; sections: Record<string, { q: string[]; sub?: Record<string, { q: string[] }> }> };
    const idsOf = (x: SetView) => [...x.q, ...Object.values(x.sections).flatMap((p) => [...p.q, ...Object.values(p.sub ?? {}).flatMap((sub) => sub.q)])];
    const future = (await h.request('GET', '/question/getQuestionSet/qs-future-mock', { token: editor })).body.data as SetView;
    const published = (await asLearner('/question/getQuestionSetList')).body.data as SetView[];
    const held = new Set(published.flatMap(idsOf));
    const onlyFuture = idsOf(future).filter((id) => !held.has(id));
    expect(onlyFuture.length).toBeGreaterThan(0);
    for (const id of onlyFuture) expect((await asLearner(`/question/${id}`)).status).toBe(404);
  });

  test('listing or filtering the bank needs QUESTION_EDITOR: 401 for a guest, 403 for a learner', async () => {
    expect((await asGuest('/question')).status).toBe(401);
    expect((await asLearner('/question')).status).toBe(403);
    expect((await asLearner('/question?qids=q-gk-001&qt=mcq1')).body).toMatchObject({ success: false, msg: 'Permission denied' });
    expect((await asLearner('/question/getQuestionsCount')).status).toBe(403);
  });
});
