import http from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PROTOCOL_VERSION } from '@pm/protocol/version';
import { serveApp } from '../serve';
import { type Harness, startHarness } from '../test/harness';
import { serveClientFiles } from './client-files';
import { COMPRESS_MIN_BYTES, heldBody, negotiateEncoding } from './compression';

/** A built chunk well above the build's 1 kB threshold, with the twins the build would write. */
const SCRIPT = `export const questions = ${JSON.stringify(Array.from({ length: 200 }, (_, i) => ({ id: `q-${i}`, text: 'Which river is the longest in India?' })))};\n`;

let h: Harness;
let clientDir: string;
let learner: string;
beforeAll(async () => {
  clientDir = mkdtempSync(path.join(tmpdir(), 'pm-client-'));
  mkdirSync(path.join(clientDir, 'assets'));
  writeFileSync(path.join(clientDir, 'index.html'), '<!doctype html><title>Pariksha Mitra</title>');
  const script = path.join(clientDir, 'assets', 'index-Zip123.js');
  writeFileSync(script, SCRIPT);
  writeFileSync(`${script}.br`, brotliCompressSync(SCRIPT));
  writeFileSync(`${script}.gz`, gzipSync(SCRIPT, { level: 9 }));
  h = await startHarness();
  expect(serveClientFiles(h.app, clientDir)).toBe(true);
  learner = await h.tokenOf('learner');
});
afterAll(() => {
  h.destroy();
  rmSync(clientDir, { recursive: true, force: true });
});

const asBuffer = async (r: Response) => Buffer.from(await r.arrayBuffer());

test('Accept-Encoding: brotli first, then gzip; q-values, q=0 and * are honoured', () => {
  expect(negotiateEncoding(undefined)).toBeUndefined();
  expect(negotiateEncoding('')).toBeUndefined();
  // Chromium's header, curl --compressed's, Playwright's.
  expect(negotiateEncoding('gzip, deflate, br, zstd')).toBe('br');
  expect(negotiateEncoding('deflate, gzip, br, zstd')).toBe('br');
  expect(negotiateEncoding('gzip,deflate,br')).toBe('br');
  // Chromium over plain http to a non-local host.
  expect(negotiateEncoding('gzip, deflate')).toBe('gzip');
  expect(negotiateEncoding('x-gzip')).toBe('gzip');
  expect(negotiateEncoding('identity')).toBeUndefined();
  expect(negotiateEncoding('br;q=0, gzip')).toBe('gzip');
  expect(negotiateEncoding('BR;Q=0.5, gzip;q=0.8')).toBe('gzip');
  expect(negotiateEncoding('br;q=0.8, gzip;q=0.8')).toBe('br');
  expect(negotiateEncoding('*')).toBe('br');
  expect(negotiateEncoding('*;q=0')).toBeUndefined();
  expect(negotiateEncoding('br;q=0, *')).toBe('gzip');
  // Only what the file has twins for.
  expect(negotiateEncoding('br, gzip', ['gzip'])).toBe('gzip');
  expect(negotiateEncoding('br', ['gzip'])).toBeUndefined();
});

describe('API answers', () => {
  // A list of every published set: well over the threshold with the demo data.
  const big = '/api/question/getQuestionSetList';

  test('JSON above the threshold is sent with brotli or gzip, as the request allows, and decodes to the same answer', async () => {
    const plain = await h.app.request(big);
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-encoding')).toBeNull();
    const text = await plain.text();
    expect(Buffer.byteLength(text)).toBeGreaterThanOrEqual(COMPRESS_MIN_BYTES);

    const br = await h.app.request(big, { headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } });
    expect(br.status).toBe(200);
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toMatch(/accept-encoding/i);
    expect(br.headers.get('content-type')).toMatch(/^application\/json/);
    const brBytes = await asBuffer(br);
    expect(Number(br.headers.get('content-length'))).toBe(brBytes.length);
    expect(brBytes.length).toBeLessThan(Buffer.byteLength(text));
    expect(brotliDecompressSync(brBytes).toString('utf8')).toBe(text);
    // The API's own headers stay.
    expect(br.headers.get('cache-control')).toBe('no-store');

    const gz = await h.app.request(big, { headers: { 'accept-encoding': 'gzip, deflate' } });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gz.headers.get('vary')).toMatch(/accept-encoding/i);
    expect(gunzipSync(await asBuffer(gz)).toString('utf8')).toBe(text);

    const identity = await h.app.request(big, { headers: { 'accept-encoding': 'identity' } });
    expect(identity.headers.get('content-encoding')).toBeNull();
    expect(await identity.text()).toBe(text);
  });

  test('JSON below the threshold, HEAD and errors below it go as they are', async () => {
    const small = await h.app.request('/api/health', { headers: { 'accept-encoding': 'gzip, br' } });
    expect(small.status).toBe(200);
    expect(small.headers.get('content-encoding')).toBeNull();
    const body = await small.text();
    expect(Buffer.byteLength(body)).toBeLessThan(COMPRESS_MIN_BYTES);
    expect(JSON.parse(body)).toBeTruthy();
    const missing = await h.app.request('/api/no-such-thing', { headers: { 'accept-encoding': 'gzip, br' } });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-encoding')).toBeNull();
    expect(await missing.json()).toMatchObject({ success: false });
    const head = await h.app.request(big, { method: 'HEAD', headers: { 'accept-encoding': 'gzip, br' } });
    expect(head.headers.get('content-encoding')).toBeNull();
  });

  test('the sync stream (Server-Sent Events) is never compressed', async () => {
    const ac = new AbortController();
    const res = await h.app.request('/api/sync/v1/stream', {
      headers: { authorization: `Bearer ${learner}`, 'x-sync-protocol': PROTOCOL_VERSION, 'accept-encoding': 'gzip, deflate, br' },
      signal: ac.signal,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(res.headers.get('content-encoding')).toBeNull();
    // The first event arrives at once, readable as it is.
    const reader = res.body!.getReader();
    const { value } = await reader.read();
    expect(new TextDecoder().decode(value)).toContain('RESYNC');
    ac.abort();
    await reader.cancel().catch(() => undefined);
  });
});

describe('over real HTTP (@hono/node-server, as npm start serves)', () => {
  let base = '';
  let close = () => undefined as void;
  beforeAll(async () => {
    await new Promise<void>((resolve) => {
      const s = serveApp(h.app.fetch, { hostname: '127.0.0.1', port: 0 }, (info) => {
        base = `http://127.0.0.1:${info.port}`;
        close = () => void s.close();
        resolve();
      });
    });
  });
  afterAll(() => close());

  /** The raw bytes and headers, not decoded (node:http leaves Content-Encoding alone). */
  const raw = (url: string, headers: Record<string, string>, method = 'GET') =>
    new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      const req = http.request(`${base}${url}`, { method, headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });

  test("under @hono/node-server a small answer's length is learnt without building a Response", () => {
    // The adapter's lightweight Response is the global one once a server listens. Should a new
    // version hold bodies otherwise, compression still works (the body is read) but every answer
    // costs more: this test says so.
    const json = JSON.stringify({ success: true });
    expect(heldBody(new Response(json, { headers: { 'content-type': 'application/json' } }))).toBe(json);
    expect(heldBody(new Response(null, { status: 204 }))).toBeNull();
  });

  test('a built file goes as its brotli twin, with its type, length and Vary', async () => {
    const r = await raw('/assets/index-Zip123.js', { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(r.status).toBe(200);
    expect(r.headers['content-encoding']).toBe('br');
    expect(r.headers['vary']).toBe('Accept-Encoding');
    expect(r.headers['content-type']).toMatch(/^text\/javascript/);
    expect(r.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(Number(r.headers['content-length'])).toBe(r.body.length);
    expect(brotliDecompressSync(r.body).toString('utf8')).toBe(SCRIPT);
    const gz = await raw('/assets/index-Zip123.js', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString('utf8')).toBe(SCRIPT);
    const plain = await raw('/assets/index-Zip123.js', {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['vary']).toBe('Accept-Encoding');
    expect(plain.body.toString('utf8')).toBe(SCRIPT);
  });

  test('API JSON above the threshold is compressed on the wire; below it, not', async () => {
    const big = await raw('/api/question/getQuestionSetList', { 'accept-encoding': 'gzip, deflate, br' });
    expect(big.status).toBe(200);
    expect(big.headers['content-encoding']).toBe('br');
    expect(big.headers['vary']).toMatch(/accept-encoding/i);
    expect(Number(big.headers['content-length'])).toBe(big.body.length);
    expect(JSON.parse(brotliDecompressSync(big.body).toString('utf8'))).toBeTruthy();
    // The headers the app middleware puts straight on Node's response are still there.
    expect(big.headers['x-request-id']).toBeTruthy();
    const gz = await raw('/api/question/getQuestionSetList', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString('utf8')).toBe(brotliDecompressSync(big.body).toString('utf8'));
    const small = await raw('/api/health', { 'accept-encoding': 'gzip, deflate, br' });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.body.toString('utf8'))).toBeTruthy();
  });

  test('the sync stream stays uncompressed on the wire, and its first event arrives at once', async () => {
    const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const req = http.get(
        `${base}/api/sync/v1/stream`,
        { headers: { authorization: `Bearer ${learner}`, 'x-sync-protocol': PROTOCOL_VERSION, 'accept-encoding': 'gzip, deflate, br' }, agent: false },
        resolve,
      );
      req.on('error', reject);
    });
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(res.headers['content-encoding']).toBeUndefined();
    const first = await new Promise<string>((resolve) => res.once('data', (c: Buffer) => resolve(c.toString('utf8'))));
    expect(first).toContain('RESYNC');
    res.destroy();
  });
});
