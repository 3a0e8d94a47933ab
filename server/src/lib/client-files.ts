import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import type { Hono } from 'hono';
import type { AppEnv } from '../context';

/** Hashed build output (Vite's assets/): a changed file gets a new name, so it never goes stale. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/**
 * Everything else keeps its name across releases: index.html (it names the current chunks),
 * sw.js (the browser must see a new worker at once), manifest.webmanifest, icons. Revalidated
 * on every use; the service worker serves them offline.
 */
const REVALIDATE = 'no-cache';

/**
 * Serves the built client from `clientDir` on `app` (after the API routes): files as they are,
 * and index.html for the app's own routes (/about, /exam-list/…). Returns false when there is no
 * build (no index.html). Content types come from the extension (Hono's table:
 * .webmanifest is application/manifest+json).
 *
 * Only addresses that can be app routes get index.html. A missing file (an old chunk after a
 * deployment, /sw.js, /favicon.ico) is a 404, never the page with status 200: a browser or a
 * service worker would otherwise cache HTML under a script's name, and a lazy import would fail
 * with a MIME type error instead of a clean network error.
 */
export function serveClientFiles(app: Hono<AppEnv>, clientDir: string): boolean {
  const indexFile = path.join(clientDir, 'index.html');
  if (!existsSync(indexFile)) return false;
  const indexHtml = readFileSync(indexFile, 'utf8');

  const files = serveStatic<AppEnv>({ root: clientDir });
  app.use('/*', async (c, next) => {
    // Dot-files and folders (the build's .vite/manifest.json) are not part of the site.
    if (c.req.path.startsWith('/api/') || /\/\./.test(c.req.path)) return next();
    // A Response when the file exists; otherwise serveStatic has passed the request on (and
    // `next` resolves to the context). Headers set in its onFound hook would not reach the
    // response it has already built.
    const res = await files(c, next);
    if (!(res instanceof Response)) return;
    res.headers.set('Cache-Control', c.req.path.startsWith('/assets/') ? IMMUTABLE : REVALIDATE);
    return res;
  });
  app.get('*', (c) => {
    if (!isAppRoute(c.req.path)) return c.notFound();
    c.header('Cache-Control', REVALIDATE);
    return c.html(indexHtml);
  });
  return true;
}

/**
 * Whether a path the files did not answer is one of the app's routes: not the API, not under
 * assets/, and no file extension in the last segment (routes have none; ids are UUID-like).
 */
export function isAppRoute(pathname: string): boolean {
  if (pathname === '/api' || pathname.startsWith('/api/')) return false;
  if (pathname.startsWith('/assets/')) return false;
  const last = pathname.slice(pathname.lastIndexOf('/') + 1);
  return !/\.[A-Za-z0-9]+$/.test(last);
}
