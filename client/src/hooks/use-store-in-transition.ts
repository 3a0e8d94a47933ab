import { startTransition, useEffect, useEffectEvent, useState } from 'react';

/**
 * An external store's value, like `useSyncExternalStore`, but each change is drawn as a
 * transition. React draws a `useSyncExternalStore` change synchronously, in one task, whatever
 * the subtree below: on the exam list the storage check's answer re-drew the whole list of sets
 * with its pickers in one ~100 ms task (~400 ms at a phone's 4× CPU, docs/benchmarks.md "bench:lighthouse": total blocking
 * time). In a transition React works through it in slices of a few milliseconds and answers input
 * in between. For values whose display may trail the store by a frame (notices, badges), not for
 * what the learner is typing into.
 *
 * `select` reads the value from the store; it may change between renders (a render reads
 * through the current one) and should return the same value (`Object.is`) while the store is
 * unchanged, so that a change elsewhere in the store is not drawn again.
 */
export function useStoreInTransition<T>(subscribe: (listener: () => void) => () => void, select: () => T): T {
  // What a change is compared with: the component is drawn again only when its value differs.
  const [, setSeen] = useState(select);
  const read = useEffectEvent(select);
  useEffect(() => {
    const update = () => {
      const value = read();
      startTransition(() => setSeen(() => value));
    };
    // A change between the first render and this subscription is not missed.
    update();
    return subscribe(update);
  }, [subscribe]);
  return select();
}
