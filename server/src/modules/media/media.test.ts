import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { MEDIA_MAX_BYTES, MEDIA_URL } from '@pm/protocol/media';
import { MSG } from '@pm/protocol/messages';
import { createApp } from '../../app';
import { activityLog, rateLimit } from '../../db/schema';
import { serveClientFiles } from '../../lib/client-files';
import { RULES } from '../../lib/rate-limit';
import { DEMO, type Harness, startHarness } from '../../test/harness';
import { GIF, JPEG, png, pngOfSize, WEBP } from '../../test/images';
import { MEDIA_UPLOAD_PATH } from './media.routes';
import { checkImage } from './image-format';
import { matchesEtag, mediaDir } from './media.service';

const HTML = Buffer.from('<!doctype html><html><body><script>alert(document.domain)</script></body></html>');
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="1" height="1"/></svg>');

let h: Harness;
let editor: string;

beforeAll(async () => {
  h = await startHarness();
  editor = await h.tokenOf('editor');
});
afterAll(() => h.destroy());

function upload(body: Uint8Array, init: { token?: string | null; type?: string; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { 'content-type': init.type ?? 'application/octet-stream', ...init.headers };
  const token = init.token === undefined ? editor : init.token;
  if (token) headers.authorization = `Bearer ${token}`;
  // A copy in a plain ArrayBuffer (what fetch's body type asks for; Node's Buffers may share a pool).
  return h.app.request(MEDIA_UPLOAD_PATH, { method: 'POST', headers, body: new Uint8Array(body) });
}
/** What an answer of this API carries (success, address, message, error code). */
type Answer = { success: boolean; url: string; msg: string; code?: string };
const answer = async (r: Response): Promise<Answer> => (await r.json()) as Answer;
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
/** Files in DATA_DIR/media, temporary ones included. */
const stored = () => (existsSync(mediaDir(h.deps)) ? readdirSync(mediaDir(h.deps)) : []);
/** The same bytes as a stream without a Content-Length (a chunked upload). */
const streamOf = (bytes: Uint8Array, chunk = 64 * 1024) =>
  new ReadableStream<Uint8Array>({
    start(ctrl) {
      for (let i = 0; i < bytes.length; i += chunk) ctrl.enqueue(bytes.subarray(i, i + chunk));
      ctrl.close();
    },
  });
/** Lets another test file's uploads (or this file's earlier ones) not count against a test's budget. */
const resetBudget = async () => {
  await h.deps.db.delete(rateLimit).where(eq(rateLimit.key, `mediaPerson:${DEMO.editor.id}`));
};

describe('POST /api/media', () => {
  beforeEach(resetBudget);

  test.each([
    ['PNG', png(), 'png'],
    ['JPEG', JPEG, 'jpg'],
    ['WebP', WEBP, 'webp'],
  ] as const)('a %s is stored under its hash and answered 201 with its address', async (_name, bytes, ext) => {
    const r = await upload(bytes, { type: `image/${ext}` });
    expect(r.status).toBe(201);
    const body = await answer(r);
    expect(body).toEqual({ success: true, url: `/media/${sha(bytes)}.${ext}`, msg: MSG.imageUploaded });
    expect(body.url).toMatch(MEDIA_URL);
    expect(readFileSync(path.join(mediaDir(h.deps), `${sha(bytes)}.${ext}`)).equals(bytes)).toBe(true);
  });

  test('the type comes from the bytes: a PNG sent as image/jpeg (or as anything) is a .png', async () => {
    const bytes = png([0, 128, 0, 255]);
    for (const type of ['image/jpeg', 'text/html', 'application/octet-stream']) {
      const r = await upload(bytes, { type });
      expect(r.status).toBe(201);
      expect((await answer(r)).url).toBe(`/media/${sha(bytes)}.png`);
    }
  });

  test.each([
    ['an HTML page sent as image/png', HTML, 'image/png'],
    ['an SVG with script sent as image/png', SVG, 'image/png'],
    ['a GIF', GIF, 'image/gif'],
    ['plain text sent as image/webp', Buffer.from('hello, this is not an image'), 'image/webp'],
    ['an empty body', Buffer.alloc(0), 'image/png'],
  ])('%s is refused with 415 and nothing is stored', async (_name, bytes, type) => {
    const before = stored();
    const r = await upload(bytes, { type });
    expect(r.status).toBe(415);
    expect(await answer(r)).toMatchObject({ success: false, msg: MSG.imageType });
    expect(stored()).toEqual(before);
  });

  test('exactly 1 MiB is taken; 1 MiB + 1 byte is 413 and nothing is written, declared or streamed', async () => {
    const max = pngOfSize(MEDIA_MAX_BYTES);
    const ok = await upload(max);
    expect(ok.status).toBe(201);

    const before = stored();
    const over = pngOfSize(MEDIA_MAX_BYTES + 1);
    const declared = await upload(over, { headers: { 'content-length': String(over.length) } });
    expect(declared.status).toBe(413);
    expect(await answer(declared)).toMatchObject({ success: false, msg: MSG.imageTooLarge, code: 'PAYLOAD_TOO_LARGE' });
    const streamed = await h.app.request(
      new Request(`http://localhost${MEDIA_UPLOAD_PATH}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${editor}`, 'content-type': 'image/png' },
        body: streamOf(over),
        duplex: 'half',
      } as RequestInit),
    );
    expect(streamed.status).toBe(413);
    expect(await answer(streamed)).toMatchObject({ msg: MSG.imageTooLarge });
    expect(stored()).toEqual(before);
  });

  test('a streamed body within the limit is taken', async () => {
    const bytes = pngOfSize(300_000);
    const r = await h.app.request(
      new Request(`http://localhost${MEDIA_UPLOAD_PATH}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${editor}` },
        body: streamOf(bytes),
        duplex: 'half',
      } as RequestInit),
    );
    expect(r.status).toBe(201);
    expect((await answer(r)).url).toBe(`/media/${sha(bytes)}.png`);
  });

  test('the same bytes twice (also at once) give the same address and one file, no temporary left', async () => {
    const bytes = png([1, 2, 3, 255]);
    const rs = await Promise.all([upload(bytes), upload(bytes), upload(bytes), upload(bytes)]);
    expect(rs.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    const urls = await Promise.all(rs.map(async (r) => (await answer(r)).url as string));
    expect(new Set(urls)).toEqual(new Set([`/media/${sha(bytes)}.png`]));
    const again = await upload(bytes);
    expect((await answer(again)).url).toBe(urls[0]);
    expect(stored().filter((f) => f.startsWith(sha(bytes)))).toEqual([`${sha(bytes)}.png`]);
    expect(stored().filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  test('every upload is an activity entry of the editor (entity media)', async () => {
    const bytes = png([9, 9, 9, 255]);
    await upload(bytes);
    const rows = await h.deps.db
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.entityAffected, 'media'), eq(activityLog.entityId, `${sha(bytes)}.png`)));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ actionType: 'CREATE', personId: DEMO.editor.id, newValue: { url: `/media/${sha(bytes)}.png`, type: 'image/png', bytes: bytes.length } });
  });

  test('a guest is 401, a learner 403, a bad token 401; nothing is stored', async () => {
    const bytes = png([7, 7, 7, 255]);
    const learner = await h.tokenOf('learner');
    expect((await upload(bytes, { token: null })).status).toBe(401);
    const refused = await upload(bytes, { token: learner });
    expect(refused.status).toBe(403);
    expect(await answer(refused)).toMatchObject({ success: false, msg: expect.any(String) });
    expect((await upload(bytes, { token: 'not-a-token' })).status).toBe(401);
    // A guest's oversize body is refused for the missing login, before anything is read.
    expect((await upload(pngOfSize(MEDIA_MAX_BYTES + 1), { token: null })).status).toBe(401);
    expect(stored().some((f) => f.startsWith(sha(bytes)))).toBe(false);
  });

  test(`50 uploads at once with 20 points of the hourly ${RULES.mediaPerson.points} left: exactly 20 are stored`, async () => {
    for (let i = 0; i < RULES.mediaPerson.points - 20; i++) await h.deps.rates.consume('mediaPerson', DEMO.editor.id);
    const images = Array.from({ length: 50 }, (_, i) => png([i, 200, 100, 255]));
    const rs = await Promise.all(images.map((b) => upload(b)));
    const statuses = rs.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(20);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30);
    const refused = rs.find((r) => r.status === 429)!;
    expect(await answer(refused)).toMatchObject({ success: false, msg: MSG.tooManyRequests, code: 'RATE_LIMITED' });
    expect(images.filter((b) => existsSync(path.join(mediaDir(h.deps), `${sha(b)}.png`)))).toHaveLength(20);
  });
});

describe('GET /media/<sha256>.<ext>', () => {
  const bytes = png([10, 20, 30, 255]);
  let url: string;
  beforeAll(async () => {
    await resetBudget();
    url = (await answer(await upload(bytes))).url;
  });

  test('serves the bytes with their type, a year of immutable caching, an ETag and a policy that allows nothing', async () => {
    const r = await h.app.request(url);
    expect(r.status).toBe(200);
    expect(Buffer.from(await r.arrayBuffer()).equals(bytes)).toBe(true);
    expect(r.headers.get('content-type')).toBe('image/png');
    expect(r.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(r.headers.get('etag')).toBe(`"${sha(bytes)}"`);
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(r.headers.get('content-security-policy')).toMatch(/^default-src 'none'/);
    expect(r.headers.get('cross-origin-resource-policy')).toBe('same-origin');
  });

  test('is public: a token is not needed, and a learner gets it too', async () => {
    const learner = await h.tokenOf('learner');
    expect((await h.app.request(url, { headers: { authorization: `Bearer ${learner}` } })).status).toBe(200);
  });

  test('If-None-Match with its ETag is 304 without a body; HEAD has the headers', async () => {
    const r = await h.app.request(url, { headers: { 'if-none-match': `"${sha(bytes)}"` } });
    expect(r.status).toBe(304);
    expect(await r.text()).toBe('');
    const head = await h.app.request(url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('image/png');
  });

  test('a JPEG and a WebP get their types', async () => {
    for (const [b, type] of [
      [JPEG, 'image/jpeg'],
      [WEBP, 'image/webp'],
    ] as const) {
      const u = (await answer(await upload(b))).url;
      const r = await h.app.request(u);
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toBe(type);
    }
  });

  test.each([
    ['an unknown hash', `/media/${'0'.repeat(64)}.png`],
    ['a known hash with another extension', () => url.replace('.png', '.jpg')],
    ['an upper-case hash', () => url.toUpperCase().replace('/MEDIA/', '/media/').replace('.PNG', '.png')],
    ['a short name', '/media/abc.png'],
    ['another extension', () => url.replace('.png', '.gif')],
    ['a temporary upload', () => `/media/.${url.slice('/media/'.length)}.0a1b2c3d4e5f.tmp`],
    ['a sub-folder', () => `/media/x/${url.slice('/media/'.length)}`],
    ['the folder', '/media/'],
    ['a way out of the folder', '/media/..%2fjwt-secret'],
    ['an encoded way out', '/media/%2e%2e/%2e%2e/jwt-secret'],
    ['a dot-dot path', '/media/../jwt-secret'],
  ])('%s is 404', async (_name, target) => {
    const r = await h.app.request(typeof target === 'function' ? target() : target);
    expect(r.status).toBe(404);
    expect(r.headers.get('content-type')).not.toMatch(/^image\//);
  });
});

describe('with the built client served beside it (index.ts)', () => {
  test('an image is the image, and an unknown /media/ address is a 404, never the app page', async () => {
    const clientDir = mkdtempSync(path.join(tmpdir(), 'pm-client-'));
    try {
      writeFileSync(path.join(clientDir, 'index.html'), '<!doctype html><title>app</title>');
      const app = createApp(h.deps);
      expect(serveClientFiles(app, clientDir)).toBe(true);
      await resetBudget();
      const bytes = png([40, 50, 60, 255]);
      const url = (await answer(await upload(bytes))).url;
      const image = await app.request(url);
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toBe('image/png');
      for (const target of [`/media/${'f'.repeat(64)}.png`, '/media/anything', '/media/a/b']) {
        const r = await app.request(target);
        expect(r.status, target).toBe(404);
        expect(await r.text(), target).not.toContain('<title>app</title>');
      }
      // The app's own routes still get the page.
      expect(await (await app.request('/exam-list')).text()).toContain('<title>app</title>');
    } finally {
      rmSync(clientDir, { recursive: true, force: true });
    }
  });
});

describe('helpers', () => {
  test('checkImage knows PNG, JPEG and WebP with their sizes, and nothing else', () => {
    expect(checkImage(png())).toEqual({ ok: true, ext: 'png', width: 1, height: 1 });
    expect(checkImage(pngOfSize(5000))).toMatchObject({ ok: true, ext: 'png' });
    expect(checkImage(JPEG)).toEqual({ ok: true, ext: 'jpg', width: 2, height: 2 });
    expect(checkImage(WEBP)).toEqual({ ok: true, ext: 'webp', width: 1, height: 1 });
    for (const other of [GIF, HTML, SVG, Buffer.alloc(0)]) expect(checkImage(other)).toEqual({ ok: false, reason: 'type' });
  });

  test('matchesEtag takes a list, weak forms and *', () => {
    expect(matchesEtag('"a", "b"', '"b"')).toBe(true);
    expect(matchesEtag('W/"b"', '"b"')).toBe(true);
    expect(matchesEtag('*', '"b"')).toBe(true);
    expect(matchesEtag('"c"', '"b"')).toBe(false);
    expect(matchesEtag(undefined, '"b"')).toBe(false);
  });
});
