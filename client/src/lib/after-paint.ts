/**
 * Runs `fn` after the next frame is painted (a task after the next animation frame), or in the
 * next task when no frame is coming (a hidden page, no rendering). Returns a function that
 * cancels it. What a screen draws after a step (a stored change, the palette following a move)
 * then follows the paint of the step itself instead of delaying it.
 */
export function afterNextPaint(fn: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let frame: number | undefined;
  if (typeof requestAnimationFrame === 'function' && typeof document !== 'undefined' && document.visibilityState === 'visible') {
    frame = requestAnimationFrame(() => {
      frame = undefined;
      timer = setTimeout(fn, 0);
    });
  } else {
    timer = setTimeout(fn, 0);
  }
  return () => {
    if (frame !== undefined) cancelAnimationFrame(frame);
    if (timer !== undefined) clearTimeout(timer);
  };
}

/** Resolves in a task of its own: what comes after it runs once the browser has had its turn. */
export const nextTask = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * Runs `fn` in the browser's next idle period (at most `timeoutMs` later), or in the next task
 * where there is no `requestIdleCallback` (Safari).
 */
export function whenIdle(fn: () => void, timeoutMs = 1000): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(fn, { timeout: timeoutMs });
  else setTimeout(fn, 0);
}
