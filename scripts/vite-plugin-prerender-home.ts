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
import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Logger, type Plugin } from 'vite';
import { type Manifest, PRERENDERED_HOME, routeStylesheets } from '../server/src/lib/route-preloads';

/**
 * The small module home.html starts the app with: the entry, imported once the prerendered page
 * has been painted — the browser has reported its first contentful paint, the page's eager images
 * (the first slide) are decoded, and two more frames have gone by so that they are on screen — or
 * after a second in any case (a hidden tab paints nothing). Loaded by index.html's own tag, the
 * entry would run as soon as it arrived, and the page would be shown only once the app's code had
 * been evaluated, which takes most of a second on a slow phone. The entry is still fetched at once
 * (modulepreload), only its evaluation waits.
 */
export function bootModule(entrySrc: string): string {
  return [
    'let started = false;',
    'const start = () => {',
    '  if (started) return;',
    '  started = true;',
    `  import(${JSON.stringify(entrySrc)});`,
    '};',
    'const painted = new Promise((resolve) => {',
    '  try {',
    '    new PerformanceObserver((list) => {',
    "      if (list.getEntriesByName('first-contentful-paint').length) resolve();",
    "    }).observe({ type: 'paint', buffered: true });",
    '  } catch {',
    '    resolve();',
    '  }',
    '});',
    "const images = [...document.querySelectorAll('#root img[loading=eager]')].map((img) => img.decode().catch(() => undefined));",
    'Promise.all([painted, ...images]).then(() => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(start, 0))));',
    'setTimeout(start, 1000);',
    '',
  ].join('\n');
}

/**
 * home.html from index.html: the page's markup in `#root` (marked, and inert until the app has
 * hydrated it, so that nothing is pressed that does not answer yet), its stylesheets before the
 * end of the head, Mantine's colour scheme attribute that the app sets when it starts, and the
 * entry started by `bootSrc` (see bootModule) instead of index.html's tag.
 */
export function composeHomeHtml(indexHtml: string, markup: string, stylesheets: readonly string[], bootSrc: string): string {
  const root = '<div id="root"></div>';
  const entry = ENTRY_TAG.exec(indexHtml);
  if (!indexHtml.includes(root) || !indexHtml.includes('</head>') || !/<html lang="en">/.test(indexHtml) || !entry) {
    throw new Error('prerender: index.html has no empty #root, </head>, <html lang="en"> or module entry');
  }
  const links = stylesheets.map((href) => `    <link rel="stylesheet" crossorigin href="/${href}">\n`).join('');
  const boot = `<script type="module" crossorigin src="${bootSrc}"></script>\n    <link rel="modulepreload" crossorigin href="${entry[1]}">`;
  return indexHtml
    .replace('<html lang="en">', '<html lang="en" data-mantine-color-scheme="light">')
    .replace(entry[0], () => boot)
    .replace('</head>', `${links}  </head>`)
    .replace(root, () => `<div id="root" data-prerendered="/" inert>${markup}</div>`);
}

/** index.html's module entry, as Vite writes it. */
const ENTRY_TAG = /<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"><\/script>/;

/** The entry's address in index.html (the boot module imports it). */
export function entrySrc(indexHtml: string): string {
  const m = ENTRY_TAG.exec(indexHtml);
  if (!m?.[1]) throw new Error('prerender: index.html has no module entry');
  return m[1];
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
          const boot = bootModule(entrySrc(indexHtml));
          const bootFile = `assets/home-boot-${createHash('sha256').update(boot).digest('base64url').slice(0, 8)}.js`;
          await writeFile(path.join(outDir, bootFile), boot);
          await writeFile(path.join(outDir, PRERENDERED_HOME), composeHomeHtml(indexHtml, markup, routeStylesheets(manifest, '/'), `/${bootFile}`));
          logger?.info(`prerendered / into ${PRERENDERED_HOME} (${(markup.length / 1000).toFixed(1)} kB of markup) in ${Date.now() - started} ms`);
        } finally {
          await rm(ssrDir, { recursive: true, force: true });
        }
      },
    },
  };
}
