import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MSG } from '@pm/protocol/messages';
import { setQuestionIds } from '@pm/protocol/question-set';
import { PROTOCOL_VERSION } from '@pm/protocol/version';
import { permission, personPermission, question, questionSet } from '../../server/src/db/schema';
import { DEMO, type Harness, startHarness } from '../../server/src/test/harness';
import { first } from '../../server/src/db/transaction';
import { grantTestPlan } from '../../server/src/test/builders';

/**
 * docs/security.md "Answer keys". A question reaches someone without QUESTION_EDITOR (a guest, a
 * learner, an admin without it) only through a set learners see (published, not deleted), each id
 * decided on its own; correct answers only through a published practice set, and never while a
 * mock test holds the question: a mock test's answers reach a learner only in the result of their
 * own submission. The rule lives in server/src/modules/questions/question-access.ts; these cases
 * drive every read path through the real HTTP app.
 */

let h: Harness;
let editor: string;
let learner: string;
/** The demo admin, with QUESTION_EDITOR taken away (an admin is not an editor by rank). */
let admin: string;

type Reader = { who: string; token: string | undefined };
/** Everyone who is not an editor; guests have no replica (the sync routes need a login). */
let readers: Reader[];
let signedInReaders: Reader[];

type Q = { id: string; ca?: string[]; trans: Record<string, { ca?: string[] }> };
type Detail = { id: string; isM: boolean; questions: Q[]; _deleted: boolean; main: { q: string[] } };

const V = { 'x-sync-protocol': PROTOCOL_VERSION };
const minuteNow = () => Math.floor(Date.now() / 60_000);

const ids = {} as Record<
  | 'practice'
  | 'practiceAndMock'
  | 'practiceAndFutureMock'
  | 'mock'
  | 'mockSubjective'
  | 'draft'
  | 'futureMock'
  | 'withdrawn'
  | 'deletedSet'
  | 'deletedQuestion'
  | 'loose',
  string
>;
const sets = {} as Record<'practicePub' | 'mockPub' | 'practiceFuture' | 'mockFuture' | 'practiceWithdrawn' | 'practiceDeleted', string>;

/** Questions no non-editor may read, and an id that never existed: all must look the same. */
const hiddenIds = () => [ids.draft, ids.futureMock, ids.withdrawn, ids.deletedSet, ids.deletedQuestion, ids.loose, 'no-such-question'];
/** Readable by everyone; only `practice` with its answers. */
const visibleIds = () => [ids.practice, ids.practiceAndMock, ids.practiceAndFutureMock, ids.mock, ids.mockSubjective];

async function newQuestion(label: string, subjective = false): Promise<string> {
  const body = subjective
    ? { q: `<p>${label}: explain.</p>`, ops: {}, qt: 's', ca: [`Model answer of ${label}`], trans: { hi: { q: `<p>${label}: समझाइए।</p>`, ops: {}, ca: ['आदर्श उत्तर'] } } }
    : {
        q: `<p>${label}?</p>`,
        ops: { a: '<p>one</p>', b: '<p>two</p>' },
        qt: 'mcq1',
        ca: ['b'],
        trans: { hi: { q: `<p>${label} (हिंदी)?</p>`, ops: { a: 'एक', b: 'दो' }, ca: ['b'] } },
      };
  const r = await h.request('POST', '/question', { token: editor, body });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  // Reviewed, then approved: only approved questions go into sets that are not drafts (docs/authoring.md "Publishing and unpublishing").
  for (const st of ['REVIEWED', 'APPROVED']) {
    const step = await h.request('PATCH', '/question/updateStatus', { token: editor, body: { id: r.body.id, st } });
    expect(step.status, JSON.stringify(step.body)).toBe(200);
  }
  return r.body.id as string;
}

async function saveSet(over: Record<string, unknown>): Promise<string> {
  // Free for everyone: who may read a paid set's questions is paid-content.test.ts's subject.
  const body = { l: 'Security set', mpq: 1, tm: 0, nm: 0, dur: 10, isM: false, free: true, inst: '', q: [], sections: {}, pts: minuteNow() - 1, ...over };
  const r = await h.request('PATCH', '/question/updateQuestionSet', { token: editor, body });
  expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
  return r.body.id as string;
}

const readList = (token: string | undefined, qids: string[], extra = '') => h.request('GET', `/question?qids=${qids.join(',')}${extra}`, { token });
const pull = (token: string, collection: string, rev = 0) => h.request('GET', `/sync/v1/${collection}/pull?rev=${rev}&limit=1000`, { token, headers: V });

/** Whether a question as served carries any correct answer, in any language. */
function carriesAnswers(q: Q): boolean {
  return (q.ca?.length ?? 0) > 0 || Object.values(q.trans).some((tr) => (tr.ca?.length ?? 0) > 0);
}

/** Every question id some live mock test holds, straight from the database. */
async function heldByLiveMocks(): Promise<Set<string>> {
  const rows = await h.deps.db.select().from(questionSet).where(and(eq(questionSet.isM, true), eq(questionSet.deleted, false)));
  return new Set(rows.flatMap((s) => setQuestionIds(s)));
}

beforeAll(async () => {
  h = await startHarness();
  [editor, learner] = await Promise.all([h.tokenOf('editor'), h.tokenOf('learner')]);
  const qe = (await first(h.deps.db.select().from(permission).where(eq(permission.permission, 'QUESTION_EDITOR'))))!;
  await h.deps.db.delete(personPermission).where(and(eq(personPermission.personId, DEMO.admin.id), eq(personPermission.permissionId, qe.id)));
  admin = await h.tokenOf('admin');
  // Paid sets' questions reach only people whose plan allows them (docs/payments.md): these
  // readers have one, so that what is proved here is the answer-key rule alone.
  await grantTestPlan(h.deps.db, DEMO.learner.id);
  await grantTestPlan(h.deps.db, DEMO.admin.id);
  readers = [
    { who: 'a guest', token: undefined },
    { who: 'a learner', token: learner },
    { who: 'an admin without QUESTION_EDITOR', token: admin },
  ];
  signedInReaders = readers.filter((r) => r.token !== undefined);

  for (const key of Object.keys({ practice: 0, practiceAndMock: 0, practiceAndFutureMock: 0, mock: 0, draft: 0, futureMock: 0, withdrawn: 0, deletedSet: 0, deletedQuestion: 0, loose: 0 })) {
    ids[key as keyof typeof ids] = await newQuestion(key);
  }
  ids.mockSubjective = await newQuestion('mockSubjective', true);

  // Published practice set; one question sits in a sub-section, one is later deleted.
  sets.practicePub = await saveSet({
    l: 'Published practice',
    q: [ids.practice, ids.practiceAndMock, ids.deletedQuestion],
    sections: { Hindi: { ss: true, sub: { Grammar: { q: [ids.practiceAndFutureMock], mpq: 1, tm: 0 } } } },
  });
  // Published mock test: the shared question sits in a section.
  sets.mockPub = await saveSet({ l: 'Published mock', isM: true, q: [ids.mock], sections: { Part: { q: [ids.practiceAndMock, ids.mockSubjective], mpq: 1, tm: 0 } } });
  // Publish times still to come.
  sets.practiceFuture = await saveSet({ l: 'Practice for later', q: [ids.draft], pts: minuteNow() + 600 });
  sets.mockFuture = await saveSet({ l: 'Mock for later', isM: true, q: [ids.futureMock, ids.practiceAndFutureMock], pts: minuteNow() + 600 });
  // Published, then moved into the future (withdrawn); published, then deleted.
  sets.practiceWithdrawn = await saveSet({ l: 'Withdrawn practice', q: [ids.withdrawn] });
  await saveSet({ id: sets.practiceWithdrawn, l: 'Withdrawn practice', q: [ids.withdrawn], pts: minuteNow() + 600 });
  sets.practiceDeleted = await saveSet({ l: 'Deleted practice', q: [ids.deletedSet] });
  expect((await h.request('DELETE', `/question/deleteQuestionSet/${sets.practiceDeleted}`, { token: editor })).status).toBe(200);
  // The API refuses to delete a question a live set holds; a soft-deleted one inside a published
  // set can still exist (deleted before the rule, or by hand), so it is made directly.
  await h.deps.db.update(question).set({ deleted: true }).where(eq(question.id, ids.deletedQuestion));
});
afterAll(() => h.destroy());

test('the admin of these tests really lacks QUESTION_EDITOR (listing the bank is refused)', async () => {
  expect((await h.request('GET', '/question', { token: admin })).status).toBe(403);
  expect((await h.request('GET', '/question', { token: editor })).status).toBe(200);
});

describe('the question API', () => {
  test('a multi-id read by a non-editor gives nothing of unpublished, future, withdrawn or deleted sets, nor deleted questions', async () => {
    for (const { who, token } of readers) {
      // The probe of the finding: two questions of unpublished sets, anonymously.
      const probe = await readList(token, [ids.draft, ids.futureMock]);
      expect(probe.status, who).toBe(200);
      expect(probe.body, who).toEqual({ success: true, data: [] });
      // Everything at once, mixed, repeated: exactly the visible ones, once each, in the order asked.
      const mixed = [...hiddenIds(), ...visibleIds(), ids.draft, ids.practice, ...hiddenIds()];
      const r = await readList(token, mixed, '&l=1000&o=0');
      expect(r.status, who).toBe(200);
      expect(r.body.data.map((q: Q) => q.id).sort(), who).toEqual([...visibleIds()].sort());
      const order = [ids.practiceAndMock, ids.practice, ids.mock];
      expect((await readList(token, [ids.loose, ...order, ids.withdrawn])).body.data.map((q: Q) => q.id), who).toEqual(order);
    }
  });

  test('each id is decided on its own, before the page is cut: hidden ids take no place in a page', async () => {
    for (const { who, token } of readers) {
      const r = await readList(token, [...hiddenIds(), ids.practice], '&l=1&o=0');
      expect(r.body.data.map((q: Q) => q.id), who).toEqual([ids.practice]);
      const second = await readList(token, [...hiddenIds(), ids.practice, ids.mock], '&l=1&o=1');
      expect(second.body.data, who).toHaveLength(1);
      expect([ids.practice, ids.mock], who).toContain(second.body.data[0].id);
    }
  });

  test('a hidden question is answered exactly as one that does not exist', async () => {
    for (const { who, token } of readers) {
      const unknown = await h.request('GET', '/question/no-such-question', { token });
      expect(unknown.status, who).toBe(404);
      expect(unknown.body, who).toMatchObject({ success: false, msg: MSG.questionNotFound });
      for (const id of hiddenIds()) {
        const r = await h.request('GET', `/question/${id}`, { token });
        expect({ status: r.status, body: r.body }, `${who} ${id}`).toEqual({ status: unknown.status, body: unknown.body });
        expect((await readList(token, [id])).body, `${who} ${id}`).toEqual((await readList(token, ['no-such-question'])).body);
      }
    }
  });

  test('practice answers come only through a published practice set that no mock test shares', async () => {
    for (const { who, token } of readers) {
      const got = new Map<string, Q>((await readList(token, visibleIds())).body.data.map((q: Q) => [q.id, q]));
      const practice = got.get(ids.practice)!;
      expect(practice.ca, who).toEqual(['b']);
      expect(practice.trans.hi!.ca, who).toEqual(['b']);
      const one = await h.request('GET', `/question/${ids.practice}`, { token });
      expect(one.body.data.ca, who).toEqual(['b']);
    }
  });

  test("a mock test's answers reach no non-editor, even where a published practice set (or one for later) shares the question", async () => {
    const mockHeld = [ids.mock, ids.mockSubjective, ids.practiceAndMock, ids.practiceAndFutureMock];
    for (const { who, token } of readers) {
      const got = (await readList(token, mockHeld)).body.data as Q[];
      expect(got.map((q) => q.id).sort(), who).toEqual([...mockHeld].sort());
      for (const q of got) {
        expect(carriesAnswers(q), `${who} ${q.id}`).toBe(false);
        // The subjective question's model answer is its `ca`: gone too, as is its translation's.
        expect(JSON.stringify(q), `${who} ${q.id}`).not.toMatch(/Model answer|आदर्श उत्तर/);
      }
      for (const id of mockHeld) {
        const r = await h.request('GET', `/question/${id}`, { token });
        expect(r.status, `${who} ${id}`).toBe(200);
        expect(carriesAnswers(r.body.data), `${who} ${id}`).toBe(false);
      }
    }
  });

  test('sets: non-editors list and read only the sets learners see; a hidden set is answered as an unknown one', async () => {
    const hiddenSets = [sets.practiceFuture, sets.mockFuture, sets.practiceWithdrawn, sets.practiceDeleted];
    for (const { who, token } of readers) {
      const listed = (await h.request('GET', '/question/getQuestionSetList?l=1000', { token })).body.data.map((s: { id: string }) => s.id);
      expect(listed, who).toEqual(expect.arrayContaining([sets.practicePub, sets.mockPub]));
      for (const id of hiddenSets) expect(listed, `${who} ${id}`).not.toContain(id);
      const unknown = await h.request('GET', '/question/getQuestionSet/no-such-set', { token });
      expect(unknown.status, who).toBe(404);
      for (const id of hiddenSets) {
        const r = await h.request('GET', `/question/getQuestionSet/${id}`, { token });
        expect({ status: r.status, body: r.body }, `${who} ${id}`).toEqual({ status: unknown.status, body: unknown.body });
      }
    }
  });

  test('editors still read everything live: hidden sets, their questions and every answer', async () => {
    const live = [...visibleIds(), ids.draft, ids.futureMock, ids.withdrawn, ids.deletedSet, ids.loose];
    const r = await readList(editor, [...live, ids.deletedQuestion, 'no-such-question']);
    expect(r.body.data.map((q: Q) => q.id).sort()).toEqual([...live].sort());
    for (const q of r.body.data as Q[]) expect(carriesAnswers(q), q.id).toBe(true);
    expect((await h.request('GET', `/question/${ids.futureMock}`, { token: editor })).body.data.ca).toEqual(['b']);
    expect((await h.request('GET', `/question/getQuestionSet/${sets.mockFuture}`, { token: editor })).status).toBe(200);
  });
});

describe('replication', () => {
  test('qs_detail: hidden sets come as deleted and empty; no hidden or deleted question reaches a device', async () => {
    const hiddenSets = [sets.practiceFuture, sets.mockFuture, sets.practiceWithdrawn, sets.practiceDeleted];
    for (const { who, token } of signedInReaders) {
      const docs = (await pull(token!, 'qs_detail')).body.documents as Detail[];
      for (const id of hiddenSets) {
        const doc = docs.find((d) => d.id === id);
        expect(doc, `${who} ${id}`).toMatchObject({ _deleted: true, questions: [], main: { q: [] } });
      }
      const text = JSON.stringify(docs);
      for (const id of [ids.draft, ids.futureMock, ids.withdrawn, ids.deletedSet, ids.deletedQuestion, ids.loose]) {
        expect(text.includes(id), `${who} ${id}`).toBe(false);
      }
      const practice = docs.find((d) => d.id === sets.practicePub)!;
      expect(practice.questions.map((q) => q.id).sort(), who).toEqual([ids.practice, ids.practiceAndMock, ids.practiceAndFutureMock].sort());
      const setDocs = (await pull(token!, 'question_set')).body.documents as { id: string; _deleted: boolean; l: string }[];
      for (const id of hiddenSets) expect(setDocs.find((d) => d.id === id), `${who} ${id}`).toMatchObject({ _deleted: true, l: '' });
    }
  });

  test("qs_detail: no device ever holds the answer of a question a live mock test holds; a practice set's other answers are there", async () => {
    for (const { who, token } of signedInReaders) {
      const docs = (await pull(token!, 'qs_detail')).body.documents as Detail[];
      const mockHeld = await heldByLiveMocks();
      let checked = 0;
      for (const doc of docs) {
        for (const q of doc.questions) {
          if (doc.isM || mockHeld.has(q.id)) {
            expect(carriesAnswers(q), `${who} ${doc.id} ${q.id}`).toBe(false);
            checked++;
          }
        }
        if (doc.isM) expect(JSON.stringify(doc), `${who} ${doc.id}`).not.toContain('"ca"');
      }
      expect(checked, who).toBeGreaterThan(20);
      const practice = docs.find((d) => d.id === sets.practicePub)!;
      const byId = new Map(practice.questions.map((q) => [q.id, q]));
      expect(byId.get(ids.practice), who).toMatchObject({ ca: ['b'], trans: { hi: { ca: ['b'] } } });
      expect(carriesAnswers(byId.get(ids.practiceAndMock)!), who).toBe(false);
      expect(carriesAnswers(byId.get(ids.practiceAndFutureMock)!), who).toBe(false);
    }
  });

  test('when a mock test takes a practice question its answer leaves the practice set on every device, and returns when the mock is gone', async () => {
    const cp = (await pull(learner, 'qs_detail')).body.checkpoint.rev;
    const mock = await saveSet({ l: 'Mock taking a practice question', isM: true, q: [ids.practice], pts: minuteNow() + 600 });
    const changed = (await pull(learner, 'qs_detail', cp)).body;
    const practice = (changed.documents as Detail[]).find((d) => d.id === sets.practicePub);
    expect(practice, 'the practice set replicates again').toBeDefined();
    expect(carriesAnswers(practice!.questions.find((q) => q.id === ids.practice)!)).toBe(false);
    for (const { who, token } of readers) {
      expect(carriesAnswers((await h.request('GET', `/question/${ids.practice}`, { token })).body.data), who).toBe(false);
    }

    expect((await h.request('DELETE', `/question/deleteQuestionSet/${mock}`, { token: editor })).status).toBe(200);
    const back = ((await pull(learner, 'qs_detail', changed.checkpoint.rev)).body.documents as Detail[]).find((d) => d.id === sets.practicePub);
    expect(back?.questions.find((q) => q.id === ids.practice)).toMatchObject({ ca: ['b'] });
    expect((await h.request('GET', `/question/${ids.practice}`, { token: learner })).body.data.ca).toEqual(['b']);
  });
});

describe('results', () => {
  test("a mock test's answers reach a learner only in the result of their own submission, and nobody else", async () => {
    // Before: nothing anywhere.
    expect((await h.request('GET', `/question/getExamResult?qsid=${sets.mockPub}`, { token: learner })).status).toBe(404);
    const submitted = await h.request('POST', '/question/submitUserResponse', { token: learner, body: { qsid: sets.mockPub, ures: {} } });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    const inResult = new Map<string, Q>((submitted.body.questions as Q[]).map((q) => [q.id, q]));
    expect(inResult.get(ids.mock)).toMatchObject({ ca: ['b'] });
    expect(inResult.get(ids.mockSubjective)?.ca).toEqual(['Model answer of mockSubjective']);
    const mine = await h.request('GET', `/question/getExamResult?qsid=${sets.mockPub}`, { token: learner });
    expect(mine.status).toBe(200);
    expect(mine.body.questions.every((q: Q) => carriesAnswers(q))).toBe(true);

    // Another person who has not submitted: no result, no answers through any path.
    const theirs = await h.request('GET', `/question/getExamResult?qsid=${sets.mockPub}`, { token: admin });
    expect(theirs.status).toBe(404);
    expect(theirs.body).toMatchObject({ success: false, msg: MSG.resultNotFound });
    expect((await h.request('GET', `/question/getRank?qsid=${sets.mockPub}`, { token: admin })).status).toBe(404);
    const results = (await pull(admin, 'exam_result')).body.documents as { qsid: string }[];
    expect(results.filter((r) => r.qsid === sets.mockPub)).toEqual([]);
    expect(carriesAnswers((await h.request('GET', `/question/${ids.mock}`, { token: admin })).body.data)).toBe(false);
    const mockDoc = ((await pull(admin, 'qs_detail')).body.documents as Detail[]).find((d) => d.id === sets.mockPub)!;
    expect(JSON.stringify(mockDoc)).not.toContain('"ca"');
  });
});
