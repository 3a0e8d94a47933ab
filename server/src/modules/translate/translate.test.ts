import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { englishSourceHash } from '@pm/protocol/translate';
import { createApp } from '../../app';
import { parseEnv } from '../../env';
import { question, questionSet, questionTag, questionVersion } from '../../db/schema';
import { first } from '../../db/transaction';
import { qsDetailDocs } from '../sync/sync.docs';
import { type Harness, startHarness } from '../../test/harness';
import { demoMark } from './local-translator';
import { protect, restore } from './placeholders';
import { cutBatches } from './translate.service';
import { completionsUrl, createLazyTranslator } from './translator';

/*
 * docs/configuration.md "Machine translation" through the HTTP app and the real adapter, against the local translator over
 * real HTTP: placeholders kept, a broken reply refused and nothing saved, 429 and a timeout
 * answered with a clear message, learners refused, and staleness in the list and the index.
 */

let h: Harness;
let editor: string;
let learner: string;
beforeAll(async () => {
  h = await startHarness();
  [editor, learner] = await Promise.all([h.tokenOf('editor'), h.tokenOf('learner')]);
});
afterEach(async () => (await h.deps.translator()).local?.misbehave(null));
afterAll(async () => {
  await (await h.deps.translator()).local?.close();
  h.destroy();
});

const FORMULA = '<span data-type="inline-math" data-latex="\\frac{a}{b}"></span>';
const mcq = (over: Record<string, unknown> = {}) => ({
  q: `<p>What is <strong>half</strong> of ${FORMULA} when a = 4?</p>`,
  ops: { a: '<p>One</p>', b: '<p>Two</p>', c: '<p>Three</p>', d: `<p><img src="https://example.org/four.png" alt="four"></p>` },
  ca: ['b'],
  qt: 'mcq1',
  d: '2',
  s: 'gk',
  c: [],
  t: [],
  e: [],
  ...over,
});
async function create(over: Record<string, unknown> = {}): Promise<string> {
  const r = await h.request('POST', '/question', { token: editor, body: mcq(over) });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.id as string;
}
const row = async (id: string) => (await first(h.deps.db.select().from(question).where(eq(question.id, id))))!;
const versions = async (id: string) => (await h.deps.db.select().from(questionVersion).where(eq(questionVersion.questionId, id))).length;
const tagsOf = async (id: string) =>
  (await h.deps.db.select({ tid: questionTag.tid }).from(questionTag).where(eq(questionTag.questionId, id)))
    .map((t) => t.tid)
    .filter((t) => t.startsWith('tr'))
    .sort();
const local = async () => (await h.deps.translator()).local!;
const translateBody = (content: Record<string, string>, lang = 'hi') => ({ lang, content });

describe('placeholders', () => {
  test('markup, a formula and an image become tokens and come back as they were', () => {
    const html = `<p>Area <em>is</em> ${FORMULA} &amp; <img src="/m.png" alt="x"> [[2]] typed</p>`;
    const p = protect(html);
    expect(p.text).not.toContain('<');
    expect(p.text).not.toContain('frac');
    expect(p.text).toContain('&');
    expect(p.text.match(/\[\[\d+\]\]/g)).toHaveLength(p.slots.length);
    expect(restore(p, p.text)).toEqual({ html, inOrder: true });
  });

  test('a reply that lost, repeated, changed or invented a token is refused', () => {
    const p = protect('<p>a <b>b</b> c</p>');
    expect(p.text).toBe('[[1]]a [[2]]b[[3]] c[[4]]');
    expect(restore(p, '[[1]]a b[[3]] c[[4]]')).toEqual({ problem: { lost: [2], duplicated: [], unknown: [] } });
    expect(restore(p, '[[1]]a [[2]][[2]]b[[3]] c[[4]]')).toEqual({ problem: { lost: [], duplicated: [2], unknown: [] } });
    expect(restore(p, '[[1]]a [ 2 ]b[[3]] c[[4]][[7]]')).toEqual({ problem: { lost: [2], duplicated: [], unknown: [7] } });
    // The translator's own markup is text, never tags.
    expect(restore(p, '[[1]]<script>x</script> [[2]]b[[3]] c[[4]]')).toEqual({ html: '<p>&lt;script&gt;x&lt;/script&gt; <b>b</b> c</p>', inOrder: true });
    // Moved markup is allowed, and said.
    expect(restore(p, '[[1]]a [[3]]b[[2]] c[[4]]')).toMatchObject({ inOrder: false });
  });

  test('batches are cut at 3,000 characters of serialised input', () => {
    const entries = Array.from({ length: 10 }, (_, i): [string, string] => [`${i}.q`, 'x'.repeat(700)]);
    const batches = cutBatches(entries);
    for (const b of batches) expect(JSON.stringify(b).length).toBeLessThanOrEqual(3000);
    expect(batches.length).toBe(3);
    expect(batches.flatMap((b) => Object.keys(b))).toEqual(entries.map(([k]) => k));
    // A single text longer than a batch goes alone, whole.
    expect(cutBatches([['a', 'y'.repeat(5000)], ['b', 'z']]).map((b) => Object.keys(b))).toEqual([['a'], ['b']]);
  });

  test('a configured base address gets /chat/completions', () => {
    expect(completionsUrl('https://api.openai.com/v1')).toBe('https://api.openai.com/v1/chat/completions');
    expect(completionsUrl('http://127.0.0.1:11434/v1/chat/completions')).toBe('http://127.0.0.1:11434/v1/chat/completions');
  });
});

describe('POST /ai/translateQuestionInHtml (the editor’s Generate)', () => {
  test('translates through the local translator, placeholders kept, as chat completions choices', async () => {
    const q = mcq();
    const r = await h.request('POST', '/ai/translateQuestionInHtml', {
      token: editor,
      body: translateBody({ q: q.q, o0: q.ops.a, o1: q.ops.b, o2: q.ops.c, o3: q.ops.d }),
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.demo).toBe(true);
    const out = JSON.parse(r.body.data[0].message.content as string) as Record<string, string>;
    expect(Object.keys(out)).toEqual(['q', 'o0', 'o1', 'o2', 'o3']);
    expect(out.q).toBe(`<p>${demoMark('hi')}What is <strong>half</strong> of ${FORMULA} when a = 4?</p>`);
    expect(out.o0).toBe(`<p>${demoMark('hi')}One</p>`);
    // An image alone has no words: not sent, answered as it was.
    expect(out.o3).toBe(q.ops.d);
    // The translator saw tokens, never the formula or the markup.
    const sent = (await local()).stats().lastInputs.at(-1)!;
    expect(sent).not.toContain('data-latex');
    expect(sent).not.toContain('<strong>');
    expect(sent).toContain('[[');
  });

  test('a reply that drops a placeholder is refused with a clear message', async () => {
    (await local()).misbehave('drop');
    const r = await h.request('POST', '/ai/translateQuestionInHtml', { token: editor, body: translateBody({ q: mcq().q }) });
    expect(r.status).toBe(502);
    expect(r.body).toMatchObject({ success: false, code: 'BAD_GATEWAY', msg: 'The translation changed formulas, images or formatting, so it was refused and nothing was saved.', fields: ['q'] });
  });

  test('a changed or duplicated placeholder is refused too, and a marker in the text works like the switch', async () => {
    for (const marker of ['alter', 'duplicate']) {
      const r = await h.request('POST', '/ai/translateQuestionInHtml', { token: editor, body: translateBody({ q: `<p>Hello <b>world</b> #translator:${marker}#</p>` }) });
      expect(r.status).toBe(502);
      expect(r.body.msg).toContain('was refused');
    }
  });

  test('429 from the endpoint: the service is busy', async () => {
    (await local()).misbehave('busy');
    const r = await h.request('POST', '/ai/translateQuestionInHtml', { token: editor, body: translateBody({ q: '<p>Hello</p>' }) });
    expect(r.status).toBe(502);
    expect(r.body.msg).toBe('The translation service is busy (too many requests). Please try again in a minute.');
  });

  test('an answer that is not the JSON asked for is refused', async () => {
    (await local()).misbehave('garbage');
    const r = await h.request('POST', '/ai/translateQuestionInHtml', { token: editor, body: translateBody({ q: '<p>Hello</p>' }) });
    expect(r.status).toBe(502);
    expect(r.body.msg).toBe('The translation service could not be reached or gave an unusable answer. Please try again.');
  });

  test('no answer in time: a timeout message', async () => {
    // The same app with a short wait (TRANSLATE_TIMEOUT_MS=300); its own local translator.
    const config = { ...h.deps.config, TRANSLATE_TIMEOUT_MS: 300 };
    const translator = createLazyTranslator(config);
    const app = createApp({ ...h.deps, config, translator });
    const started = Date.now();
    const res = await app.request('/api/ai/translateQuestionInHtml', {
      method: 'POST',
      headers: { authorization: `Bearer ${editor}`, 'content-type': 'application/json' },
      body: JSON.stringify(translateBody({ q: '<p>Hello #translator:timeout#</p>' })),
    });
    expect(res.status).toBe(502);
    expect(((await res.json()) as { msg: string }).msg).toBe('The translation service did not answer in time. Please try again.');
    expect(Date.now() - started).toBeLessThan(5000);
    await (await translator()).local?.close();
  });

  test('§5: not into English, not without text, only known fields', async () => {
    const en = await h.request('POST', '/ai/translateQuestionInHtml', { token: editor, body: translateBody({ q: '<p>Hi</p>' }, 'en') });
    expect(en.status).toBe(400);
    expect(en.body.msg).toBe('Selected language should not be english');
    const empty = await h.request('POST', '/ai/translateQuestionInHtml', { token: editor, body: translateBody({ q: '<p> </p>', o0: '<p><img src="/m.png"></p>' }) });
    expect(empty.status).toBe(400);
    expect(empty.body.msg).toBe('Nothing to translate');
    const unknown = await h.request('POST', '/ai/translateQuestionInHtml', { token: editor, body: { ...translateBody({ q: '<p>Hi</p>' }), model: 'gpt' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.msg).toBe('Unknown field: model');
  });

  test('a learner is refused, and no request reaches the translator', async () => {
    const before = (await local()).stats().requests;
    const r = await h.request('POST', '/ai/translateQuestionInHtml', { token: learner, body: translateBody({ q: '<p>Hi</p>' }) });
    expect(r.status).toBe(403);
    expect(r.body.msg).toBe('Permission denied');
    const g = await h.request('GET', '/question/generateInDiffLang?lcode=hi&qids=x', { token: learner });
    expect(g.status).toBe(403);
    expect((await local()).stats().requests).toBe(before);
  });

  test('GET /ai/translator tells the editor this is the demo translator', async () => {
    const r = await h.request('GET', '/ai/translator', { token: editor });
    expect(r.body).toEqual({ success: true, data: { mode: 'demo', model: 'local-demo' } });
  });
});

describe('a production installation without TRANSLATE_URL', () => {
  test('Generate is off with a clear message, and no translator is started', async () => {
    const config = { ...h.deps.config, NODE_ENV: 'production' as const };
    const translator = createLazyTranslator(config);
    const app = createApp({ ...h.deps, config, translator });
    const call = (path: string, init: RequestInit = {}) =>
      app.request(`/api${path}`, { ...init, headers: { authorization: `Bearer ${editor}`, 'content-type': 'application/json' } });
    expect(await (await call('/ai/translator')).json()).toEqual({ success: true, data: { mode: 'off', model: null } });
    const r = await call('/ai/translateQuestionInHtml', { method: 'POST', body: JSON.stringify(translateBody({ q: '<p>Hi</p>' })) });
    expect(r.status).toBe(400);
    expect(((await r.json()) as { msg: string }).msg).toBe('Translation is not configured on this server (TRANSLATE_URL). Write the translation by hand.');
    expect((await translator()).local).toBeNull();
  });

  test('TRANSLATE_URL needs TRANSLATE_MODEL', () => {
    expect(() => parseEnv({ TRANSLATE_URL: 'https://api.openai.com/v1' })).toThrow(/TRANSLATE_MODEL is required/);
    expect(parseEnv({ TRANSLATE_URL: 'https://api.openai.com/v1', TRANSLATE_MODEL: 'gpt-4o-mini' }).TRANSLATE_MODEL).toBe('gpt-4o-mini');
  });
});

describe('GET /question/generateInDiffLang (a selection or a set)', () => {
  test('translates and saves machine drafts, placeholders kept; current translations are skipped', async () => {
    const a = await create();
    const b = await create({ q: '<p>Capital of India?</p>', ops: {}, ca: ['New Delhi'], qt: 'f' });
    const done = await create({ trans: { hi: { q: '<p>हाथ से</p>', ops: { a: '<p>एक</p>', b: '<p>दो</p>', c: '<p>तीन</p>', d: '<p>चार</p>' }, ca: ['b'] } } });
    const r = await h.request('GET', `/question/generateInDiffLang?lcode=hi&lname=Hindi&qids=${a},${b},${done}`, { token: editor });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ success: true, msg: 'Translations saved as drafts', skipped: [done], refused: [], demo: true });
    expect([...r.body.translated].sort()).toEqual([a, b].sort());
    const tr = (await row(a)).trans.hi!;
    expect(tr.q).toContain(demoMark('hi'));
    expect(tr.q).toContain('data-latex="\\frac{a}{b}"');
    expect(tr.ops.d).toContain('<img');
    expect(tr).toMatchObject({ mt: true, src: englishSourceHash(await row(a)), ca: ['b'] });
    expect((await row(b)).trans.hi).toMatchObject({ ca: ['New Delhi'], mt: true });
    expect(await tagsOf(a)).toEqual(['tr:hi', 'trd:hi']);
    expect((await row(done)).trans.hi!.q).toBe('<p>हाथ से</p>');
    // A machine draft is listed under the draft filter; an editor saving it as reviewed makes it current.
    const drafts = await h.request('GET', `/question?tr=draft:hi&qids=${a},${b},${done}`, { token: editor });
    expect(drafts.body.data.map((q: { id: string }) => q.id).sort()).toEqual([a, b].sort());
  });

  test('an explanation is translated with its question; a question without one gets none', async () => {
    const a = await create({ expl: '<p>Half of <span data-latex="\\frac{a}{b}"></span> is the answer.</p>' });
    const b = await create();
    const r = await h.request('GET', `/question/generateInDiffLang?lcode=hi&lname=Hindi&qids=${a},${b}`, { token: editor });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const tr = (await row(a)).trans.hi!;
    expect(tr.expl).toContain(demoMark('hi'));
    expect(tr.expl).toContain('data-latex="\\frac{a}{b}"');
    expect(tr).toMatchObject({ mt: true, src: englishSourceHash(await row(a)) });
    expect((await row(b)).trans.hi!.expl).toBeUndefined();
  });

  test('a reply that drops a placeholder: refused, nothing saved, no new version', async () => {
    const id = await create();
    const v = await versions(id);
    (await local()).misbehave('drop');
    const r = await h.request('GET', `/question/generateInDiffLang?lcode=hi&qids=${id}`, { token: editor });
    expect(r.status).toBe(502);
    expect(r.body).toMatchObject({ success: false, msg: 'The translation changed formulas, images or formatting, so it was refused and nothing was saved.' });
    expect(r.body.refused).toEqual([{ id, msg: r.body.msg }]);
    expect((await row(id)).trans).toEqual({});
    expect(await versions(id)).toBe(v);
    expect(await tagsOf(id)).toEqual([]);
  });

  test('markup the translation moved is sanitised again before it is saved', async () => {
    const id = await create();
    (await local()).misbehave('reorder');
    const r = await h.request('GET', `/question/generateInDiffLang?lcode=hi&qids=${id}`, { token: editor });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const q = (await row(id)).trans.hi!.q;
    // <p> and </strong> swapped places: the sanitiser drops the stray close and closes the paragraph.
    expect(q).toContain(demoMark('hi'));
    expect(q.match(/<p>/g)?.length).toBe(q.match(/<\/p>/g)?.length);
    expect(q).toContain('data-latex="\\frac{a}{b}"');
  });

  test('the endpoint busy: nothing saved', async () => {
    const id = await create();
    (await local()).misbehave('busy');
    const r = await h.request('GET', `/question/generateInDiffLang?lcode=hi&qids=${id}`, { token: editor });
    expect(r.status).toBe(502);
    expect(r.body.msg).toContain('busy');
    expect((await row(id)).trans).toEqual({});
  });

  test('§5 messages: English, nothing to translate, unknown fields', async () => {
    expect((await h.request('GET', '/question/generateInDiffLang?lcode=en&qids=x', { token: editor })).body.msg).toBe('Selected language should not be english');
    expect((await h.request('GET', '/question/generateInDiffLang?lcode=hi&qids=', { token: editor })).body.msg).toBe('Nothing to translate');
    expect((await h.request('GET', '/question/generateInDiffLang?lcode=hi&qids=no-such-question', { token: editor })).body.msg).toBe('Nothing to translate');
    const extra = await h.request('GET', '/question/generateInDiffLang?lcode=hi&qids=x&force=1', { token: editor });
    expect(extra.status).toBe(400);
    expect(extra.body.msg).toBe('Unknown field: force');
  });
});

describe('translations that stay true (issue 19 §2)', () => {
  const hi = { q: '<p>आधा कितना है?</p>', ops: { a: '<p>एक</p>', b: '<p>दो</p>', c: '<p>तीन</p>', d: '<p>चार</p>' }, ca: ['b'] };
  const patch = async (id: string, over: Record<string, unknown>) => h.request('PATCH', '/question', { token: editor, body: { ...mcq(), id, st: (await row(id)).st, version: (await row(id)).version, ...over } });

  test('an English change marks the translation stale in the index and the list; saving it reviewed makes it current', async () => {
    const id = await create({ trans: { hi } });
    expect((await row(id)).trans.hi!.src).toBe(englishSourceHash(await row(id)));
    expect(await tagsOf(id)).toEqual(['tr:hi']);

    // English changed, the Hindi sent back as it was: stale.
    const r = await patch(id, { q: '<p>What is a third of six?</p>', trans: { hi } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(await tagsOf(id)).toEqual(['tr:hi', 'trs:hi']);
    const stale = await h.request('GET', `/question?tr=stale:hi&qids=${id}`, { token: editor });
    expect(stale.body.data.map((q: { id: string }) => q.id)).toEqual([id]);
    expect((await h.request('GET', `/question/getQuestionsCount?tr=stale:hi&qids=${id}`, { token: editor })).body.count).toBe(1);

    // A client cannot make it current by sending an old fingerprint back.
    await patch(id, { q: '<p>What is a third of six?</p>', trans: { hi: { ...hi, src: englishSourceHash(mcq() as never) } } });
    expect(await tagsOf(id)).toEqual(['tr:hi', 'trs:hi']);

    // Saved by an editor as reviewed: current again, and `reviewed` itself is not stored.
    await patch(id, { q: '<p>What is a third of six?</p>', trans: { hi: { ...hi, reviewed: true } } });
    expect(await tagsOf(id)).toEqual(['tr:hi']);
    expect((await row(id)).trans.hi).not.toHaveProperty('reviewed');
    expect((await h.request('GET', `/question/getQuestionsCount?tr=stale:hi&qids=${id}`, { token: editor })).body.count).toBe(0);
  });

  test('a status change keeps a stale translation stale', async () => {
    const id = await create({ trans: { hi } });
    await patch(id, { q: '<p>Changed English</p>', trans: { hi } });
    expect((await h.request('PATCH', '/question/updateStatus', { token: editor, body: { id, st: 'REVIEWED' } })).status).toBe(200);
    expect(await tagsOf(id)).toEqual(['tr:hi', 'trs:hi']);
  });

  test('the missing filter lists questions without the language, in the list and the count', async () => {
    const without = await create();
    const withHi = await create({ trans: { hi } });
    const list = await h.request('GET', `/question?tr=missing:hi&qids=${without},${withHi}`, { token: editor });
    expect(list.body.data.map((q: { id: string }) => q.id)).toEqual([without]);
    const count = await h.request('GET', `/question/getQuestionsCount?tr=missing:hi&qt=mcq1&qids=${without},${withHi}`, { token: editor });
    expect(count.body.count).toBe(1);
    expect((await h.request('GET', '/question?tr=gone:hi', { token: editor })).status).toBe(400);
  });

  test('a machine draft is not shown to learners until an editor saves it', async () => {
    // A question of a published set of the demo data, its Hindi taken away.
    const set = (await h.deps.db.select().from(questionSet)).find((s) => s.published && !s.deleted && s.q.length > 0)!;
    const id = set.q[0]!;
    await h.deps.db.update(question).set({ trans: {} }).where(eq(question.id, id));
    const r = await h.request('GET', `/question/generateInDiffLang?lcode=hi&qids=${id}`, { token: editor });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const learnerCopy = async () => (await qsDetailDocs(h.deps.db, [(await first(h.deps.db.select().from(questionSet).where(eq(questionSet.id, set.id))))!]))[0]!.questions.find((q) => q.id === id)!;
    expect((await learnerCopy()).trans).not.toHaveProperty('hi');
    const preview = (await qsDetailDocs(h.deps.db, [set], { preview: true }))[0]!.questions.find((q) => q.id === id)!;
    expect(preview.trans.hi!.q).toContain(demoMark('hi'));
    // Saved in the editor as reviewed: no longer a draft, and learners get it.
    const saved = await row(id);
    const body = { id, version: saved.version, q: saved.q, ops: saved.ops, ca: saved.ca, qt: saved.qt, d: saved.d, s: saved.s, c: saved.c, t: saved.t, e: saved.e, st: saved.st, trans: { hi: { q: saved.trans.hi!.q, ops: saved.trans.hi!.ops, ca: saved.trans.hi!.ca, reviewed: true } } };
    expect((await h.request('PATCH', '/question', { token: editor, body })).status).toBe(200);
    expect((await row(id)).trans.hi).not.toHaveProperty('mt');
    expect(await tagsOf(id)).toEqual(['tr:hi']);
    expect((await learnerCopy()).trans.hi!.q).toContain(demoMark('hi'));
  });
});
