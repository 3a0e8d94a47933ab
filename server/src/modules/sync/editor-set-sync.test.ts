import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MSG } from '@pm/protocol/messages';
import type { EdQuestionSetDoc } from '@pm/protocol/sync/ed-question-set';
import { EDITOR_DOC_SCHEMAS, rxSchemaOf } from '@pm/protocol/sync/rxdb-schemas';
import { PROTOCOL_VERSION } from '@pm/protocol/version';
import { activityLog, questionSet } from '../../db/schema';
import { first } from '../../db/transaction';
import { type Harness, startHarness } from '../../test/harness';

/*
 * The editors' question sets over the replication protocol (docs/authoring.md "Offline authoring"): only editors pull and
 * push them; a set assembled offline keeps its id and is stored as the API stores it; a change
 * made on an older copy is a conflict answered with the server's set; the API's rules still hold.
 */

let h: Harness;
let learner: string;
let editor: string;
let second: string;
let approved: string[]; // (pending review: draft sets may hold them)
beforeAll(async () => {
  h = await startHarness();
  [learner, editor, second] = await Promise.all([h.tokenOf('learner'), h.tokenOf('editor'), h.tokenOf('admin')]);
  // Two questions of the bank to put in (draft) sets.
  approved = [];
  for (const text of ['Capital of Rajasthan?', 'Capital of Kerala?']) {
    const r = await h.request('POST', '/question', { token: editor, body: { q: `<p>${text}</p>`, ops: { a: '<p>A</p>', b: '<p>B</p>' }, ca: ['a'], qt: 'mcq1', d: '3', s: 'gk', c: ['class-10'], t: [], e: [] } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    approved.push(r.body.id as string);
  }
});
afterAll(() => h.destroy());

const V = { 'x-sync-protocol': PROTOCOL_VERSION };
const pull = (token: string | undefined, rev = 0, limit = 1000) =>
  h.request('GET', `/sync/v1/ed_question_set/pull?rev=${rev}&limit=${limit}`, { ...(token && { token }), headers: V });
const push = (token: string | undefined, rows: unknown) => h.request('POST', '/sync/v1/ed_question_set/push', { ...(token && { token }), headers: V, body: rows });
const row = async (id: string) => await first(h.deps.db.select().from(questionSet).where(eq(questionSet.id, id)));

async function pullAll(token: string): Promise<Map<string, EdQuestionSetDoc>> {
  const docs = new Map<string, EdQuestionSetDoc>();
  let rev = 0;
  for (;;) {
    const r = await pull(token, rev, 50);
    expect(r.status).toBe(200);
    for (const d of r.body.documents as EdQuestionSetDoc[]) docs.set(d.id, d);
    if (r.body.documents.length === 0) return docs;
    rev = r.body.checkpoint.rev;
  }
}

function newSet(over: Partial<EdQuestionSetDoc> = {}): EdQuestionSetDoc {
  return {
    id: randomUUID(),
    l: 'Offline mock: capitals',
    mpq: 2,
    tm: 10,
    nm: 0.5,
    dur: 30,
    isM: true,
    free: false,
    inst: '<p>Answer all questions.</p>',
    q: [...approved],
    sections: {},
    pts: Math.floor(Date.now() / 60_000) + 60 * 24,
    draft: true,
    langs: ['hi'],
    trans: {},
    published: false,
    version: 0,
    taken: 0,
    createdAt: Date.now(),
    updatedAt: Date.now(),
    _deleted: false,
    ...over,
  };
}

describe('who may replicate the question sets', () => {
  test('a learner is refused pull and push (403), a guest must log in (401); nothing is written', async () => {
    const before = (await h.deps.db.select().from(questionSet)).length;
    for (const r of [await pull(learner), await push(learner, [{ newDocumentState: newSet(), assumedMasterState: null }])]) {
      expect(r.status).toBe(403);
      expect(r.body).toMatchObject({ success: false, msg: MSG.permissionDenied });
    }
    expect((await pull(undefined)).status).toBe(401);
    expect((await push(undefined, [{ newDocumentState: newSet(), assumedMasterState: null }])).status).toBe(401);
    expect(await h.deps.db.select().from(questionSet)).toHaveLength(before);
  });

  test('an editor pulls every set with its question ids, drafts included, in the collection schema', async () => {
    const docs = await pullAll(editor);
    const live = await h.deps.db.select().from(questionSet);
    expect(docs.size).toBe(live.length);
    for (const d of docs.values()) EDITOR_DOC_SCHEMAS.ed_question_set.parse(d);
    const one = live[0]!;
    expect(docs.get(one.id)).toMatchObject({ l: one.l, q: one.q, draft: one.draft, updatedAt: one.updatedAt });
    expect(rxSchemaOf('ed_question_set')).toMatchObject({ title: 'ed_question_set', primaryKey: 'id', version: 1 });
  });
});

describe('pushing sets', () => {
  test('a set assembled offline is stored under its id, as the API stores it, with its activity entry', async () => {
    const doc = newSet();
    const r = await push(editor, [{ newDocumentState: doc, assumedMasterState: null }]);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ conflicts: [], refused: [] });
    const stored = (await row(doc.id))!;
    expect(stored).toMatchObject({ l: doc.l, q: approved, mpq: 2, tm: 10, draft: true, deleted: false, createdBy: 'demo-editor' });
    const api = await h.request('GET', `/question/getQuestionSet/${doc.id}`, { token: editor });
    expect(api.body.data).toMatchObject({ id: doc.id, l: doc.l, q: approved });
    const logged = await h.deps.db.select().from(activityLog).where(eq(activityLog.entityId, doc.id));
    expect(logged.map((l) => [l.actionType, l.entityAffected, l.personId])).toEqual([['CREATE', 'question_set', 'demo-editor']]);
    // The device pulls it back with the server's clock.
    expect((await pullAll(editor)).get(doc.id)).toMatchObject({ id: doc.id, updatedAt: stored.updatedAt, _deleted: false });
    // The push's answer carried the same document as stored.
    expect(r.body.stored).toEqual([(await pullAll(editor)).get(doc.id)]);
  });

  test('two editors change one set: the second gets a conflict with the first one’s set, nothing is overwritten', async () => {
    const doc = newSet({ l: 'Set both edit' });
    expect((await push(editor, [{ newDocumentState: doc, assumedMasterState: null }])).status).toBe(200);
    const master = (await pullAll(editor)).get(doc.id)!;
    const first = await push(editor, [{ newDocumentState: { ...master, l: 'Edited by the first' }, assumedMasterState: master }]);
    expect(first.body).toMatchObject({ conflicts: [], refused: [] });
    const second_ = await push(second, [{ newDocumentState: { ...master, l: 'Edited by the second' }, assumedMasterState: master }]);
    expect(second_.status).toBe(200);
    expect(second_.body.conflicts).toHaveLength(1);
    expect(second_.body.conflicts[0]).toMatchObject({ id: doc.id, l: 'Edited by the first' });
    expect((await row(doc.id))!.l).toBe('Edited by the first');
    // A device that never saw an existing set (assumed null) conflicts too.
    const blind = await push(second, [{ newDocumentState: { ...master, l: 'Blind' }, assumedMasterState: null }]);
    expect(blind.body.conflicts).toHaveLength(1);
    expect((await row(doc.id))!.l).toBe('Edited by the first');
  });

  test('rows the rules refuse are answered with their message and not stored; the others in the push are', async () => {
    const good = newSet({ l: 'Good set' });
    const noLabel = newSet({ l: '' });
    const unapproved = newSet({ l: 'Published too early', draft: false, q: ['not-a-question'], tm: 0 });
    const overLimit = newSet({ l: 'Too many', tm: 2, mpq: 2 });
    const r = await push(editor, [good, noLabel, unapproved, overLimit].map((d) => ({ newDocumentState: d, assumedMasterState: null })));
    expect(r.status).toBe(200);
    expect(r.body.conflicts).toEqual([]);
    const refused = new Map((r.body.refused as { id: string; msg: string }[]).map((x) => [x.id, x.msg]));
    expect(refused.get(noLabel.id)).toBe('Question set cannot be saved without label');
    expect(refused.get(unapproved.id)).toContain(MSG.unknownQuestion);
    expect(refused.get(overLimit.id)).toBe('Only 1 questions are allowed in Main section');
    expect(refused.has(good.id)).toBe(false);
    expect(await row(good.id)).toBeTruthy();
    for (const d of [noLabel, unapproved, overLimit]) expect(await row(d.id)).toBeUndefined();
  });

  test('a malformed push (unknown field, wrong type) is a 400 with a message and stores nothing', async () => {
    const before = (await h.deps.db.select().from(questionSet)).length;
    for (const body of [[{ newDocumentState: { ...newSet(), extra: 1 }, assumedMasterState: null }], [{ newDocumentState: { ...newSet(), mpq: 'two' } }], {}]) {
      const r = await push(editor, body);
      expect(r.status).toBe(400);
      expect(typeof r.body.msg).toBe('string');
    }
    expect(await h.deps.db.select().from(questionSet)).toHaveLength(before);
  });

  test('a deletion replicates as a tombstone; a set made and deleted offline is nothing', async () => {
    const doc = newSet({ l: 'To delete' });
    await push(editor, [{ newDocumentState: doc, assumedMasterState: null }]);
    const master = (await pullAll(editor)).get(doc.id)!;
    const r = await push(editor, [{ newDocumentState: { ...master, _deleted: true }, assumedMasterState: master }]);
    expect(r.body).toMatchObject({ conflicts: [], refused: [] });
    expect((await row(doc.id))!.deleted).toBe(true);
    expect((await pullAll(editor)).get(doc.id)).toMatchObject({ _deleted: true });
    const ghost = newSet();
    expect((await push(editor, [{ newDocumentState: { ...ghost, _deleted: true }, assumedMasterState: null }])).body).toMatchObject({ conflicts: [], refused: [] });
    expect(await row(ghost.id)).toBeUndefined();
  });
});
