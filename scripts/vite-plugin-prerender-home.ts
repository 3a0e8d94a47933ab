/**
 * The home page prerendered at build time (issue 20 §2: "the largest element of `/` painted
 * without waiting for JavaScript"). After the client build, the same sources are built once more
 * as a Node module (client/src/prerender/home.tsx: the app with a static router at `/`), run
 * once, and the markup it draws is written into `home.html`, a copy of the build's index.html
 * with the home page's stylesheets in its head and the page inside `#root`. The server answers
 * `/` with it (server/src/lib/client-files.ts); the app hydrates it (client/src/main.tsx).
 *
 * The markup is that of a first visit: English, not signed in, the built-in slides. Anything else
 * (a stored Hindi choice, another address) is drawn by the app as before.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Logger, type Plugin } from 'vite';
import { type Manifest, PRERENDERED_HOME, routeStylesheets } from '../server/src/lib/route-preloads';

/**
 * home.html from index.html: the page's markup in `#root` (marked, and inert until the app has
 * hydrated it, so that nothing is pressed that does not answer yet), its stylesheets before the
 * end of the head, and Mantine's colour scheme attribute that the app sets when it starts. The
 * entry's own tag stays: the app starts as soon as its code is in, and hydrates the page.
 */
export function composeHomeHtml(indexHtml: string, markup: string, stylesheets: readonly string[]): string {
  const root = '<div id="root"></div>';
  if (!indexHtml.includes(root) || !indexHtml.includes('</head>') || !/<html lang="en">/.test(indexHtml)) {
    throw new Error('prerender: index.html has no empty #root, </head> or <html lang="en">');
  }
  const links = stylesheets.map((href) => `    <link rel="stylesheet" crossorigin href="/${href}">\n`).join('');
  return indexHtml
    .replace('<html lang="en">', '<html lang="en" data-mantine-color-scheme="light">')
    .replace('</head>', `${links}  </head>`)
    .replace(root, () => `<div id="root" data-prerendered="/" inert>${markup}</div>`);
}

export function prerenderHome(): Plugin {
  let outDir = '';
  let root = '';
  let configFile: string | undefined;
  let logger: Logger | undefined;
  return {
    name: 'pariksha:prerender-home',
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
            build: { ssr: 'src/prerender/home.tsx', outDir: ssrDir, emptyOutDir: true, manifest: false, ssrManifest: false, copyPublicDir: false },
          });
          const mod = (await import(pathToFileURL(path.join(ssrDir, 'home.js')).href)) as { renderHome(): Promise<string> };
          const markup = await mod.renderHome();
          const manifest = JSON.parse(await readFile(path.join(outDir, '.vite', 'manifest.json'), 'utf8')) as Manifest;
          const indexHtml = await readFile(path.join(outDir, 'index.html'), 'utf8');
          await writeFile(path.join(outDir, PRERENDERED_HOME), composeHomeHtml(indexHtml, markup, routeStylesheets(manifest, '/')));
          logger?.info(`prerendered / into ${PRERENDERED_HOME} (${(markup.length / 1000).toFixed(1)} kB of markup) in ${Date.now() - started} ms`);
        } finally {
          await rm(ssrDir, { recursive: true, force: true });
        }
      },
    },
  };
}
