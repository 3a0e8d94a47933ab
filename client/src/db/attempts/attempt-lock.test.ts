import { afterEach, expect, test } from 'vitest';
import { type AttemptLock, type AttemptLockOptions, openAttemptLock, type OwnerState } from './attempt-lock';

/**
 * The ownership protocol where the browser has no Web Locks (the channel alone, db/attempts/attempt-lock):
 * "tabs" are locks in one process talking over a real BroadcastChannel (Node's, in the test environment). The Web Locks
 * path runs in Chromium: e2e/two-tabs.spec.ts.
 */

let n = 0;
const opened: AttemptLock[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((l) => l.close()));
});

type Log = { released: number; acquired: (number | null)[] };

function tab(channelName: string, attempt: string, tabId: string, extra: Partial<AttemptLockOptions> = {}) {
  const log: Log = { released: 0, acquired: [] };
  const lock = openAttemptLock(attempt, {
    locks: undefined,
    channel: () => new BroadcastChannel(channelName),
    events: null,
    probeMs: 40,
    answerTimeoutMs: 400,
    tabId,
    beforeRelease: async () => {
      log.released++;
      return 4242;
    },
    afterAcquire: async (v) => {
      log.acquired.push(v);
    },
    ...extra,
  });
  opened.push(lock);
  return { lock, log };
}

function until(lock: AttemptLock, state: OwnerState, ms = 2000): Promise<void> {
  return new Promise((resolve, reject) => {
    if (lock.getState() === state) return resolve();
    const timer = setTimeout(() => reject(new Error(`still ${lock.getState()}, not ${state}`)), ms);
    const stop = lock.subscribe(() => {
      if (lock.getState() === state) {
        clearTimeout(timer);
        stop();
        resolve();
      }
    });
  });
}

test('the first tab owns the attempt; the second is read-only and its writes run nothing', async () => {
  const ch = `owner-${++n}`;
  const first = tab(ch, 'attempt-a', 'tab-1');
  await until(first.lock, 'owner');
  const second = tab(ch, 'attempt-a', 'tab-2');
  await until(second.lock, 'other');
  let ran = 0;
  expect(await second.lock.write(async () => (ran++, true))).toBe(false);
  expect(await first.lock.write(async () => (ran++, true))).toBe(true);
  expect(ran).toBe(1);
  // Another attempt is not affected.
  const other = tab(ch, 'attempt-b', 'tab-2');
  await until(other.lock, 'owner');
});

test('taking over waits for the owner\'s started writes and stored journal, then hands over its version', async () => {
  const ch = `owner-${++n}`;
  const first = tab(ch, 'attempt-a', 'tab-1');
  await until(first.lock, 'owner');
  const second = tab(ch, 'attempt-a', 'tab-2');
  await until(second.lock, 'other');

  // A write is on its way in tab 1 when tab 2 asks.
  const order: string[] = [];
  let finish!: () => void;
  const slow = first.lock.write(
    () =>
      new Promise<boolean>((resolve) => {
        finish = () => {
          order.push('write stored');
          resolve(true);
        };
      }),
  );
  void second.lock.takeOver();
  await until(first.lock, 'other');
  // Tab 1 accepts nothing more from now on.
  expect(await first.lock.write(async () => true)).toBe(false);
  expect(second.lock.getState()).toBe('taking-over');
  finish();
  await slow;
  await until(second.lock, 'owner');
  order.push('new owner');
  expect(order).toEqual(['write stored', 'new owner']);
  expect(first.log.released).toBe(1);
  expect(second.log.acquired).toEqual([4242]);
  expect(await second.lock.write(async () => true)).toBe(true);

  // And back again, by one click in tab 1.
  await first.lock.takeOver();
  await until(first.lock, 'owner');
  await until(second.lock, 'other');
  expect(first.log.acquired).toEqual([null, 4242]);
});

test('a closing owner lets the waiting tab take the attempt by itself', async () => {
  const ch = `owner-${++n}`;
  const first = tab(ch, 'attempt-a', 'tab-1');
  await until(first.lock, 'owner');
  const second = tab(ch, 'attempt-a', 'tab-2');
  await until(second.lock, 'other');
  await first.lock.close();
  expect(first.log.released).toBe(1);
  await until(second.lock, 'owner');
});

test('two tabs claiming at the same moment end with exactly one owner', async () => {
  const ch = `owner-${++n}`;
  const a = tab(ch, 'attempt-a', 'tab-a');
  const b = tab(ch, 'attempt-a', 'tab-b');
  await new Promise((r) => setTimeout(r, 200));
  expect([a.lock.getState(), b.lock.getState()].sort()).toEqual(['other', 'owner']);
  expect(a.lock.getState()).toBe('owner');
});

test('an owner that never finishes handing over (a frozen tab) loses the attempt after the timeout', async () => {
  const ch = `owner-${++n}`;
  const first = tab(ch, 'attempt-a', 'tab-1', { beforeRelease: () => new Promise<number | null>(() => undefined) });
  await until(first.lock, 'owner');
  const second = tab(ch, 'attempt-a', 'tab-2');
  await until(second.lock, 'other');
  void second.lock.takeOver();
  await until(second.lock, 'owner', 3000);
  // Nothing was handed over: the new owner adopts what the journal holds (afterAcquire(null)).
  expect(second.log.acquired).toEqual([null]);
  expect(first.lock.getState()).toBe('other');
});

test('without Web Locks and without BroadcastChannel every tab owns its attempt (as before)', async () => {
  const lock = openAttemptLock('attempt-z', { locks: undefined, channel: null, events: null, beforeRelease: async () => null, afterAcquire: async () => undefined });
  opened.push(lock);
  await until(lock, 'owner');
});
