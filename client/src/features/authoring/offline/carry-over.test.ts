import 'fake-indexeddb/auto';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { expect, test } from 'vitest';
import '@/db/core/database';
import { editorDatabaseNameOf } from '@/db/core/database';
import { type EdQuestion, openEditorReplica } from '@/db/editor/editor-replica';
import { getRxStorageLoggedMemory } from '@/db/core/logged-memory-storage';
import { carryOverDexieBank } from './editor-replica-store';

/*
 * A bank kept by RxDB's Dexie storage (the app before the logged-memory storage) is carried into
 * the new replica once: changes not uploaded (a deletion included), conflicts and refusals; the
 * old database is deleted afterwards.
 */

const question = (id: string, q: string): EdQuestion => ({
  id,
  q: `<p>${q}</p>`,
  ops: { a: '<p>yes</p>', b: '<p>no</p>' },
  c: [],
  d: '3',
  ca: ['a'],
  qt: 'mcq1',
  s: null,
  t: [],
  e: [],
  st: 'PENDING',
  reason: null,
  expl: '',
  trans: {},
  version: 2,
  updatedAt: 1_700_000_000_000,
});

test("an earlier Dexie bank's unsent changes, conflicts and refusals come over, and the old database goes", async () => {
  const person = 'carry-over-editor';
  const old = await openEditorReplica(person, { storage: getRxStorageDexie(), multiInstance: false });
  await old.save(question('kept', 'Edited offline'));
  await old.save(question('gone', 'Deleted offline'));
  await old.remove('gone');
  await old.settle((s) => {
    s.conflicts.other = { id: 'other', mine: { ...question('other', 'mine'), _deleted: false }, theirs: { ...question('other', 'theirs'), _deleted: false }, at: 1 };
    s.refused.bad = { id: 'bad', msg: 'Tag not found', at: 2 };
  });
  await old.close();
  const dexieNames = async () => (await indexedDB.databases()).map((d) => d.name ?? '').filter((n) => n.startsWith(`rxdb-dexie-${editorDatabaseNameOf(person)}--`));
  expect(await dexieNames()).not.toEqual([]);

  const replica = await openEditorReplica(person, { storage: getRxStorageLoggedMemory(), multiInstance: false });
  await carryOverDexieBank(person, replica);

  expect((await replica.db.ed_question.findOne('kept').exec())?.q).toBe('<p>Edited offline</p>');
  const [gone] = await replica.db.ed_question.storageInstance.findDocumentsById(['gone'], true);
  expect(gone?._deleted).toBe(true);
  const state = replica.state();
  expect([...state.pending].sort()).toEqual(['gone', 'kept']);
  expect(state.conflicts.map((c) => c.id)).toEqual(['other']);
  expect(state.refused).toEqual([{ id: 'bad', msg: 'Tag not found', at: 2 }]);
  expect(await dexieNames()).toEqual([]);

  // Carried once: nothing left to carry the next time.
  await carryOverDexieBank(person, replica);
  expect(replica.state().pending).toHaveLength(2);
  await replica.close();
});
