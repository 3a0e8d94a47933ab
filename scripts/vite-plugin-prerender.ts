/**
 * First pages prerendered at build time (issue 20 §2: "the largest element of `/` painted without
 * waiting for JavaScript"; the same for the login form a newcomer opens next). After the client
 * build, the same sources are built once more as a Node module (client/src/prerender/pages.tsx:
 * the app with a static router), run once, and the markup it draws for each page of
 * PRERENDERED_PAGES (server/src/lib/route-preloads.ts) is written into that page's file, a copy
 * of the build's index.html with the page's stylesheets in its head and the page inside `#root`.
 * The server answers the route with it (server/src/lib/client-files.ts); the app hydrates it
 * (client/src/main.tsx).
 *
 * The markup is that of a first visit: English, not signed in, the built-in slides. Anything else
 * (a stored Hindi choice, another address or query) is drawn by the app as before.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Logger, type Plugin } from 'vite';
import { type Manifest, PRERENDERED_PAGES, type PrerenderedPage, routeStylesheets } from '../server/src/lib/route-preloads';

/**
 * A page's HTML from index.html: the page's markup in `#root` (marked with its address, and inert
 * until the app has hydrated it, so that nothing is pressed that does not answer yet), its
 * stylesheets before the end of the head, and Mantine's colour scheme attribute that the app sets
 * when it starts. The entry's own tag stays: the app starts as soon as its code is in, and
 * hydrates the page.
 */
export function composePrerenderedHtml(indexHtml: string, page: Pick<PrerenderedPage, 'path' | 'anyQuery'>, markup: string, stylesheets: readonly string[]): string {
  const root = '<div id="root"></div>';
  if (!indexHtml.includes(root) || !indexHtml.includes('</head>') || !/<html lang="en">/.test(indexHtml)) {
    throw new Error('prerender: index.html has no empty #root, </head> or <html lang="en">');
  }
  if (!/^\/[a-z0-9/-]*$/.test(page.path)) throw new Error(`prerender: ${page.path} is not a plain route path`);
  const links = stylesheets.map((href) => `    <link rel="stylesheet" crossorigin href="/${href}">\n`).join('');
  const marks = `data-prerendered="${page.path}"${page.anyQuery ? ' data-prerendered-any-query' : ''}`;
  return indexHtml
    .replace('<html lang="en">', '<html lang="en" data-mantine-color-scheme="light">')
    .replace('</head>', `${links}  </head>`)
    .replace(root, () => `<div id="root" ${marks} inert>${markup}</div>`);
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
        // Inside the project, so that the module's imports of packages resolve to node_modules.
        const ssrDir = path.resolve(root, '..', 'node_modules', '.cache', 'pm-prerender');
        await rm(ssrDir, { recursive: true, force: true });
        await mkdir(ssrDir, { recursive: true });
        try {
          await build({
            configFile,
            mode: 'production',
            logLevel: 'warn',
            build: { ssr: 'src/prerender/pages.tsx', outDir: ssrDir, emptyOutDir: true, manifest: false, ssrManifest: false, copyPublicDir: false },
          });
          const mod = (await import(pathToFileURL(path.join(ssrDir, 'pages.js')).href)) as { renderPage(path: string): Promise<string> };
          const manifest = JSON.parse(await readFile(path.join(outDir, '.vite', 'manifest.json'), 'utf8')) as Manifest;
          const indexHtml = await readFile(path.join(outDir, 'index.html'), 'utf8');
          for (const page of pages) {
            const markup = await mod.renderPage(page.path);
            await writeFile(path.join(outDir, page.file), composePrerenderedHtml(indexHtml, page, markup, routeStylesheets(manifest, page.path)));
            logger?.info(`prerendered ${page.path} into ${page.file} (${(markup.length / 1000).toFixed(1)} kB of markup)`);
          }
          logger?.info(`prerendered ${pages.length} pages in ${Date.now() - started} ms`);
        } finally {
          await rm(ssrDir, { recursive: true, force: true });
        }
      },
    },
  };
}
