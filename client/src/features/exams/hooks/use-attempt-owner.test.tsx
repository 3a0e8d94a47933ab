import 'fake-indexeddb/auto';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { getRxStorageMemory } from 'rxdb/plugins/storage-memory';
import { afterEach, expect, test } from 'vitest';
import { newAttempt } from '@pm/protocol/sync/test-summary';
import { AttemptJournal } from '@/db/attempts/attempt-journal';
import { openReplicaDatabase, type ReplicaDatabase } from '@/db/core/database';
import { ReplicaContext } from '@/db/learner/replica-context';
import type { ReplicaHandle } from '@/db/learner/replica';
import { useAttemptOwner } from './use-attempt-owner';

/*
 * docs/exams.md "Two tabs, storage and eviction": a tab that takes an attempt over is its owner on screen only once the copy
 * of the attempt its screen is given is the version the other tab handed over. Two "tabs" here are
 * two hooks on one replica, talking over Node's BroadcastChannel (no Web Locks in this
 * environment: the channel's claim protocol, db/attempts/attempt-lock).
 */

let db: ReplicaDatabase | null = null;
const journals: AttemptJournal[] = [];
afterEach(async () => {
  for (const j of journals.splice(0)) await j.close();
  await db?.remove();
  db = null;
});

test('taking over waits for the screen to show the handed-over version, then starts the screen again', async () => {
  db = await openReplicaDatabase('owner-test', { storage: getRxStorageMemory(), multiInstance: false, name: `owner-test-${Date.now()}` });
  const attempt = newAttempt('attempt-owner-1', 'qs-1', 1_000);
  await db.test_summary.insert(attempt);
  const tab = async () => {
    const journal = await AttemptJournal.open(db!, { delayMs: 60_000 });
    journals.push(journal);
    const replica = { personId: 'p', db, journal, syncNow: () => undefined, close: () => Promise.resolve() } as unknown as ReplicaHandle;
    return ({ children }: { children: ReactNode }) => <ReplicaContext.Provider value={replica}>{children}</ReplicaContext.Provider>;
  };

  // Tab 1 opens the attempt and owns it; it answers q1 (only in its journal so far).
  const first = renderHook(({ shown }) => useAttemptOwner(attempt.id, shown), { wrapper: await tab(), initialProps: { shown: attempt.updatedAt } });
  await waitFor(() => expect(first.result.current.state).toBe('owner'));
  const answered = await first.result.current.write(async () => {
    await journals[0]!.record(attempt.id, { answers: { q1: { ua: 'c', status: 'ANSWERED' } }, updatedAt: 5_000 });
    return true;
  });
  expect(answered).toBe(true);

  // Tab 2 opens it: read-only. Its screen still holds the attempt as it was when it opened.
  const second = renderHook(({ shown }) => useAttemptOwner(attempt.id, shown), { wrapper: await tab(), initialProps: { shown: attempt.updatedAt } });
  await waitFor(() => expect(second.result.current.state).toBe('other'));
  const epochBefore = second.result.current.epoch;

  // Tab 2 takes over: tab 1 puts its journal into the document (version 5,000) and lets go.
  act(() => second.result.current.takeOver());
  await waitFor(() => expect(first.result.current.state).toBe('other'));
  await waitFor(async () => expect((await db!.test_summary.findOne(attempt.id).exec())?.updatedAt).toBe(5_000));
  // The lock is tab 2's (its writes are taken), but its screen's copy is older: not the owner on
  // screen yet, and no new screen started from that copy.
  await waitFor(async () => expect(await second.result.current.write(() => Promise.resolve(true))).toBe(true));
  expect(second.result.current.state).toBe('taking-over');
  const waitingEpoch = second.result.current.epoch;

  // The screen's query hears of the handed-over version: the owner now, on a screen started again.
  second.rerender({ shown: 5_000 });
  await waitFor(() => expect(second.result.current.state).toBe('owner'));
  expect(second.result.current.epoch).not.toBe(waitingEpoch);
  expect(second.result.current.epoch).not.toBe(epochBefore);
  // Tab 1 cannot write.
  expect(await first.result.current.write(() => Promise.resolve(true))).toBe(false);
  first.unmount();
  second.unmount();
});
