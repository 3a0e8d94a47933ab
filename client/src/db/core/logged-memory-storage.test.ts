import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { createRxDatabase, type RxCollection } from 'rxdb';
import { afterEach, expect, test } from 'vitest';
import { getRxStorageLoggedMemory, logDatabaseNameOf } from './logged-memory-storage';

/*
 * The logged-memory storage (logged-memory-storage.ts): what was written is there after a reopen,
 * one record per bulk write, a write's promise and its change event only after its record is
 * committed, compaction and cleanup keep exactly the live state, remove leaves nothing.
 */

type Note = { id: string; text: string; n: number };
const schema = {
  version: 0,
  primaryKey: 'id',
  type: 'object',
  properties: { id: { type: 'string', maxLength: 40 }, text: { type: 'string' }, n: { type: 'number', minimum: 0, maximum: 1e9, multipleOf: 1 } },
  required: ['id', 'text', 'n'],
  indexes: ['n'],
} as const;

let factory = new IDBFactory();
const dbs: { closed: boolean; close(): Promise<unknown> }[] = [];
afterEach(async () => {
  for (const d of dbs.splice(0)) if (!d.closed) await d.close();
  factory = new IDBFactory();
});

async function openDb(opts: { compactAfter?: number; chunk?: number } = {}) {
  const db = await createRxDatabase<{ notes: RxCollection<Note> }>({
    name: 'pm-ed-test',
    storage: getRxStorageLoggedMemory({ indexedDB: factory, IDBKeyRange, ...opts }),
    multiInstance: false,
    closeDuplicates: true,
  });
  await db.addCollections({ notes: { schema: schema as never } });
  dbs.push(db);
  return db;
}

/** The raw records of the log (every instance's). */
async function records(): Promise<{ c: string; n: number; docs: { id: string }[] }[]> {
  const req = factory.open(logDatabaseNameOf('pm-ed-test'));
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
  const all = db.transaction('log').objectStore('log').getAll();
  const out = await new Promise<never[]>((resolve) => (all.onsuccess = () => resolve(all.result as never[])));
  db.close();
  return out;
}
const notesRecords = async () => (await records()).filter((r) => r.c.startsWith('notes--'));

test('what was written is there after the database is closed and opened again, in its last state', async () => {
  const db = await openDb();
  await db.notes.bulkInsert(Array.from({ length: 1500 }, (_, i) => ({ id: `q${i}`, text: `question ${i}`, n: i })));
  await (await db.notes.findOne('q7').exec())!.incrementalPatch({ text: 'changed' });
  await db.notes.findOne('q8').remove();
  await db.close();

  const again = await openDb();
  expect(await again.notes.count().exec()).toBe(1499);
  expect((await again.notes.findOne('q7').exec())?.text).toBe('changed');
  expect(await again.notes.findOne('q8').exec()).toBeNull();
  // Queries by index work on the loaded state.
  const top = await again.notes.find({ selector: { n: { $gte: 1497 } }, sort: [{ n: 'asc' }] }).exec();
  expect(top.map((d) => d.id)).toEqual(['q1497', 'q1498', 'q1499']);
});

test('a bulk write is one record, whatever its size', async () => {
  const db = await openDb();
  await db.notes.bulkInsert(Array.from({ length: 1000 }, (_, i) => ({ id: `q${i}`, text: 'x', n: i })));
  await db.notes.bulkInsert([{ id: 'one', text: 'y', n: 1 }]);
  const rs = await notesRecords();
  expect(rs.map((r) => r.docs.length)).toEqual([1000, 1]);
});

test('a write resolves, and its change event comes, only after its record is committed', async () => {
  const db = await openDb();
  const seen: number[] = [];
  const sub = db.notes.$.subscribe(() => seen.push(Date.now()));
  const writing = db.notes.insert({ id: 'a', text: 'first', n: 1 });
  // The memory has it at once, but nothing was announced before the log holds it.
  expect(seen).toHaveLength(0);
  await writing;
  expect(seen).toHaveLength(1);
  expect((await notesRecords()).flatMap((r) => r.docs.map((d) => d.id))).toContain('a');
  sub.unsubscribe();
});

test('compaction rewrites the live state as chunks and drops the records it covers', async () => {
  const db = await openDb({ compactAfter: 5, chunk: 4 });
  for (let i = 0; i < 10; i++) await db.notes.insert({ id: `q${i}`, text: `t${i}`, n: i });
  await (await db.notes.findOne('q0').exec())!.incrementalPatch({ text: 'last' });
  // Compaction runs when idle after the sixth record; wait for it.
  await expect.poll(async () => (await notesRecords()).length, { timeout: 5000 }).toBeLessThan(6);
  await db.close();
  const again = await openDb();
  expect(await again.notes.count().exec()).toBe(10);
  expect((await again.notes.findOne('q0').exec())?.text).toBe('last');
});

test('a cleanup purges deleted documents from the log too', async () => {
  const db = await openDb();
  await db.notes.bulkInsert([
    { id: 'keep', text: 'k', n: 1 },
    { id: 'gone', text: 'g', n: 2 },
  ]);
  await db.notes.findOne('gone').remove();
  await db.notes.storageInstance.cleanup(0);
  const ids = (await notesRecords()).flatMap((r) => r.docs.map((d) => d.id));
  expect(ids).toEqual(['keep']);
  await db.close();
  const again = await openDb();
  expect((await again.notes.find().exec()).map((d) => d.id)).toEqual(['keep']);
});

test('removing the database leaves no record', async () => {
  const db = await openDb();
  await db.notes.bulkInsert([{ id: 'a', text: 'a', n: 1 }]);
  await db.remove();
  expect(await notesRecords()).toEqual([]);
  const again = await openDb();
  expect(await again.notes.count().exec()).toBe(0);
});

test('a collection with attachments is refused, not silently kept half', async () => {
  const db = await createRxDatabase({ name: 'pm-ed-att', storage: getRxStorageLoggedMemory({ indexedDB: factory, IDBKeyRange }), multiInstance: false });
  dbs.push(db);
  await expect(db.addCollections({ files: { schema: { ...schema, attachments: {} } as never } })).rejects.toThrow(/attachments/);
});

test('a write the log did not take stops the instance: nothing is shown that a reload would not find', async () => {
  const db = await openDb();
  await db.notes.insert({ id: 'a', text: 'kept', n: 1 });
  // The log's database deleted under the open instance (its connection closes on versionchange).
  await new Promise<void>((resolve) => {
    const req = factory.deleteDatabase(logDatabaseNameOf('pm-ed-test'));
    req.onsuccess = req.onerror = () => resolve();
  });
  await expect(db.notes.insert({ id: 'b', text: 'lost', n: 2 })).rejects.toThrow();
  await expect(db.notes.storageInstance.findDocumentsById(['a', 'b'], false)).rejects.toThrow(/could not be written/);
});
