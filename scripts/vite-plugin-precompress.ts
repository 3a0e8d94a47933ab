/**
 * Brotli and gzip twins of the built client, written beside each file as `<file>.br` and
 * `<file>.gz` at the end of `vite build` (docs/benchmarks.md "bench:bundle"). The server sends a twin when the request's
 * Accept-Encoding allows it (server/src/lib/client-files.ts), so a phone downloads the 400 kB
 * entry chunk as ~100 kB without the server compressing anything per request.
 *
 * A Vite plugin rather than a step after `npm run build`: `npm start` (scripts/start.mjs) and
 * `bench:bundle` run `vite build` themselves, and each must leave the same dist/. It runs in
 * `closeBundle` after every other plugin's (order 'post', sequential), so the service worker and
 * the Workbox runtime that vite-plugin-pwa writes there are compressed too. The twins never
 * enter the precache manifest (vite.config.ts: globPatterns name the originals only, and
 * globIgnores leaves the twins out): the worker fetches the originals, and the server sends those
 * compressed on the wire.
 */
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Logger, Plugin } from 'vite';

/** Files whose content compresses (text, and wasm); images and fonts are compressed already. */
export const PRECOMPRESSIBLE = /\.(?:m?js|css|html|svg|json|webmanifest|txt|xml|wasm|map)$/i;
/**
 * Below this a file is sent as it is: a twin would save a few hundred bytes at most, less than a
 * TCP packet, and every file with twins costs the server a stat per request.
 */
export const PRECOMPRESS_MIN_BYTES = 1024;

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Every file under `dir`, skipping dot-folders (the build's .vite/manifest.json is not served). */
async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(full)));
    else if (entry.isFile()) out.push(full);
  }
  return out;
}

export type PrecompressTotals = { files: number; raw: number; br: number; gzip: number };

/**
 * Writes `.br` (quality 11, the slowest and smallest: done once per build) and `.gz` (level 9)
 * beside every compressible file of `dir` of at least `PRECOMPRESS_MIN_BYTES`. A twin that
 * would not be smaller than the file is not written (the server then sends the file).
 */
export async function precompressDir(dir: string): Promise<PrecompressTotals> {
  const files = (await filesUnder(dir)).filter((f) => PRECOMPRESSIBLE.test(f));
  const totals: PrecompressTotals = { files: 0, raw: 0, br: 0, gzip: 0 };
  // zlib's asynchronous calls run on libuv's thread pool: the files compress in parallel.
  await Promise.all(
    files.map(async (file) => {
      if ((await stat(file)).size < PRECOMPRESS_MIN_BYTES) return;
      const bytes = await readFile(file);
      const [br, gzipped] = await Promise.all([
        brotli(bytes, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
          },
        }),
        gz(bytes, { level: constants.Z_BEST_COMPRESSION }),
      ]);
      totals.files++;
      totals.raw += bytes.length;
      if (br.length < bytes.length) {
        await writeFile(`${file}.br`, br);
        totals.br += br.length;
      }
      if (gzipped.length < bytes.length) {
        await writeFile(`${file}.gz`, gzipped);
        totals.gzip += gzipped.length;
      }
    }),
  );
  return totals;
}

export function precompress(): Plugin {
  let outDir = '';
  let logger: Logger | undefined;
  return {
    name: 'pariksha:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      logger = config.logger;
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        const t = await precompressDir(outDir);
        const kB = (n: number) => `${(n / 1000).toFixed(1)} kB`;
        logger?.info(`precompressed ${t.files} files: ${kB(t.raw)} → ${kB(t.br)} br, ${kB(t.gzip)} gzip`);
      },
    },
  };
}
