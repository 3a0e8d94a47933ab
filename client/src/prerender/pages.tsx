/*
 * The first pages drawn at build time (issue 20 §2: the largest element painted without waiting
 * for JavaScript). Built by Vite as a Node module (scripts/vite-plugin-prerender.ts) and run once
 * per build: the same components, strings, class names and asset addresses as the client's first
 * render of each page for a visitor who is not signed in and reads English, so that the browser
 * paints the page from the HTML and the app then hydrates it (client/src/main.tsx) instead of
 * drawing it again.
 */
import '../lib/csp';
import type { ReactNode } from 'react';
import { prerender } from 'react-dom/static';
import { StaticRouter } from 'react-router';
import { App } from '../app/app';
import { languageReady } from '../lib/i18n';

/** The markup of `#root` for `path`, once every lazy part of the page (its chunk, its strings) is in. */
export async function renderPage(path: string): Promise<string> {
  await languageReady();
  function PageRouter({ children }: { children: ReactNode }) {
    return <StaticRouter location={path}>{children}</StaticRouter>;
  }
  // Every Suspense boundary inline, however large: React otherwise sends a large one after its
  // fallback with an inline script that reveals it, and the site's CSP runs no inline script.
  const { prelude } = await prerender(<App Router={PageRouter} />, { progressiveChunkSize: Number.POSITIVE_INFINITY });
  const html = await new Response(prelude).text();
  if (/<script[\s>]/i.test(html) || html.includes('<!--$?-->') || html.includes('<!--$!-->')) {
    throw new Error(`prerender: ${path} has a script, or a Suspense boundary left pending or in error`);
  }
  return html;
}
