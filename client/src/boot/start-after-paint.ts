/*
 * The only script of the pages the server sends drawn (`/`, `/login`, `/plan`; scripts/vite-
 * plugin-prerender.ts writes it in place of the app's entry). docs/benchmarks.md "bench:lighthouse": on a phone's
 * connection the page's HTML and its one stylesheet should have the line to themselves until
 * the page is painted. Requested with the entry, the app's scripts (~120 kB) shared the
 * connection with them, and the page's first paint waited for the entry's evaluation whenever
 * the scripts arrived first.
 *
 * So this waits for the first frame to be painted, then asks for every script the page needs at
 * once (the entry and the chunks of the page's route, named by the page's `pm-app` meta element:
 * the entry first), and starts the app, which hydrates the page (client/src/main.tsx).
 *
 * The home page goes one step further (its meta element says `data-start="interaction"`;
 * docs/benchmarks.md "bench:bundle": a first visit to `/` within 100 kB of JavaScript). It is a document to read: its links
 * work without the app, and a guest who only reads it needs none of the app's 120 kB. For a
 * first visit (no session, no service worker in charge, the page's own language) the app starts
 * when the visitor first reaches for the page (a press, a key, a focus), and the service worker
 * is registered once the page has loaded, so that the app is kept for offline use all the same.
 * A press on one of the page's buttons, or a change of its language picker, made before the app
 * has taken the page over is held and played again once it has (the page tells it with the
 * `pm:interactive` event, client/src/app/layout/page-interactive.tsx); a link is followed by the
 * browser as it is. Everyone else (a signed-in learner, whose header the app redraws, a reader
 * whose stored language is not the page's) gets the app after the first paint, as on the other
 * drawn pages.
 *
 * Built on its own, without imports (the plugin transpiles it): it must not wait for anything.
 */
const meta = document.querySelector<HTMLMetaElement>('meta[name="pm-app"]');
const files = (meta?.content ?? '').split(' ').filter(Boolean);
let started = false;

/** What the app's layout sends when the page answers (app/layout/page-interactive.tsx). */
const INTERACTIVE_EVENT = 'pm:interactive';
/** The service worker vite-plugin-pwa generates (vite.config.ts), as lib/pwa registers it. */
const SERVICE_WORKER = '/sw.js';

function start(): void {
  const [entry, ...chunks] = files;
  if (started || entry === undefined) return;
  started = true;
  for (const href of chunks) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = href;
    document.head.append(link);
  }
  import(/* @vite-ignore */ entry).catch(() => {
    // Not loaded (offline on a first visit): nothing will play the held presses again.
    stopHolding();
  });
}

function startAfterPaint(): void {
  // requestAnimationFrame runs just before a frame is painted; a task queued from it runs after.
  requestAnimationFrame(() => setTimeout(start, 0));
  // A page opened in a background tab paints no frame until it is shown: start it all the same.
  setTimeout(start, 1000);
}

/** Whether this visitor's app must draw more than the page shows: a session, or another language. */
function appNeededAtOnce(): boolean {
  try {
    // The keys of lib/session.ts and lib/i18n.ts (this script imports nothing).
    if (sessionStorage.getItem('session') || localStorage.getItem('session')) return true;
    const lang = localStorage.getItem('lang');
    if (lang !== null && lang !== document.documentElement.lang) return true;
  } catch {
    return true;
  }
  return Boolean(navigator.serviceWorker?.controller);
}

const held: (() => void)[] = [];
/** What starts the app (reaching for the page), and what is held besides (a press, a pick). */
const WATCHED = ['pointerdown', 'touchstart', 'keydown', 'focusin', 'click', 'change'] as const;

/** Presses and changes on the page before the app has taken it over (see above). */
function hold(e: Event): void {
  const target = e.target;
  // A link is followed by the browser, and the next page starts its own app: reaching for a link
  // starts nothing here (its download would be cut off by the navigation).
  if (target instanceof Element && target.closest('a[href]')) return;
  start();
  if (!(target instanceof Element) || !document.getElementById('root')?.contains(target)) return;
  if (e.type === 'click') {
    const control = target.closest('button, [role="button"], select, input, textarea, label, summary');
    // A select opens its own list.
    if (!control || control instanceof HTMLSelectElement) return;
    e.preventDefault();
    e.stopImmediatePropagation();
    held.push(() => {
      if (control.isConnected) (control as HTMLElement).click();
    });
  } else if (e.type === 'change' && target instanceof HTMLSelectElement) {
    e.stopImmediatePropagation();
    const value = target.value;
    held.push(() => {
      if (!target.isConnected) return;
      target.value = value;
      target.dispatchEvent(new Event('change', { bubbles: true }));
    });
  }
}

function stopHolding(): void {
  for (const type of WATCHED) window.removeEventListener(type, hold, true);
}

function startOnInteraction(): void {
  for (const type of WATCHED) window.addEventListener(type, hold, { capture: true, passive: false });
  document.addEventListener(
    INTERACTIVE_EVENT,
    () => {
      stopHolding();
      for (const play of held.splice(0)) play();
    },
    { once: true },
  );
  if (appNeededAtOnce()) {
    startAfterPaint();
    return;
  }
  // The browser's install offer comes once per page load, perhaps before the app is there: kept
  // for it (hooks/use-install-prompt.ts), without the browser's own mini-infobar.
  window.addEventListener('beforeinstallprompt', (e) => {
    e.preventDefault();
    window.pmInstallPrompt = e;
  });
  // The app registers the worker when it starts (lib/pwa); a first visit that never starts it
  // registers it here, once the page has loaded and the browser is idle.
  if ('serviceWorker' in navigator) {
    const register = () => {
      navigator.serviceWorker.register(SERVICE_WORKER, { scope: '/' }).catch(() => undefined);
    };
    const whenIdle = () => ('requestIdleCallback' in window ? requestIdleCallback(register, { timeout: 5000 }) : setTimeout(register, 0));
    if (document.readyState === 'complete') whenIdle();
    else window.addEventListener('load', whenIdle, { once: true });
  }
}

declare global {
  interface Window {
    /** The install offer met before the app started (see startOnInteraction). */
    pmInstallPrompt?: Event;
  }
}

if (meta?.dataset.start === 'interaction') startOnInteraction();
else startAfterPaint();

export {};
