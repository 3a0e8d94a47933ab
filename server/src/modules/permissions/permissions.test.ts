import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PERMISSIONS } from '@pm/protocol/permission';
import { activityLog, permission, personPermission, role, rolePermission } from '../../db/schema';
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

describe('GET /permission', () => {
  test('lists the seeded permissions, sorted, for any signed-in person', async () => {
    const learner = await h.tokenOf('learner');
    const r = await h.request('GET', '/permission', { token: learner });
    expect(r.status).toBe(200);
    const names = r.body.data.map((p: { permission: string }) => p.permission);
    expect(names).toEqual(Object.keys(PERMISSIONS).sort());
    expect(r.body.data[0]).toEqual({ id: expect.any(String), permission: names[0], description: expect.any(String) });
  });
});

describe('permission lifecycle', () => {
  let id = '';

  test('create: a lowercase name is stored uppercase', async () => {
    const r = await asAdmin('POST', '/permission', { permission: 'manage_exams', description: 'Run exams' });
    expect(r.status).toBe(201);
    expect(r.body.success).toBe(true);
    expect(r.body.msg).toBe('MANAGE_EXAMS permission created successfully');
    expect(r.body.data).toMatchObject({ permission: 'MANAGE_EXAMS', description: 'Run exams' });
    id = r.body.data.id;
    const row = await first(h.deps.db.select().from(permission).where(eq(permission.id, id)));
    expect(row?.permission).toBe('MANAGE_EXAMS');
  });

  test('a duplicate name is 409, whatever its case', async () => {
    const count = (await h.deps.db.select().from(permission)).length;
    for (const name of ['MANAGE_EXAMS', 'manage_exams', ' Manage_Exams ']) {
      const r = await asAdmin('POST', '/permission', { permission: name });
      expect(r.status).toBe(409);
      expect(r.body).toMatchObject({ success: false, msg: 'Permission already exists' });
    }
    expect((await h.deps.db.select().from(permission)).length).toBe(count);
  });

  test('a missing or blank name is 400 "Permission name is required"', async () => {
    const logs = await logCount();
    for (const body of [{}, { permission: '' }, { permission: '   ' }, { description: 'only a description' }]) {
      const r = await asAdmin('POST', '/permission', body);
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ success: false, msg: 'Permission name is required' });
    }
    expect(await logCount()).toBe(logs);
  });

  test('a name with spaces or symbols is refused', async () => {
    const r = await asAdmin('POST', '/permission', { permission: 'manage exams!' });
    expect(r.status).toBe(400);
    expect(r.body.success).toBe(false);
  });

  test('update renames (uppercased) and changes the description', async () => {
    const r = await asAdmin('PUT', '/permission', { id, permission: 'manage_tests', description: 'Run tests' });
    expect(r.status).toBe(200);
    expect(r.body.msg).toBe('MANAGE_TESTS permission updated successfully');
    expect(r.body.msg.endsWith('permission updated successfully')).toBe(true);
    expect(r.body.data).toMatchObject({ id, permission: 'MANAGE_TESTS', description: 'Run tests' });
    const list = await asAdmin('GET', '/permission');
    const names = list.body.data.map((p: { permission: string }) => p.permission);
    expect(names).toContain('MANAGE_TESTS');
    expect(names).not.toContain('MANAGE_EXAMS');
  });

  test('update keeping the same name is fine; taking another name is 409; unknown id is 404', async () => {
    const same = await asAdmin('PUT', '/permission', { id, permission: 'MANAGE_TESTS', description: 'Still tests' });
    expect(same.status).toBe(200);
    const taken = await asAdmin('PUT', '/permission', { id, permission: 'view_report' });
    expect(taken.status).toBe(409);
    expect(taken.body.msg).toBe('Permission already exists');
    const missing = await asAdmin('PUT', '/permission', { id: 'no-such-id', permission: 'WHATEVER' });
    expect(missing.status).toBe(404);
    const noName = await asAdmin('PUT', '/permission', { id });
    expect(noName.status).toBe(400);
    expect(noName.body.msg).toBe('Permission name is required');
  });

  test('delete removes it from every role and person holding it', async () => {
    // Grant it to a role and a person first.
    const trustee = await first(h.deps.db.select().from(role).where(eq(role.name, 'TRUSTEE')));
    expect((await asAdmin('PUT', '/role/updatePermissionCollection', { id: trustee?.id, permissions: ['VIEW_REPORT', 'MANAGE_TESTS'] })).status).toBe(200);
    expect((await asAdmin('PATCH', '/Person/updatePermissionCollection', { id: 'demo-learner', permissions: ['MANAGE_TESTS'] })).status).toBe(200);

    const r = await asAdmin('DELETE', `/permission/${id}`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: true, msg: 'Permission deleted successfully' });
    expect(await first(h.deps.db.select().from(permission).where(eq(permission.id, id)))).toBeUndefined();
    expect(await h.deps.db.select().from(rolePermission).where(eq(rolePermission.permissionId, id))).toEqual([]);
    expect(await h.deps.db.select().from(personPermission).where(eq(personPermission.permissionId, id))).toEqual([]);

    const again = await asAdmin('DELETE', `/permission/${id}`);
    expect(again.status).toBe(404);
  });

  test('a malformed id in the path is 400', async () => {
    const r = await asAdmin('DELETE', `/permission/${encodeURIComponent('bad id!')}`);
    expect(r.status).toBe(400);
    expect(r.body.msg).toBe('Invalid id');
  });
});

test('people without the permission cannot change permissions', async () => {
  const editor = await h.tokenOf('editor');
  const r = await h.request('POST', '/permission', { token: editor, body: { permission: 'SNEAKY' } });
  expect(r.status).toBe(403);
  expect(r.body.msg).toBe('Permission denied');
  expect(await first(h.deps.db.select().from(permission).where(eq(permission.permission, 'SNEAKY')))).toBeUndefined();
});

describe('permissions the server checks', () => {
  test('cannot be deleted or renamed (that would lock everyone out), and nothing changes', async () => {
    const row = (await first(h.deps.db.select().from(permission).where(eq(permission.permission, 'UPDATE_PERSON'))))!;
    const before = await logCount();
    const del = await asAdmin('DELETE', `/permission/${row.id}`);
    expect(del.status).toBe(409);
    expect(del.body.msg).toBe('This permission is used by the app and cannot be renamed or deleted');
    const ren = await asAdmin('PUT', '/permission', { id: row.id, permission: 'PEOPLE_EDITOR', description: 'x' });
    expect(ren.status).toBe(409);
    // Editing only the description of a built-in permission stays possible.
    const desc = await asAdmin('PUT', '/permission', { id: row.id, permission: 'update_person', description: 'Edit people' });
    expect(desc.status).toBe(200);
    expect(await first(h.deps.db.select().from(permission).where(eq(permission.id, row.id)))).toMatchObject({ permission: 'UPDATE_PERSON', description: 'Edit people' });
    expect(await logCount()).toBe(before + 1);
  });
});
