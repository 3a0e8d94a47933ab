import http from 'node:http';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync } from 'node:zlib';
import { expect, test } from '@playwright/test';
import { waitForServiceWorker } from './helpers';

// This spec needs the service worker (playwright.config.ts blocks it elsewhere).
test.use({ serviceWorkers: 'allow' });

/**
 * docs/benchmarks.md "bench:bundle": the built client goes compressed on the wire. What is checked, against the dist/
 * the server under test serves:
 * - over a raw HTTP request (node:http, which leaves Content-Encoding alone), the entry script named
 *   in dist/index.html comes with `Content-Encoding: br`, `Vary: Accept-Encoding`, its JavaScript
 *   type and the twin's length, and its bytes decompress to exactly the file in dist/assets/;
 * - through Playwright's request context (request.fetch), which decodes brotli itself: the header
 *   says br and the decoded body is the file, byte for byte;
 * - in Chromium, a first visit receives the entry script brotli-compressed (Chromium's own
 *   Accept-Encoding), and the service worker's precache holds the decoded file, not the twin.
 */
const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist');

function entryScript(): string {
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const src = /<script type="module"[^>]*\bsrc="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
  if (!src) throw new Error('no entry script in dist/index.html');
  return src;
}

function rawGet(url: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const req = http.get(url, { headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

test('a built script is sent with Content-Encoding: br and decodes to the file in dist/assets/', async ({ request, baseURL }) => {
  const src = entryScript();
  const file = readFileSync(path.join(dist, src));
  expect(file.length).toBeGreaterThan(1024);

  const raw = await rawGet(`${baseURL}${src}`, { 'accept-encoding': 'br' });
  expect(raw.status).toBe(200);
  expect(raw.headers['content-encoding']).toBe('br');
  expect(raw.headers['vary']).toBe('Accept-Encoding');
  expect(raw.headers['content-type']).toMatch(/^text\/javascript/);
  expect(Number(raw.headers['content-length'])).toBe(raw.body.length);
  expect(raw.body.length).toBeLessThan(file.length / 2);
  expect(brotliDecompressSync(raw.body).equals(file)).toBe(true);
  // What the build wrote beside it is what went on the wire.
  expect(raw.body.equals(readFileSync(path.join(dist, `${src}.br`)))).toBe(true);

  const res = await request.fetch(src, { headers: { 'accept-encoding': 'br' } });
  expect(res.status()).toBe(200);
  expect(res.headers()['content-encoding']).toBe('br');
  expect(res.headers()['vary']).toBe('Accept-Encoding');
  // Playwright has decoded the body.
  expect((await res.body()).equals(file)).toBe(true);

  // Without Accept-Encoding: the file as it is.
  const plain = await rawGet(`${baseURL}${src}`, {});
  expect(plain.headers['content-encoding']).toBeUndefined();
  expect(plain.body.equals(file)).toBe(true);
});

test('Chromium receives the entry script brotli-compressed, and the service worker precaches the decoded file', async ({ page }) => {
  const src = entryScript();
  const file = readFileSync(path.join(dist, src), 'utf8');
  const entry = page.waitForResponse((r) => new URL(r.url()).pathname === src);
  // A page the app draws (the home page starts it only when the visitor reaches for it).
  await page.goto('/about');
  const res = await entry;
  expect(res.status()).toBe(200);
  expect(await res.headerValue('content-encoding')).toBe('br');
  expect(await res.text()).toBe(file);

  await waitForServiceWorker(page);
  const cached = await page.evaluate(async (url) => {
    for (const name of await caches.keys()) {
      const hit = await (await caches.open(name)).match(url, { ignoreSearch: true });
      if (hit) return { encoding: hit.headers.get('content-encoding'), text: await hit.text() };
    }
    return null;
  }, src);
  expect(cached).not.toBeNull();
  expect(cached!.text).toBe(file);
  // Nothing the build compressed became an entry of its own.
  const twins = await page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) for (const req of await (await caches.open(name)).keys()) urls.push(req.url);
    return urls.filter((u) => /\.(?:br|gz)(?:\?|$)/.test(u));
  });
  expect(twins).toEqual([]);
});

/**
 * docs/benchmarks.md "bench:lighthouse": the first screens name their files ahead, worked out from the build's manifest
 * (server/src/lib/route-preloads). The pages sent drawn (`/`, `/login`) name them in their
 * `pm-app` meta element, asked for once the page is painted (client/src/boot/start-after-
 * paint.ts); the pages the app draws from the shell name them in a Link header. Against the real
 * build: the entry comes first, the page's chunk is named, and every file named is served.
 */
test('the first screens name their files (drawn pages in the page, the shell in a Link header), and each is served', async ({ request }) => {
  const linked = (link: string | undefined) => [...(link ?? '').matchAll(/<([^>]+)>/g)].map((m) => m[1]!);
  const named = (html: string) => (/<meta name="pm-app" content="([^"]+)"[^>]*>/.exec(html)?.[1] ?? '').split(' ').filter(Boolean);
  const home = await request.get('/');
  expect(home.headers()['link']).toBeUndefined();
  const homeFiles = named(await home.text());
  expect(homeFiles[0]).toBe(entryScript());
  expect(homeFiles.some((u) => /^\/assets\/home-page-[\w-]+\.js$/.test(u))).toBe(true);
  const loginFiles = named(await (await request.get('/login')).text());
  expect(loginFiles[0]).toBe(entryScript());
  expect(loginFiles.some((u) => /^\/assets\/login-page-[\w-]+\.js$/.test(u))).toBe(true);
  const listLinks = linked((await request.get('/exam-list')).headers()['link']);
  expect(listLinks).toContain(entryScript());
  expect(listLinks.some((u) => /^\/assets\/exam-list-page-[\w-]+\.js$/.test(u))).toBe(true);
  for (const url of new Set([...homeFiles, ...loginFiles, ...listLinks])) {
    expect((await request.get(url)).status(), url).toBe(200);
  }
});
