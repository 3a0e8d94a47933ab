/**
 * First pages prerendered at build time (docs/benchmarks.md "bench:lighthouse": "the largest element of `/` painted without
 * waiting for JavaScript"; the same for the login form a newcomer opens next). After the client
 * build, the same sources are built once more as a Node module (client/src/prerender/pages.tsx:
 * the app with a static router), run once, and the markup it draws for each page of
 * PRERENDERED_PAGES (server/src/lib/route-preloads.ts) is written into that page's file, a copy
 * of the build's index.html with the page's stylesheets written into its head and the page
 * inside `#root`.
 * The server answers the route with it (server/src/lib/client-files.ts); the app hydrates it
 * (client/src/main.tsx).
 *
 * The markup is that of a first visit: English, not signed in, the built-in slides. Anything else
 * (a stored Hindi choice, another address or query) is drawn by the app as before.
 *
 * A page drawn from the database (`/plan`: the plans) is written as a template, its markup left
 * at PAGE_OUTLET, and the server module is kept in the build (SSR_DIR): the server draws that
 * page when it is asked for (server/src/lib/rendered-pages.ts). The build draws it once with no
 * plans, so that a page that cannot be drawn on the server fails the build, not a visitor.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createHash } from 'node:crypto';
import { build, type Logger, minify, type Plugin, transformWithOxc } from 'vite';
import type { PageData } from '@pm/protocol/page-data';
import { type Manifest, PAGE_OUTLET, PRERENDERED_PAGES, type PrerenderedPage, routeScripts, routeStylesheets } from '../server/src/lib/route-preloads';

/**
 * Where the build keeps the server-side module for the pages drawn per request (`perRequest` in
 * PRERENDERED_PAGES), inside the client build: the server imports it from there
 * (server/src/lib/rendered-pages.ts). A dot-folder: the server never sends it as a file, the
 * service worker does not precache it and no compressed twins are made of it.
 */
export const SSR_DIR = '.ssr';

/** One of the page's stylesheets: its address in the build and its text. */
export type PageStylesheet = { href: string; css: string };

/**
 * A page's HTML from index.html: the page's markup in `#root` (marked with its address, and inert
 * until the app has hydrated it, so that nothing is pressed that does not answer yet; a page that
 * starts the app on interaction holds the presses instead, see PrerenderedPage), Mantine's
 * colour scheme attribute that the app sets when it starts, and the stylesheets the page brings
 * beyond the entry's, in the head.
 *
 * Those stylesheets are written into the page (one `<style>`, after the entry's own stylesheet,
 * in the order the app would load them): the login form alone brings sixteen small files, each a
 * request that would hold the first paint on a phone's connection. Each file is still named by a
 * `<link rel="stylesheet" disabled>`: a disabled link is not fetched, and Vite's loader, which
 * adds a chunk's stylesheets when the app imports it, sees the file as there already and does not
 * download it a second time. The entry's own script and stylesheet stay as they are.
 */
export function composePrerenderedHtml(
  indexHtml: string,
  page: Pick<PrerenderedPage, 'path' | 'anyQuery' | 'startOnInteraction'>,
  markup: string,
  stylesheets: readonly PageStylesheet[],
  /** The start script (client/src/boot/start-after-paint.ts) and the scripts it asks for, the entry first. */
  start: { script: string; files: readonly string[] },
  /** The page's title, as the app sets it; index.html's stays without one. */
  title?: string,
): string {
  const root = '<div id="root"></div>';
  if (!indexHtml.includes(root) || !indexHtml.includes('</head>') || !/<html lang="en">/.test(indexHtml)) {
    throw new Error('prerender: index.html has no empty #root, </head> or <html lang="en">');
  }
  const entryTag = /<script type="module" crossorigin src="\/(assets\/[\w.-]+\.js)"><\/script>/.exec(indexHtml);
  if (!entryTag || entryTag[1] !== start.files[0]) throw new Error('prerender: index.html has no module entry, or not the one named first');
  for (const file of [start.script, ...start.files]) {
    if (!/^assets\/[\w.-]+\.js$/.test(file)) throw new Error(`prerender: ${file} is not a script of the build`);
  }
  if (!/^\/[a-z0-9/-]*$/.test(page.path)) throw new Error(`prerender: ${page.path} is not a plain route path`);
  for (const { href, css } of stylesheets) {
    if (/<\/style/i.test(css)) throw new Error(`prerender: ${href} cannot be written into a <style> element`);
    if (!/^assets\/[\w.-]+\.css$/.test(href)) throw new Error(`prerender: ${href} is not a stylesheet of the build`);
  }
  const styles = stylesheets.length
    ? `    <style data-prerendered-styles>${stylesheets.map((s) => s.css.trim()).join('\n')}</style>\n` +
      stylesheets.map(({ href }) => `    <link rel="stylesheet" crossorigin href="/${href}" disabled>\n`).join('')
    : '';
  const marks = `data-prerendered="${page.path}"${page.anyQuery ? ' data-prerendered-any-query' : ''}`;
  // The app's scripts are asked for once the page is painted, by the start script, not by the
  // page: the entry's tag and Vite's modulepreload links make way for it.
  const when = page.startOnInteraction ? ' data-start="interaction"' : '';
  const app = `<meta name="pm-app" content="${start.files.map((f) => `/${f}`).join(' ')}"${when}>\n    <script type="module" crossorigin src="/${start.script}"></script>`;
  const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return indexHtml
    .replace(/<title>[^<]*<\/title>/, (tag) => (title === undefined ? tag : `<title>${escape(title)}</title>`))
    .replace(entryTag[0], () => app)
    .replace(/\s*<link rel="modulepreload" crossorigin href="[^"]+">/g, '')
    .replace('<html lang="en">', '<html lang="en" data-mantine-color-scheme="light">')
    .replace('</head>', () => `${styles}  </head>`)
    .replace(root, () => `<div id="root" ${marks}${page.startOnInteraction ? '' : ' inert'}>${markup}</div>`);
}

export function prerenderPages(pages: readonly PrerenderedPage[] = PRERENDERED_PAGES): Plugin {
  let outDir = '';
  let root = '';
  let configFile: string | undefined;
  let logger: Logger | undefined;
  return {
    name: 'pariksha:prerender-pages',
    apply: (_config, env) => env.command === 'build' && !env.isSsrBuild,
    configResolved(config) {
      root = config.root;
      outDir = path.resolve(config.root, config.build.outDir);
      configFile = config.configFile;
      logger = config.logger;
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        const started = Date.now();
        // Inside the project (the build's folder), so that the module's imports of packages resolve to node_modules.
        const ssrDir = path.join(outDir, SSR_DIR);
        const keep = pages.some((p) => p.perRequest);
        await rm(ssrDir, { recursive: true, force: true });
        await mkdir(ssrDir, { recursive: true });
        try {
          await build({
            configFile,
            mode: 'production',
            logLevel: 'warn',
            build: { ssr: 'src/prerender/pages.tsx', outDir: ssrDir, emptyOutDir: true, manifest: false, ssrManifest: false, copyPublicDir: false },
          });
          const mod = (await import(pathToFileURL(path.join(ssrDir, 'pages.js')).href)) as {
            renderPage(path: string, data?: PageData): Promise<string>;
            renderTitle(path: string): string;
          };
          const manifest = JSON.parse(await readFile(path.join(outDir, '.vite', 'manifest.json'), 'utf8')) as Manifest;
          const indexHtml = await readFile(path.join(outDir, 'index.html'), 'utf8');
          const startScript = await writeStartScript(root, outDir);
          for (const page of pages) {
            const markup = page.perRequest ? PAGE_OUTLET : await mod.renderPage(page.path);
            if (page.perRequest) await mod.renderPage(page.path, page.perRequest.trial);
            const stylesheets = await Promise.all(
              routeStylesheets(manifest, page.path).map(async (href) => ({ href, css: await readFile(path.join(outDir, href), 'utf8') })),
            );
            const start = { script: startScript, files: routeScripts(manifest, page.path) };
            const title = mod.renderTitle(page.path);
            await writeFile(path.join(outDir, page.file), composePrerenderedHtml(indexHtml, page, markup, stylesheets, start, title));
            logger?.info(`prerendered ${page.path} into ${page.file} (${(markup.length / 1000).toFixed(1)} kB of markup)`);
          }
          logger?.info(`prerendered ${pages.length} pages in ${Date.now() - started} ms`);
        } finally {
          if (!keep) await rm(ssrDir, { recursive: true, force: true });
        }
      },
    },
  };
}

/**
 * client/src/boot/start-after-paint.ts, transpiled and minified on its own (it imports nothing), written into
 * the build's assets under a name that changes with its content. Returns its path in the build.
 */
async function writeStartScript(root: string, outDir: string): Promise<string> {
  const source = path.join(root, 'src', 'boot', 'start-after-paint.ts');
  const { code: js } = await transformWithOxc(await readFile(source, 'utf8'), source, { lang: 'ts' });
  const { code } = await minify('start-after-paint.js', js);
  const file = `assets/start-after-paint-${createHash('sha256').update(code).digest('base64url').slice(0, 8)}.js`;
  await writeFile(path.join(outDir, file), code);
  return file;
}
