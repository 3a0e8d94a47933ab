/** The app update worker registers once the app is stable or after 30 s (docs/glossary.md "Fixed values"). */
export const LATEST_REGISTRATION_MS = 30_000;

/** What the scheduler needs of `window` (a parameter, so that tests can drive it). */
export type SchedulerWindow = Pick<Window, 'addEventListener' | 'removeEventListener' | 'setTimeout' | 'clearTimeout'> & {
  document: { readyState: DocumentReadyState };
  requestIdleCallback?: (cb: () => void) => number;
  cancelIdleCallback?: (handle: number) => void;
};

/**
 * Runs `task` once, when the app is stable: after the window's `load` event and the next idle
 * period (requestIdleCallback; Safari lacks it, so a short delay instead), or after
 * `latestMs` at the latest, whichever comes first. Returns a cancel function.
 */
export function whenAppIsStable(
  task: () => void,
  { win = window as SchedulerWindow, latestMs = LATEST_REGISTRATION_MS }: { win?: SchedulerWindow; latestMs?: number } = {},
): () => void {
  let done = false;
  let idleHandle: number | undefined;
  let idleTimer: number | undefined;

  const cancel = () => {
    done = true;
    win.clearTimeout(latest);
    win.removeEventListener('load', onLoad);
    if (idleHandle !== undefined) win.cancelIdleCallback?.(idleHandle);
    if (idleTimer !== undefined) win.clearTimeout(idleTimer);
  };
  const run = () => {
    if (done) return;
    cancel();
    task();
  };
  function onLoad() {
    if (done) return;
    if (win.requestIdleCallback) idleHandle = win.requestIdleCallback(run);
    else idleTimer = win.setTimeout(run, 1000);
  }

  const latest = win.setTimeout(run, latestMs);
  if (win.document.readyState === 'complete') onLoad();
  else win.addEventListener('load', onLoad, { once: true });
  return cancel;
}
