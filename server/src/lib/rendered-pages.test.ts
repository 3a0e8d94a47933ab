import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { PAGE_DATA_ELEMENT_ID, type PageData } from '@pm/protocol/page-data';
import { plan } from '../db/schema';
import { activePlans } from '../modules/plans/plans.routes';
import { type Harness, startHarness } from '../test/harness';
import { serveClientFiles } from './client-files';
import { composeDrawnPage, SSR_MODULE } from './rendered-pages';
import { PAGE_OUTLET } from './route-preloads';

/*
 * `/plan` drawn on request with the database's plans (docs/benchmarks.md "bench:lighthouse", lib/rendered-pages.ts). The
 * build's server module is built from the client's sources by `vite build` (the end-to-end suite
 * drives the real one, e2e/prerendered-pages.spec.ts); here a module with the same interface
 * stands in for it, writing out the plans it was given and counting its drawings, so that what
 * the server does around it is checked on a real database: the data it reads, the page it
 * composes, when it draws again, and the shell when it cannot draw.
 */
const INDEX = `<!doctype html><html lang="en"><body><div id="root"></div>${'<!-- the shell -->'.repeat(80)}</body></html>`;
const TEMPLATE = `<!doctype html><html lang="en"><body><div id="root" data-prerendered="/plan" inert>${PAGE_OUTLET}</div>${'<!-- the page -->'.repeat(80)}</body></html>`;
const MODULE = `
export async function renderPage(path, data) {
  globalThis.__drawings = (globalThis.__drawings ?? 0) + 1;
  if (globalThis.__failDrawing) throw new Error('cannot draw');
  return '<main data-path="' + path + '">' + data.plans.data.map((p) => '<h3>' + p.name.en + '</h3>').join('') + '</main>';
}`;
const CHROMIUM = { 'accept-encoding': 'gzip, deflate, br, zstd' };
const g = globalThis as { __drawings?: number; __failDrawing?: boolean };

let h: Harness;
let clientDir: string;
const warnings: string[] = [];
beforeAll(async () => {
  clientDir = mkdtempSync(path.join(tmpdir(), 'pm-client-plan-'));
  mkdirSync(path.join(clientDir, '.ssr'));
  writeFileSync(path.join(clientDir, 'index.html'), INDEX);
  writeFileSync(path.join(clientDir, 'plan.html'), TEMPLATE);
  writeFileSync(path.join(clientDir, SSR_MODULE), MODULE);
  h = await startHarness();
  const load = { '/plan': async () => ({ plans: await activePlans(h.deps.db) }) };
  expect(serveClientFiles(h.app, clientDir, { load, log: { warn: (_obj, msg) => warnings.push(msg) } })).toBe(true);
});
afterAll(() => {
  h.destroy();
  rmSync(clientDir, { recursive: true, force: true });
});

const dataBlock = (html: string): PageData => {
  const match = new RegExp(`<script type="application/json" id="${PAGE_DATA_ELEMENT_ID}">(.*?)</script>`).exec(html);
  expect(match).not.toBeNull();
  return JSON.parse(match?.[1] ?? 'null') as PageData;
};

test('/plan is drawn with the active plans of the database, which the page also carries for the first render', async () => {
  const api = await h.request('GET', '/plan');
  const r = await h.app.request('/plan', { headers: CHROMIUM });
  expect(r.status).toBe(200);
  expect(r.headers.get('content-encoding')).toBe('br');
  expect(r.headers.get('vary')).toBe('Accept-Encoding, Cookie');
  expect(r.headers.get('cache-control')).toBe('no-cache');
  expect(r.headers.get('content-type')).toMatch(/^text\/html/);
  const html = brotliDecompressSync(Buffer.from(await r.arrayBuffer())).toString('utf8');
  expect(html).toContain(`<div id="root" data-prerendered="/plan" inert><main data-path="/plan">`);
  for (const p of api.body.data as { name: { en: string } }[]) expect(html).toContain(`<h3>${p.name.en}</h3>`);
  expect(html).not.toContain(PAGE_OUTLET);
  // The same answer as GET /api/plan, read from the page.
  expect(dataBlock(html)).toEqual({ plans: api.body });
  const gz = await h.app.request('/plan', { headers: { 'accept-encoding': 'gzip' } });
  expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString('utf8')).toBe(html);
  const plain = await h.app.request('/plan', { headers: { 'accept-encoding': 'identity' } });
  expect(plain.headers.get('content-encoding')).toBeNull();
  expect(await plain.text()).toBe(html);
});

test('the drawn page is kept while the plans stay the same, and drawn again when they change', async () => {
  await h.app.request('/plan', { headers: CHROMIUM });
  const before = g.__drawings ?? 0;
  await Promise.all(Array.from({ length: 20 }, () => h.app.request('/plan', { headers: CHROMIUM })));
  expect(g.__drawings).toBe(before);
  const first = (await activePlans(h.deps.db)).data[0];
  expect(first).toBeDefined();
  await h.deps.db.update(plan).set({ name: { en: 'Renamed <b>plan</b>', hi: 'नया नाम' } }).where(eq(plan.id, first?.id ?? ''));
  const r = await h.app.request('/plan', { headers: { 'accept-encoding': 'identity' } });
  const html = await r.text();
  expect(g.__drawings).toBe(before + 1);
  expect(html).toContain('<h3>Renamed <b>plan</b></h3>');
  // No text in the data can close the data block.
  expect(html).toContain('Renamed \\u003cb>plan\\u003c/b>');
  expect(dataBlock(html).plans).toEqual((await h.request('GET', '/plan')).body);
});

test('a query, or a reader who chose Hindi, gets the shell: the app draws those', async () => {
  for (const init of [{ url: '/plan?x=1', cookie: '' }, { url: '/plan', cookie: 'lang=hi' }]) {
    const r = await h.app.request(init.url, { headers: { 'accept-encoding': 'identity', cookie: init.cookie } });
    expect(r.status).toBe(200);
    expect(await r.text(), init.url).toBe(INDEX);
  }
});

test('a page that cannot be drawn is logged and answered with the shell', async () => {
  await h.deps.db.update(plan).set({ total: 999 }).where(eq(plan.active, true));
  g.__failDrawing = true;
  try {
    const r = await h.app.request('/plan', { headers: { 'accept-encoding': 'identity' } });
    expect(r.status).toBe(200);
    expect(await r.text()).toBe(INDEX);
    expect(warnings).toContain('could not draw the page on the server; sending the shell');
  } finally {
    g.__failDrawing = false;
  }
  // The next request draws it.
  expect(await (await h.app.request('/plan', { headers: { 'accept-encoding': 'identity' } })).text()).toContain('<main data-path="/plan">');
});

test('composeDrawnPage escapes what could end the data block, and keeps $ patterns as text', () => {
  const html = composeDrawnPage(TEMPLATE, '<p>$& $1</p>', { plans: { note: '</script><script>alert(1)</script>\u2028' } });
  expect(html).toContain('<p>$& $1</p>');
  expect(html).not.toContain('</script><script>');
  expect(dataBlock(html)).toEqual({ plans: { note: '</script><script>alert(1)</script>\u2028' } });
});

test('without the data source, /plan is the shell', async () => {
  const h2 = await startHarness({ seed: false });
  try {
    expect(serveClientFiles(h2.app, clientDir)).toBe(true);
    expect(await (await h2.app.request('/plan', { headers: { 'accept-encoding': 'identity' } })).text()).toBe(INDEX);
  } finally {
    h2.destroy();
  }
});
