/*
 * The first pages drawn on the server (docs/benchmarks.md "bench:lighthouse": the largest element painted without waiting
 * for JavaScript). Built by Vite as a Node module (scripts/vite-plugin-prerender.ts): run once per
 * build for the pages that never change (`/`, `/login`), and kept in the build for the server to
 * draw the pages made of the database's data when they are asked for (`/plan`,
 * server/src/lib/rendered-pages.ts). The same components, strings, class names and asset
 * addresses as the client's first render of each page for a visitor who is not signed in and
 * reads English, so that the browser paints the page from the HTML and the app then hydrates it
 * (client/src/main.tsx) instead of drawing it again.
 *
 * Not imported here: lib/csp (zod without its compiled parsers). It is the browser's concern,
 * and this module runs inside the server, whose own schemas share zod's settings.
 */
import type { ReactNode } from 'react';
import { prerender } from 'react-dom/static';
import { StaticRouter } from 'react-router';
import type { PageData } from '@pm/protocol/page-data';
import { App } from '../app/app';
import { queryClient } from '../app/query-layout';
import { plansQueryOptions } from '../features/plans/api/get-plans';
import { formatTitle, routeTitleKey } from '../app/router';
import i18n, { languageReady } from '../lib/i18n';

/**
 * The markup of `#root` for `path`, once every lazy part of the page (its chunk, its strings) is
 * in. `data`: what the page shows from the database, as its API answers it; the browser's first
 * render reads the same from the page (lib/page-data.ts).
 */
export async function renderPage(path: string, data?: PageData): Promise<string> {
  await languageReady();
  if (data?.plans) queryClient.setQueryData(plansQueryOptions().queryKey, data.plans as never);
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

/**
 * The page's `<title>`, as the app sets it (app/router.tsx): written into the drawn page, so that
 * a page the app has not taken over yet (the home page waits for the visitor) has it too. After
 * renderPage(path): the page's strings are loaded by then.
 */
export function renderTitle(path: string): string {
  return formatTitle(routeTitleKey(path), (key) => i18n.t(key as never) as string);
}
