import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { CAMPAIGN_IMAGE_MAX_BYTES, CAMPAIGN_MAX_IMAGES } from '@pm/protocol/campaign';
import { MSG } from '@pm/protocol/messages';
import { campaign, campaignImage, rateLimit } from '../../db/schema';
import { type Harness, startHarness } from '../../test/harness';
import { GIF, JPEG, png, pngOfSize, WEBP } from '../../test/images';
import { mediaDir } from '../media/media.service';

/*
 * Campaign images (docs/charity.md "A campaign"; the spec: PNG or JPEG only, at most 5 MB): the
 * type is decided by the bytes, never by a name or a Content-Type; exactly 5 MB is taken and one
 * byte more refused; ten images a campaign; images for updates once it is approved.
 */

type Who = 'admin' | 'learner' | 'beneficiary' | 'trustee';
let h: Harness;
const tokens = {} as Record<Who, string>;

beforeAll(async () => {
  h = await startHarness();
  for (const who of ['admin', 'learner', 'beneficiary', 'trustee'] as const) tokens[who] = await h.tokenOf(who);
});
afterAll(() => h.destroy());
// Each test's uploads start from a full hourly budget (lib/rate-limit: campaignImagePerson).
beforeEach(async () => {
  await h.deps.db.delete(rateLimit).where(like(rateLimit.key, 'campaignImagePerson:%'));
});

const DAY = 86_400_000;
const as = (who: Who | null, method: string, url: string, body?: unknown) =>
  h.request(method, url, { ...(who ? { token: tokens[who] } : {}), ...(body === undefined ? {} : { body }) });

/** Raw bytes to POST /api/campaign/:id/images, as a browser sends a chosen file (its name only in a header the server ignores). */
async function upload(id: string, bytes: Uint8Array | ReadableStream<Uint8Array>, init: { who?: Who | null; type?: string; name?: string } = {}) {
  const headers: Record<string, string> = { 'content-type': init.type ?? 'application/octet-stream' };
  if (init.name) headers['content-disposition'] = `attachment; filename="${init.name}"`;
  const who = init.who === undefined ? 'beneficiary' : init.who;
  if (who) headers.authorization = `Bearer ${tokens[who]}`;
  const body = bytes instanceof ReadableStream ? bytes : new Uint8Array(bytes);
  const r = await h.app.request(`/api/campaign/${id}/images`, { method: 'POST', headers, body, ...(bytes instanceof ReadableStream && { duplex: 'half' }) } as RequestInit);
  return { status: r.status, body: (await r.json()) as { success: boolean; id: string; url: string; kind: string; msg: string } };
}

async function draft(): Promise<string> {
  const r = await as('beneficiary', 'POST', '/campaign', {
    title: { en: 'A laptop for coding classes' },
    story: { en: '<p>For the classes at the district library.</p>' },
    cause: 'DEVICES',
    need: [{ what: { en: 'Refurbished laptop' }, amount: 1_800_000 }],
    endsAt: Date.now() + 30 * DAY,
  });
  expect(r.status).toBe(201);
  return r.body.data.id as string;
}
const imagesOf = async (id: string) => (await as('beneficiary', 'GET', `/campaigns/${id}`)).body.data.images as { id: string; url: string }[];
const rowsOf = (id: string) => h.deps.db.select().from(campaignImage).where(eq(campaignImage.campaignId, id));
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
/** The same bytes as a stream without a Content-Length (a chunked upload). */
const streamOf = (bytes: Uint8Array, chunk = 256 * 1024) =>
  new ReadableStream<Uint8Array>({
    start(ctrl) {
      for (let i = 0; i < bytes.length; i += chunk) ctrl.enqueue(bytes.subarray(i, i + chunk));
      ctrl.close();
    },
  });

describe('POST /api/campaign/:id/images: the type by the bytes', () => {
  test('a PNG and a JPEG are stored (media storage, under their hash) and become the campaign’s images, in order', async () => {
    const id = await draft();
    const a = await upload(id, png([1, 2, 3, 255]), { type: 'image/png', name: 'a.png' });
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({ success: true, kind: 'CAMPAIGN', url: `/media/${sha(png([1, 2, 3, 255]))}.png` });
    const b = await upload(id, JPEG, { type: 'image/jpeg', name: 'b.jpg' });
    expect(b.body.url).toBe(`/media/${sha(JPEG)}.jpg`);
    expect(readFileSync(path.join(mediaDir(h.deps), `${sha(JPEG)}.jpg`)).equals(JPEG)).toBe(true);
    expect(await imagesOf(id)).toEqual([
      { id: a.body.id, url: a.body.url },
      { id: b.body.id, url: b.body.url },
    ]);
    // The public card shows the first one.
    await h.deps.db.update(campaign).set({ status: 'APPROVED' }).where(eq(campaign.id, id));
    const cards = (await as(null, 'GET', '/campaigns?q=laptop&size=50')).body.data as { id: string; image: string | null }[];
    expect(cards.find((c) => c.id === id)?.image).toBe(a.body.url);
  });

  test('a PNG named .jpg and sent as image/jpeg is a PNG', async () => {
    const id = await draft();
    const bytes = png([9, 9, 9, 255]);
    const r = await upload(id, bytes, { type: 'image/jpeg', name: 'photo.jpg' });
    expect(r.status).toBe(201);
    expect(r.body.url).toBe(`/media/${sha(bytes)}.png`);
  });

  test.each([
    ['a GIF', GIF, 'image/gif', 'photo.gif'],
    ['a GIF named .png', GIF, 'image/png', 'photo.png'],
    ['a WebP (question images take it, campaign images do not)', WEBP, 'image/webp', 'photo.webp'],
    ['a text file named .png', Buffer.from('these are not the pixels you are looking for\n'), 'image/png', 'photo.png'],
    ['an HTML page named .jpg', Buffer.from('<!doctype html><script>alert(1)</script>'), 'image/jpeg', 'photo.jpg'],
  ])('%s is refused with the spec’s message (415) and nothing is stored', async (_name, bytes, type, name) => {
    const id = await draft();
    const r = await upload(id, bytes, { type, name });
    expect(r.status).toBe(415);
    expect(r.body).toMatchObject({ success: false, msg: MSG.campaignImageRules });
    expect(await rowsOf(id)).toEqual([]);
  });

  test('a damaged PNG (cut short) is refused with its own message', async () => {
    const id = await draft();
    const whole = png();
    const r = await upload(id, whole.subarray(0, whole.length - 6));
    expect(r.status).toBe(415);
    expect(r.body.msg).toBe(MSG.campaignImageBroken);
  });
});

describe('the 5 MB limit', () => {
  test('exactly 5 MB (5 × 2²⁰ bytes) is taken, declared or streamed', async () => {
    const id = await draft();
    const bytes = pngOfSize(CAMPAIGN_IMAGE_MAX_BYTES);
    expect(bytes.length).toBe(5 * 1024 * 1024);
    const r = await upload(id, bytes);
    expect(r.status).toBe(201);
    expect((await rowsOf(id))[0]).toMatchObject({ bytes: CAMPAIGN_IMAGE_MAX_BYTES, width: 1, height: 1 });
    expect((await upload(id, streamOf(pngOfSize(CAMPAIGN_IMAGE_MAX_BYTES - 1)))).status).toBe(201);
  });

  test('5 MB and one byte is refused (413) with the spec’s message, declared or streamed, and nothing is stored', async () => {
    const id = await draft();
    const bytes = pngOfSize(CAMPAIGN_IMAGE_MAX_BYTES + 1);
    for (const body of [bytes, streamOf(bytes)]) {
      const r = await upload(id, body);
      expect(r.status).toBe(413);
      expect(r.body).toMatchObject({ success: false, code: 'PAYLOAD_TOO_LARGE', msg: MSG.campaignImageRules });
    }
    expect(await rowsOf(id)).toEqual([]);
  });
});

describe('which campaign, when, how many', () => {
  test('ten images a campaign; the eleventh is 409', async () => {
    const id = await draft();
    for (let i = 0; i < CAMPAIGN_MAX_IMAGES; i++) expect((await upload(id, png([i, 0, 0, 255]))).status).toBe(201);
    const r = await upload(id, png([99, 0, 0, 255]));
    expect(r.status).toBe(409);
    expect(r.body.msg).toBe(MSG.campaignTooManyImages);
    expect(await imagesOf(id)).toHaveLength(CAMPAIGN_MAX_IMAGES);
  });

  test('twenty uploads at once to one campaign: exactly ten are kept', async () => {
    const id = await draft();
    const rs = await Promise.all(Array.from({ length: 20 }, (_, i) => upload(id, png([i, 1, 1, 255]))));
    expect(rs.filter((r) => r.status === 201)).toHaveLength(CAMPAIGN_MAX_IMAGES);
    expect(rs.filter((r) => r.status === 409)).toHaveLength(20 - CAMPAIGN_MAX_IMAGES);
    expect(await rowsOf(id)).toHaveLength(CAMPAIGN_MAX_IMAGES);
  });

  test('an edit orders and drops the campaign’s images; an id not among them is refused', async () => {
    const id = await draft();
    const [a, b, c] = [await upload(id, png([1, 1, 1, 255])), await upload(id, png([2, 2, 2, 255])), await upload(id, png([3, 3, 3, 255]))];
    const r = await as('beneficiary', 'PATCH', `/campaign/${id}`, { images: [c.body.id, a.body.id] });
    expect(r.status).toBe(200);
    expect(r.body.data.images.map((i: { id: string }) => i.id)).toEqual([c.body.id, a.body.id]);
    expect((await rowsOf(id)).map((i) => i.id)).not.toContain(b.body.id);
    for (const images of [[b.body.id], [a.body.id, a.body.id], ['no-such-image']]) {
      const bad = await as('beneficiary', 'PATCH', `/campaign/${id}`, { images });
      expect(bad.status).toBe(400);
      expect(bad.body.msg).toBe(MSG.campaignImageUnknown);
    }
    expect(await imagesOf(id)).toHaveLength(2);
  });

  test('strangers get 404, a trustee 403, staff may upload; a submitted campaign takes none (409)', async () => {
    const id = await draft();
    expect((await upload(id, png(), { who: 'learner' })).status).toBe(404);
    expect((await upload(id, png(), { who: 'trustee' })).status).toBe(403);
    expect((await upload(id, png(), { who: null })).status).toBe(401);
    expect((await upload(id, png(), { who: 'admin' })).status).toBe(201);
    await as('beneficiary', 'POST', `/campaign/${id}/submit`, {});
    const r = await upload(id, png([5, 5, 5, 255]));
    expect(r.status).toBe(409);
    expect(r.body.msg).toBe(MSG.campaignImageNotNow);
  });

  test('once approved, an image waits for an update; an update takes it, and no other update can', async () => {
    const id = await draft();
    await as('beneficiary', 'POST', `/campaign/${id}/submit`, {});
    await as('trustee', 'POST', `/campaign/${id}/approve`, {});
    const img = await upload(id, JPEG);
    expect(img.status).toBe(201);
    expect(img.body.kind).toBe('UPDATE');
    // Not one of the campaign's own images.
    expect(await imagesOf(id)).toEqual([]);
    const posted = await as('beneficiary', 'POST', `/campaign/${id}/updates`, { text: { en: '<p>The laptop, bought</p>' }, images: [img.body.id] });
    expect(posted.status).toBe(201);
    expect(posted.body.data.images).toEqual([{ id: img.body.id, url: img.body.url }]);
    const again = await as('beneficiary', 'POST', `/campaign/${id}/updates`, { text: { en: 'Again' }, images: [img.body.id] });
    expect(again.status).toBe(400);
    expect(again.body.msg).toBe(MSG.campaignImageUnknown);
    const page = await as(null, 'GET', `/campaigns/${id}`);
    expect(page.body.data.updates).toHaveLength(1);
    expect(page.body.data.updates[0].images).toEqual([{ id: img.body.id, url: img.body.url }]);
  });
});
