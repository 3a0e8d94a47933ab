import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type Harness, startHarness } from '../test/harness';
import { isAppRoute, serveClientFiles } from './client-files';
import { SITE_CSP } from './security-headers';

const INDEX = '<!doctype html><title>Pariksha Mitra</title><div id="root"></div>';

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
  writeFileSync(path.join(clientDir, '.vite', 'manifest.json'), '{}');
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
  for (const url of ['/', '/about', '/sw.js', '/assets/index-AbC123.js', '/manifest.webmanifest']) {
    const r = await get(url);
    expect(r.headers.get('content-security-policy'), url).toBe(SITE_CSP);
    expect(r.headers.get('x-content-type-options'), url).toBe('nosniff');
    expect(r.headers.get('x-frame-options'), url).toBe('DENY');
  }
  // The file's own Cache-Control is kept, not replaced by a default.
  expect((await get('/assets/index-AbC123.js')).headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  const api = await get('/api/health');
  expect(api.headers.get('content-security-policy')).toMatch(/^default-src 'none'; frame-ancestors 'none'/);
  expect(api.headers.get('cache-control')).toBe('no-store');
  expect(api.headers.get('x-content-type-options')).toBe('nosniff');
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
