import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { ActivityLogEntry } from '@pm/protocol/activity-log';
import { activityLog, role } from '../../db/schema';
import { first } from '../../db/transaction';
import { type Harness, startHarness } from '../../test/harness';

let h: Harness;
let admin: string;
let editor: string;
const ADMIN = { id: 'demo-admin', name: 'Asha Admin' };
const EDITOR = { id: 'demo-editor', name: 'Eshan Editor' };

beforeAll(async () => {
  h = await startHarness();
  admin = await h.tokenOf('admin');
  editor = await h.tokenOf('editor');
});
afterAll(() => h.destroy());

const logIds = async () => new Set((await h.deps.db.select({ id: activityLog.id }).from(activityLog)).map((r) => r.id));
const logCount = async () => (await h.deps.db.select().from(activityLog)).length;

/** Keys and values that must never reach the log (docs/admin.md). */
function assertNoSecrets(value: unknown) {
  const text = JSON.stringify(value);
  expect(text).not.toContain('$argon2');
  expect(text).not.toMatch(/"(passwordHash|password_hash|tokenVersion|token_version|codeHash|password)"\s*:/);
}

/**
 * Runs one mutation and returns the log entries it added, read back through the API.
 * The entries are found by id difference, not by position, so that the check does not depend on
 * the order of entries written within the same millisecond.
 */
async function entriesOf(mutation: () => Promise<{ status: number; body: any }>, status: number) {
  const before = await logIds();
  const r = await mutation();
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  const page = await h.request('GET', '/getActivityLog?pageSize=200', { token: admin });
  expect(page.status).toBe(200);
  const added = (page.body.data as ActivityLogEntry[]).filter((e) => !before.has(e.id));
  return { response: r, added };
}

async function oneEntry(mutation: () => Promise<{ status: number; body: any }>, status: number) {
  const { response, added } = await entriesOf(mutation, status);
  expect(added).toHaveLength(1);
  const entry = added[0] as ActivityLogEntry;
  assertNoSecrets(entry);
  return { response, entry };
}

const asAdmin = (method: string, url: string, body?: unknown) => () => h.request(method, url, { token: admin, ...(body === undefined ? {} : { body }) });

describe('each admin mutation writes exactly one entry with its before and after', () => {
  let personId = '';
  let roleId = '';
  let permissionId = '';
  let brandId = '';

  test('person create', async () => {
    const { response, entry } = await oneEntry(asAdmin('POST', '/Person', { n: 'Logged Person', m: '9333333301', e: 'logged@example.com', password: 'secret-pass' }), 201);
    personId = response.body.id;
    expect(entry).toMatchObject({ actionType: 'CREATE', entityAffected: 'person', entityId: personId, person: ADMIN, oldValue: null });
    expect(entry.newValue).toMatchObject({ id: personId, name: 'Logged Person', mobile: '+919333333301', email: 'logged@example.com', permissions: [] });
    expect(JSON.stringify(entry)).not.toContain('secret-pass');
    expect(entry.createdAt).toBeGreaterThan(Date.now() - 60_000);
  });

  test('person update', async () => {
    const { entry } = await oneEntry(asAdmin('PUT', '/Person', { id: personId, n: 'Logged Person Renamed', r: 'QUESTION_EDITOR' }), 200);
    expect(entry).toMatchObject({ actionType: 'UPDATE', entityAffected: 'person', entityId: personId, person: ADMIN });
    expect(entry.oldValue).toMatchObject({ name: 'Logged Person', permissions: [] });
    expect(entry.newValue).toMatchObject({ name: 'Logged Person Renamed', permissions: ['QUESTION_EDITOR'] });
  });

  test('person permissions', async () => {
    const { entry } = await oneEntry(asAdmin('PATCH', '/Person/updatePermissionCollection', { id: personId, permissions: ['view_report', 'shop_editor'] }), 200);
    expect(entry).toMatchObject({ actionType: 'UPDATE', entityAffected: 'person', entityId: personId, person: ADMIN });
    expect(entry.oldValue).toMatchObject({ permissions: ['QUESTION_EDITOR'] });
    expect(entry.newValue).toMatchObject({ permissions: ['SHOP_EDITOR', 'VIEW_REPORT'] });
  });

  test('person delete', async () => {
    const { entry } = await oneEntry(asAdmin('DELETE', `/Person/${personId}`), 200);
    expect(entry).toMatchObject({ actionType: 'DELETE', entityAffected: 'person', entityId: personId, person: ADMIN, newValue: null });
    expect(entry.oldValue).toMatchObject({ id: personId, name: 'Logged Person Renamed' });
  });

  test('role create', async () => {
    const { response, entry } = await oneEntry(asAdmin('POST', '/role', { name: 'auditor', description: 'Audits', permissions: ['VIEW_REPORT'] }), 201);
    roleId = response.body.data.id;
    expect(entry).toMatchObject({ actionType: 'CREATE', entityAffected: 'role', entityId: roleId, person: ADMIN, oldValue: null });
    expect(entry.newValue).toMatchObject({ id: roleId, name: 'AUDITOR', description: 'Audits', permissions: [{ permission: 'VIEW_REPORT' }] });
  });

  test('role update', async () => {
    const { entry } = await oneEntry(asAdmin('PUT', '/role', { id: roleId, name: 'auditors', description: 'Audits all' }), 200);
    expect(entry).toMatchObject({ actionType: 'UPDATE', entityAffected: 'role', entityId: roleId, person: ADMIN });
    expect(entry.oldValue).toMatchObject({ name: 'AUDITOR', description: 'Audits' });
    expect(entry.newValue).toMatchObject({ name: 'AUDITORS', description: 'Audits all' });
  });

  test('role permissions', async () => {
    const { entry } = await oneEntry(asAdmin('PUT', '/role/updatePermissionCollection', { id: roleId, permissions: ['SHOP_EDITOR'] }), 200);
    expect(entry).toMatchObject({ actionType: 'UPDATE', entityAffected: 'role', entityId: roleId, person: ADMIN });
    expect(entry.oldValue).toMatchObject({ permissions: [{ permission: 'VIEW_REPORT' }] });
    expect(entry.newValue).toMatchObject({ permissions: [{ permission: 'SHOP_EDITOR' }] });
  });

  test('role delete', async () => {
    const { entry } = await oneEntry(asAdmin('DELETE', `/role/${roleId}`), 200);
    expect(entry).toMatchObject({ actionType: 'DELETE', entityAffected: 'role', entityId: roleId, person: ADMIN, newValue: null });
    expect(entry.oldValue).toMatchObject({ name: 'AUDITORS', permissions: [{ permission: 'SHOP_EDITOR' }] });
  });

  test('permission create', async () => {
    const { response, entry } = await oneEntry(asAdmin('POST', '/permission', { permission: 'audit_logs', description: 'Audit' }), 201);
    permissionId = response.body.data.id;
    expect(entry).toMatchObject({ actionType: 'CREATE', entityAffected: 'permission', entityId: permissionId, person: ADMIN, oldValue: null });
    expect(entry.newValue).toMatchObject({ id: permissionId, permission: 'AUDIT_LOGS', description: 'Audit' });
  });

  test('permission update', async () => {
    const { entry } = await oneEntry(asAdmin('PUT', '/permission', { id: permissionId, permission: 'audit_all', description: 'Audit all' }), 200);
    expect(entry).toMatchObject({ actionType: 'UPDATE', entityAffected: 'permission', entityId: permissionId, person: ADMIN });
    expect(entry.oldValue).toMatchObject({ permission: 'AUDIT_LOGS', description: 'Audit' });
    expect(entry.newValue).toMatchObject({ permission: 'AUDIT_ALL', description: 'Audit all' });
  });

  test('permission delete', async () => {
    const { entry } = await oneEntry(asAdmin('DELETE', `/permission/${permissionId}`), 200);
    expect(entry).toMatchObject({ actionType: 'DELETE', entityAffected: 'permission', entityId: permissionId, person: ADMIN, newValue: null });
    expect(entry.oldValue).toMatchObject({ permission: 'AUDIT_ALL' });
  });

  test('brand create', async () => {
    const { response, entry } = await oneEntry(asAdmin('POST', '/brand', { name: 'Logged Brand', description: 'B' }), 201);
    brandId = response.body.data.id;
    expect(entry).toMatchObject({ actionType: 'CREATE', entityAffected: 'brand', entityId: brandId, person: ADMIN, oldValue: null });
    expect(entry.newValue).toMatchObject({ id: brandId, name: 'Logged Brand', description: 'B', logo: null });
  });

  test('brand update', async () => {
    const { entry } = await oneEntry(asAdmin('PUT', '/brand', { id: brandId, name: 'Logged Brand 2', description: 'B2', logo: 'https://example.com/b.png' }), 200);
    expect(entry).toMatchObject({ actionType: 'UPDATE', entityAffected: 'brand', entityId: brandId, person: ADMIN });
    expect(entry.oldValue).toMatchObject({ name: 'Logged Brand', description: 'B', logo: null });
    expect(entry.newValue).toMatchObject({ name: 'Logged Brand 2', description: 'B2', logo: 'https://example.com/b.png' });
  });

  test('brand delete', async () => {
    const { entry } = await oneEntry(asAdmin('DELETE', `/brand/${brandId}`), 200);
    expect(entry).toMatchObject({ actionType: 'DELETE', entityAffected: 'brand', entityId: brandId, person: ADMIN, newValue: null });
    expect(entry.oldValue).toMatchObject({ name: 'Logged Brand 2' });
  });

  test('tag create and tag update (by the editor, who is the actor)', async () => {
    const created = await oneEntry(() => h.request('PATCH', '/tag', { token: editor, body: { key: 't', newTag: 'Logged Topic', lang: 'en' } }), 200);
    const tid = created.response.body.data.tid;
    expect(created.entry).toMatchObject({ actionType: 'CREATE', entityAffected: 'tag', entityId: tid, person: EDITOR, oldValue: null });
    expect(created.entry.newValue).toMatchObject({ key: 't', tid, tags: { en: 'Logged Topic' } });

    const updated = await oneEntry(() => h.request('PATCH', '/tag', { token: editor, body: { key: 't', tagId: tid, newTag: 'लॉग विषय', lang: 'hi' } }), 200);
    expect(updated.entry).toMatchObject({ actionType: 'UPDATE', entityAffected: 'tag', entityId: tid, person: EDITOR });
    expect(updated.entry.oldValue).toMatchObject({ tags: { en: 'Logged Topic' } });
    expect((updated.entry.oldValue as { tags: Record<string, string> }).tags.hi).toBeUndefined();
    expect(updated.entry.newValue).toMatchObject({ tags: { en: 'Logged Topic', hi: 'लॉग विषय' } });
  });
});

describe('refused mutations write nothing', () => {
  test('400, 404 and 409 answers leave the log as it was', async () => {
    const trustee = await first(h.deps.db.select().from(role).where(eq(role.name, 'TRUSTEE')));
    const refused: [string, string, unknown, number][] = [
      ['POST', '/Person', { m: '9333333399' }, 400],
      ['PUT', '/Person', { id: 'demo-learner', r: 'NO_SUCH_ROLE' }, 400],
      ['PATCH', '/Person/updatePermissionCollection', { id: 'demo-learner', permissions: ['NOPE'] }, 400],
      ['POST', '/role', { name: 'x_role', permissions: ['NOPE'] }, 400],
      ['PUT', '/role/updatePermissionCollection', { id: trustee?.id, permissions: ['NOPE'] }, 400],
      ['POST', '/permission', {}, 400],
      ['POST', '/permission', { permission: 'VIEW_REPORT' }, 409],
      ['POST', '/brand', { name: '' }, 400],
      ['PATCH', '/tag', { key: 't', lang: 'en' }, 400],
      ['PATCH', '/tag', { key: 't', tagId: 'no-such-tag', newTag: 'X', lang: 'en' }, 404],
      ['DELETE', '/role/no-such-role', undefined, 404],
      ['DELETE', '/Person/demo-admin', undefined, 409],
    ];
    for (const [method, url, body, status] of refused) {
      const { added } = await entriesOf(asAdmin(method, url, body), status);
      expect(added, `${method} ${url}`).toEqual([]);
    }
  });

  test('a caller without permission writes nothing', async () => {
    const learner = await h.tokenOf('learner');
    const n = await logCount();
    const r = await h.request('POST', '/brand', { token: learner, body: { name: 'Nope' } });
    expect(r.status).toBe(403);
    expect(await logCount()).toBe(n);
  });
});

describe('GET /getActivityLog paging and sorting', () => {
  beforeAll(async () => {
    // Enough entries for more than one default page (50).
    for (let i = 0; i < 45; i++) {
      const r = await h.request('POST', '/brand', { token: admin, body: { name: `Paging Brand ${String(i).padStart(2, '0')}` } });
      expect(r.status).toBe(201);
    }
  });

  test('the default page is 50 entries, newest first', async () => {
    const total = await logCount();
    expect(total).toBeGreaterThan(50);
    const r = await h.request('GET', '/getActivityLog', { token: admin });
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(true);
    const data = r.body.data as ActivityLogEntry[];
    expect(data).toHaveLength(50);
    for (let i = 1; i < data.length; i++) expect((data[i - 1] as ActivityLogEntry).createdAt).toBeGreaterThanOrEqual((data[i] as ActivityLogEntry).createdAt);
    // The newest entry is the last brand created, even when several share a millisecond.
    expect(data[0]?.newValue).toMatchObject({ name: 'Paging Brand 44' });
    expect(data[1]?.newValue).toMatchObject({ name: 'Paging Brand 43' });
    for (const e of data) assertNoSecrets(e);
  });

  test('pageSize and offset page through without gaps or overlaps', async () => {
    const all = (await h.request('GET', '/getActivityLog?pageSize=200', { token: admin })).body.data as ActivityLogEntry[];
    expect(all).toHaveLength(await logCount());
    const page = await h.request('GET', '/getActivityLog?pageSize=10&offset=5', { token: admin });
    expect(page.status).toBe(200);
    expect(page.body.data.map((e: ActivityLogEntry) => e.id)).toEqual(all.slice(5, 15).map((e) => e.id));
    const pieces: string[] = [];
    for (let offset = 0; offset < all.length; offset += 25) {
      const p = await h.request('GET', `/getActivityLog?pageSize=25&offset=${offset}`, { token: admin });
      pieces.push(...p.body.data.map((e: ActivityLogEntry) => e.id));
    }
    expect(pieces).toEqual(all.map((e) => e.id));
    const beyond = await h.request('GET', `/getActivityLog?offset=${all.length}`, { token: admin });
    expect(beyond.body.data).toEqual([]);
  });

  test('sort=actionType&order=asc sorts by action', async () => {
    const r = await h.request('GET', '/getActivityLog?sort=actionType&order=asc&pageSize=200', { token: admin });
    expect(r.status).toBe(200);
    const types = (r.body.data as ActivityLogEntry[]).map((e) => e.actionType);
    expect(types).toEqual([...types].sort());
    expect(new Set(types)).toEqual(new Set(['CREATE', 'UPDATE', 'DELETE']));
    const desc = await h.request('GET', '/getActivityLog?sort=actionType&order=desc&pageSize=200', { token: admin });
    const descTypes = (desc.body.data as ActivityLogEntry[]).map((e) => e.actionType);
    expect(descTypes).toEqual([...descTypes].sort().reverse());
  });

  test('sort by person and by entity', async () => {
    const byPerson = await h.request('GET', '/getActivityLog?sort=person&order=asc&pageSize=200', { token: admin });
    const names = (byPerson.body.data as ActivityLogEntry[]).map((e) => e.person?.name ?? '');
    expect(names).toEqual([...names].sort());
    const byEntity = await h.request('GET', '/getActivityLog?sort=entityAffected&order=asc&pageSize=200', { token: admin });
    const entities = (byEntity.body.data as ActivityLogEntry[]).map((e) => e.entityAffected);
    expect(entities).toEqual([...entities].sort());
  });

  test('/getActivityLog/count matches', async () => {
    const r = await h.request('GET', '/getActivityLog/count', { token: admin });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: true, count: await logCount() });
    const all = await h.request('GET', '/getActivityLog?pageSize=200', { token: admin });
    expect(all.body.data).toHaveLength(r.body.count);
  });

  test('entries written in the same millisecond still come newest first (and oldest first with order=asc)', async () => {
    // Force what happens by chance under load: 45 entries written at one instant (a clock that
    // stands still while they are written; entries are only ever inserted, never changed).
    const stamp = Date.now() + 1000;
    const clock = vi.spyOn(Date, 'now').mockReturnValue(stamp);
    try {
      for (let i = 0; i < 45; i++) {
        const r = await h.request('POST', '/brand', { token: admin, body: { name: `Same Instant ${String(i).padStart(2, '0')}` } });
        expect(r.status).toBe(201);
      }
    } finally {
      clock.mockRestore();
    }
    const stamped = await h.deps.db.select().from(activityLog).where(eq(activityLog.createdAt, stamp));
    expect(stamped).toHaveLength(45);
    const expected = Array.from({ length: 45 }, (_, i) => `Same Instant ${String(44 - i).padStart(2, '0')}`);

    const newest = await h.request('GET', '/getActivityLog?pageSize=45', { token: admin });
    expect((newest.body.data as ActivityLogEntry[]).map((e) => (e.newValue as { name: string }).name)).toEqual(expected);
    const oldest = await h.request('GET', '/getActivityLog?pageSize=45&order=asc&offset=' + String((await logCount()) - 45), { token: admin });
    expect((oldest.body.data as ActivityLogEntry[]).map((e) => (e.newValue as { name: string }).name)).toEqual([...expected].reverse());
  });

  test('bad paging parameters are 400', async () => {
    for (const q of ['pageSize=0', 'pageSize=201', 'offset=-1', 'sort=password', 'order=up', 'bogus=1', 'pageSize=10&pageSize=20']) {
      const r = await h.request('GET', `/getActivityLog?${q}`, { token: admin });
      expect(r.status, q).toBe(400);
      expect(r.body.success).toBe(false);
    }
    expect((await h.request('GET', '/getActivityLog/count?x=1', { token: admin })).status).toBe(400);
  });
});
