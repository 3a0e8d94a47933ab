import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { IDBKeyRange, indexedDB } from 'fake-indexeddb';
import { getRxStorageLoggedMemory } from '../../client/src/db/core/logged-memory-storage';
import { wrappedValidateAjvStorage } from 'rxdb/plugins/validate-ajv';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type EditorReplica, type EdQuestion, openEditorReplica } from '../../client/src/db/editor/editor-replica';
import { type EditorReplication, startEditorReplication } from '../../client/src/db/editor/editor-replication';
import { question } from '../../server/src/db/schema';
import { first } from '../../server/src/db/transaction';
import { DEMO } from '../../server/src/test/harness';
import { eventually, startServer, type TestServer } from './harness';

/*
 * The editor's replica (client/src/db/editor/editor-replica.ts) against the real server over HTTP:
 * the bank comes down, a question written with the network off goes up when it is back, and two
 * editors changing one question end with both versions on the second device, nothing lost and
 * nothing overwritten until the editor chooses.
 */

let server: TestServer;
let tokens: { editor: string; admin: string };
const open: { replica: EditorReplica; replication: EditorReplication | null }[] = [];
let seq = 0;

beforeAll(async () => {
  server = await startServer();
  tokens = { editor: await server.harness.tokenOf('editor'), admin: await server.harness.tokenOf('admin') };
});
afterAll(async () => {
  for (const o of open) {
    await o.replication?.stop().catch(() => undefined);
    await o.replica.close().catch(() => undefined);
  }
  await server.stop();
});

/** An editor's device: its replica, and its replication while "online". */
async function device(who: 'editor' | 'admin') {
  const storage = wrappedValidateAjvStorage({ storage: getRxStorageLoggedMemory({ indexedDB, IDBKeyRange }) });
  const replica = await openEditorReplica(who === 'editor' ? DEMO.editor.id : DEMO.admin.id, { storage, multiInstance: false, name: `ed-device-${++seq}-${Date.now()}` });
  const entry: { replica: EditorReplica; replication: EditorReplication | null } = { replica, replication: null };
  open.push(entry);
  return {
    replica,
    online() {
      entry.replication = startEditorReplication(replica, { baseUrl: server.url, getToken: () => tokens[who], waitForLeadership: false, retryBaseMs: 200 });
      return entry.replication;
    },
    async offline() {
      await entry.replication?.stop();
      entry.replication = null;
    },
    async sync() {
      await entry.replication!.awaitInSync();
    },
    async doc(id: string): Promise<EdQuestion | null> {
      return ((await replica.db.ed_question.findOne(id).exec())?.toJSON() as EdQuestion | undefined) ?? null;
    },
  };
}

const serverRow = async (id: string) => await first(server.harness.deps.db.select().from(question).where(eq(question.id, id)));

test('the bank comes down; a question written offline is uploaded when the device is online again', async () => {
  const d = await device('editor');
  d.online();
  await d.sync();
  expect((await d.doc('q-gk-001'))?.ca.length).toBeGreaterThan(0);
  await d.offline();

  const fresh: EdQuestion = {
    id: randomUUID(),
    q: '<p>Which planet is known as the red planet?</p>',
    ops: { a: '<p>Mars</p>', b: '<p>Venus</p>' },
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
  await d.replica.save(fresh);
  const base = (await d.doc('q-gk-001'))!;
  await d.replica.save({ ...base, q: '<p>Edited on the train</p>' });
  expect(d.replica.state().pending.sort()).toEqual([fresh.id, 'q-gk-001'].sort());
  expect(await serverRow(fresh.id)).toBeUndefined();

  d.online();
  await eventually(() => d.replica.state().pending.length === 0, 15_000, 'uploads');
  expect(await serverRow(fresh.id)).toMatchObject({ id: fresh.id, version: 1, createdBy: DEMO.editor.id });
  expect(await serverRow('q-gk-001')).toMatchObject({ q: '<p>Edited on the train</p>', version: base.version + 1 });
  // The stored versions come back down.
  await eventually(async () => (await d.doc(fresh.id))?.version === 1, 15_000, 'version pulled');
  expect(d.replica.state().conflicts).toEqual([]);
});

test('two editors change one question: the second device keeps both versions until the editor chooses', async () => {
  const a = await device('editor');
  const b = await device('admin');
  a.online();
  b.online();
  await a.sync();
  await b.sync();
  const id = 'q-gk-003';
  const start = (await b.doc(id))!;
  await b.offline();

  // The first editor saves online.
  await a.replica.save({ ...(await a.doc(id))!, q: '<p>First editor’s words</p>' });
  await eventually(() => a.replica.state().pending.length === 0, 15_000, 'first upload');
  expect(await serverRow(id)).toMatchObject({ q: '<p>First editor’s words</p>', version: start.version + 1 });

  // The second edits the version it had, offline, then comes back.
  await b.replica.save({ ...start, q: '<p>Second editor’s words</p>', d: '5' });
  b.online();
  await eventually(() => b.replica.state().conflicts.length === 1, 15_000, 'conflict');
  const [conflict] = b.replica.state().conflicts;
  expect(conflict?.mine).toMatchObject({ q: '<p>Second editor’s words</p>', d: '5' });
  expect(conflict?.theirs).toMatchObject({ q: '<p>First editor’s words</p>', version: start.version + 1 });
  // Nothing was overwritten: the server keeps the first editor's words, the device shows them too.
  expect(await serverRow(id)).toMatchObject({ q: '<p>First editor’s words</p>', version: start.version + 1 });
  // RxDB writes the server's version into the device's copy once the conflict handler (which
  // files the conflict) has returned: a moment after the conflict shows.
  await eventually(async () => (await b.doc(id))?.q === '<p>First editor’s words</p>', 15_000, 'theirs on the device');

  // The second editor merges: the first one's words with their own difficulty.
  await b.replica.resolveConflict(id, { ...conflict!.theirs, d: '5' });
  await eventually(() => b.replica.state().pending.length === 0 && b.replica.state().conflicts.length === 0, 15_000, 'merge uploaded');
  expect(await serverRow(id)).toMatchObject({ q: '<p>First editor’s words</p>', d: '5', version: start.version + 2, updatedBy: DEMO.admin.id });
});

test('a change the server refuses is kept on the device with its message', async () => {
  const d = await device('editor');
  d.online();
  await d.sync();
  // A question a set holds cannot be deleted (the API's rule).
  await d.replica.remove('q-gk-005');
  await eventually(() => d.replica.state().refused.length === 1, 15_000, 'refusal');
  expect(d.replica.state().refused[0]).toMatchObject({ id: 'q-gk-005' });
  expect(d.replica.state().refused[0]?.msg).toMatch(/used/i);
  expect((await serverRow('q-gk-005'))?.deleted).toBe(false);
});
