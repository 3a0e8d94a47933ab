import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import hiMessages from '../../client/src/locales/hi/messages.json';
import { MSG } from '@pm/protocol/messages';
import type { EdQuestionDoc } from '@pm/protocol/sync/ed-question';
import { PROTOCOL_VERSION } from '@pm/protocol/version';
import { question, questionVersion } from '../../server/src/db/schema';
import { first } from '../../server/src/db/transaction';
import { type Harness, startHarness } from '../../server/src/test/harness';
import { mcqQuestion } from '../../server/src/test/builders';

/**
 * Two editors editing one question must not overwrite each other silently,
 * online or through the editor's replication (docs/security.md, "Editors' concurrent edits").
 * PATCH /api/question carries the version the edit was made from: a stale one is 409 with the
 * current question and writes nothing; none at all is 400 naming `version`. A push of the
 * `ed_question` collection is applied only when its assumed master state is the server's whole
 * document, not merely a document with the same version number.
 */

let h: Harness;
let editor: string;
let second: string;
beforeAll(async () => {
  h = await startHarness();
  // The demo admin holds every permission: the second editor.
  [editor, second] = await Promise.all([h.tokenOf('editor'), h.tokenOf('admin')]);
});
afterAll(() => h.destroy());

const mcq = mcqQuestion;

const row = async (id: string) => (await first(h.deps.db.select().from(question).where(eq(question.id, id))))!;
const versionsOf = async (id: string) => (await h.deps.db.select().from(questionVersion).where(eq(questionVersion.questionId, id))).length;

async function created(): Promise<{ id: string; version: number }> {
  const r = await h.request('POST', '/question', { token: editor, body: mcq() });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return { id: r.body.id, version: r.body.data.version };
}

describe('PATCH /api/question carries the version it was edited from', () => {
  test('two editors save from the same version: the second gets 409 with the current question, nothing is overwritten', async () => {
    const { id, version } = await created();
    const firstSave = await h.request('PATCH', '/question', { token: editor, body: { ...mcq({ q: '<p>The Red Planet is?</p>' }), id, version } });
    expect(firstSave.status, JSON.stringify(firstSave.body)).toBe(200);
    expect(firstSave.body.data).toMatchObject({ version: version + 1, q: '<p>The Red Planet is?</p>' });

    const late = await h.request('PATCH', '/question', { token: second, body: { ...mcq({ d: '5', q: '<p>Mars is called?</p>' }), id, version } });
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ success: false, code: 'CONFLICT', msg: MSG.questionChanged });
    // The current question, whole, for the editor to compare with their own.
    expect(late.body.current).toMatchObject({ id, version: version + 1, q: '<p>The Red Planet is?</p>', d: '2', updatedBy: 'demo-editor' });
    expect(await row(id)).toMatchObject({ version: version + 1, q: '<p>The Red Planet is?</p>', d: '2' });
    expect(await versionsOf(id)).toBe(version + 1);

    // Keeping their own on top of the current version is an ordinary save.
    const kept = await h.request('PATCH', '/question', { token: second, body: { ...mcq({ d: '5', q: '<p>Mars is called?</p>' }), id, version: late.body.current.version } });
    expect(kept.status, JSON.stringify(kept.body)).toBe(200);
    expect(await row(id)).toMatchObject({ version: version + 2, q: '<p>Mars is called?</p>', d: '5', updatedBy: 'demo-admin' });
  });

  test('two saves from one version sent together: exactly one is stored', async () => {
    const { id, version } = await created();
    const answers = await Promise.all(
      ['<p>One</p>', '<p>Two</p>'].map((q, i) => h.request('PATCH', '/question', { token: i ? second : editor, body: { ...mcq({ q }), id, version } })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const stored = answers.find((a) => a.status === 200)!.body.data.q;
    expect(answers.find((a) => a.status === 409)!.body.current).toMatchObject({ version: version + 1, q: stored });
    expect(await row(id)).toMatchObject({ version: version + 1, q: stored });
  });

  test('a save without a usable version is 400 naming `version`, in English and Hindi, and writes nothing', async () => {
    const { id, version } = await created();
    for (const v of [undefined, '1', 0, 1.5, null]) {
      const r = await h.request('PATCH', '/question', { token: editor, body: { ...mcq({ q: '<p>Overwritten?</p>' }), id, ...(v !== undefined && { version: v }) } });
      expect(r.status, String(v)).toBe(400);
      // The field named first (lib/http.ts words a value of the wrong type its own way).
      expect(r.body.msg).toMatch(/^version /);
      if (v === undefined || v === 0) expect(r.body.msg).toBe(MSG.questionVersionRequired);
    }
    expect(hiMessages.questionVersionRequired).toMatch(/^version .*संस्करण/);
    expect(hiMessages.questionChanged).toContain('संपादक');
    expect(await row(id)).toMatchObject({ version, q: mcq().q });
  });
});

describe('the editor replication compares the whole assumed master state', () => {
  const V = { 'x-sync-protocol': PROTOCOL_VERSION };
  const push = (token: string, rows: unknown) => h.request('POST', '/sync/v1/ed_question/push', { token, headers: V, body: rows });
  async function pulled(id: string): Promise<EdQuestionDoc> {
    let rev = 0;
    let found: EdQuestionDoc | undefined;
    for (;;) {
      const r = await h.request('GET', `/sync/v1/ed_question/pull?rev=${rev}&limit=1000`, { token: editor, headers: V });
      expect(r.status).toBe(200);
      for (const d of r.body.documents as EdQuestionDoc[]) if (d.id === id) found = d;
      if (r.body.documents.length === 0) return found!;
      rev = r.body.checkpoint.rev;
    }
  }
  function newDoc(q: string): EdQuestionDoc {
    return { ...(mcq({ q }) as Omit<EdQuestionDoc, 'id' | 'version' | 'updatedAt' | '_deleted' | 'st' | 'reason' | 'expl'>), id: randomUUID(), st: 'PENDING', reason: null, expl: '', version: 0, updatedAt: Date.now(), _deleted: false };
  }

  test('an assumed state with the right version but another question’s content is a conflict, not written', async () => {
    const a = newDoc('<p>Question A</p>');
    const b = newDoc('<p>Question B</p>');
    expect((await push(editor, [{ newDocumentState: a, assumedMasterState: null }, { newDocumentState: b, assumedMasterState: null }])).body).toMatchObject({ conflicts: [], refused: [] });
    const masterA = await pulled(a.id);
    const masterB = await pulled(b.id);
    expect(masterA.version).toBe(masterB.version);

    // B's state under A's id: the same version number, not A's document.
    const copied = await push(second, [{ newDocumentState: { ...masterA, q: '<p>Overwritten A</p>' }, assumedMasterState: { ...masterB, id: a.id } }]);
    expect(copied.status).toBe(200);
    expect(copied.body.refused).toEqual([]);
    expect(copied.body.conflicts).toEqual([masterA]);
    expect(await row(a.id)).toMatchObject({ version: masterA.version, q: '<p>Question A</p>' });
  });

  test('an assumed state with the right version but other words or fields is a conflict, not written; the real one is stored', async () => {
    const doc = newDoc('<p>The real words</p>');
    await push(editor, [{ newDocumentState: doc, assumedMasterState: null }]);
    const master = await pulled(doc.id);
    const edit = { ...master, q: '<p>Second editor’s words</p>' };
    for (const assumed of [{ ...master, q: '<p>Other words</p>' }, { ...master, ca: ['a'] }, { ...master, updatedAt: master.updatedAt - 1 }, { ...master, trans: {} }]) {
      const r = await push(second, [{ newDocumentState: edit, assumedMasterState: assumed }]);
      expect(r.body.conflicts, JSON.stringify(assumed)).toEqual([master]);
      expect(await row(doc.id)).toMatchObject({ version: master.version, q: '<p>The real words</p>' });
    }
    const real = await push(second, [{ newDocumentState: edit, assumedMasterState: master }]);
    expect(real.body).toMatchObject({ conflicts: [], refused: [] });
    expect(await row(doc.id)).toMatchObject({ version: master.version + 1, q: '<p>Second editor’s words</p>' });
  });
});
