import { existsSync, readdirSync } from 'node:fs';
import { constants, crc32, deflateRawSync, deflateSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { MEDIA_MAX_PIXELS } from '@pm/protocol/media';
import { MSG } from '@pm/protocol/messages';
import { rateLimit } from '../../server/src/db/schema';
import { MEDIA_UPLOAD_PATH } from '../../server/src/modules/media/media.routes';
import { mediaDir } from '../../server/src/modules/media/media.service';
import { DEMO, type Harness, startHarness } from '../../server/src/test/harness';

/**
 * docs/security.md "Files in and out", image uploads: the type detector unzipped any body
 * starting with `PK` (1 MiB became 1 GB in memory), a truncated zip was a 500, and anything with
 * an image's first bytes was stored. Now the bytes are read as PNG, JPEG or WebP only, by their
 * signatures and structure, never decompressed; the stated size must be within MEDIA_MAX_PIXELS
 * (server/src/modules/media/image-format.ts; docs/security.md).
 */

let h: Harness;
let editor: string;
beforeAll(async () => {
  h = await startHarness();
  editor = await h.tokenOf('editor');
});
afterAll(() => h.destroy());
/** Each test uploads more than the hourly budget of one editor (rate-limit.ts): it starts afresh. */
const resetBudget = async () => {
  await h.deps.db.delete(rateLimit).where(eq(rateLimit.key, `mediaPerson:${DEMO.editor.id}`));
};
beforeEach(resetBudget);

const upload = async (body: Uint8Array) => {
  const r = await h.app.request(MEDIA_UPLOAD_PATH, { method: 'POST', headers: { authorization: `Bearer ${editor}`, 'content-type': 'application/octet-stream' }, body: new Uint8Array(body) });
  return { status: r.status, body: (await r.json()) as { success: boolean; msg: string; url?: string } };
};
const stored = () => (existsSync(mediaDir(h.deps)) ? readdirSync(mediaDir(h.deps)).length : 0);

const chunk = (type: string, data: Buffer) => {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
};
/** A PNG stating `width` × `height` RGBA pixels, with a few bytes of image data (a decoder would want far more). */
function png(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 6;
  return Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(Buffer.from([0, 1, 2, 3, 4]))), chunk('IEND', Buffer.alloc(0))]);
}
const PNG = png(1, 1);
const JPEG = Buffer.from(
  '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0aHBwgJC4nICIsIxwcKDcpLDAxNDQ0Hyc5PTgyPC4zNDL/wAALCAACAAIBAREA/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/9oACAEBAAA/ACv/2Q==',
  'base64',
);
const WEBP = Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64');

/** A lossless WebP stating `width` × `height` (the VP8L header's 14-bit sizes), with the one-pixel file's data. */
function webp(width: number, height: number): Buffer {
  const b = Buffer.from(WEBP);
  const bits = (b.readUInt32LE(21) & ~0xfffffff) | ((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14);
  b.writeUInt32LE(bits >>> 0, 21);
  return b;
}

/**
 * A zip whose one entry, named as an Office document's part list, inflates to `mib` MiB of
 * zeros: copies of one deflated 1 MiB block (non-final, byte-aligned) and a final empty block.
 */
function zipBomb(mib: number, cut = false): Buffer {
  const block = deflateRawSync(Buffer.alloc(1 << 20), { level: 9, finishFlush: constants.Z_SYNC_FLUSH });
  let data = Buffer.concat([...Array.from({ length: mib }, () => block), Buffer.from([0x03, 0x00])]);
  if (cut) data = data.subarray(0, data.length >> 1);
  const name = Buffer.from('[Content_Types].xml');
  const header = Buffer.alloc(30);
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(20, 4);
  header.writeUInt16LE(8, 8); // deflate
  header.writeUInt32LE(data.length, 18);
  header.writeUInt32LE(Math.min(mib * (1 << 20), 0xffffffff), 22);
  header.writeUInt16LE(name.length, 26);
  return Buffer.concat([header, name, data]);
}

describe('image uploads', () => {
  test('a zip that inflates to 256 MiB is refused with 415 without being inflated', async () => {
    const bomb = zipBomb(256);
    expect(bomb.length).toBeLessThan(1 << 20);
    const before = stored();
    const peak = process.resourceUsage().maxRSS;
    const r = await upload(bomb);
    expect(r.status).toBe(415);
    expect(r.body).toMatchObject({ success: false, msg: MSG.imageType });
    // The process's highest memory use (KiB) did not grow by anything like what inflating takes.
    expect(process.resourceUsage().maxRSS - peak).toBeLessThan(64 * 1024);
    expect(stored()).toBe(before);
  });

  test('a truncated zip is a 415 with a message, not a 500', async () => {
    const r = await upload(zipBomb(4, true));
    expect(r.status).toBe(415);
    expect(r.body).toMatchObject({ success: false, msg: MSG.imageType });
  });

  test('every truncation of a PNG, JPEG or WebP is refused (415, damaged), never stored and never a 500', async () => {
    const before = stored();
    for (const image of [PNG, JPEG, WEBP]) {
      const cuts = Array.from({ length: image.length - 3 }, (_, i) => i + 3);
      for (const n of cuts) {
        if (n % 20 === 0) await resetBudget();
        const r = await upload(image.subarray(0, n));
        expect(r.status, `${n} of ${image.length} bytes`).toBe(415);
        expect([MSG.imageBroken, MSG.imageType]).toContain(r.body.msg);
      }
    }
    expect(stored()).toBe(before);
  });

  test('a damaged or padded file is refused: a wrong PNG checksum, a PNG or JPEG with bytes after its end, a WebP whose sizes disagree', async () => {
    const badCrc = Buffer.from(PNG);
    badCrc[30]! ^= 0xff; // in IHDR's CRC
    const polyglot = Buffer.concat([PNG, zipBomb(1)]);
    const jpegTail = Buffer.concat([JPEG, Buffer.from('<html>')]);
    const riffLies = Buffer.from(WEBP);
    riffLies.writeUInt32LE(WEBP.length, 4);
    for (const [name, body] of [
      ['bad CRC', badCrc],
      ['PNG + zip', polyglot],
      ['JPEG + HTML', jpegTail],
      ['RIFF size', riffLies],
    ] as const) {
      const r = await upload(body);
      expect(r.status, name).toBe(415);
      expect(r.body.msg, name).toBe(MSG.imageBroken);
    }
  });

  test(`an image stating more than ${MEDIA_MAX_PIXELS} pixels is refused with 413, however small the file`, async () => {
    const before = stored();
    for (const body of [png(100_000, 100_000), png(4097, 4096), webp(16_384, 16_384)]) {
      expect(body.length).toBeLessThan(200);
      const r = await upload(body);
      expect(r.status).toBe(413);
      expect(r.body).toMatchObject({ success: false, msg: MSG.imageTooManyPixels });
    }
    expect(stored()).toBe(before);
    // At the limit, it is taken.
    expect((await upload(png(4096, 4096))).status).toBe(201);
  });

  test('whole PNG, JPEG and WebP files are stored as before', async () => {
    for (const [body, ext] of [
      [PNG, 'png'],
      [JPEG, 'jpg'],
      [WEBP, 'webp'],
    ] as const) {
      const r = await upload(body);
      expect(r.status).toBe(201);
      expect(r.body.url).toMatch(new RegExp(`\\.${ext}$`));
    }
  });
});
