import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type Harness, startHarness } from '../test/harness';
import { serveClientFiles } from './client-files';
import { SITE_CSP } from './security-headers';

/*
 * A build with prerendered pages (docs/benchmarks.md "bench:lighthouse", scripts/vite-plugin-prerender.ts): `/` is
 * answered with home.html, `/login` without a query with login.html, every other route with
 * index.html as before.
 */
const INDEX = `<!doctype html><title>Pariksha Mitra</title><div id="root"></div>${'<!-- the shell -->'.repeat(80)}`;
const HOME = `<!doctype html><title>Pariksha Mitra</title><div id="root" data-prerendered="/" inert><h1>Home</h1></div>${'<!-- the page -->'.repeat(80)}`;
const LOGIN = `<!doctype html><title>Pariksha Mitra</title><div id="root" data-prerendered="/login" inert><h1>Login</h1></div>${'<!-- the form -->'.repeat(80)}`;
const CHROMIUM = { 'accept-encoding': 'gzip, deflate, br, zstd' };
const bytes = async (r: Response) => Buffer.from(await r.arrayBuffer());

let h: Harness;
let clientDir: string;
beforeAll(async () => {
  clientDir = mkdtempSync(path.join(tmpdir(), 'pm-client-home-'));
  mkdirSync(path.join(clientDir, 'assets'));
  mkdirSync(path.join(clientDir, '.vite'));
  for (const [file, text] of [
    ['index.html', INDEX],
    ['home.html', HOME],
    ['login.html', LOGIN],
  ] as const) {
    writeFileSync(path.join(clientDir, file), text);
    writeFileSync(path.join(clientDir, `${file}.br`), brotliCompressSync(text));
    writeFileSync(path.join(clientDir, `${file}.gz`), gzipSync(text, { level: 9 }));
  }
  writeFileSync(path.join(clientDir, 'assets', 'index-AbC123.js'), 'export const x = 1;');
  const manifest = {
    'index.html': { file: 'assets/index-AbC123.js', isEntry: true },
    'src/features/auth/components/login-page.tsx': { file: 'assets/login-page-L1.js', css: ['assets/Tabs-T1.css'] },
  };
  writeFileSync(path.join(clientDir, '.vite', 'manifest.json'), JSON.stringify(manifest));
  h = await startHarness({ seed: false });
  expect(serveClientFiles(h.app, clientDir)).toBe(true);
});
afterAll(() => {
  h.destroy();
  rmSync(clientDir, { recursive: true, force: true });
});

test('/ is the prerendered page: brotli, gzip or as it is, revalidated, with the site CSP and no Link header (it asks for its scripts once painted)', async () => {
  const br = await h.app.request('/', { headers: CHROMIUM });
  expect(br.status).toBe(200);
  expect(br.headers.get('content-encoding')).toBe('br');
  expect(br.headers.get('vary')).toBe('Accept-Encoding, Cookie');
  expect(br.headers.get('content-type')).toMatch(/^text\/html/);
  expect(br.headers.get('cache-control')).toBe('no-cache');
  expect(br.headers.get('content-security-policy')).toBe(SITE_CSP);
  expect(br.headers.get('link')).toBeNull();
  expect(brotliDecompressSync(await bytes(br)).toString('utf8')).toBe(HOME);
  const gz = await h.app.request('/?from=pwa', { headers: { 'accept-encoding': 'gzip' } });
  expect(gz.headers.get('content-encoding')).toBe('gzip');
  expect(gunzipSync(await bytes(gz)).toString('utf8')).toBe(HOME);
  const plain = await h.app.request('/', { headers: { 'accept-encoding': 'identity' } });
  expect(plain.headers.get('content-encoding')).toBeNull();
  expect(await plain.text()).toBe(HOME);
  const head = await h.app.request('/', { method: 'HEAD', headers: CHROMIUM });
  expect(head.status).toBe(200);
  expect(Number(head.headers.get('content-length'))).toBe(brotliCompressSync(HOME).length);
  expect((await bytes(head)).length).toBe(0);
});

test('every other route still gets index.html (the app draws those pages itself)', async () => {
  for (const url of ['/index.html', '/home', '/about', '/login?error=Session%20expired', '/login?referrer=9876543210', '/login/expired', '/exam-list?x=1']) {
    const r = await h.app.request(url, { headers: CHROMIUM });
    expect(r.status, url).toBe(200);
    expect(brotliDecompressSync(await bytes(r)).toString('utf8'), url).toBe(INDEX);
  }
});

test('a reader who chose Hindi (the lang cookie) gets index.html at /, which the app draws in Hindi', async () => {
  const hi = await h.app.request('/', { headers: { ...CHROMIUM, cookie: 'pm=1; lang=hi' } });
  expect(hi.status).toBe(200);
  expect(hi.headers.get('vary')).toBe('Accept-Encoding, Cookie');
  expect(brotliDecompressSync(await bytes(hi)).toString('utf8')).toBe(INDEX);
  const en = await h.app.request('/', { headers: { ...CHROMIUM, cookie: 'lang=en' } });
  expect(brotliDecompressSync(await bytes(en)).toString('utf8')).toBe(HOME);
});

test('/login without a query is the prerendered form, without hints; in Hindi it is index.html, with them', async () => {
  const r = await h.app.request('/login', { headers: CHROMIUM });
  expect(r.status).toBe(200);
  expect(r.headers.get('content-encoding')).toBe('br');
  expect(r.headers.get('vary')).toBe('Accept-Encoding, Cookie');
  expect(r.headers.get('cache-control')).toBe('no-cache');
  expect(r.headers.get('content-security-policy')).toBe(SITE_CSP);
  expect(brotliDecompressSync(await bytes(r)).toString('utf8')).toBe(LOGIN);
  // Its route's stylesheets are written into it, and its scripts are asked for once it is
  // painted (scripts/vite-plugin-prerender.ts, client/src/boot/start-after-paint.ts).
  expect(r.headers.get('link')).toBeNull();
  const hi = await h.app.request('/login', { headers: { ...CHROMIUM, cookie: 'lang=hi' } });
  expect(brotliDecompressSync(await bytes(hi)).toString('utf8')).toBe(INDEX);
  // index.html draws the page after the app has loaded it: there the stylesheet is hinted.
  expect(hi.headers.get('link')).toContain('</assets/Tabs-T1.css>; rel=preload; as=style; crossorigin');
  const shell = await h.app.request('/login?error=x', { headers: CHROMIUM });
  expect(shell.headers.get('link')).toContain('</assets/Tabs-T1.css>; rel=preload; as=style; crossorigin');
});
