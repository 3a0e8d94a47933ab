import { getRxStorageMemory } from 'rxdb/plugins/storage-memory';
import { afterEach, expect, test } from 'vitest';
import { QUESTION_STATUSES, QUESTION_TYPES } from '@pm/protocol/question';
import '@/db/core/database';
import { type EdQuestion, type EditorReplica, openEditorReplica } from '@/db/editor/editor-replica';
import type { QuestionFilters } from '../api/question-filters';
import { ApiError } from '@/lib/api-client';
import { localCount, localQuestions, localSave, matches } from './local-questions';
import { mulberry32 } from '@pm/protocol/seeded-random';

/*
 * The bank's list and count answered on the device (offline): the same meaning as before the
 * search index (the reference below is the former implementation, kept word for word), the
 * list's order, and an index that follows every change of the collection.
 */

/** The meaning of a filter as it was before the index: every search and filter must agree with it. */
function reference(d: EdQuestion, f: QuestionFilters): boolean {
  const words = (html: string) =>
    html
      .replace(/<[^>]*>/g, ' ')
      .replace(/&nbsp;/g, ' ')
      .toLowerCase();
  const anyOf = (want: string[] | undefined, have: readonly string[]) => !want?.length || want.some((w) => have.includes(w));
  if (f.s?.length && !(d.s && f.s.includes(d.s))) return false;
  if (!anyOf(f.c, d.c) || !anyOf(f.t, d.t) || !anyOf(f.e, d.e)) return false;
  if (f.qt?.length && !f.qt.includes(d.qt)) return false;
  if (f.d?.length && !f.d.includes(d.d)) return false;
  if (f.st?.length && !f.st.includes(d.st)) return false;
  const search = f.search?.trim().toLowerCase();
  if (search) {
    const text = [d.q, ...Object.values(d.ops), ...d.ca, ...Object.values(d.trans).flatMap((t) => [t.q, ...Object.values(t.ops)])].map(words).join(' ');
    if (!search.split(/\s+/).every((w) => text.includes(w))) return false;
  }
  return true;
}

/** Seeded: the same questions and filters on every run. */
const rand = mulberry32(19);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
const some = <T>(xs: readonly T[], max: number): T[] => [...new Set(Array.from({ length: Math.floor(rand() * (max + 1)) }, () => pick(xs)))];

const WORDS = ['River', 'mountain', 'EMPIRE', 'acid', 'base', 'train', 'speed', 'नदी', 'पर्वत', 'संसद', 'ratio', 'x²', 'a&amp;b', 'pipe'];
const SUBJECTS = ['gk', 'arithmetic', 'reasoning'];
const CLASSES = ['class-10', 'class-12', 'graduate'];
const TOPICS = ['t-1', 't-2', 't-3', 't-4'];
const EXAMS = ['ssc-cgl', 'ibps-po', 'ctet'];
const text = (n: number) => Array.from({ length: n }, () => pick(WORDS)).join(pick([' ', '&nbsp;', ' <b>', '</b> ', '\n']));

function question(i: number, over: Partial<EdQuestion> = {}): EdQuestion {
  return {
    id: `q-${String(i).padStart(4, '0')}`,
    q: `<p>${text(6)}</p>`,
    ops: { a: `<p>${text(2)}</p>`, b: text(2) },
    c: some(CLASSES, 2),
    d: pick(['1', '2', '3', '4', '5'] as const),
    ca: rand() < 0.5 ? ['a'] : [text(2)],
    qt: pick(QUESTION_TYPES),
    s: rand() < 0.2 ? null : pick(SUBJECTS),
    t: some(TOPICS, 2),
    e: some(EXAMS, 2),
    st: pick(QUESTION_STATUSES),
    reason: null,
    expl: '',
    trans: rand() < 0.7 ? { hi: { q: `<p>${text(5)}</p>`, ops: { a: text(2) }, ca: ['a'] } } : {},
    version: 1,
    // Some share a time: the list then orders them by id.
    updatedAt: 1_000 + Math.floor(i / 3),
    ...over,
  };
}

function filters(): QuestionFilters {
  const f: QuestionFilters = {};
  if (rand() < 0.4) f.s = some(SUBJECTS, 2);
  if (rand() < 0.3) f.c = some(CLASSES, 2);
  if (rand() < 0.3) f.t = some(TOPICS, 2);
  if (rand() < 0.3) f.e = some(EXAMS, 2);
  if (rand() < 0.2) f.qt = some(QUESTION_TYPES, 2);
  if (rand() < 0.3) f.d = some(['1', '2', '3', '4', '5'], 2);
  if (rand() < 0.2) f.st = some(QUESTION_STATUSES, 2);
  if (rand() < 0.7) {
    // Whole words, parts of words, two words, odd case and spacing, tags' letters, nothing.
    const w = pick(WORDS).toLowerCase();
    f.search = pick([w, w.slice(1, 4), `${pick(WORDS)}  ${pick(WORDS)}`, ` ${w.toUpperCase()} `, 'p', 'nbsp', '   ', 'river mountain', 'zzz']);
  }
  return f;
}

const opened: EditorReplica[] = [];
let seq = 0;
async function replicaWith(docs: EdQuestion[]) {
  const replica = await openEditorReplica('person-1', { storage: getRxStorageMemory(), multiInstance: false, name: `local-questions-${++seq}-${Date.now()}` });
  opened.push(replica);
  if (docs.length) await replica.db.ed_question.bulkInsert(docs);
  return replica;
}
afterEach(async () => {
  for (const r of opened.splice(0)) await r.db.remove();
});

const newestFirst = (a: EdQuestion, b: EdQuestion) => b.updatedAt - a.updatedAt || (a.id < b.id ? 1 : -1);
const ids = (xs: { id: string }[]) => xs.map((x) => x.id);

test('matches means what it meant before the index, for every filter and search', () => {
  const docs = Array.from({ length: 300 }, (_, i) => question(i));
  let searched = 0;
  for (let k = 0; k < 400; k++) {
    const f = filters();
    const want = docs.map((d) => reference(d, f));
    expect(docs.map((d) => matches(d, f)), JSON.stringify(f)).toEqual(want);
    // Searches that find some questions and not others (not only all or nothing).
    if (f.search?.trim() && want.includes(true) && want.includes(false)) searched++;
  }
  expect(searched).toBeGreaterThan(50);
});

test('matches: several values of a filter mean any of them, the filters together all of them, words all of them', () => {
  const d = question(1, { s: 'gk', c: ['class-10'], e: ['ssc-cgl', 'ctet'], q: '<p>Which <b>river</b>&nbsp;flows</p>', trans: { hi: { q: '<p>नदी</p>', ops: {}, ca: [] } } });
  expect(matches(d, { s: ['arithmetic', 'gk'], e: ['ibps-po', 'ctet'] })).toBe(true);
  expect(matches(d, { s: ['gk'], c: ['class-12'] })).toBe(false);
  expect(matches(d, { search: 'RIVER flows' })).toBe(true);
  expect(matches(d, { search: 'river  नदी' })).toBe(true);
  expect(matches(d, { search: 'river sea' })).toBe(false);
  // Tags are not text.
  expect(matches(d, { search: '<b>' })).toBe(false);
  expect(matches({ ...d, s: null }, { s: ['gk'] })).toBe(false);
});

test('the list and the count on the device agree with the reference, in the list order, page by page', async () => {
  const docs = Array.from({ length: 240 }, (_, i) => question(i));
  const replica = await replicaWith(docs);
  for (let k = 0; k < 60; k++) {
    const f = filters();
    const want = docs.filter((d) => reference(d, f)).sort(newestFirst);
    expect((await localCount(replica, f)).count).toBe(want.length);
    const o = pick([0, 25, 50]);
    const page = await localQuestions(replica, f, { l: 25, o });
    expect(ids(page.data)).toEqual(ids(want.slice(o, o + 25)));
  }
  // The answer has the API's shape.
  const [first] = (await localQuestions(replica, {}, { l: 1, o: 0 })).data;
  expect(first).toMatchObject({ id: docs.slice().sort(newestFirst)[0]!.id, createdBy: null, updatedBy: null });
  expect(first).not.toHaveProperty('_rev');
  expect(first).not.toHaveProperty('_meta');
});

test('the index follows saves, edits, deletions and the replication writes after it was loaded', async () => {
  const replica = await replicaWith([question(1, { q: '<p>alpha</p>', updatedAt: 10 }), question(2, { q: '<p>beta</p>', updatedAt: 20 })]);
  expect(ids((await localQuestions(replica, {}, { l: 25, o: 0 })).data)).toEqual(['q-0002', 'q-0001']);

  // A save on this device: first in the list, and found by its words.
  await replica.save(question(3, { q: '<p>gamma ray</p>', updatedAt: 30 }));
  expect(ids((await localQuestions(replica, {}, { l: 25, o: 0 })).data)).toEqual(['q-0003', 'q-0002', 'q-0001']);
  expect((await localCount(replica, { search: 'gamma' })).count).toBe(1);

  // An edit: the new words are found, the old ones no longer; its new time moves it up.
  await replica.save(question(1, { q: '<p>delta</p>', updatedAt: 40 }));
  expect((await localCount(replica, { search: 'alpha' })).count).toBe(0);
  expect(ids((await localQuestions(replica, { search: 'delta' }, { l: 25, o: 0 })).data)).toEqual(['q-0001']);
  expect(ids((await localQuestions(replica, {}, { l: 25, o: 0 })).data)).toEqual(['q-0001', 'q-0003', 'q-0002']);

  // A deletion, and documents written as the replication writes them (in bulk).
  await replica.remove('q-0003');
  await replica.db.ed_question.bulkUpsert([question(4, { q: '<p>gamma</p>', updatedAt: 5 }), question(2, { q: '<p>beta gamma</p>', updatedAt: 20, st: 'REJECTED' })]);
  expect(ids((await localQuestions(replica, { search: 'gamma' }, { l: 25, o: 0 })).data)).toEqual(['q-0002', 'q-0004']);
  expect((await localCount(replica, { st: ['REJECTED'] })).count).toBe(1);
  expect((await localCount(replica, {})).count).toBe(3);
});

test('a change written while the index loads is not lost', async () => {
  const replica = await replicaWith(Array.from({ length: 50 }, (_, i) => question(i, { updatedAt: 100 })));
  const [count] = await Promise.all([localCount(replica, { search: 'omega' }), replica.save(question(99, { q: '<p>omega</p>', updatedAt: 200 }))]);
  expect(count.count === 0 || count.count === 1).toBe(true);
  expect((await localCount(replica, { search: 'omega' })).count).toBe(1);
  expect((await localCount(replica, {})).count).toBe(51);
});

test('a save on the device from a version older than the device’s copy is refused 409 with that copy; from its version it is stored', async () => {
  // The replica pulled another editor's save (version 3) after the editor opened version 2.
  const theirs = question(7, { q: '<p>Their words</p>', ops: { a: '<p>x</p>', b: '<p>y</p>' }, ca: ['a'], qt: 'mcq1', st: 'PENDING', trans: {}, version: 3 });
  const replica = await replicaWith([theirs]);
  const { version: _v, updatedAt: _u, ...fields } = theirs;
  const mine = { ...fields, q: '<p>My words</p>' };
  const refused = await localSave(replica, { ...mine, version: 2 }).then(
    () => null,
    (err: unknown) => err,
  );
  expect(refused).toBeInstanceOf(ApiError);
  expect(refused).toMatchObject({ status: 409, code: 'CONFLICT', body: { current: { id: theirs.id, version: 3, q: '<p>Their words</p>' } } });
  expect((await replica.db.ed_question.findOne(theirs.id).exec())!.q).toBe('<p>Their words</p>');

  const stored = await localSave(replica, { ...mine, version: 3 });
  expect(stored.data).toMatchObject({ version: 3, q: '<p>My words</p>' });
  expect((await replica.db.ed_question.findOne(theirs.id).exec())!.q).toBe('<p>My words</p>');
});

test('offline, an explanation and a numerical answer are saved on the device and read back in both languages', async () => {
  const replica = await replicaWith([]);
  const stored = await localSave(replica, {
    q: '<p>150 ÷ 2.5?</p>',
    ops: {},
    ca: ['60:0.5'],
    qt: 'n',
    expl: '<p>= 60</p>',
    trans: { hi: { q: '<p>150 ÷ 2.5?</p>', ops: {}, ca: ['60:0.5'], expl: '<p>= ६०</p>' } },
  });
  expect(stored.data).toMatchObject({ qt: 'n', ca: ['60:0.5'], expl: '<p>= 60</p>', trans: { hi: { expl: '<p>= ६०</p>' } } });
  const doc = (await replica.db.ed_question.findOne(stored.data.id).exec())!.toJSON();
  expect(doc).toMatchObject({ expl: '<p>= 60</p>', trans: { hi: { expl: '<p>= ६०</p>' } } });
  // The device refuses what the server would: no number.
  await expect(localSave(replica, { q: '<p>?</p>', ops: {}, ca: ['sixty'], qt: 'n', trans: {} })).rejects.toMatchObject({ status: 400 });
});
