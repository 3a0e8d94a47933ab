/*
 * The only script of the pages the server sends drawn (`/`, `/login`, `/plan`; scripts/vite-
 * plugin-prerender.ts writes it in place of the app's entry). Issue 20 §2: on a phone's
 * connection the page's HTML and its one stylesheet should have the line to themselves until
 * the page is painted. Requested with the entry, the app's scripts (~120 kB) shared the
 * connection with them, and the page's first paint waited for the entry's evaluation whenever
 * the scripts arrived first.
 *
 * So this waits for the first frame to be painted, then asks for every script the page needs at
 * once (the entry and the chunks of the page's route, named by the page's `pm-app` meta element:
 * the entry first), and starts the app, which hydrates the page (client/src/main.tsx).
 *
 * Built on its own, without imports (the plugin transpiles it): it must not wait for anything.
 */
const files = (document.querySelector<HTMLMetaElement>('meta[name="pm-app"]')?.content ?? '').split(' ').filter(Boolean);
let started = false;

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
  void import(/* @vite-ignore */ entry);
}

// requestAnimationFrame runs just before a frame is painted; a task queued from it runs after.
requestAnimationFrame(() => setTimeout(start, 0));
// A page opened in a background tab paints no frame until it is shown: start it all the same.
setTimeout(start, 1000);
