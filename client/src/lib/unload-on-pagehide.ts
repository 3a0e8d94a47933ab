/*
 * A stand-in for the `unload` package (vite.config.ts aliases it here), which broadcast-channel's
 * leader election, under RxDB's multi-tab databases, uses to give up leadership when the page
 * goes. That package listens to `unload`, which Chromium deprecates (Lighthouse's best practices
 * flag it) and which keeps a page out of the back/forward cache. This one runs the same callbacks
 * on `pagehide` when the page is really going away (not kept in the back/forward cache); the Web
 * Locks the election holds are released by the browser in any case. Same API: add, runAll,
 * removeAll, getSize.
 */
type Listener = () => unknown;
const listeners = new Set<Listener>();
let listening = false;

function startListening(): void {
  if (listening || typeof window === 'undefined' || typeof window.addEventListener !== 'function') return;
  listening = true;
  window.addEventListener(
    'pagehide',
    (e) => {
      if (!e.persisted) void runAll();
    },
    true,
  );
}

export function add(fn: Listener): { remove: () => boolean; run: () => unknown } {
  if (typeof fn !== 'function') throw new Error('Listener is no function');
  startListening();
  listeners.add(fn);
  return {
    remove: () => listeners.delete(fn),
    run: () => {
      listeners.delete(fn);
      return fn();
    },
  };
}

export function runAll(): Promise<unknown[]> {
  const results: unknown[] = [];
  for (const fn of [...listeners]) {
    listeners.delete(fn);
    results.push(fn());
  }
  return Promise.all(results);
}

export function removeAll(): void {
  listeners.clear();
}

export function getSize(): number {
  return listeners.size;
}
