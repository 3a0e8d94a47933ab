/*
 * Long work in slices (docs/security.md, "Files in and out"): a request that goes through
 * thousands of rows (a question import) gives the event loop back every SLICE_MS, so that other
 * requests — a health check, a learner's sync — are answered between its slices, not after it.
 */

/** How long one slice may run before it gives the event loop back: well under the 50 ms a stall may last. */
export const SLICE_MS = 10;

/** Resolves in a later turn of the event loop, after the timers and I/O that are due. */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Called between two steps of long work: once the current slice has run `budget` ms, a promise
 * (await it) that resolves in a later turn, the next slice starting then; before that, nothing
 * (no await needed, so a step costs no extra turn of the microtask queue).
 */
export type Pause = () => Promise<void> | undefined;

export function slicer(budget = SLICE_MS): Pause {
  let start = performance.now();
  return () => {
    if (performance.now() - start < budget) return undefined;
    return nextTurn().then(() => {
      start = performance.now();
    });
  };
}

/**
 * `fn` of each item, in order, in slices. The items may be a generator doing work of its own to
 * produce each (a parser): that work counts in the slice too.
 */
export async function mapSliced<T, R>(items: Iterable<T>, fn: (item: T) => R, pause: Pause = slicer()): Promise<R[]> {
  const out: R[] = [];
  for (const item of items) {
    out.push(fn(item));
    const wait = pause();
    if (wait) await wait;
  }
  return out;
}
