import { useSyncExternalStore } from 'react';

const QUERY = '(hover: hover)';

function subscribe(onChange: () => void) {
  const list = window.matchMedia(QUERY);
  list.addEventListener('change', onChange);
  return () => list.removeEventListener('change', onChange);
}

/**
 * Whether the main pointer can hover (a mouse, not a finger). A tooltip on a touch screen opens
 * at the tap and stays, over what is beside it (the test's timer): there, the control's own
 * label says what it does and no tooltip is drawn.
 */
export function useCanHover(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(QUERY).matches,
    () => true,
  );
}
