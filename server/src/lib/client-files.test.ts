import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type Harness, startHarness } from '../test/harness';
import { isAppRoute, serveClientFiles } from './client-files';
import { SITE_CSP } from './security-headers';

const INDEX = '<!doctype html><title>Pariksha Mitra</title><div id="root"></div>';
/** A chunk the build gave brotli and gzip twins (scripts/vite-plugin-precompress.ts). */
const BIG_JS = `export const lines = ${JSON.stringify(Array.from({ length: 300 }, (_, i) => `line ${i} of a chunk`))};`;

let h: Harness;
let clientDir: string;
beforeAll(async () => {
  // A built client as vite-plugin-pwa leaves it in dist/.
  clientDir = mkdtempSync(path.join(tmpdir(), 'pm-client-'));
  mkdirSync(path.join(clientDir, 'assets'));
  mkdirSync(path.join(clientDir, 'icons'));
  mkdirSync(path.join(clientDir, '.vite'));
  writeFileSync(path.join(clientDir, 'index.html'), INDEX);
  writeFileSync(path.join(clientDir, 'assets', 'index-AbC123.js'), 'export const x = 1;');
  writeFileSync(path.join(clientDir, 'assets', 'index-AbC123.css'), 'body{}');
  writeFileSync(path.join(clientDir, 'sw.js'), 'self.define=1;');
  writeFileSync(path.join(clientDir, 'workbox-2fbc6a65.js'), 'define([],()=>{});');
  writeFileSync(path.join(clientDir, 'manifest.webmanifest'), '{"name":"Pariksha Mitra"}');
  writeFileSync(path.join(clientDir, 'icons', 'icon-192.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  const manifest = { 'index.html': { file: 'assets/index-AbC123.js', isEntry: true, css: ['assets/index-AbC123.css'] } };
  writeFileSync(path.join(clientDir, '.vite', 'manifest.json'), JSON.stringify(manifest));
  // Twins as the build writes them: the page and a large chunk (small files have none).
  for (const [file, text] of [
    ['index.html', INDEX],
    ['assets/big-Tw1n.js', BIG_JS],
  ] as const) {
    writeFileSync(path.join(clientDir, file), text);
    writeFileSync(path.join(clientDir, `${file}.br`), brotliCompressSync(text));
    writeFileSync(path.join(clientDir, `${file}.gz`), gzipSync(text, { level: 9 }));
  }
  h = await startHarness({ seed: false });
  expect(serveClientFiles(h.app, clientDir)).toBe(true);
});
afterAll(() => {
  h.destroy();
  rmSync(clientDir, { recursive: true, force: true });
});

const get = (url: string) => h.app.request(url);

test('hashed assets are served with their type and cached for a year', async () => {
  const js = await get('/assets/index-AbC123.js');
  expect(js.status).toBe(200);
  expect(js.headers.get('content-type')).toMatch(/^text\/javascript/);
  expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  expect(await js.text()).toBe('export const x = 1;');
  const css = await get('/assets/index-AbC123.css');
  expect(css.headers.get('content-type')).toMatch(/^text\/css/);
  expect(css.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
});

test('the service worker, its Workbox runtime and the manifest are revalidated on every use', async () => {
  const sw = await get('/sw.js');
  expect(sw.status).toBe(200);
  expect(sw.headers.get('content-type')).toMatch(/^text\/javascript/);
  expect(sw.headers.get('cache-control')).toBe('no-cache');
  const workbox = await get('/workbox-2fbc6a65.js');
  expect(workbox.status).toBe(200);
  expect(workbox.headers.get('content-type')).toMatch(/^text\/javascript/);
  const manifest = await get('/manifest.webmanifest');
  expect(manifest.status).toBe(200);
  expect(manifest.headers.get('content-type')).toBe('application/manifest+json');
  expect(manifest.headers.get('cache-control')).toBe('no-cache');
  const icon = await get('/icons/icon-192.png');
  expect(icon.headers.get('content-type')).toBe('image/png');
});

test('/ and the app routes get index.html, not to be cached without revalidation', async () => {
  for (const url of ['/', '/index.html', '/about', '/exam-list', '/question-set/6f1c2d3e-aaaa-4bbb-8ccc-123456789abc', '/exam-list?x=1']) {
    const r = await get(url);
    expect(r.status, url).toBe(200);
    expect(r.headers.get('content-type'), url).toMatch(/^text\/html/);
    expect(r.headers.get('cache-control'), url).toBe('no-cache');
    expect(await r.text(), url).toBe(INDEX);
  }
});

test('missing files are 404s, never the page: old chunks, unknown scripts, the build manifest', async () => {
  for (const url of ['/assets/index-Old999.js', '/assets/gone.css', '/assets/no-extension', '/sw-old.js', '/favicon.ico', '/.vite/manifest.json', '/registerSW.js']) {
    const r = await get(url);
    expect(r.status, url).toBe(404);
    expect(r.headers.get('content-type') ?? '', url).not.toMatch(/html/);
    expect(r.headers.get('cache-control'), url).toBeNull();
  }
});

test('the API keeps its own 404 and is never answered with the page', async () => {
  for (const url of ['/api', '/api/no-such-thing', '/api/assets/x.js']) {
    const r = await get(url);
    expect(r.status, url).toBe(404);
    expect(await r.json(), url).toMatchObject({ success: false, msg: 'Not found' });
  }
  const health = await get('/api/health');
  expect(health.status).toBe(200);
});

test('the page and the files carry the site CSP, the API its own policy and no-store, also without a Node response', async () => {
  // app.request() has no Node response: the middleware's headers go through Hono (app.ts).
  for (const url of ['/', '/about', '/sw.js', '/manifest.webmanifest']) {
    const r = await get(url);
    expect(r.headers.get('content-security-policy'), url).toBe(SITE_CSP);
    expect(r.headers.get('x-content-type-options'), url).toBe('nosniff');
    expect(r.headers.get('x-frame-options'), url).toBe('DENY');
  }
  // The build's scripts (subresources, never documents): only what applies to them (docs/benchmarks.md "bench:bundle").
  const script = await get('/assets/index-AbC123.js');
  expect(script.headers.get('x-content-type-options')).toBe('nosniff');
  expect(script.headers.get('cross-origin-resource-policy')).toBe('same-origin');
  expect(script.headers.get('referrer-policy')).toBe('no-referrer');
  for (const pageOnly of ['content-security-policy', 'x-frame-options', 'cross-origin-opener-policy', 'x-xss-protection']) {
    expect(script.headers.get(pageOnly), pageOnly).toBeNull();
  }
  // The file's own Cache-Control is kept, not replaced by a default.
  expect((await get('/assets/index-AbC123.js')).headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  const api = await get('/api/health');
  expect(api.headers.get('content-security-policy')).toMatch(/^default-src 'none'; frame-ancestors 'none'/);
  expect(api.headers.get('cache-control')).toBe('no-store');
  expect(api.headers.get('x-content-type-options')).toBe('nosniff');
});

const CHROMIUM = { 'accept-encoding': 'gzip, deflate, br, zstd' };
const bytes = async (r: Response) => Buffer.from(await r.arrayBuffer());

test('a file with twins goes as brotli, else gzip, else as it is; always with Vary, its type, length and Cache-Control', async () => {
  const br = await h.app.request('/assets/big-Tw1n.js', { headers: CHROMIUM });
  expect(br.status).toBe(200);
  expect(br.headers.get('content-encoding')).toBe('br');
  expect(br.headers.get('vary')).toBe('Accept-Encoding');
  expect(br.headers.get('content-type')).toMatch(/^text\/javascript/);
  expect(br.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  const brBody = await bytes(br);
  expect(Number(br.headers.get('content-length'))).toBe(brBody.length);
  expect(brBody.length).toBeLessThan(BIG_JS.length);
  expect(brotliDecompressSync(brBody).toString('utf8')).toBe(BIG_JS);

  const gz = await h.app.request('/assets/big-Tw1n.js', { headers: { 'accept-encoding': 'gzip, deflate' } });
  expect(gz.headers.get('content-encoding')).toBe('gzip');
  expect(gz.headers.get('vary')).toBe('Accept-Encoding');
  expect(gz.headers.get('content-type')).toMatch(/^text\/javascript/);
  const gzBody = await bytes(gz);
  expect(Number(gz.headers.get('content-length'))).toBe(gzBody.length);
  expect(gunzipSync(gzBody).toString('utf8')).toBe(BIG_JS);

  for (const headers of [{}, { 'accept-encoding': 'identity' }, { 'accept-encoding': 'br;q=0, gzip;q=0' }] as Record<string, string>[]) {
    const plain = await h.app.request('/assets/big-Tw1n.js', { headers });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('vary')).toBe('Accept-Encoding');
    expect(Number(plain.headers.get('content-length'))).toBe(Buffer.byteLength(BIG_JS));
    expect(await plain.text()).toBe(BIG_JS);
  }
  // A small file has no twins: sent as it is, and it does not vary.
  const small = await h.app.request('/assets/index-AbC123.js', { headers: CHROMIUM });
  expect(small.headers.get('content-encoding')).toBeNull();
  expect(small.headers.get('vary')).toBeNull();
  expect(await small.text()).toBe('export const x = 1;');
});

test('HEAD answers as GET would; a Range request gets the file itself', async () => {
  const head = await h.app.request('/assets/big-Tw1n.js', { method: 'HEAD', headers: CHROMIUM });
  expect(head.status).toBe(200);
  expect(head.headers.get('content-encoding')).toBe('br');
  expect(Number(head.headers.get('content-length'))).toBe(brotliCompressSync(BIG_JS).length);
  expect((await bytes(head)).length).toBe(0);

  const range = await h.app.request('/assets/big-Tw1n.js', { headers: { ...CHROMIUM, range: 'bytes=0-9' } });
  expect(range.status).toBe(206);
  expect(range.headers.get('content-encoding')).toBeNull();
  expect(range.headers.get('content-range')).toBe(`bytes 0-9/${Buffer.byteLength(BIG_JS)}`);
  expect(range.headers.get('vary')).toBe('Accept-Encoding');
  expect(await range.text()).toBe(BIG_JS.slice(0, 10));
});

test('the page is sent compressed at / and on every app route', async () => {
  for (const url of ['/', '/index.html', '/about', '/exam-list?x=1']) {
    const r = await h.app.request(url, { headers: CHROMIUM });
    expect(r.status, url).toBe(200);
    expect(r.headers.get('content-encoding'), url).toBe('br');
    expect(r.headers.get('vary'), url).toBe('Accept-Encoding');
    expect(r.headers.get('content-type'), url).toMatch(/^text\/html/);
    expect(r.headers.get('cache-control'), url).toBe('no-cache');
    expect(brotliDecompressSync(await bytes(r)).toString('utf8'), url).toBe(INDEX);
    const gz = await h.app.request(url, { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers.get('content-encoding'), url).toBe('gzip');
    expect(gunzipSync(await bytes(gz)).toString('utf8'), url).toBe(INDEX);
  }
  const head = await h.app.request('/about', { method: 'HEAD', headers: CHROMIUM });
  expect(head.status).toBe(200);
  expect(head.headers.get('content-encoding')).toBe('br');
  expect(Number(head.headers.get('content-length'))).toBe(brotliCompressSync(INDEX).length);
  expect((await bytes(head)).length).toBe(0);
});

test('the 404 rules do not change with Accept-Encoding', async () => {
  for (const url of ['/assets/index-Old999.js', '/sw-old.js', '/.vite/manifest.json', '/favicon.ico']) {
    const r = await h.app.request(url, { headers: CHROMIUM });
    expect(r.status, url).toBe(404);
    expect(r.headers.get('content-encoding'), url).toBeNull();
    expect(r.headers.get('content-type') ?? '', url).not.toMatch(/html/);
  }
});

test('isAppRoute: routes have no file extension and are outside /api and /assets', () => {
  expect(isAppRoute('/')).toBe(true);
  expect(isAppRoute('/about')).toBe(true);
  expect(isAppRoute('/admin/person')).toBe(true);
  expect(isAppRoute('/api')).toBe(false);
  expect(isAppRoute('/api/health')).toBe(false);
  expect(isAppRoute('/assets/x')).toBe(false);
  expect(isAppRoute('/sw.js')).toBe(false);
  expect(isAppRoute('/apple-touch-icon-precomposed.png')).toBe(false);
  // Not an API path, just a route that starts with the same letters.
  expect(isAppRoute('/apiary')).toBe(true);
});

test('without a build there is nothing to serve', () => {
  const empty = mkdtempSync(path.join(tmpdir(), 'pm-client-'));
  try {
    expect(serveClientFiles(h.app, empty)).toBe(false);
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
});

test('the first screens\' pages name their files in a Link header (issue 20 §2); other pages and files do not', async () => {
  const hints = '</assets/index-AbC123.css>; rel=preload; as=style; crossorigin, </assets/index-AbC123.js>; rel=modulepreload';
  for (const url of ['/', '/login', '/plan', '/exam-list']) {
    const r = await get(url);
    expect(r.status, url).toBe(200);
    expect(r.headers.get('content-type'), url).toMatch(/^text\/html/);
    expect(r.headers.get('link'), url).toBe(hints);
  }
  for (const url of ['/about', '/assets/index-AbC123.js', '/sw.js', '/api/health']) expect((await get(url)).headers.get('link'), url).toBeNull();
});
