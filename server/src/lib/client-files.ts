import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import type { Context, Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import { getMimeType } from 'hono/utils/mime';
import { LANGUAGE_COOKIE } from '@pm/protocol/language-cookie';
import type { AppEnv } from '../context';
import { type ContentCoding, negotiateEncoding } from './compression';
import type { PageData } from '@pm/protocol/page-data';
import { type DrawnPage, type Log, perRequestPage } from './rendered-pages';
import { PRERENDERED_PAGES, readRoutePreloads } from './route-preloads';

/** What the pages drawn per request are drawn with (lib/rendered-pages), by route. */
/** What a messaging app shows for a shared link (Open Graph): a title, a line and an image, absolute URLs. */
export type ShareCard = { title: string; description: string; image: string | null; url: string };

export type PageSources = {
  load?: Readonly<Record<string, () => Promise<PageData>>>;
  log?: Log;
  /** The card of an app route that has one (a public campaign's page), or null. */
  shareCard?: (pathname: string) => Promise<ShareCard | null>;
};

const escapeAttr = (v: string) => v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** index.html with the card's Open Graph and Twitter tags at the end of its head. */
export function withShareCard(html: string, card: ShareCard): string {
  const meta = (attr: 'property' | 'name', key: string, value: string) => `<meta ${attr}="${key}" content="${escapeAttr(value)}">`;
  const tags = [
    meta('property', 'og:type', 'website'),
    meta('property', 'og:title', card.title),
    meta('property', 'og:description', card.description),
    meta('property', 'og:url', card.url),
    ...(card.image ? [meta('property', 'og:image', card.image)] : []),
    meta('name', 'twitter:card', card.image ? 'summary_large_image' : 'summary'),
  ].join('');
  return html.replace('</head>', `${tags}</head>`);
}

/** Hashed build output (Vite's assets/): a changed file gets a new name, so it never goes stale. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/**
 * Everything else keeps its name across releases: index.html (it names the current chunks),
 * sw.js (the browser must see a new worker at once), manifest.webmanifest, icons. Revalidated
 * on every use; the service worker serves them offline.
 */
const REVALIDATE = 'no-cache';

/** The file name suffix of each coding's twin, as the build writes them (scripts/vite-plugin-precompress.ts). */
const TWIN_SUFFIX: Record<ContentCoding, string> = { br: '.br', gzip: '.gz' };

type Twins = { codings: ContentCoding[]; type: string };

/**
 * The compressed twins the build left beside the files (`assets/x.js.br`, `assets/x.js.gz`), by
 * the address that asks for the file (`/assets/x.js`; `/` for index.html). Listed once at start:
 * the build is fixed while the server runs (it already keeps index.html in memory). A twin that
 * disappears later is only a missed chance: the file itself is sent.
 */
function findTwins(clientDir: string): Map<string, Twins> {
  const twins = new Map<string, Twins>();
  const walk = (dir: string, prefix: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      if (entry.isDirectory()) {
        walk(path.join(dir, entry.name), `${prefix}${entry.name}/`);
        continue;
      }
      for (const coding of Object.keys(TWIN_SUFFIX) as ContentCoding[]) {
        const suffix = TWIN_SUFFIX[coding];
        if (!entry.name.endsWith(suffix)) continue;
        const original = entry.name.slice(0, -suffix.length);
        if (!existsSync(path.join(dir, original))) continue;
        const type = getMimeType(original) ?? 'application/octet-stream';
        for (const url of original === 'index.html' ? [`${prefix}${original}`, prefix] : [`${prefix}${original}`]) {
          const t = twins.get(url) ?? { codings: [], type };
          t.codings.push(coding);
          twins.set(url, t);
        }
      }
    }
  };
  walk(clientDir, '/');
  return twins;
}

/**
 * Serves the built client from `clientDir` on `app` (after the API routes): files as they are,
 * and index.html for the app's own routes (/about, /exam-list/…). Returns false when there is no
 * build (no index.html). Content types come from the extension (Hono's table:
 * .webmanifest is application/manifest+json).
 *
 * Compressed on the wire (docs/benchmarks.md "bench:bundle") without compressing per request: a file with twins made by
 * the build (`.br`, `.gz`) is sent as the twin the request's Accept-Encoding allows (brotli first),
 * with `Content-Encoding`, the twin's length, the original's type, and `Vary: Accept-Encoding`
 * whichever is sent. A Range request gets the file itself (its byte ranges are the file's); HEAD
 * answers as GET would, without the body.
 *
 * Only addresses that can be app routes get index.html. A missing file (an old chunk after a
 * deployment, /sw.js, /favicon.ico) is a 404, never the page with status 200: a browser or a
 * service worker would otherwise cache HTML under a script's name, and a lazy import would fail
 * with a MIME type error instead of a clean network error.
 */
export function serveClientFiles(app: Hono<AppEnv>, clientDir: string, sources: PageSources = {}): boolean {
  const indexFile = path.join(clientDir, 'index.html');
  if (!existsSync(indexFile)) return false;
  const twins = findTwins(clientDir);
  // index.html for the app's routes, in each coding the build made for it.
  const indexPage = htmlPage(clientDir, 'index.html', twins);
  // The first pages drawn by the build (scripts/vite-plugin-prerender.ts), those the build has.
  // Those drawn per request from the database's data, when the build has their template and module
  // and the server was given their data; without, the app draws them from the shell.
  type Page = { path: string; anyQuery: boolean; page: (c: Context<AppEnv>) => Response | Promise<Response> };
  const prerendered = PRERENDERED_PAGES.filter((p) => existsSync(path.join(clientDir, p.file))).flatMap((p): Page[] => {
    if (!p.perRequest) return [{ ...p, page: htmlPage(clientDir, p.file, twins) }];
    const load = sources.load?.[p.path];
    const draw = load && perRequestPage(clientDir, p.file, p.path, load, sources.log);
    return draw ? [{ ...p, page: drawnPage(draw, indexPage) }] : [];
  });

  // The first screens' files, named in a Link header on their index.html (lib/route-preloads).
  const preloads = readRoutePreloads(clientDir);

  for (const { path: route, anyQuery, page } of prerendered) {
    // The prerendered pages are English: a reader who chose Hindi (the client's `lang` cookie,
    // client/src/lib/i18n.ts) gets index.html, and the app draws the page in Hindi. A page whose
    // query changes what it draws (`/login?error=…`) is the app's to draw, from index.html.
    app.get(route, async (c, next) => {
      if (!anyQuery && new URL(c.req.url).search !== '') return next();
      c.header('Cache-Control', REVALIDATE);
      const shell = getCookie(c, LANGUAGE_COOKIE) === 'hi';
      // The prerendered page carries its route's stylesheets inline, and asks for its scripts
      // once it is painted (client/src/boot/start-after-paint.ts): no hints.
      const link = shell ? preloads.get(route) : undefined;
      if (link) c.header('Link', link);
      const res = shell ? indexPage(c) : await page(c);
      res.headers.set('Vary', res.headers.has('Vary') ? `${res.headers.get('Vary')}, Cookie` : 'Cookie');
      return res;
    });
  }

  const files = serveStatic<AppEnv>({ root: clientDir });
  // The twins, asked for by the original's address; serveStatic's own checks (no "..", no
  // backslashes, percent-decoding) run on that address before the suffix is added.
  const twinFiles = Object.fromEntries(
    (Object.keys(TWIN_SUFFIX) as ContentCoding[]).map((coding) => [
      coding,
      serveStatic<AppEnv>({ root: clientDir, rewriteRequestPath: (p) => `${p.endsWith('/') ? `${p}index.html` : p}${TWIN_SUFFIX[coding]}` }),
    ]),
  ) as Record<ContentCoding, ReturnType<typeof serveStatic<AppEnv>>>;
  const passOn = () => Promise.resolve();

  app.use('/*', async (c, next) => {
    // Dot-files and folders (the build's .vite/manifest.json) are not part of the site.
    if (c.req.path.startsWith('/api/') || /\/\./.test(c.req.path)) return next();
    const fileTwins = twins.get(c.req.path);
    const coding = fileTwins && !c.req.header('range') ? negotiateEncoding(c.req.header('accept-encoding'), fileTwins.codings) : undefined;
    // A Response when the file exists; otherwise serveStatic has passed the request on (and
    // `next` resolves to the context). Headers set in its onFound hook would not reach the
    // response it has already built, so they are set on the response.
    let res: Response | undefined;
    if (coding && fileTwins) {
      const twin = await twinFiles[coding](c, passOn);
      if (twin instanceof Response) {
        res = twin;
        res.headers.set('Content-Type', fileTwins.type);
        res.headers.set('Content-Encoding', coding);
      }
    }
    if (!res) {
      const file = await files(c, next);
      if (!(file instanceof Response)) return;
      res = file;
    }
    if (fileTwins) res.headers.set('Vary', 'Accept-Encoding');
    res.headers.set('Cache-Control', c.req.path.startsWith('/assets/') ? IMMUTABLE : REVALIDATE);
    // `/` is index.html as a file; the other routes get it below.
    const link = preloads.get(c.req.path);
    if (link) res.headers.set('Link', link);
    return res;
  });
  const indexHtml = readFileSync(indexFile, 'utf8');
  app.get('*', async (c) => {
    if (!isAppRoute(c.req.path)) return c.notFound();
    c.header('Cache-Control', REVALIDATE);
    const link = preloads.get(c.req.path);
    if (link) c.header('Link', link);
    // A page a messaging app previews (a campaign): its card in the head (docs/charity.md "Sharing").
    const card = sources.shareCard ? await sources.shareCard(c.req.path).catch((err: unknown) => (sources.log?.warn({ err, path: c.req.path }, 'share card failed'), null)) : null;
    return card ? c.html(withShareCard(indexHtml, card)) : indexPage(c);
  });
  return true;
}

/**
 * One of the build's HTML pages (index.html, a prerendered page), kept in memory with its
 * twins: sent as the twin the request's Accept-Encoding allows, with `Vary: Accept-Encoding`
 * when it has twins, or as it is.
 */
function htmlPage(clientDir: string, name: string, twins: Map<string, Twins>): (c: Context<AppEnv>) => Response {
  const file = path.join(clientDir, name);
  const html = readFileSync(file, 'utf8');
  const bodies = Object.fromEntries((twins.get(`/${name}`)?.codings ?? []).map((coding) => [coding, readFileSync(file + TWIN_SUFFIX[coding])]));
  return (c) => sendHtml(c, { html, bodies });
}

/**
 * A page drawn per request (lib/rendered-pages), sent like the build's pages; the shell if it
 * could not be drawn.
 */
function drawnPage(draw: () => Promise<DrawnPage | undefined>, shell: (c: Context<AppEnv>) => Response): (c: Context<AppEnv>) => Promise<Response> {
  return async (c) => {
    const drawn = await draw();
    return drawn ? sendHtml(c, drawn) : shell(c);
  };
}

/**
 * An HTML page as the compressed form the request's Accept-Encoding allows, with `Vary:
 * Accept-Encoding` when it has any, or as it is.
 */
function sendHtml(c: Context<AppEnv>, { html, bodies }: DrawnPage): Response {
  const codings = Object.keys(bodies) as ContentCoding[];
  if (codings.length === 0) return c.html(html);
  c.header('Vary', 'Accept-Encoding');
  const coding = negotiateEncoding(c.req.header('accept-encoding'), codings);
  const body = coding ? bodies[coding] : undefined;
  if (!coding || !body) return c.html(html);
  c.header('Content-Encoding', coding);
  return c.body(new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.byteLength), 200, {
    'Content-Type': 'text/html; charset=UTF-8',
    'Content-Length': String(body.byteLength),
  });
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
