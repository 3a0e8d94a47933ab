import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MSG } from '@pm/protocol/messages';
import type { EdQuestionDoc } from '@pm/protocol/sync/ed-question';
import { EDITOR_DOC_SCHEMAS, rxSchemaOf } from '@pm/protocol/sync/rxdb-schemas';
import { PROTOCOL_VERSION } from '@pm/protocol/version';
import { activityLog, question, questionVersion } from '../../db/schema';
import { first } from '../../db/transaction';
import { type Harness, startHarness } from '../../test/harness';

/*
 * The editors' question bank over the replication protocol (docs/authoring.md "Offline authoring"): only editors pull and
 * push it; a question made offline keeps its id; an edit made on an older version is a conflict
 * answered with the server's document, never written over it; the API's rules still hold.
 */

let h: Harness;
let learner: string;
let editor: string;
let second: string;
beforeAll(async () => {
  h = await startHarness();
  // The demo admin holds every permission: the second editor.
  [learner, editor, second] = await Promise.all([h.tokenOf('learner'), h.tokenOf('editor'), h.tokenOf('admin')]);
});
afterAll(() => h.destroy());

const V = { 'x-sync-protocol': PROTOCOL_VERSION };
const pull = (token: string | undefined, rev = 0, limit = 1000) =>
  h.request('GET', `/sync/v1/ed_question/pull?rev=${rev}&limit=${limit}`, { ...(token && { token }), headers: V });
const push = (token: string | undefined, rows: unknown) => h.request('POST', '/sync/v1/ed_question/push', { ...(token && { token }), headers: V, body: rows });
const row = async (id: string) => await first(h.deps.db.select().from(question).where(eq(question.id, id)));

/** Everything an editor's device holds, pulled page by page from the start. */
async function pullAll(token: string): Promise<Map<string, EdQuestionDoc>> {
  const docs = new Map<string, EdQuestionDoc>();
  let rev = 0;
  for (;;) {
    const r = await pull(token, rev, 200);
    expect(r.status).toBe(200);
    for (const d of r.body.documents as EdQuestionDoc[]) docs.set(d.id, d);
    if (r.body.documents.length === 0) return docs;
    rev = r.body.checkpoint.rev;
  }
}

function newDoc(over: Partial<EdQuestionDoc> = {}): EdQuestionDoc {
  return {
    id: randomUUID(),
    q: '<p>Which river flows through Varanasi?</p>',
    ops: { a: '<p>Ganga</p>', b: '<p>Narmada</p>', c: '<p>Kaveri</p>', d: '<p>Tapti</p>' },
    c: [],
    d: '3',
    ca: ['a'],
    qt: 'mcq1',
    s: null,
    t: [],
    e: [],
    st: 'PENDING',
    reason: null,
    trans: { hi: { q: '<p>वाराणसी से होकर कौन सी नदी बहती है?</p>', ops: { a: '<p>गंगा</p>', b: '<p>नर्मदा</p>', c: '<p>कावेरी</p>', d: '<p>ताप्ती</p>' }, ca: ['a'] } },
    expl: '',
    version: 0,
    updatedAt: Date.now(),
    _deleted: false,
    ...over,
  };
}

describe('who may replicate the question bank', () => {
  test('a learner is refused pull and push (403), a guest must log in (401); nothing is written', async () => {
    const before = (await h.deps.db.select().from(question)).length;
    for (const r of [await pull(learner), await push(learner, [{ newDocumentState: newDoc(), assumedMasterState: null }])]) {
      expect(r.status).toBe(403);
      expect(r.body).toMatchObject({ success: false, msg: MSG.permissionDenied });
    }
    expect((await pull(undefined)).status).toBe(401);
    expect((await push(undefined, [{ newDocumentState: newDoc(), assumedMasterState: null }])).status).toBe(401);
    expect(await h.deps.db.select().from(question)).toHaveLength(before);
  });

  test('an editor pulls every question with its answers and translations, in revision order', async () => {
    const docs = await pullAll(editor);
    const gk = docs.get('q-gk-001');
    expect(gk).toBeDefined();
    expect(gk?.ca.length).toBeGreaterThan(0);
    expect(gk?.version).toBeGreaterThanOrEqual(1);
    // Every document is what the device's RxDB schema accepts.
    for (const d of docs.values()) EDITOR_DOC_SCHEMAS.ed_question.parse(d);
    expect(rxSchemaOf('ed_question')).toMatchObject({ title: 'ed_question', primaryKey: 'id', version: 1 });
  });
});

describe('pushing questions', () => {
  test('a question made offline is stored with its id as version 1, with its history and activity entry', async () => {
    const doc = newDoc();
    const r = await push(editor, [{ newDocumentState: doc, assumedMasterState: null }]);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ conflicts: [], refused: [] });
    expect(await row(doc.id)).toMatchObject({ id: doc.id, version: 1, st: 'PENDING', createdBy: 'demo-editor', q: doc.q });
    // The answer carries the stored document, as the pull will give it.
    expect(r.body.stored).toEqual([(await pullAll(editor)).get(doc.id)]);
    expect(await h.deps.db.select().from(questionVersion).where(eq(questionVersion.questionId, doc.id))).toHaveLength(1);
    const logged = await h.deps.db.select().from(activityLog).where(and(eq(activityLog.entityAffected, 'question'), eq(activityLog.entityId, doc.id)));
    expect(logged.map((l) => l.actionType)).toEqual(['CREATE']);
    // The device learns the stored version by pulling.
    expect((await pullAll(editor)).get(doc.id)).toMatchObject({ version: 1, _deleted: false });
    // The same push again (the answer was lost) is a conflict with the stored question, not a second question.
    const again = await push(editor, [{ newDocumentState: doc, assumedMasterState: null }]);
    expect(again.body.conflicts).toHaveLength(1);
    expect(again.body.conflicts[0]).toMatchObject({ id: doc.id, version: 1 });
  });

  test('two editors change one question: the second gets a conflict with the first one’s version, nothing is overwritten', async () => {
    const doc = newDoc();
    await push(editor, [{ newDocumentState: doc, assumedMasterState: null }]);
    const master = (await pullAll(editor)).get(doc.id)!;
    const theirs = (await pullAll(second)).get(doc.id)!;
    expect(theirs).toEqual(master);

    const mine = { ...master, q: '<p>Which river flows through Varanasi, the holy city?</p>' };
    const first = await push(editor, [{ newDocumentState: mine, assumedMasterState: master }]);
    expect(first.body).toMatchObject({ conflicts: [], refused: [] });
    expect(await row(doc.id)).toMatchObject({ version: 2, q: mine.q });

    const other = { ...theirs, d: '5' as const, q: '<p>Varanasi lies on which river?</p>' };
    const late = await push(second, [{ newDocumentState: other, assumedMasterState: theirs }]);
    expect(late.status).toBe(200);
    expect(late.body.refused).toEqual([]);
    expect(late.body.conflicts).toHaveLength(1);
    expect(late.body.conflicts[0]).toMatchObject({ id: doc.id, version: 2, q: mine.q, d: '3' });
    // The first editor's words stay; the second's are not stored anywhere on the server yet.
    expect(await row(doc.id)).toMatchObject({ version: 2, q: mine.q, d: '3' });

    // The second editor merges (their difficulty, the first one's words) on the server's version: stored.
    const merged = { ...late.body.conflicts[0], d: '5' };
    const resolved = await push(second, [{ newDocumentState: merged, assumedMasterState: late.body.conflicts[0] }]);
    expect(resolved.body).toMatchObject({ conflicts: [], refused: [] });
    expect(await row(doc.id)).toMatchObject({ version: 3, q: mine.q, d: '5', updatedBy: 'demo-admin' });
  });

  test('a row the rules refuse is answered with its message and not stored; the others in the push are', async () => {
    const bad = newDoc({ ca: [] });
    const good = newDoc();
    const r = await push(editor, [
      { newDocumentState: bad, assumedMasterState: null },
      { newDocumentState: good, assumedMasterState: null },
    ]);
    expect(r.status).toBe(200);
    expect(r.body.conflicts).toEqual([]);
    expect(r.body.refused).toEqual([{ id: bad.id, msg: 'Correct answer is missing.' }]);
    expect(await row(bad.id)).toBeUndefined();
    expect(await row(good.id)).toMatchObject({ version: 1 });
  });

  test('a malformed push (unknown field, wrong type, too many rows) is a 400 with a message and stores nothing', async () => {
    const before = (await h.deps.db.select().from(question)).length;
    const cases = [
      [{ newDocumentState: { ...newDoc(), extra: 1 }, assumedMasterState: null }],
      [{ newDocumentState: { ...newDoc(), version: 'one' }, assumedMasterState: null }],
      Array.from({ length: 101 }, () => ({ newDocumentState: newDoc(), assumedMasterState: null })),
      [],
    ];
    for (const body of cases) {
      const r = await push(editor, body);
      expect(r.status).toBe(400);
      expect(typeof r.body.msg).toBe('string');
    }
    expect(await h.deps.db.select().from(question)).toHaveLength(before);
  });

  test('a delete replicates as a tombstone; a question a set holds is refused, not deleted', async () => {
    const doc = newDoc();
    await push(editor, [{ newDocumentState: doc, assumedMasterState: null }]);
    const master = (await pullAll(editor)).get(doc.id)!;
    const r = await push(editor, [{ newDocumentState: { ...master, _deleted: true }, assumedMasterState: master }]);
    expect(r.body).toMatchObject({ conflicts: [], refused: [] });
    expect((await row(doc.id))?.deleted).toBe(true);
    expect((await pullAll(editor)).get(doc.id)).toMatchObject({ _deleted: true });

    const held = (await pullAll(editor)).get('q-gk-001')!;
    const refused = await push(editor, [{ newDocumentState: { ...held, _deleted: true }, assumedMasterState: held }]);
    expect(refused.body.refused).toHaveLength(1);
    expect(refused.body.refused[0].msg).toContain(MSG.questionInUse);
    expect((await row('q-gk-001'))?.deleted).toBe(false);
  });
});
