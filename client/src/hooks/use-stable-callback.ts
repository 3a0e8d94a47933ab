import { useCallback, useLayoutEffect, useRef } from 'react';

/**
 * A function of stable identity that always calls the latest `fn` (what React's proposed
 * useEffectEvent does): memoised children and effects that take it do not re-run when `fn`'s
 * closure changes. Call it from event handlers and effects, not while rendering.
 */
export function useStableCallback<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
  const ref = useRef(fn);
  // Updated before the browser paints, so a handler run after this render sees this render's fn.
  useLayoutEffect(() => {
    ref.current = fn;
  });
  return useCallback((...args: A) => ref.current(...args), []);
}
