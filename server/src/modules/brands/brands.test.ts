import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ActivityLogEntry } from '@pm/protocol/activity-log';
import { activityLog, brand } from '../../db/schema';
import { first } from '../../db/transaction';
import { type Harness, startHarness } from '../../test/harness';

let h: Harness;
let admin: string;

beforeAll(async () => {
  h = await startHarness();
  admin = await h.tokenOf('admin');
});
afterAll(() => h.destroy());

const asAdmin = (method: string, url: string, body?: unknown) => h.request(method, url, { token: admin, ...(body === undefined ? {} : { body }) });
const logCount = async () => (await h.deps.db.select().from(activityLog)).length;

/** The single log entry a mutation added (found by id, not position). */
async function newEntry(before: Set<string>) {
  const r = await asAdmin('GET', '/getActivityLog?pageSize=200');
  const added = (r.body.data as ActivityLogEntry[]).filter((e) => !before.has(e.id));
  expect(added).toHaveLength(1);
  return added[0] as ActivityLogEntry;
}
const logIds = async () => new Set((await h.deps.db.select({ id: activityLog.id }).from(activityLog)).map((r) => r.id));

describe('brands', () => {
  let id = '';

  test('the list starts empty', async () => {
    const r = await asAdmin('GET', '/brand');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: true, data: [] });
  });

  test('create, with an activity entry', async () => {
    const ids = await logIds();
    const r = await asAdmin('POST', '/brand', { name: 'Pariksha Books', description: 'Printed guides', logo: 'https://example.com/logo.png' });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ success: true, msg: 'Brand created successfully' });
    expect(r.body.data).toMatchObject({ name: 'Pariksha Books', description: 'Printed guides', logo: 'https://example.com/logo.png' });
    id = r.body.data.id;
    const entry = await newEntry(ids);
    expect(entry).toMatchObject({ actionType: 'CREATE', entityAffected: 'brand', entityId: id, person: { id: 'demo-admin', name: 'Asha Admin' }, oldValue: null });
    expect(entry.newValue).toMatchObject({ id, name: 'Pariksha Books' });

    const list = await asAdmin('GET', '/brand');
    expect(list.body.data.map((b: { name: string }) => b.name)).toEqual(['Pariksha Books']);
  });

  test('bad input and duplicates are refused without a log entry', async () => {
    const n = await logCount();
    const dup = await asAdmin('POST', '/brand', { name: 'Pariksha Books' });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ success: false, msg: 'Brand already exists' });
    const noName = await asAdmin('POST', '/brand', { description: 'x' });
    expect(noName.status).toBe(400);
    const blank = await asAdmin('POST', '/brand', { name: '  ' });
    expect(blank.status).toBe(400);
    expect(blank.body.msg).toBe('Brand name is required');
    const badLogo = await asAdmin('POST', '/brand', { name: 'Logo Brand', logo: 'not a url' });
    expect(badLogo.status).toBe(400);
    expect(await logCount()).toBe(n);
    expect(await h.deps.db.select().from(brand)).toHaveLength(1);
  });

  test('update, with old and new values in the log', async () => {
    const ids = await logIds();
    const r = await asAdmin('PUT', '/brand', { id, name: 'Pariksha Press', description: 'Guides and papers' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, msg: 'Brand updated successfully' });
    expect(r.body.data).toMatchObject({ id, name: 'Pariksha Press', description: 'Guides and papers', logo: null });
    const entry = await newEntry(ids);
    expect(entry).toMatchObject({ actionType: 'UPDATE', entityAffected: 'brand', entityId: id });
    expect(entry.oldValue).toMatchObject({ name: 'Pariksha Books', logo: 'https://example.com/logo.png' });
    expect(entry.newValue).toMatchObject({ name: 'Pariksha Press', logo: null });
  });

  test('update of an unknown brand is 404; to a taken name is 409', async () => {
    expect((await asAdmin('PUT', '/brand', { id: 'no-such-brand', name: 'X' })).status).toBe(404);
    await asAdmin('POST', '/brand', { name: 'Other Brand' });
    const taken = await asAdmin('PUT', '/brand', { id, name: 'Other Brand' });
    expect(taken.status).toBe(409);
    expect((await first(h.deps.db.select().from(brand).where(eq(brand.id, id))))?.name).toBe('Pariksha Press');
  });

  test('delete, with the old value in the log', async () => {
    const ids = await logIds();
    const r = await asAdmin('DELETE', `/brand/${id}`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: true, msg: 'Brand deleted successfully' });
    const entry = await newEntry(ids);
    expect(entry).toMatchObject({ actionType: 'DELETE', entityAffected: 'brand', entityId: id, newValue: null });
    expect(entry.oldValue).toMatchObject({ name: 'Pariksha Press' });
    expect(await first(h.deps.db.select().from(brand).where(eq(brand.id, id)))).toBeUndefined();
    expect((await asAdmin('DELETE', `/brand/${id}`)).status).toBe(404);
  });

  test('the brand permissions are checked per action', async () => {
    const editor = await h.tokenOf('editor');
    expect((await h.request('GET', '/brand', { token: editor })).status).toBe(403);
    expect((await h.request('POST', '/brand', { token: editor, body: { name: 'Sneaky' } })).status).toBe(403);
    expect(await first(h.deps.db.select().from(brand).where(eq(brand.name, 'Sneaky')))).toBeUndefined();
  });
});

describe('GET /plan', () => {
  test('lists the three plans of spec §9 to anyone, in page order', async () => {
    const r = await h.request('GET', '/plan');
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(true);
    const plans = r.body.data as { code: string; total: number; name: { en: string; hi: string }; contents: unknown[] }[];
    expect(plans.map((p) => [p.code, p.total, p.name.en])).toEqual([
      ['ANNUAL_PLAN', 720, 'Yearly'],
      ['QUATERLY_MONTH_PLAN', 270, 'Quarterly'],
      ['ONE_MONTH_PLAN', 150, 'Monthly'],
    ]);
    for (const p of plans) {
      expect(p.name.hi.length).toBeGreaterThan(0);
      expect(p.contents.length).toBeGreaterThan(0);
    }
  });

  test('a signed-in caller sees the same; query parameters are refused', async () => {
    const learner = await h.tokenOf('learner');
    const r = await h.request('GET', '/plan', { token: learner });
    expect(r.status).toBe(200);
    expect(r.body.data).toHaveLength(3);
    expect((await h.request('GET', '/plan?all=1')).status).toBe(400);
  });
});

test('a brand logo must be an http(s) address: javascript: and data: links are refused', async () => {
  const admin = await h.tokenOf('admin');
  for (const logo of ['javascript:alert(1)', 'data:image/png;base64,AAAA']) {
    const r = await h.request('POST', '/brand', { token: admin, body: { name: `Evil ${logo.slice(0, 4)}`, logo } });
    expect(r.status).toBe(400);
    expect(r.body.msg).toBe('Logo must be an http(s) address');
  }
  const ok = await h.request('POST', '/brand', { token: admin, body: { name: 'Good Logo Brand', logo: 'https://example.org/logo.png' } });
  expect(ok.status).toBe(201);
});
