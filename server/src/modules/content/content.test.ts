import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { activityLog, contactMessage, plan, staticPage } from '../../db/schema';
import { first } from '../../db/transaction';
import { type Harness, startHarness } from '../../test/harness';

let h: Harness;
let admin: string;
let learner: string;

beforeAll(async () => {
  h = await startHarness();
  admin = await h.tokenOf('admin');
  learner = await h.tokenOf('learner');
});
afterAll(() => h.destroy());

const as = (token: string | undefined, method: string, url: string, body?: unknown) =>
  h.request(method, url, { ...(token ? { token } : {}), ...(body === undefined ? {} : { body }) });
const logCount = async () => (await h.deps.db.select().from(activityLog)).length;

const product = {
  code: 'exam_week',
  name: { en: 'Exam week', hi: 'परीक्षा सप्ताह' },
  total: 49,
  approx: { en: 'About ₹7 per day', hi: 'लगभग ₹7 प्रतिदिन' },
  contents: [{ en: 'All mock tests for 7 days', hi: '7 दिन तक सभी मॉक टेस्ट' }],
  active: false,
  order: 9,
};

describe('products (the plans)', () => {
  test('create, list, update, delete; logged; the public plan list shows only active plans', async () => {
    const created = await as(admin, 'POST', '/product', product);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ success: true, msg: 'Product created successfully', data: { code: 'EXAM_WEEK', total: 49, active: false, orders: 0 } });
    const id = created.body.data.id as string;
    const list = await as(admin, 'GET', '/product');
    expect(list.body.data.map((p: { code: string }) => p.code)).toContain('EXAM_WEEK');
    expect((await as(undefined, 'GET', '/plan')).body.data.map((p: { code: string }) => p.code)).not.toContain('EXAM_WEEK');

    const updated = await as(admin, 'PUT', '/product', { ...product, id, active: true, total: 59 });
    expect(updated.body).toMatchObject({ msg: 'Product updated successfully', data: { total: 59, active: true } });
    expect((await as(undefined, 'GET', '/plan')).body.data.map((p: { code: string }) => p.code)).toContain('EXAM_WEEK');
    const entry = await h.deps.db.select().from(activityLog).where(eq(activityLog.entityId, id));
    expect(entry.map((e) => e.actionType)).toEqual(['CREATE', 'UPDATE']);
    expect(entry[1]).toMatchObject({ oldValue: { total: 49 }, newValue: { total: 59 } });

    const deleted = await as(admin, 'DELETE', `/product/${id}`);
    expect(deleted.body).toEqual({ success: true, msg: 'Product deleted successfully' });
  });

  test('a plan with orders is not deleted; duplicates and bad input change nothing', async () => {
    const yearly = await first(h.deps.db.select().from(plan).where(eq(plan.code, 'ANNUAL_PLAN')));
    const r = await as(admin, 'DELETE', `/product/${yearly?.id}`);
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ success: false, msg: 'Product has orders; deactivate it instead' });
    const n = await logCount();
    expect((await as(admin, 'POST', '/product', { ...product, code: 'ANNUAL_PLAN' })).body).toMatchObject({ msg: 'Product code already exists' });
    expect((await as(admin, 'POST', '/product', { ...product, total: 0 })).status).toBe(400);
    expect((await as(admin, 'POST', '/product', { ...product, total: '49' })).status).toBe(400);
    expect((await as(admin, 'POST', '/product', { ...product, contents: [] })).status).toBe(400);
    expect((await as(admin, 'POST', '/product', { ...product, price: 1 })).status).toBe(400);
    expect((await as(learner, 'POST', '/product', product)).status).toBe(403);
    expect((await as(learner, 'GET', '/product')).status).toBe(403);
    expect(await logCount()).toBe(n);
  });
});

describe('static pages', () => {
  const save = (token: string | undefined, body: Record<string, unknown>) => as(token, 'PUT', '/static-page', body);

  test('public read is null until saved; each language is saved on its own, sanitised and logged; learners cannot write', async () => {
    expect((await as(undefined, 'GET', '/static-page/about')).body).toEqual({ success: true, data: null });
    const saved = await save(admin, { key: 'about', lang: 'en', html: '<h2>About us</h2><p onclick="x()">We help <b>learners</b></p><script>alert(1)</script>', baseVersion: 0 });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ msg: 'Page saved successfully', data: { version: { en: 1, hi: 0 } } });
    // Only English has an override: the Hindi reader gets '' and so the built-in Hindi page.
    const pub = await as(undefined, 'GET', '/static-page/about');
    expect(pub.body.data.content).toEqual({ en: '<h2>About us</h2><p>We help <b>learners</b></p>', hi: '' });

    const hi = await save(admin, { key: 'about', lang: 'hi', html: '<p>हमारे बारे में</p>', baseVersion: 0 });
    expect(hi.status).toBe(200);
    // Saving Hindi left English as it was.
    expect((await as(undefined, 'GET', '/static-page/about')).body.data.content).toEqual({ en: '<h2>About us</h2><p>We help <b>learners</b></p>', hi: '<p>हमारे बारे में</p>' });
    expect((await as(admin, 'GET', '/static-page')).body.data).toMatchObject([{ key: 'about', version: { en: 1, hi: 1 } }]);

    const entries = await h.deps.db.select().from(activityLog).where(eq(activityLog.entityId, 'about'));
    expect(entries.map((e) => e.actionType)).toEqual(['CREATE', 'UPDATE']);
    expect(entries[1]?.oldValue).toMatchObject({ content: { hi: '' } });
    expect(entries[1]?.newValue).toMatchObject({ content: { hi: '<p>हमारे बारे में</p>' } });
  });

  test('earlier versions are kept per language and the previous one is restored as a new version', async () => {
    expect((await save(admin, { key: 'faq', lang: 'en', html: '<p>First</p>', baseVersion: 0 })).status).toBe(200);
    expect((await save(admin, { key: 'faq', lang: 'en', html: '<p>Second</p>', baseVersion: 1 })).status).toBe(200);
    const versions = await as(admin, 'GET', '/static-page/faq/versions?lang=en');
    expect(versions.status).toBe(200);
    expect(versions.body.data).toMatchObject([
      { version: 2, html: '<p>Second</p>', action: 'SAVE', actorName: expect.any(String) },
      { version: 1, html: '<p>First</p>', action: 'SAVE' },
    ]);
    expect((await as(admin, 'GET', '/static-page/faq/versions?lang=hi')).body.data).toEqual([]);

    const restored = await as(admin, 'POST', '/static-page/restore', { key: 'faq', lang: 'en', version: 1, baseVersion: 2 });
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ msg: 'Earlier version restored', data: { content: { en: '<p>First</p>', hi: '' }, version: { en: 3, hi: 0 } } });
    expect((await as(admin, 'GET', '/static-page/faq/versions?lang=en')).body.data[0]).toMatchObject({ version: 3, action: 'RESTORE', restoredFrom: 1, html: '<p>First</p>' });
    expect((await as(undefined, 'GET', '/static-page/faq')).body.data.content.en).toBe('<p>First</p>');

    const missing = await as(admin, 'POST', '/static-page/restore', { key: 'faq', lang: 'en', version: 9, baseVersion: 3 });
    expect(missing.status).toBe(404);
    expect(missing.body.msg).toBe('Page version not found');
  });

  test('a save from an outdated version is a 409, and of simultaneous saves from one version exactly one is stored', async () => {
    expect((await save(admin, { key: 'privacy', lang: 'hi', html: '<p>एक</p>', baseVersion: 0 })).status).toBe(200);
    const stale = await save(admin, { key: 'privacy', lang: 'hi', html: '<p>दो</p>', baseVersion: 0 });
    expect(stale.status).toBe(409);
    expect(stale.body.msg).toBe('Someone else saved this page since you opened it; reload to see their text');

    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => save(admin, { key: 'privacy', lang: 'hi', html: `<p>${i}</p>`, baseVersion: 1 })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(49);
    const versions = (await as(admin, 'GET', '/static-page/privacy/versions?lang=hi')).body.data as { version: number; html: string }[];
    expect(versions.map((v) => v.version)).toEqual([2, 1]);
    expect((await as(undefined, 'GET', '/static-page/privacy')).body.data.content.hi).toBe(versions[0]?.html);
  });

  test('bad input names the field and writes nothing', async () => {
    const pagesBefore = await h.deps.db.select().from(staticPage);
    const n = await logCount();
    const bad = async (body: Record<string, unknown>, msg: string | RegExp) => {
      const r = await save(admin, body);
      expect(r.status).toBe(400);
      expect(r.body.msg).toMatch(msg);
    };
    await bad({ key: 'home', lang: 'en', html: 'x', baseVersion: 0 }, /^key /);
    await bad({ key: 'terms', lang: 'fr', html: 'x', baseVersion: 0 }, /^lang /);
    await bad({ key: 'terms', lang: 'en', html: ' ', baseVersion: 0 }, 'Page text cannot be empty');
    await bad({ key: 'terms', lang: 'en', html: '<script>alert(1)</script>', baseVersion: 0 }, 'Page text cannot be empty');
    await bad({ key: 'terms', lang: 'en', html: 'x'.repeat(200_001), baseVersion: 0 }, /^html /);
    await bad({ key: 'terms', lang: 'en', html: 'x' }, /^baseVersion /);
    // The old two-language body is refused, not half-read.
    await bad({ key: 'terms', content: { en: 'x', hi: 'x' } }, /content|lang/);
    expect((await save(learner, { key: 'terms', lang: 'en', html: 'x', baseVersion: 0 })).status).toBe(403);
    expect((await as(learner, 'GET', '/static-page/about/versions?lang=en')).status).toBe(403);
    expect((await as(learner, 'POST', '/static-page/restore', { key: 'about', lang: 'en', version: 1, baseVersion: 1 })).status).toBe(403);
    expect((await as(admin, 'GET', '/static-page/about/versions?lang=xx')).status).toBe(400);
    expect((await as(admin, 'GET', '/static-page/nope/versions?lang=en')).status).toBe(400);
    expect(await h.deps.db.select().from(staticPage)).toEqual(pagesBefore);
    expect(await logCount()).toBe(n);
    expect((await as(undefined, 'GET', '/static-page/nope')).status).toBe(400);
  });
});

describe('banners', () => {
  const slide = {
    src: '/images/slide.webp',
    headline: { en: 'Mock tests every week', hi: 'हर सप्ताह मॉक टेस्ट' },
    text: { en: 'Practise like the real exam', hi: 'असली परीक्षा की तरह अभ्यास करें' },
    callToActionText: { en: 'Start', hi: 'शुरू करें' },
    linkToAction: '/exam-list',
    type: 'internal',
    active: true,
    order: 1,
  };
  test('admin CRUD; the public list shows active slides in order; unsafe links are refused', async () => {
    const a = await as(admin, 'POST', '/banner', slide);
    expect(a.status).toBe(201);
    const b = await as(admin, 'POST', '/banner', { ...slide, order: 0, active: false, linkToAction: 'https://example.org/give', type: 'external' });
    expect(b.body.msg).toBe('Banner saved successfully');
    expect((await as(undefined, 'GET', '/banner')).body.data.map((s: { id: string }) => s.id)).toEqual([a.body.data.id]);
    expect((await as(admin, 'GET', '/banner/all')).body.data.map((s: { id: string }) => s.id)).toEqual([b.body.data.id, a.body.data.id]);
    await as(admin, 'PUT', '/banner', { ...slide, id: b.body.data.id, order: 0, active: true });
    expect((await as(undefined, 'GET', '/banner')).body.data).toHaveLength(2);
    for (const bad of ['javascript:alert(1)', 'data:image/png;base64,AAAA', '//evil.example', 'http://plain.example']) {
      expect((await as(admin, 'POST', '/banner', { ...slide, linkToAction: bad })).status, bad).toBe(400);
      expect((await as(admin, 'POST', '/banner', { ...slide, src: bad })).status, bad).toBe(400);
    }
    expect((await as(admin, 'POST', '/banner', { ...slide, headline: { en: 'Only English', hi: '' } })).status).toBe(400);
    expect((await as(learner, 'GET', '/banner/all')).status).toBe(403);
    expect((await as(admin, 'DELETE', `/banner/${a.body.data.id}`)).body).toEqual({ success: true, msg: 'Banner deleted successfully' });
    expect((await as(admin, 'DELETE', `/banner/${a.body.data.id}`)).status).toBe(404);
  });
});

describe('contact messages', () => {
  test('listed newest first with search and paging; deleting is logged', async () => {
    for (const n of ['Asha', 'Bina', 'Chetan']) {
      const r = await as(undefined, 'POST', '/generic/submit-contact-details', { name: n, mobile: '9876543210', description: `Question from ${n}` });
      expect(r.status).toBe(201);
    }
    const list = await as(admin, 'GET', '/generic/contact-messages?limit=2');
    expect(list.body.total).toBe(3);
    expect(list.body.data.map((m: { name: string }) => m.name)).toEqual(['Chetan', 'Bina']);
    const found = await as(admin, 'GET', '/generic/contact-messages?q=asha');
    expect(found.body.data).toHaveLength(1);
    expect((await as(learner, 'GET', '/generic/contact-messages')).status).toBe(403);
    const id = found.body.data[0].id as string;
    expect((await as(admin, 'DELETE', `/generic/contact-messages/${id}`)).body).toEqual({ success: true, msg: 'Message deleted successfully' });
    expect(await h.deps.db.select().from(contactMessage)).toHaveLength(2);
    expect(await first(h.deps.db.select().from(activityLog).where(eq(activityLog.entityId, id)))).toMatchObject({ actionType: 'DELETE', oldValue: { name: 'Asha' } });
  });
});
