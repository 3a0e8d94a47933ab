import { useLayoutEffect } from 'react';

/**
 * The prerendered pages (scripts/vite-plugin-prerender.ts) come with `#root` inert, so that
 * nothing on them is pressed or typed into before the app answers (client/src/main.tsx). React
 * hydrates the layout first and the page inside its Suspense boundary afterwards, in a later pass:
 * a field typed into between the two would be reset by the page's hydration. This sits inside
 * that boundary, after the page, so `#root` becomes interactive when the page itself is hydrated
 * (or drawn; on every later page it finds nothing to do).
 */
export function PageInteractive() {
  useLayoutEffect(() => markInteractive(), []);
  return null;
}

/**
 * What tells the start script of a page drawn ahead that the app answers now, so that it plays
 * again the presses it held (client/src/boot/start-after-paint.ts, which names it too).
 */
export const INTERACTIVE_EVENT = 'pm:interactive';

/** Lets the prerendered markup be used (see PageInteractive). */
export function markInteractive(): void {
  document.getElementById('root')?.removeAttribute('inert');
  document.dispatchEvent(new Event(INTERACTIVE_EVENT));
}
