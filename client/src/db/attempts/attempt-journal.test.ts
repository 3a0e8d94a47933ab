import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { getRxStorageMemory } from 'rxdb/plugins/storage-memory';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { newAttempt, type TestSummaryDoc } from '@pm/protocol/sync/test-summary';
import { applyPatch, applyPatches, type AttemptPatch, AttemptJournal, journalNameOf, patchBetween } from './attempt-journal';
import { openReplicaDatabase, type ReplicaDatabase } from '../core/database';

type Attempt = Omit<TestSummaryDoc, '_deleted'>;

const base: Attempt = newAttempt('attempt-0001-abc', 'qs-1', 1_000);

let db: ReplicaDatabase;
let n = 0;
beforeEach(async () => {
  db = await openReplicaDatabase('journal-test', { storage: getRxStorageMemory(), multiInstance: false, name: `journal-test-${++n}` });
  await db.test_summary.insert(base);
});
afterEach(async () => {
  await db.remove();
  await AttemptJournal.erase(db.name);
});

test('patches applied together give what applying them one by one gives, and stop at a submission', () => {
  const patches: AttemptPatch[] = [
    { answers: { q1: { ua: 'a', status: 'ANSWERED' } }, index: 1, lsq: 'q2', updatedAt: 1_100 },
    { answers: { q2: { ua: null, status: 'MARKED' }, q1: { ua: 'b', status: 'ANSWERED' } }, elapsed: 900, updatedAt: 1_050 },
    { status: 'SUBMITTED', submittedAt: 1_200, updatedAt: 1_200 },
    { answers: { q3: { ua: 'c', status: 'ANSWERED' } }, index: 7, updatedAt: 1_300 },
  ];
  const together = applyPatches(base, patches);
  const oneByOne = patches.reduce<Attempt>((a, p) => applyPatch(a, p), base);
  expect(together).toEqual(oneByOne);
  expect(together).toMatchObject({ index: 1, lsq: 'q2', elapsed: 900, status: 'SUBMITTED', submittedAt: 1_200, updatedAt: 1_200 });
  expect(together.answers).toEqual({ q1: { ua: 'b', status: 'ANSWERED' }, q2: { ua: null, status: 'MARKED' } });
  // The input is not changed, and no patches give the same object back.
  expect(base.answers).toEqual({});
  expect(applyPatches(base, [])).toBe(base);
});

test('view answers the same object for the same document state until the journal changes', async () => {
  const journal = await AttemptJournal.open(db, { delayMs: 60_000 });
  const doc = await stored();
  expect(journal.view(doc)).toBe(doc);
  await journal.record(base.id, { answers: { q1: { ua: 'a', status: 'ANSWERED' } }, updatedAt: 2_000 });
  const first = journal.view(doc);
  expect(first.answers).toEqual({ q1: { ua: 'a', status: 'ANSWERED' } });
  expect(journal.view(doc)).toBe(first);
  await journal.record(base.id, { answers: { q2: { ua: 'b', status: 'ANSWERED' } }, updatedAt: 2_100 });
  const second = journal.view(doc);
  expect(second).not.toBe(first);
  expect(Object.keys(second.answers).sort()).toEqual(['q1', 'q2']);
  await journal.close();
});

const stored = async () => (await db.test_summary.findOne(base.id).exec())!.toJSON() as Attempt;
const journalRows = async () => {
  const idb = await openDB(journalNameOf(db.name));
  try {
    return await idb.getAll('changes');
  } finally {
    idb.close();
  }
};

test('a patch holds the changed answers and fields as absolute values; applying it twice changes nothing more', () => {
  const after: Attempt = { ...base, answers: { q1: { ua: 'b', status: 'ANSWERED', t: 1500 } }, index: 3, lsq: 'q1', elapsed: 2500, updatedAt: 2_000 };
  const patch = patchBetween(base, after);
  expect(patch).toEqual({ answers: { q1: { ua: 'b', status: 'ANSWERED', t: 1500 } }, index: 3, lsq: 'q1', elapsed: 2500, updatedAt: 2_000 });
  const once = applyPatch(base, patch);
  expect(once).toEqual(after);
  expect(applyPatch(once, patch)).toEqual(after);
  // Other questions keep their entries; a submitted attempt stays final.
  const two = applyPatch({ ...after, answers: { ...after.answers, q2: { ua: null, status: 'MARKED' } } }, { answers: { q1: { ua: 'c', status: 'ANSWERED' } }, updatedAt: 3_000 });
  expect(two.answers).toEqual({ q1: { ua: 'c', status: 'ANSWERED' }, q2: { ua: null, status: 'MARKED' } });
  const submitted = { ...after, status: 'SUBMITTED' as const };
  expect(applyPatch(submitted, { index: 9, updatedAt: 9_000 })).toBe(submitted);
});

test('a recorded change is in IndexedDB at once, shown by view, and in the document after flush; then the journal is empty', async () => {
  const journal = await AttemptJournal.open(db, { delayMs: 60_000 });
  await journal.record(base.id, { answers: { q1: { ua: 'a', status: 'ANSWERED' } }, lsq: 'q1', elapsed: 100, updatedAt: 2_000 });
  await journal.record(base.id, { answers: { q2: { ua: ['a', 'c'], status: 'ANSWERED_MARKED' } }, index: 1, elapsed: 200, updatedAt: 3_000 });
  expect(await journalRows()).toHaveLength(2);
  expect((await stored()).answers).toEqual({});
  // Counted as waiting to upload until it is in the document (and then until the server confirms).
  expect(journal.waitingAttempts()).toEqual([base.id]);
  const shown = journal.view(await stored());
  expect(shown.answers).toEqual({ q1: { ua: 'a', status: 'ANSWERED' }, q2: { ua: ['a', 'c'], status: 'ANSWERED_MARKED' } });
  expect(shown).toMatchObject({ index: 1, lsq: 'q1', elapsed: 200, updatedAt: 3_000 });

  await journal.flush();
  expect(await stored()).toEqual(shown);
  expect(await journalRows()).toHaveLength(0);
  expect(journal.waitingAttempts()).toEqual([]);
  // A screen still holding the state from before the write sees the changes too.
  expect(journal.view(base)).toEqual(shown);
  await journal.close();
});

test('changes left in the journal by a crash go into the attempt when the replica opens again', async () => {
  const crashed = await AttemptJournal.open(db, { delayMs: 60_000 });
  await crashed.record(base.id, { answers: { q1: { ua: 'd', status: 'ANSWERED', t: 900 } }, index: 4, lsq: 'q1', elapsed: 5_000, updatedAt: 2_000 });
  await crashed.record(base.id, { answers: { q1: { ua: 'b', status: 'ANSWERED', t: 1_900 } }, elapsed: 6_000, updatedAt: 2_500 });
  // No flush, no close: the tab is gone. The next start opens the journal again.
  const next = await AttemptJournal.open(db);
  expect(await stored()).toMatchObject({ answers: { q1: { ua: 'b', status: 'ANSWERED', t: 1_900 } }, index: 4, lsq: 'q1', elapsed: 6_000, updatedAt: 2_500 });
  expect(await journalRows()).toHaveLength(0);
  await next.close();
  // The old instance applying the same changes again changes nothing (they are absolute values).
  const before = await stored();
  await crashed.close();
  expect(await stored()).toEqual(before);
});

test('a crash after the document was written but before the journal was cleaned counts nothing twice', async () => {
  const journal = await AttemptJournal.open(db, { delayMs: 60_000 });
  const patch = { answers: { q1: { ua: 'a', status: 'ANSWERED' as const, t: 1_000 } }, elapsed: 1_000, updatedAt: 2_000 };
  await journal.record(base.id, patch);
  // The document already has the change (as if applied just before the crash).
  const doc = await db.test_summary.findOne(base.id).exec();
  await doc!.incrementalModify((old) => applyPatch(old as unknown as Attempt, patch) as typeof old);
  const reopened = await AttemptJournal.open(db);
  expect(await stored()).toMatchObject({ answers: { q1: { ua: 'a', status: 'ANSWERED', t: 1_000 } }, elapsed: 1_000 });
  await reopened.close();
  await journal.close();
});

test('a submitted attempt takes no later change from the journal', async () => {
  const journal = await AttemptJournal.open(db, { delayMs: 60_000 });
  await journal.record(base.id, { status: 'SUBMITTED', submittedAt: 5_000, updatedAt: 5_000 });
  await journal.record(base.id, { index: 7, updatedAt: 6_000 });
  await journal.flush();
  expect(await stored()).toMatchObject({ status: 'SUBMITTED', submittedAt: 5_000, index: 0 });
  await journal.close();
});

test('another tab\'s changes of an attempt it owns are left to it at open, and adopted in order when this tab takes the attempt', async () => {
  // Tab 1 owns the attempt and has two changes only in the journal.
  const owner = await AttemptJournal.open(db, { delayMs: 60_000 });
  await owner.record(base.id, { answers: { q1: { ua: 'a', status: 'ANSWERED' } }, updatedAt: 2_000 });
  await owner.record(base.id, { answers: { q1: { ua: 'c', status: 'ANSWERED' } }, lsq: 'q1', updatedAt: 2_100 });

  // Tab 2 opens the replica meanwhile: those rows are tab 1's (docs/exams.md "Two tabs, storage and eviction"), not applied here.
  const second = await AttemptJournal.open(db, { delayMs: 60_000, ownedElsewhere: async () => new Set([base.id]) });
  expect((await db.test_summary.findOne(base.id).exec())!.answers).toEqual({});
  expect(second.waitingAttempts()).toEqual([]);

  // Tab 1 closes without applying them; tab 2 takes the attempt and adopts them, in their order.
  await second.adopt(base.id);
  const doc = (await db.test_summary.findOne(base.id).exec())!;
  expect(doc.answers).toEqual({ q1: { ua: 'c', status: 'ANSWERED' } });
  expect(doc.lsq).toBe('q1');
  expect(await journalRows()).toHaveLength(0);
  // Adopting again finds nothing new and changes nothing.
  await second.adopt(base.id);
  expect((await db.test_summary.findOne(base.id).exec())!.updatedAt).toBe(2_100);
  await second.close();
  await owner.close();
});

test('a tab that takes an attempt back shows what the other tab answered since, even where its own clock ran ahead', async () => {
  // This tab answered q1 = c (its clock said 5,000) and handed the attempt over: applied, kept for views.
  const first = await AttemptJournal.open(db, { delayMs: 60_000 });
  await first.record(base.id, { answers: { q1: { ua: 'c', status: 'ANSWERED' } }, updatedAt: 5_000 });
  await first.flush();
  // The other tab changed q1 to d; its clock, a little behind, said 4,990.
  await (await db.test_summary.findOne(base.id).exec())!.incrementalPatch({ answers: { q1: { ua: 'd', status: 'ANSWERED' } }, updatedAt: 4_990 });
  const handedBack = await stored();
  // Before this tab owns it again, an older screen state still shows its own applied change...
  expect(first.view({ ...base, updatedAt: 1_000 }).answers['q1']?.ua).toBe('c');
  // ...once it has adopted the attempt, the document the other tab left is what it shows.
  await first.adopt(base.id);
  expect(first.view(handedBack).answers['q1']?.ua).toBe('d');
  expect(first.view(handedBack, { storedOnly: true }).answers['q1']?.ua).toBe('d');
  await first.close();
});
