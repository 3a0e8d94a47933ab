import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ROLES } from '@pm/protocol/role';
import { activityLog, role, rolePermission } from '../../db/schema';
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
const roleCount = async () => (await h.deps.db.select().from(role)).length;
const permsOf = (v: { permissions: { permission: string }[] }) => v.permissions.map((p) => p.permission).sort();

async function roleById(id: string) {
  const r = await asAdmin('GET', '/role');
  expect(r.status).toBe(200);
  return r.body.data.find((x: { id: string }) => x.id === id) as { id: string; name: string; description: string; permissions: { permission: string }[] } | undefined;
}

test('GET /role lists the seeded roles with their permissions for any signed-in person', async () => {
  const learner = await h.tokenOf('learner');
  const r = await h.request('GET', '/role', { token: learner });
  expect(r.status).toBe(200);
  expect(r.body.data.map((x: { name: string }) => x.name)).toEqual([...ROLES].sort());
  const editorRole = r.body.data.find((x: { name: string }) => x.name === 'QUESTION_EDITOR');
  expect(permsOf(editorRole)).toEqual(['QUESTION_EDITOR']);
  const adminRole = r.body.data.find((x: { name: string }) => x.name === 'ADMIN');
  expect(adminRole.permissions.length).toBe(22);
});

describe('role lifecycle', () => {
  let id = '';

  test('create uppercases the name and sets its permissions', async () => {
    const r = await asAdmin('POST', '/role', { name: 'moderator', description: 'Moderates', permissions: ['shop_editor'] });
    expect(r.status).toBe(201);
    expect(r.body.success).toBe(true);
    expect(r.body.msg).toBe('Role added successfully');
    expect(r.body.data).toMatchObject({ name: 'MODERATOR', description: 'Moderates' });
    expect(permsOf(r.body.data)).toEqual(['SHOP_EDITOR']);
    id = r.body.data.id;
    expect((await first(h.deps.db.select().from(role).where(eq(role.id, id))))?.name).toBe('MODERATOR');
  });

  test('a duplicate name is 409; a missing name is 400 "Role name is required"', async () => {
    const n = await roleCount();
    const dup = await asAdmin('POST', '/role', { name: 'Moderator' });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ success: false, msg: 'Role already exists' });
    for (const body of [{}, { name: '' }, { name: '  ' }]) {
      const r = await asAdmin('POST', '/role', body);
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ success: false, msg: 'Role name is required' });
    }
    expect(await roleCount()).toBe(n);
  });

  test('create with an unknown permission is 400 and creates nothing', async () => {
    const n = await roleCount();
    const logs = await logCount();
    const r = await asAdmin('POST', '/role', { name: 'ghost_role', permissions: ['SHOP_EDITOR', 'NO_SUCH_PERMISSION'] });
    expect(r.status).toBe(400);
    expect(r.body.msg).toContain('NO_SUCH_PERMISSION');
    expect(await roleCount()).toBe(n);
    expect(await logCount()).toBe(logs);
    expect(await first(h.deps.db.select().from(role).where(eq(role.name, 'GHOST_ROLE')))).toBeUndefined();
  });

  test('update renames and re-describes; permissions stay when not sent', async () => {
    const r = await asAdmin('PUT', '/role', { id, name: 'moderators', description: 'Moderates everything' });
    expect(r.status).toBe(200);
    expect(r.body.msg).toBe('Role updated successfully');
    expect(r.body.data).toMatchObject({ id, name: 'MODERATORS', description: 'Moderates everything' });
    expect(permsOf(r.body.data)).toEqual(['SHOP_EDITOR']);
  });

  test("update to another role's name is 409; an unknown id is 404", async () => {
    const taken = await asAdmin('PUT', '/role', { id, name: 'admin' });
    expect(taken.status).toBe(409);
    expect(taken.body.msg).toBe('Role already exists');
    const missing = await asAdmin('PUT', '/role', { id: 'no-such-role', name: 'WHATEVER' });
    expect(missing.status).toBe(404);
    expect((await roleById(id))?.name).toBe('MODERATORS');
  });

  test('PUT /role/updatePermissionCollection replaces the permissions (names or {permission} items)', async () => {
    const r = await asAdmin('PUT', '/role/updatePermissionCollection', { id, permissions: ['view_report', { permission: 'create_brand' }] });
    expect(r.status).toBe(200);
    expect(r.body.msg).toBe('Role permissions updated successfully');
    expect(permsOf(r.body.data)).toEqual(['CREATE_BRAND', 'VIEW_REPORT']);
    const listed = await roleById(id);
    expect(listed && permsOf(listed)).toEqual(['CREATE_BRAND', 'VIEW_REPORT']);
  });

  test('an unknown permission is 400 and changes nothing', async () => {
    const logs = await logCount();
    const before = await h.deps.db.select().from(rolePermission).where(eq(rolePermission.roleId, id));
    const r = await asAdmin('PUT', '/role/updatePermissionCollection', { id, permissions: ['SHOP_EDITOR', 'NO_SUCH_PERMISSION'] });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ success: false });
    expect(r.body.msg).toContain('NO_SUCH_PERMISSION');
    expect(await h.deps.db.select().from(rolePermission).where(eq(rolePermission.roleId, id))).toEqual(before);
    const viaPut = await asAdmin('PUT', '/role', { id, name: 'renamed_role', permissions: ['NO_SUCH_PERMISSION'] });
    expect(viaPut.status).toBe(400);
    expect((await roleById(id))?.name).toBe('MODERATORS');
    expect(await logCount()).toBe(logs);
  });

  test('a role held by people cannot be deleted (409)', async () => {
    const person = await asAdmin('POST', '/Person', { n: 'Mona Moderator', m: '9222222201', r: id });
    expect(person.status).toBe(201);
    expect(permsOf(person.body.data)).toEqual(['CREATE_BRAND', 'VIEW_REPORT']);

    const r = await asAdmin('DELETE', `/role/${id}`);
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ success: false, msg: 'Role is assigned to people and cannot be deleted' });
    expect(await roleById(id)).toBeDefined();

    // The seeded QUESTION_EDITOR role is held by the demo editor.
    const editorRole = await first(h.deps.db.select().from(role).where(eq(role.name, 'QUESTION_EDITOR')));
    const seeded = await asAdmin('DELETE', `/role/${editorRole?.id}`);
    expect(seeded.status).toBe(409);

    // A role is a template: changing it later leaves the holder's own permissions as they were.
    await asAdmin('PUT', '/role/updatePermissionCollection', { id, permissions: [] });
    const holder = await asAdmin('GET', `/Person/${person.body.id}`);
    expect(permsOf(holder.body.data)).toEqual(['CREATE_BRAND', 'VIEW_REPORT']);

    // Moving the person off the role frees it.
    expect((await asAdmin('PUT', '/Person', { id: person.body.id, r: 'MEMBER' })).status).toBe(200);
  });

  test('delete', async () => {
    const r = await asAdmin('DELETE', `/role/${id}`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: true, msg: 'Role deleted successfully' });
    expect(await roleById(id)).toBeUndefined();
    expect(await h.deps.db.select().from(rolePermission).where(eq(rolePermission.roleId, id))).toEqual([]);
    const again = await asAdmin('DELETE', `/role/${id}`);
    expect(again.status).toBe(404);
  });
});

test('people without the role permissions cannot change roles', async () => {
  const editor = await h.tokenOf('editor');
  const n = await roleCount();
  const r = await h.request('POST', '/role', { token: editor, body: { name: 'SNEAKY' } });
  expect(r.status).toBe(403);
  expect(r.body.msg).toBe('Permission denied');
  expect(await roleCount()).toBe(n);
});
