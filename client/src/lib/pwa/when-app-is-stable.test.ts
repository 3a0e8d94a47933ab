import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { LATEST_REGISTRATION_MS, type SchedulerWindow, whenAppIsStable } from './when-app-is-stable';

/** A window whose load event and idle callbacks the test fires (timers are Vitest's fakes). */
function fakeWindow({ readyState = 'loading' as DocumentReadyState, idle = true } = {}) {
  const loadListeners = new Set<() => void>();
  const idleCallbacks = new Map<number, () => void>();
  let nextIdle = 1;
  const win: SchedulerWindow = {
    document: { readyState },
    addEventListener: ((type: string, l: () => void) => {
      if (type === 'load') loadListeners.add(l);
    }) as Window['addEventListener'],
    removeEventListener: ((type: string, l: () => void) => {
      if (type === 'load') loadListeners.delete(l);
    }) as Window['removeEventListener'],
    setTimeout: ((fn: () => void, ms?: number) => setTimeout(fn, ms)) as unknown as Window['setTimeout'],
    clearTimeout: ((id?: number) => clearTimeout(id)) as Window['clearTimeout'],
    ...(idle && {
      requestIdleCallback: (cb: () => void) => {
        idleCallbacks.set(nextIdle, cb);
        return nextIdle++;
      },
      cancelIdleCallback: (h: number) => void idleCallbacks.delete(h),
    }),
  };
  return {
    win,
    load: () => [...loadListeners].forEach((l) => l()),
    idle: () => {
      const cbs = [...idleCallbacks.values()];
      idleCallbacks.clear();
      cbs.forEach((cb) => cb());
    },
    pendingIdle: () => idleCallbacks.size,
    loadListeners: () => loadListeners.size,
  };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

test('runs after the load event and the next idle period, once', () => {
  const w = fakeWindow();
  const task = vi.fn();
  whenAppIsStable(task, { win: w.win });
  w.idle();
  expect(task).not.toHaveBeenCalled();
  w.load();
  expect(task).not.toHaveBeenCalled();
  w.idle();
  expect(task).toHaveBeenCalledTimes(1);
  // The 30 s deadline no longer fires.
  vi.advanceTimersByTime(LATEST_REGISTRATION_MS * 2);
  expect(task).toHaveBeenCalledTimes(1);
});

test('runs after 30 s at the latest when the page never settles (spec §9)', () => {
  const w = fakeWindow();
  const task = vi.fn();
  whenAppIsStable(task, { win: w.win });
  vi.advanceTimersByTime(LATEST_REGISTRATION_MS - 1);
  expect(task).not.toHaveBeenCalled();
  vi.advanceTimersByTime(1);
  expect(task).toHaveBeenCalledTimes(1);
  // A late load and idle period change nothing, and nothing is left listening.
  w.load();
  w.idle();
  expect(task).toHaveBeenCalledTimes(1);
  expect(w.loadListeners()).toBe(0);
});

test('a page that has already loaded waits only for an idle period', () => {
  const w = fakeWindow({ readyState: 'complete' });
  const task = vi.fn();
  whenAppIsStable(task, { win: w.win });
  expect(w.pendingIdle()).toBe(1);
  w.idle();
  expect(task).toHaveBeenCalledTimes(1);
});

test('without requestIdleCallback (Safari) a short delay after load stands in for it', () => {
  const w = fakeWindow({ idle: false });
  const task = vi.fn();
  whenAppIsStable(task, { win: w.win });
  w.load();
  vi.advanceTimersByTime(999);
  expect(task).not.toHaveBeenCalled();
  vi.advanceTimersByTime(1);
  expect(task).toHaveBeenCalledTimes(1);
});

test('cancel stops everything', () => {
  const w = fakeWindow();
  const task = vi.fn();
  const cancel = whenAppIsStable(task, { win: w.win });
  w.load();
  cancel();
  w.idle();
  vi.advanceTimersByTime(LATEST_REGISTRATION_MS);
  expect(task).not.toHaveBeenCalled();
});
