import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { IDBKeyRange, indexedDB } from 'fake-indexeddb';
import { getRxStorageLoggedMemory } from '../../client/src/db/core/logged-memory-storage';
import { wrappedValidateAjvStorage } from 'rxdb/plugins/validate-ajv';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { atMost, type CollectionReplication, type EditorReplication, replicateEditorCollection, startEditorReplication } from '../../client/src/db/editor/editor-replication';
import { type EditorReplica, type EdQuestion, type EdQuestionSet, isSetConflict, openEditorReplica } from '../../client/src/db/editor/editor-replica';
import { question, questionSet } from '../../server/src/db/schema';
import { first } from '../../server/src/db/transaction';
import { DEMO } from '../../server/src/test/harness';
import { eventually as until, startServer, type TestServer } from './harness';

/** Retries the assertions until they hold (15 s), then runs them once more for their message. */
async function eventually(check: () => unknown): Promise<void> {
  await until(async () => {
    try {
      await check();
      return true;
    } catch {
      return false;
    }
  }).catch(() => undefined);
  await check();
}

/*
 * The editor's question sets (ed_question_set) against the real server over HTTP, as the app
 * replicates them (offline/editor-replica-store.ts): a question and a set naming it, both made
 * offline, go up when the device is online again — the question first; two editors changing one
 * set end with both versions on the second device until the editor chooses.
 */

let server: TestServer;
let tokens: { editor: string; admin: string };
const stops: (() => Promise<void>)[] = [];
let seq = 0;

beforeAll(async () => {
  server = await startServer();
  tokens = { editor: await server.harness.tokenOf('editor'), admin: await server.harness.tokenOf('admin') };
});
afterAll(async () => {
  for (const stop of stops.reverse()) await stop().catch(() => undefined);
  await server.stop();
});

async function device(who: 'editor' | 'admin') {
  const storage = wrappedValidateAjvStorage({ storage: getRxStorageLoggedMemory({ indexedDB, IDBKeyRange }) });
  const replica: EditorReplica = await openEditorReplica(who === 'editor' ? DEMO.editor.id : DEMO.admin.id, { storage, multiInstance: false, name: `ed-set-device-${++seq}-${Date.now()}` });
  let running: { questions: EditorReplication; sets: CollectionReplication<EdQuestionSet> } | null = null;
  const offline = async () => {
    if (!running) return;
    await Promise.all([running.questions.stop(), running.sets.stop()]);
    running = null;
  };
  stops.push(async () => {
    await offline();
    await replica.close();
  });
  return {
    replica,
    online() {
      const options = { baseUrl: server.url, getToken: () => tokens[who], waitForLeadership: false, retryBaseMs: 200 };
      const questions = startEditorReplication(replica, options);
      const sets = replicateEditorCollection(replica, 'ed_question_set', replica.db.ed_question_set, { ...options, beforePush: () => atMost(questions.awaitInSync(), 60_000) });
      running = { questions, sets };
    },
    offline,
    async sync() {
      await running!.questions.awaitInSync();
      await running!.sets.awaitInSync();
    },
    async set(id: string): Promise<EdQuestionSet | null> {
      return ((await replica.db.ed_question_set.findOne(id).exec())?.toJSON() as EdQuestionSet | undefined) ?? null;
    },
  };
}

const serverSet = async (id: string) => await first(server.harness.deps.db.select().from(questionSet).where(eq(questionSet.id, id)));
const serverQuestion = async (id: string) => await first(server.harness.deps.db.select().from(question).where(eq(question.id, id)));

function offlineQuestion(): EdQuestion {
  return {
    id: randomUUID(),
    q: '<p>Which fort is in Jaipur?</p>',
    ops: { a: '<p>Amer</p>', b: '<p>Golconda</p>' },
    c: [],
    d: '2',
    ca: ['a'],
    qt: 'mcq1',
    s: null,
    t: [],
    e: [],
    st: 'PENDING',
    reason: null,
    expl: '',
    trans: {},
    version: 0,
    updatedAt: Date.now(),
  };
}

function offlineSet(q: string[], over: Partial<EdQuestionSet> = {}): EdQuestionSet {
  const now = Date.now();
  return {
    id: randomUUID(),
    l: 'Forts of Rajasthan (made offline)',
    mpq: 1,
    tm: 0,
    nm: 0,
    dur: 20,
    isM: false,
    free: false,
    inst: '',
    q,
    sections: {},
    pts: Math.floor(now / 60_000) + 600,
    draft: true,
    langs: [],
    trans: {},
    published: false,
    version: 0,
    taken: 0,
    createdAt: now,
    updatedAt: now,
    ...over,
  };
}

test('a question and a set naming it, both made offline, are uploaded when the device is online — the question first', async () => {
  const d = await device('editor');
  d.online();
  await d.sync();
  expect((await d.replica.db.ed_question_set.count().exec()) > 0).toBe(true);
  await d.offline();

  const q = offlineQuestion();
  const set = offlineSet([q.id]);
  await d.replica.save(q);
  await d.replica.saveSet(set);
  expect(d.replica.state().pending).toEqual([q.id, set.id]);

  d.online();
  await eventually(async () => expect(await serverSet(set.id)).toBeTruthy());
  expect(await serverQuestion(q.id)).toMatchObject({ q: q.q });
  expect(await serverSet(set.id)).toMatchObject({ l: set.l, q: [q.id], draft: true, createdBy: DEMO.editor.id });
  await eventually(() => expect(d.replica.state()).toMatchObject({ pending: [], refused: [], conflicts: [] }));
  // The device holds the server's copy (its clock) once pulled back.
  await eventually(async () => expect((await d.set(set.id))?.updatedAt).toBe((await serverSet(set.id))!.updatedAt));
});

test('two editors change one set: the second device keeps both versions until the editor chooses', async () => {
  const a = await device('editor');
  const b = await device('admin');
  const made = offlineSet([], { l: 'Shared set', q: ['q-gk-001'] });
  a.online();
  await a.sync();
  await a.replica.saveSet(made);
  await eventually(async () => expect(await serverSet(made.id)).toBeTruthy());
  b.online();
  await b.sync();
  await eventually(async () => expect(await b.set(made.id)).toBeTruthy());
  await b.offline();

  // A changes it online; B changes the copy it holds offline.
  await a.replica.saveSet({ ...(await a.set(made.id))!, l: 'Shared set (A)' });
  await eventually(async () => expect((await serverSet(made.id))!.l).toBe('Shared set (A)'));
  await b.replica.saveSet({ ...(await b.set(made.id))!, l: 'Shared set (B)' });
  b.online();
  await eventually(() => expect(b.replica.state().conflicts).toHaveLength(1));
  const conflict = b.replica.state().conflicts[0]!;
  expect(isSetConflict(conflict)).toBe(true);
  expect(conflict.mine).toMatchObject({ l: 'Shared set (B)' });
  expect(conflict.theirs).toMatchObject({ l: 'Shared set (A)' });
  // Nothing overwritten until the editor chooses.
  expect((await serverSet(made.id))!.l).toBe('Shared set (A)');

  await b.replica.resolveConflict(made.id, 'mine');
  await eventually(async () => expect((await serverSet(made.id))!.l).toBe('Shared set (B)'));
  await eventually(() => expect(b.replica.state()).toMatchObject({ pending: [], conflicts: [] }));
});

test('a set the server refuses (not a draft, questions not approved) is kept on the device with the message', async () => {
  const d = await device('editor');
  d.online();
  await d.sync();
  const q = offlineQuestion();
  await d.replica.save(q);
  const set = offlineSet([q.id], { draft: false });
  await d.replica.saveSet(set);
  await eventually(() => expect(d.replica.state().refused.map((r) => r.id)).toEqual([set.id]));
  expect(d.replica.state().refused[0]!.msg).toContain(q.id);
  expect(await serverSet(set.id)).toBeUndefined();
  expect(await d.set(set.id)).toMatchObject({ l: set.l });
});
