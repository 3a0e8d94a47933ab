import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PROTOCOL_VERSION } from '@pm/protocol/version';
import { MSG } from '@pm/protocol/messages';
import { activityLog, attempt, examResult, question, questionSet, questionSetVersion, questionVersion } from '../../db/schema';
import { first } from '../../db/transaction';
import { type Harness, startHarness } from '../../test/harness';
import { publishDue } from './publish';

/*
 * docs/authoring.md through the HTTP app: review (status), history and restore, the text search and the
 * filters of the list, the published-set rules, drafts and their preview, and set versions that
 * keep old results as they were scored.
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
const rows = {
  questions: async () => (await h.deps.db.select().from(question)).length,
  versions: async () => (await h.deps.db.select().from(questionVersion)).length,
  sets: async () => (await h.deps.db.select().from(questionSet)).length,
  setVersions: async () => (await h.deps.db.select().from(questionSetVersion)).length,
  log: async () => (await h.deps.db.select().from(activityLog)).length,
  attempts: async () => (await h.deps.db.select().from(attempt)).length,
  results: async () => (await h.deps.db.select().from(examResult)).length,
};
const snapshot = async () => Object.fromEntries(await Promise.all(Object.entries(rows).map(async ([k, f]) => [k, await f()] as const)));
const logOf = async (id: string) => await h.deps.db.select().from(activityLog).where(eq(activityLog.entityId, id));
const row = async (id: string) => (await first(h.deps.db.select().from(question).where(eq(question.id, id))))!;

const mcq = (over: Record<string, unknown> = {}) => ({
  q: '<p>Which gas do plants take in for <b>photo</b>synthesis?</p>',
  ops: { a: '<p>Oxygen</p>', b: '<p>Carbon dioxide</p>', c: '<p>Nitrogen</p>', d: '<p>Helium</p>' },
  ca: ['b'],
  qt: 'mcq1',
  d: '2',
  s: 'gk',
  c: ['class-10'],
  t: [],
  e: [],
  trans: { hi: { q: '<p>प्रकाश संश्लेषण के लिए पौधे कौन सी गैस लेते हैं?</p>', ops: { a: 'ऑक्सीजन', b: 'कार्बन डाइऑक्साइड', c: 'नाइट्रोजन', d: 'हीलियम' }, ca: ['b'] } },
  ...over,
});

async function create(over: Record<string, unknown> = {}): Promise<string> {
  const r = await h.request('POST', '/question', { token: editor, body: mcq(over) });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.id as string;
}
const setStatus = (id: string, st: string, reason?: string) =>
  h.request('PATCH', '/question/updateStatus', { token: editor, body: { id, st, ...(reason !== undefined && { reason }) } });
async function approve(id: string) {
  for (const st of ['REVIEWED', 'APPROVED']) expect((await setStatus(id, st)).status).toBe(200);
}
async function approved(over: Record<string, unknown> = {}) {
  const id = await create(over);
  await approve(id);
  return id;
}
const setBody = (over: Record<string, unknown> = {}) => ({ l: 'Authoring set', mpq: 1, tm: 0, nm: 0, dur: 10, isM: false, inst: '', q: [], sections: {}, pts: minuteNow() - 1, ...over });
const saveSet = (over: Record<string, unknown>) => h.request('PATCH', '/question/updateQuestionSet', { token: editor, body: setBody(over) });

/** A write that must be refused: status, message, and nothing stored (rows, versions, activity log). */
async function refused(method: string, url: string, body: unknown, status: number, msg: string | RegExp, token = editor) {
  const before = await snapshot();
  const r = await h.request(method, url, { token, body });
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(r.body.success).toBe(false);
  if (typeof msg === 'string') expect(r.body.msg).toBe(msg);
  else expect(r.body.msg).toMatch(msg);
  expect(await snapshot()).toEqual(before);
  return r.body;
}

describe('who may call the new routes', () => {
  const calls: [string, () => string, unknown?][] = [
    ['PATCH', () => '/question/updateStatus', { id: 'q-gk-005', st: 'PENDING' }],
    ['POST', () => '/question/restoreQuestionVersion', { id: 'q-gk-005', version: 1 }],
    ['GET', () => '/question/getQuestionHistory/q-gk-005'],
    ['GET', () => '/question/previewQuestionSet/qs-practice-gk'],
  ];
  test.each(calls)('%s %s: 401 for a guest, 403 for a learner, nothing stored; the editor gets through', async (method, url, body) => {
    const before = await snapshot();
    const st = (await row('q-gk-005')).st;
    expect((await h.request(method, url(), { body })).status).toBe(401);
    const r = await h.request(method, url(), { token: learner, body });
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({ success: false, msg: 'Permission denied' });
    expect(await snapshot()).toEqual(before);
    expect((await row('q-gk-005')).st).toBe(st);
    const ok = await h.request(method, url(), { token: editor, ...(method === 'GET' ? {} : { body: { id: 'q-gk-005', version: 1, st: 'APPROVED' } }) });
    expect([401, 403]).not.toContain(ok.status);
  });
});

describe('bad input is refused with a message and stores nothing', () => {
  test.each([
    ['an unknown field', { id: 'q-gk-005', st: 'PENDING', by: 'me' }, 400, 'Unknown field: by'],
    ['a status that does not exist', { id: 'q-gk-005', st: 'DONE' }, 400, /st|Invalid/],
    ['a status of the wrong type', { id: 'q-gk-005', st: 3 }, 400, /st|Invalid/],
    ['no id', { st: 'PENDING' }, 400, 'id is required'],
    ['REJECTED without a reason', { id: 'q-gk-005', st: 'REJECTED' }, 400, 'Give a reason for rejecting the question'],
    ['REJECTED with a blank reason', { id: 'q-gk-005', st: 'REJECTED', reason: '   ' }, 400, 'Give a reason for rejecting the question'],
    ['an oversized reason', { id: 'q-gk-005', st: 'REJECTED', reason: 'x'.repeat(501) }, 400, /.+/],
    ['an unknown question', { id: 'no-such-question', st: 'PENDING' }, 404, 'Question not found'],
  ])('PATCH /question/updateStatus: %s', async (_n, body, status, msg) => {
    await refused('PATCH', '/question/updateStatus', body, status, msg);
  });

  test.each([
    ['an unknown field', { id: 'q-gk-005', version: 1, force: true }, 400, 'Unknown field: force'],
    ['a version of the wrong type', { id: 'q-gk-005', version: '1' }, 400, /version|Invalid/],
    ['version 0', { id: 'q-gk-005', version: 0 }, 400, /.+/],
    ['a fractional version', { id: 'q-gk-005', version: 1.5 }, 400, /.+/],
    ['an oversized id', { id: 'x'.repeat(500), version: 1 }, 400, /.+/],
    ['a version that does not exist', { id: 'q-gk-005', version: 99 }, 404, 'Version not found'],
    ['an unknown question', { id: 'no-such-question', version: 1 }, 404, 'Question not found'],
  ])('POST /question/restoreQuestionVersion: %s', async (_n, body, status, msg) => {
    await refused('POST', '/question/restoreQuestionVersion', body, status, msg);
  });

  test('malformed JSON and a wrong content type are 400', async () => {
    for (const url of ['/question/updateStatus', '/question/restoreQuestionVersion']) {
      const method = url.endsWith('Status') ? 'PATCH' : 'POST';
      const before = await snapshot();
      expect((await h.request(method, url, { token: editor, rawBody: '{"id":' })).status).toBe(400);
      expect((await h.request(method, url, { token: editor, rawBody: 'id=1', headers: { 'content-type': 'text/plain' } })).status).toBe(400);
      expect(await snapshot()).toEqual(before);
    }
  });

  test('reads: a query string where none belongs, an oversized search, unknown ids', async () => {
    expect((await h.request('GET', '/question/getQuestionHistory/q-gk-005?x=1', { token: editor })).status).toBe(400);
    expect((await h.request('GET', '/question/previewQuestionSet/qs-practice-gk?x=1', { token: editor })).status).toBe(400);
    const hist = await h.request('GET', '/question/getQuestionHistory/no-such-question', { token: editor });
    expect(hist).toMatchObject({ status: 404, body: { success: false, msg: 'Question not found' } });
    const prev = await h.request('GET', '/question/previewQuestionSet/no-such-set', { token: editor });
    expect(prev).toMatchObject({ status: 404, body: { success: false, msg: 'Question set not found' } });
    expect((await h.request('GET', `/question?search=${'a'.repeat(201)}`, { token: editor })).status).toBe(400);
    expect((await h.request('GET', `/question/getQuestionsCount?search=${'a'.repeat(201)}`, { token: editor })).status).toBe(400);
  });

  test.each([
    ['newVersion that is no boolean', { newVersion: 'yes' }],
    ['draft that is no boolean', { draft: 'no' }],
    ['a language outside the list', { langs: ['fr'] }],
    ['English as a set language', { langs: ['en'] }],
  ])('PATCH /question/updateQuestionSet: %s', async (_n, over) => {
    await refused('PATCH', '/question/updateQuestionSet', setBody({ q: ['q-gk-001'], ...over }), 400, /.+/);
  });
});

describe('review: status transitions', () => {
  test('PENDING → REVIEWED → APPROVED; no step skipped; each step a version and an activity entry', async () => {
    const id = await create();
    expect(await row(id)).toMatchObject({ st: 'PENDING', version: 1 });
    await refused('PATCH', '/question/updateStatus', { id, st: 'APPROVED' }, 400, 'The question cannot move to this status from its current one');
    const reviewed = await setStatus(id, 'REVIEWED');
    expect(reviewed.status).toBe(200);
    expect(reviewed.body).toMatchObject({ success: true, id, msg: 'Question status updated successfully', data: { st: 'REVIEWED', version: 2, updatedBy: 'demo-editor' } });
    expect((await setStatus(id, 'APPROVED')).body.data).toMatchObject({ st: 'APPROVED', version: 3, reason: null });
    expect((await logOf(id)).map((l) => l.actionType)).toEqual(['CREATE', 'UPDATE', 'UPDATE']);
    expect((await logOf(id)).at(-1)).toMatchObject({ personId: 'demo-editor', oldValue: expect.objectContaining({ st: 'REVIEWED' }), newValue: expect.objectContaining({ st: 'APPROVED' }) });
  });

  test('REJECTED needs a reason, which is kept; another status clears it; REJECTED goes back to PENDING first', async () => {
    const id = await create();
    const r = await setStatus(id, 'REJECTED', '  Two options are correct  ');
    expect(r.status).toBe(200);
    expect(await row(id)).toMatchObject({ st: 'REJECTED', reason: 'Two options are correct' });
    await refused('PATCH', '/question/updateStatus', { id, st: 'REVIEWED' }, 400, 'The question cannot move to this status from its current one');
    await refused('PATCH', '/question/updateStatus', { id, st: 'APPROVED' }, 400, 'The question cannot move to this status from its current one');
    expect((await setStatus(id, 'PENDING', 'ignored')).status).toBe(200);
    expect(await row(id)).toMatchObject({ st: 'PENDING', reason: null });
  });

  test('a whole-question save and a create follow the same rule (a new question moves from PENDING)', async () => {
    await refused('POST', '/question', mcq({ st: 'APPROVED' }), 400, 'The question cannot move to this status from its current one');
    await refused('POST', '/question', mcq({ st: 'REJECTED' }), 400, 'Give a reason for rejecting the question');
    const rejected = await create({ st: 'REJECTED', reason: 'Duplicate' });
    expect(await row(rejected)).toMatchObject({ st: 'REJECTED', reason: 'Duplicate' });
    const id = await create({ st: 'REVIEWED' });
    await refused('PATCH', '/question', { ...mcq({ st: 'REVIEWED' }), id: rejected, version: (await h.request('GET', `/question/${rejected}`, { token: editor })).body.data.version }, 400, /cannot move/);
    const saved = await h.request('PATCH', '/question', { token: editor, body: { ...mcq({ st: 'APPROVED', reason: 'dropped' }), id, version: (await h.request('GET', `/question/${id}`, { token: editor })).body.data.version } });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({ st: 'APPROVED', reason: null, version: 2 });
  });
});

describe('published sets hold approved questions only, and keep them approved', () => {
  test('a set that is not a draft refuses a question that is not approved (400 with the ids); a draft takes it', async () => {
    const pending = await create();
    const reviewed = await create({ st: 'REVIEWED' });
    const body = await refused('PATCH', '/question/updateQuestionSet', setBody({ q: ['q-gk-001', pending, reviewed] }), 400, `Only approved questions can go into a published set: ${pending}, ${reviewed}`);
    expect(body.ids).toEqual([pending, reviewed]);
    // Scheduled for later counts as published.
    await refused('PATCH', '/question/updateQuestionSet', setBody({ q: [pending], pts: minuteNow() + 600 }), 400, /Only approved questions/);
    const draft = await saveSet({ l: 'Draft with a pending question', q: ['q-gk-001', pending], draft: true });
    expect(draft.status).toBe(201);
    expect(draft.body.data).toMatchObject({ draft: true, published: false, version: 1, taken: 0, langs: [] });
    // Publishing the draft is refused until the question is approved.
    await refused('PATCH', '/question/updateQuestionSet', setBody({ id: draft.body.id, l: 'Draft with a pending question', q: ['q-gk-001', pending] }), 400, /Only approved questions/);
    await approve(pending);
    const published = await saveSet({ id: draft.body.id, l: 'Now published', q: ['q-gk-001', pending], langs: ['hi', 'mr'] });
    expect(published.status).toBe(200);
    expect(published.body.data).toMatchObject({ draft: false, published: true, langs: ['hi', 'mr'] });
  });

  test('a question held by a published or scheduled set cannot leave APPROVED (409 naming the sets); held only by a draft it can', async () => {
    const inPublished = await approved();
    const inScheduled = await approved();
    const inDraft = await approved();
    const pub = await saveSet({ l: 'Published holder', q: [inPublished] });
    await saveSet({ l: 'Scheduled holder', q: [inScheduled], pts: minuteNow() + 600 });
    await saveSet({ l: 'Draft holder', q: [inDraft], draft: true });
    const body = await refused('PATCH', '/question/updateStatus', { id: inPublished, st: 'PENDING' }, 409, 'This question is in a published set and must stay approved: Published holder');
    expect(body).toMatchObject({ code: 'CONFLICT', sets: [{ id: pub.body.id, l: 'Published holder' }] });
    await refused('PATCH', '/question/updateStatus', { id: inPublished, st: 'REJECTED', reason: 'x' }, 409, /must stay approved/);
    await refused('PATCH', '/question', { ...mcq({ st: 'PENDING' }), id: inPublished, version: (await h.request('GET', `/question/${inPublished}`, { token: editor })).body.data.version }, 409, /must stay approved: Published holder/);
    await refused('PATCH', '/question/updateStatus', { id: inScheduled, st: 'PENDING' }, 409, /Scheduled holder/);
    // Staying approved is fine, and so is any edit that keeps it approved.
    expect((await h.request('PATCH', '/question', { token: editor, body: { ...mcq({ st: 'APPROVED', d: '4' }), id: inPublished, version: (await h.request('GET', `/question/${inPublished}`, { token: editor })).body.data.version } })).status).toBe(200);
    expect((await setStatus(inDraft, 'PENDING')).status).toBe(200);
  });

  test('deleting a question a set holds is refused (409 with the sets), a draft included', async () => {
    const id = await approved();
    await saveSet({ l: 'Draft keeping a question', q: [id], draft: true });
    const body = await refused('DELETE', `/question/${id}`, undefined, 409, /This question is used in a question set. Remove it from the set first: Draft keeping a question/);
    expect(body.sets).toEqual([expect.objectContaining({ l: 'Draft keeping a question' })]);
  });
});

describe('history and restore', () => {
  test('every version newest first, with who wrote it; a restore brings a version back as a new one', async () => {
    const id = await create({ q: '<p>First wording about rivers</p>' });
    expect((await h.request('PATCH', '/question', { token: editor, body: { ...mcq({ q: '<p>Second wording</p>', d: '5' }), id, version: (await h.request('GET', `/question/${id}`, { token: editor })).body.data.version } })).status).toBe(200);
    expect((await setStatus(id, 'REVIEWED')).status).toBe(200);
    const restored = await h.request('POST', '/question/restoreQuestionVersion', { token: editor, body: { id, version: 1 } });
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ success: true, id, msg: 'Version restored successfully', data: { q: '<p>First wording about rivers</p>', d: '2', st: 'REVIEWED', version: 4 } });

    const hist = await h.request('GET', `/question/getQuestionHistory/${id}`, { token: editor });
    expect(hist.status).toBe(200);
    const entries = hist.body.data as { version: number; action: string; actor: { id: string; name: string }; restoredFrom?: number; data: Record<string, unknown>; createdAt: number }[];
    expect(entries.map((e) => [e.version, e.action])).toEqual([
      [4, 'RESTORE'],
      [3, 'STATUS'],
      [2, 'UPDATE'],
      [1, 'CREATE'],
    ]);
    for (const e of entries) expect(e.actor).toEqual({ id: 'demo-editor', name: 'Eshan Editor' });
    expect(entries[0]!.restoredFrom).toBe(1);
    expect(entries.slice(1).every((e) => e.restoredFrom === undefined)).toBe(true);
    expect(entries[1]!.data).toMatchObject({ q: '<p>Second wording</p>', st: 'REVIEWED' });
    expect(entries[3]!.data).toMatchObject({ q: '<p>First wording about rivers</p>', st: 'PENDING', s: 'gk', trans: { hi: { ca: ['b'] } } });
    expect(Object.keys(entries[3]!.data)).not.toContain('id');
    expect((await logOf(id)).map((l) => l.actionType)).toEqual(['CREATE', 'UPDATE', 'UPDATE', 'UPDATE']);
    // The restored text is what the search finds again.
    const found = (await h.request('GET', '/question?search=first%20wording&l=1000', { token: editor })).body.data.map((q: { id: string }) => q.id);
    expect(found).toContain(id);
  });

  test('a restore keeps the review status: a question a published set holds stays approved, with its old words back', async () => {
    const id = await approved();
    await saveSet({ l: 'Keeps it approved', q: [id] });
    const r = await h.request('POST', '/question/restoreQuestionVersion', { token: editor, body: { id, version: 1 } });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ st: 'APPROVED' });
    const hist = await h.request('GET', `/question/getQuestionHistory/${id}`, { token: editor });
    expect(hist.body.data[0]).toMatchObject({ action: 'RESTORE', restoredFrom: 1, data: { st: 'APPROVED' } });
  });

  test("the seeded questions have their version 1, by the demo editor", async () => {
    const r = await h.request('GET', '/question/getQuestionHistory/q-reasoning-001', { token: editor });
    expect(r.body.data).toEqual([expect.objectContaining({ version: 1, action: 'CREATE', actor: { id: 'demo-editor', name: 'Eshan Editor' } })]);
  });
});

describe('the list: text search and filters', () => {
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    ids.symbols = await create({ q: '<p>Solve "alpha*beta" (gamma) OR delta; 50% of x_y</p>', s: 'reasoning', c: ['class-12'], d: '4' });
    ids.hindi = await create({
      q: '<p>Which river is called the Ganga of the south?</p>',
      ops: { a: '<p>Kaveri</p>', b: '<p>Godavari</p>' },
      ca: ['b'],
      trans: { hi: { q: '<p>दक्षिण की गंगा किस नदी को कहा जाता है?</p>', ops: { a: 'कावेरी', b: 'गोदावरी' }, ca: ['b'] } },
      s: 'gk',
      c: ['class-10', 'class-12'],
      d: '3',
    });
    ids.fill = await create({ q: '<p>The capital of Bihar is ____.</p>', ops: {}, qt: 'f', ca: ['Patna'], trans: { hi: { q: '<p>बिहार की राजधानी ____ है।</p>', ops: {}, ca: ['पटना'] } }, s: 'gk', d: '3' });
    ids.deleted = await create({ q: '<p>Zanzibarian trivia</p>' });
    expect((await h.request('DELETE', `/question/${ids.deleted}`, { token: editor })).status).toBe(200);
  });

  const search = async (text: string, extra = '') => {
    const list = await h.request('GET', `/question?l=1000&search=${encodeURIComponent(text)}${extra}`, { token: editor });
    const count = await h.request('GET', `/question/getQuestionsCount?search=${encodeURIComponent(text)}${extra}`, { token: editor });
    expect(list.status, text).toBe(200);
    expect(count.status, text).toBe(200);
    const found = (list.body.data as { id: string }[]).map((q) => q.id);
    // The count is the list's total, whatever the search.
    expect(count.body.count, text).toBe(found.length);
    return found;
  };

  test.each([
    ['an English word, in any case', 'GODAVARI', 'hindi'],
    ['a Hindi word', 'गोदावरी', 'hindi'],
    ['English and Hindi together (every word must occur)', 'ganga दक्षिण', 'hindi'],
    ['part of a word (trigram)', 'avar', 'hindi'],
    ['a fill-in answer', 'patna', 'fill'],
    ['a Hindi fill-in answer', 'पटना', 'fill'],
    ['words split by markup are one word', 'photosynthesis', null],
  ])('finds %s', async (_n, text, key) => {
    const found = await search(text);
    if (key) expect(found).toContain(ids[key]);
    else expect(found.length).toBeGreaterThan(0);
  });

  test('every word must occur; a word found nowhere finds nothing', async () => {
    expect(await search('godavari patna')).toEqual([]);
    expect(await search('xyzzyplugh')).toEqual([]);
    expect(await search('zanzibarian')).toEqual([]);
  });

  test('short words match as substrings, with % and _ taken literally', async () => {
    expect(await search('ga')).toContain(ids.hindi);
    // Fixture questions hold percentages too; none holds an underscore.
    expect(await search('%')).toContain(ids.symbols);
    expect(await search('%')).not.toContain(ids.hindi);
    expect(await search('x_y')).toEqual([ids.symbols]);
    expect(await search('_')).toContain(ids.symbols);
    expect(await search('_')).not.toContain(ids.hindi);
  });

  test.each([['"alpha*beta"'], ['alpha*'], ['"'], ['*'], ['OR'], ['('], ['(gamma)'], ['gamma) OR delta'], ['NEAR(alpha beta)'], ['alpha AND NOT'], ['{beta}'], ['^alpha'], ['-delta'], ['a:b']])(
    'FTS syntax in the input is text: %s',
    async (text) => {
      const found = await search(text);
      const literal = ['"alpha*beta"', 'alpha*', '"', '*', 'OR', '(', '(gamma)', 'gamma) OR delta'];
      if (literal.includes(text)) expect(found).toContain(ids.symbols);
      if (['NEAR(alpha beta)', 'alpha AND NOT', '{beta}', '^alpha', '-delta', 'a:b'].includes(text)) expect(found).not.toContain(ids.symbols);
    },
  );

  test('filters combine (any of within a group, all groups), with search, and the count is the list total', async () => {
    const cases = [
      ['s=gk&c=class-12', [ids.hindi], [ids.fill, ids.symbols]],
      ['s=gk,reasoning&c=class-12', [ids.hindi, ids.symbols], [ids.fill]],
      ['s=gk&d=3&qt=f', [ids.fill], [ids.hindi]],
      ['st=PENDING&c=class-12&d=3,4', [ids.hindi, ids.symbols], [ids.fill]],
      ['st=APPROVED&s=reasoning', [], [ids.symbols]],
    ] as const;
    for (const [query, included, excluded] of cases) {
      const list = (await h.request('GET', `/question?l=1000&${query}`, { token: editor })).body.data as { id: string; s: string; c: string[]; d: string; qt: string; st: string }[];
      const count = (await h.request('GET', `/question/getQuestionsCount?${query}`, { token: editor })).body.count;
      expect(count, query).toBe(list.length);
      const found = list.map((q) => q.id);
      for (const id of included) expect(found, query).toContain(id);
      for (const id of excluded) expect(found, query).not.toContain(id);
      for (const [k, v] of new URLSearchParams(query)) {
        const wanted = v.split(',');
        for (const q of list) {
          const value = q[k as 's' | 'c' | 'd' | 'qt' | 'st'];
          expect(Array.isArray(value) ? value.some((x) => wanted.includes(x)) : wanted.includes(value), `${query} ${k}`).toBe(true);
        }
      }
    }
    expect(await search('ganga', '&s=gk&c=class-10')).toEqual([ids.hindi]);
    expect(await search('ganga', '&s=reasoning')).toEqual([]);
    expect(await search('बिहार', '&qt=f&d=3')).toEqual([ids.fill]);
  });

  test('pages are newest first and the editor sees the sets holding each question', async () => {
    const id = await approved({ q: '<p>Newest question of the bank</p>' });
    await saveSet({ l: 'Holds the newest', q: [id], draft: true });
    const first = (await h.request('GET', '/question', { token: editor })).body.data;
    expect(first).toHaveLength(25);
    expect(first[0]).toMatchObject({ id, version: 3, sets: [expect.objectContaining({ l: 'Holds the newest', draft: true, published: false })] });
    const all = (await h.request('GET', '/question?l=1000', { token: editor })).body.data as { createdAt: number }[];
    for (let i = 1; i < all.length; i++) expect(all[i - 1]!.createdAt).toBeGreaterThanOrEqual(all[i]!.createdAt);
  });

  test('a learner cannot search the bank, even with ids', async () => {
    expect((await h.request('GET', '/question?qids=q-gk-001&search=river', { token: learner })).status).toBe(403);
    expect((await h.request('GET', '/question?search=river')).status).toBe(401);
    // An empty search is no filter: reading by ids stays open.
    expect((await h.request('GET', '/question?qids=q-gk-001&search=', { token: learner })).status).toBe(200);
  });
});

describe('drafts and the preview', () => {
  const pull = (collection: string, rev = 0) => h.request('GET', `/sync/v1/${collection}/pull?rev=${rev}&limit=1000`, { token: learner, headers: V });

  test('a draft is not shown to learners nor published by the publish job; a published set made a draft is withdrawn', async () => {
    const id = await approved();
    const draft = (await saveSet({ l: 'Draft only', q: [id], draft: true, isM: true })).body.id as string;
    expect(await publishDue(h.deps)).toBe(0);
    expect(await first(h.deps.db.select().from(questionSet).where(eq(questionSet.id, draft)))).toMatchObject({ published: false, draft: true });
    expect((await h.request('GET', '/question/getQuestionSetList', { token: learner })).body.data.map((s: { id: string }) => s.id)).not.toContain(draft);
    expect((await h.request('GET', `/question/getQuestionSet/${draft}`, { token: learner })).status).toBe(404);
    expect((await h.request('GET', `/question/${id}`, { token: learner })).status).toBe(404);
    expect((await pull('question_set')).body.documents.find((d: { id: string }) => d.id === draft)).toMatchObject({ _deleted: true });

    const live = (await saveSet({ l: 'Live then draft', q: [id] })).body.id as string;
    expect((await pull('question_set')).body.documents.find((d: { id: string }) => d.id === live)).toMatchObject({ _deleted: false });
    const cp = (await pull('question_set')).body.checkpoint.rev;
    // A save never makes a published set a draft (docs/authoring.md "Publishing and
    // unpublishing"): 409, nothing changes; the explicit unpublish withdraws it at once.
    await refused('PATCH', '/question/updateQuestionSet', setBody({ id: live, l: 'Live then draft', q: [id], draft: true }), 409, MSG.setPublishedSaveKeeps);
    expect((await pull('question_set', cp)).body.documents).toEqual([]);
    expect((await h.request('PATCH', '/question/unpublishQuestionSet', { token: editor, body: { id: live } })).status).toBe(200);
    expect((await pull('question_set', cp)).body.documents).toEqual([expect.objectContaining({ id: live, _deleted: true })]);
    // A draft flag set behind the publish job's back is withdrawn by it.
    const third = (await saveSet({ l: 'Flipped by hand', q: [id] })).body.id as string;
    await h.deps.db.update(questionSet).set({ draft: true }).where(eq(questionSet.id, third));
    expect(await publishDue(h.deps)).toBe(1);
    expect(await first(h.deps.db.select().from(questionSet).where(eq(questionSet.id, third)))).toMatchObject({ published: false });
  });

  test('an editor previews a draft mock: the documents a device would hold, with every correct answer; nothing is written', async () => {
    const pending = await create();
    const sub = await create({ q: '<p>Explain osmosis.</p>', ops: {}, qt: 's', ca: ['Movement of water'], trans: { hi: { q: '<p>परासरण समझाइए।</p>', ops: {}, ca: ['जल की गति'] } } });
    const id = (await saveSet({ l: 'Draft mock', isM: true, q: [pending], sections: { Theory: { q: [sub], mpq: 2, tm: 4, nm: 0 } }, draft: true })).body.id as string;
    const before = { ...(await snapshot()), rev: (await first(h.deps.db.select().from(questionSet).where(eq(questionSet.id, id))))!.rev };
    const r = await h.request('GET', `/question/previewQuestionSet/${id}`, { token: editor });
    expect(r.status).toBe(200);
    expect(r.body.set).toMatchObject({ id, l: 'Draft mock', isM: true, count: 2, _deleted: false });
    expect(r.body.detail).toMatchObject({ id, isM: true, main: { q: [pending] }, sections: { Theory: { q: [sub], mpq: 2 } }, _deleted: false });
    const byId = Object.fromEntries((r.body.detail.questions as { id: string; ca?: string[]; trans: Record<string, { ca?: string[] }> }[]).map((q) => [q.id, q]));
    expect(byId[pending]).toMatchObject({ ca: ['b'], trans: { hi: { ca: ['b'] } } });
    expect(byId[sub]).toMatchObject({ ca: ['Movement of water'], trans: { hi: { ca: ['जल की गति'] } } });
    expect({ ...(await snapshot()), rev: (await first(h.deps.db.select().from(questionSet).where(eq(questionSet.id, id))))!.rev }).toEqual(before);
    // Learners still hold nothing of it.
    expect((await h.request('GET', `/question/getQuestionSet/${id}`, { token: learner })).status).toBe(404);
  });
});

describe('set versions keep old results as they were scored', () => {
  test('a marks change of a taken set needs newVersion; results keep their version and show questions as they were', async () => {
    const q1 = await approved({ q: '<p>Original wording of the versioned question</p>' });
    const q2 = await approved();
    const setId = (await saveSet({ l: 'Versioned set', q: [q1], mpq: 2, tm: 0 })).body.id as string;

    const firstSubmit = await h.request('POST', '/question/submitUserResponse', { token: learner, body: { qsid: setId, ures: { [q1]: 'b' } } });
    expect(firstSubmit.status, JSON.stringify(firstSubmit.body)).toBe(200);
    const firstRow = (await first(h.deps.db.select().from(examResult).where(and(eq(examResult.qsid, setId)))))!;
    expect(firstRow).toMatchObject({ setVersion: 1, qv: { [q1]: 3 }, totalMarks: 2 });

    const got = await h.request('GET', `/question/getQuestionSet/${setId}`, { token: editor });
    expect(got.body.data).toMatchObject({ version: 1, taken: 1, draft: false });

    // Marks, questions, negative marking, parts: refused without newVersion, nothing stored.
    for (const over of [{ mpq: 1 }, { q: [q1, q2] }, { nm: 0.5 }, { q: [], sections: { Part: { q: [q1], mpq: 2, tm: 0 } } }]) {
      const body = await refused('PATCH', '/question/updateQuestionSet', setBody({ id: setId, l: 'Versioned set', q: [q1], mpq: 2, tm: 0, ...over }), 409, /^Learners have taken this set/);
      expect(body).toMatchObject({ code: 'CONFLICT', taken: 1 });
    }
    expect(await first(h.deps.db.select().from(questionSet).where(eq(questionSet.id, setId)))).toMatchObject({ version: 1, mpq: 2, q: [q1] });

    // Label, duration, instructions, languages, a total typed as the questions give it: no new
    // version needed (results are out of questions × marks, docs/exams.md "Total marks").
    const renamed = await saveSet({ id: setId, l: 'Versioned set, renamed', q: [q1], mpq: 2, tm: 2, dur: 30, inst: '<p>New</p>', langs: ['hi'] });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toMatchObject({ version: 1, taken: 1 });

    const logBefore = (await logOf(setId)).length;
    const v2 = await saveSet({ id: setId, l: 'Versioned set, renamed', q: [q1, q2], mpq: 1, tm: 0, newVersion: true });
    expect(v2.status).toBe(200);
    expect(v2.body.data).toMatchObject({ version: 2, taken: 1, mpq: 1 });
    expect(await logOf(setId)).toHaveLength(logBefore + 1);
    const kept = await h.deps.db.select().from(questionSetVersion).where(eq(questionSetVersion.setId, setId));
    expect(kept).toEqual([expect.objectContaining({ version: 1, actorId: 'demo-editor', data: expect.objectContaining({ mpq: 2, q: [q1], qv: { [q1]: 3 } }) })]);

    // The question is edited after the first result: new text and a new correct answer.
    const edit = await h.request('PATCH', '/question', { token: editor, body: { ...mcq({ q: '<p>Edited wording</p>', ca: ['a'], trans: { hi: { q: '<p>बदला</p>', ops: { a: 'क', b: 'ख', c: 'ग', d: 'घ' }, ca: ['a'] } }, st: 'APPROVED' }), id: q1, version: (await h.request('GET', `/question/${q1}`, { token: editor })).body.data.version } });
    expect(edit.status).toBe(200);
    expect(edit.body.data.version).toBe(4);

    // The old result still shows the question as it was scored, online and through replication.
    const old = await h.request('GET', `/question/getExamResult?qsid=${setId}`, { token: learner });
    expect(old.body.questions).toEqual([expect.objectContaining({ id: q1, q: '<p>Original wording of the versioned question</p>', ca: ['b'], trans: { hi: expect.objectContaining({ ca: ['b'] }) } })]);
    const pulled = (await h.request('GET', '/sync/v1/exam_result/pull?rev=0&limit=1000', { token: learner, headers: V })).body.documents.find((d: { id: string }) => d.id === firstRow.id);
    expect(pulled.questions[0]).toMatchObject({ id: q1, q: '<p>Original wording of the versioned question</p>', ca: ['b'] });

    // A new result records version 2 and the questions as they are now.
    const second = await h.request('POST', '/question/submitUserResponse', { token: learner, body: { qsid: setId, ures: { [q1]: 'a', [q2]: 'b' } } });
    expect(second.status).toBe(200);
    expect(second.body.questions.find((q: { id: string }) => q.id === q1)).toMatchObject({ q: '<p>Edited wording</p>', ca: ['a'] });
    const secondRow = (await first(h.deps.db.select().from(examResult).where(eq(examResult.attemptId, second.body.attemptId))))!;
    expect(secondRow).toMatchObject({ setVersion: 2, qv: { [q1]: 4, [q2]: 3 }, totalMarks: 2 });
    // And the first result, read again, is unchanged.
    const again = (await h.request('GET', '/sync/v1/exam_result/pull?rev=0&limit=1000', { token: learner, headers: V })).body.documents.find((d: { id: string }) => d.id === firstRow.id);
    expect(again.questions[0].q).toBe('<p>Original wording of the versioned question</p>');
  });

  test('a set without results changes freely, without a new version', async () => {
    const id = (await saveSet({ l: 'Never taken', q: ['q-gk-001'] })).body.id as string;
    const r = await saveSet({ id, l: 'Never taken', q: ['q-gk-001', 'q-gk-003'], mpq: 2, tm: 4 });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ version: 1, taken: 0 });
    expect(await h.deps.db.select().from(questionSetVersion).where(eq(questionSetVersion.setId, id))).toEqual([]);
  });
});
