import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { PAGE_DATA_ELEMENT_ID, type PageData } from '@pm/protocol/page-data';
import type { ContentCoding } from './compression';
import { PAGE_OUTLET } from './route-preloads';

/** The server-side module the build keeps in the client build (scripts/vite-plugin-prerender.ts, SSR_DIR). */
export const SSR_MODULE = path.join('.ssr', 'pages.js');

type RenderModule = { renderPage(path: string, data?: PageData): Promise<string> };
/** A drawn page as it is sent: the HTML and its compressed forms. */
export type DrawnPage = { html: string; bodies: Partial<Record<ContentCoding, Buffer>> };
export type Log = { warn(obj: object, msg: string): void };

/**
 * A page of PRERENDERED_PAGES marked `perRequest` (docs/benchmarks.md "bench:lighthouse": `/plan`, whose plans are the
 * database's): drawn by the build's server module with the data `load` reads, into the page's
 * template (its markup at PAGE_OUTLET), with that data written into the page for the browser's
 * first render (client/src/lib/page-data.ts). The data is read on every request; the drawn page
 * is kept while it is the same (the plans change a few times a year), so a visit costs one
 * database read and no drawing; one drawing at a time. Compressed once per drawing, at brotli's
 * best quality; lib/client-files sends the form the request allows.
 *
 * Undefined (the caller then sends the shell, and the app draws the page) when the build has no
 * template or module; a drawing that fails is logged and answered with undefined too.
 */
export function perRequestPage(
  clientDir: string,
  file: string,
  route: string,
  load: () => Promise<PageData>,
  log?: Log,
): (() => Promise<DrawnPage | undefined>) | undefined {
  const templateFile = path.join(clientDir, file);
  const moduleFile = path.join(clientDir, SSR_MODULE);
  if (!existsSync(templateFile) || !existsSync(moduleFile)) return undefined;
  const template = readFileSync(templateFile, 'utf8');
  if (!template.includes(PAGE_OUTLET) || !template.includes('</body>')) return undefined;
  let module: Promise<RenderModule> | undefined;
  let kept: { key: string; drawn: DrawnPage } | undefined;
  let queue: Promise<unknown> = Promise.resolve();

  const draw = async (data: PageData): Promise<DrawnPage> => {
    const key = JSON.stringify(data);
    if (kept?.key === key) return kept.drawn;
    module ??= import(pathToFileURL(moduleFile).href) as Promise<RenderModule>;
    const markup = await (await module).renderPage(route, data);
    const html = composeDrawnPage(template, markup, data);
    const bytes = Buffer.from(html);
    const drawn: DrawnPage = {
      html,
      bodies: {
        br: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } }),
        gzip: gzipSync(bytes, { level: 9 }),
      },
    };
    kept = { key, drawn };
    return drawn;
  };

  return async () => {
    try {
      const data = await load();
      const result = queue.then(() => draw(data));
      queue = result.catch(() => undefined);
      return await result;
    } catch (err) {
      log?.warn({ err, route }, 'could not draw the page on the server; sending the shell');
      return undefined;
    }
  };
}

/**
 * The template with the page's markup at PAGE_OUTLET and its data as a JSON block before
 * `</body>` (a data block is never run, so the site's CSP has nothing to say about it). `<` is
 * written as `\u003c` so that no text in the data can close the block.
 */
export function composeDrawnPage(template: string, markup: string, data: PageData): string {
  const json = JSON.stringify(data).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
  return template
    .replace(PAGE_OUTLET, () => markup)
    .replace('</body>', () => `<script type="application/json" id="${PAGE_DATA_ELEMENT_ID}">${json}</script>\n  </body>`);
}
