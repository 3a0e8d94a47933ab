import { startTransition, useEffect, useState } from 'react';
import { afterNextPaint } from '../lib/after-paint';

/**
 * `value` as it was at the last paint: a new value is handed out once the frame that shows the
 * render which brought it is painted (then in a transition). What depends on it (the test's
 * palette, legend and tab counts) is drawn after the step that changed it is on screen, not
 * between the step's render and its paint, as React's deferred values may be.
 */
export function useValueAfterPaint<T>(value: T): T {
  const [shown, setShown] = useState(value);
  useEffect(() => {
    if (Object.is(shown, value)) return;
    return afterNextPaint(() => startTransition(() => setShown(value)));
  }, [shown, value]);
  return shown;
}
