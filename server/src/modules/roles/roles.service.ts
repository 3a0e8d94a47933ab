import { and, eq, inArray, notExists } from 'drizzle-orm';
import { MSG } from '@pm/protocol/messages';
import { ADMIN_ROLE, BUILT_IN_ROLES } from '@pm/protocol/role';
import type { Conn } from '../../db/client';
import type { Deps, Principal } from '../../context';
import { permission, person, role, rolePermission } from '../../db/schema';
import { first, transaction } from '../../db/transaction';
import { logActivity } from '../../lib/activity';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors';
import { permissionIds } from '../persons/persons.repo';
import { assertHoldsAll, rolePermissionNames, type Standing, standingOf } from '../persons/privileges';

type RoleRow = typeof role.$inferSelect;

async function view(db: Conn, r: RoleRow) {
  const perms = await db
    .select({ id: permission.id, permission: permission.permission, description: permission.description })
    .from(rolePermission)
    .innerJoin(permission, eq(permission.id, rolePermission.permissionId))
    .where(eq(rolePermission.roleId, r.id))
    .orderBy(permission.permission);
  return { id: r.id, name: r.name, description: r.description, permissions: perms };
}

export async function list(deps: Deps) {
  const rows = await deps.db.select().from(role).orderBy(role.name);
  const data = [];
  for (const r of rows) data.push(await view(deps.db, r));
  return { success: true as const, data };
}

async function resolvePermissions(deps: Deps, names: string[] | undefined) {
  if (!names) return undefined;
  const { ids, missing } = await permissionIds(deps.db, names);
  if (missing.length) throw badRequest(`Unknown permission: ${missing.join(', ')}`);
  return ids;
}

async function setRolePermissions(tx: Conn, roleId: string, ids: string[]) {
  await tx.delete(rolePermission).where(eq(rolePermission.roleId, roleId));
  if (ids.length) await tx.insert(rolePermission).values(ids.map((permissionId) => ({ roleId, permissionId })));
}

async function assertFree(db: Conn, name: string, exceptId?: string) {
  const other = await first(db.select().from(role).where(eq(role.name, name)));
  if (other && other.id !== exceptId) throw conflict(MSG.roleExists);
}

/**
 * Who may edit a role's template (docs/security.md "People, roles and permissions", persons/privileges.ts): the ADMIN role only an
 * ADMIN; a permission is added or removed only by someone who holds it. People who already hold
 * the role keep their own permissions (see setPermissions), so this guards what the role gives
 * the next person it is assigned to.
 */
async function assertMayEdit(db: Conn, me: Standing, r: RoleRow, ids: string[] | undefined) {
  if (r.name === ADMIN_ROLE && !me.isAdmin) throw forbidden(MSG.adminOnly);
  if (!ids) return;
  const before = await rolePermissionNames(db, r.id);
  const after = await permissionNamesOf(db, ids);
  assertHoldsAll(me, [...after.filter((p) => !before.includes(p)), ...before.filter((p) => !after.includes(p))]);
}

async function permissionNamesOf(db: Conn, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db.select({ p: permission.permission }).from(permission).where(inArray(permission.id, ids));
  return rows.map((r) => r.p);
}

export async function create(deps: Deps, actor: Principal, input: { name: string; description: string; permissions?: string[] | undefined }) {
  const ids = (await resolvePermissions(deps, input.permissions)) ?? [];
  const data = await transaction(deps.db, async (tx) => {
    const me = await standingOf(tx, actor.id, 'CREATE_ROLE');
    await assertFree(tx, input.name);
    assertHoldsAll(me, await permissionNamesOf(tx, ids));
    const created = (await first(tx.insert(role).values({ name: input.name, description: input.description }).returning()))!;
    await setRolePermissions(tx, created.id, ids);
    const v = await view(tx, created);
    await logActivity(tx, { actor, action: 'CREATE', entity: 'role', entityId: created.id, newValue: v });
    return v;
  });
  return { success: true as const, msg: MSG.roleAdded, data };
}

export async function update(deps: Deps, actor: Principal, input: { id: string; name: string; description: string; permissions?: string[] | undefined }) {
  const ids = await resolvePermissions(deps, input.permissions);
  const data = await transaction(deps.db, async (tx) => {
    const me = await standingOf(tx, actor.id, 'UPDATE_ROLE');
    const before = await first(tx.select().from(role).where(eq(role.id, input.id)));
    if (!before) throw notFound('Role not found');
    // The server finds ADMIN and MEMBER by name: renamed, they would stop being what they are.
    if (input.name !== before.name && BUILT_IN_ROLES.includes(before.name)) throw conflict(MSG.roleBuiltIn);
    await assertFree(tx, input.name, input.id);
    await assertMayEdit(tx, me, before, ids);
    const oldValue = await view(tx, before);
    const after = (await first(tx.update(role).set({ name: input.name, description: input.description }).where(eq(role.id, input.id)).returning()))!;
    if (ids) await setRolePermissions(tx, after.id, ids);
    const v = await view(tx, after);
    await logActivity(tx, { actor, action: 'UPDATE', entity: 'role', entityId: after.id, oldValue, newValue: v });
    return v;
  });
  return { success: true as const, msg: MSG.roleUpdated, data };
}

/**
 * PUT /role/updatePermissionCollection. People already holding the role keep their own
 * permission sets: a role is the template copied when it is assigned (docs/api.md).
 */
export async function setPermissions(deps: Deps, actor: Principal, input: { id: string; permissions: string[] }) {
  const ids = (await resolvePermissions(deps, input.permissions)) ?? [];
  const data = await transaction(deps.db, async (tx) => {
    const me = await standingOf(tx, actor.id, 'UPDATE_ROLE');
    const before = await first(tx.select().from(role).where(eq(role.id, input.id)));
    if (!before) throw notFound('Role not found');
    await assertMayEdit(tx, me, before, ids);
    const oldValue = await view(tx, before);
    await setRolePermissions(tx, before.id, ids);
    const v = await view(tx, before);
    await logActivity(tx, { actor, action: 'UPDATE', entity: 'role', entityId: before.id, oldValue, newValue: v });
    return v;
  });
  return { success: true as const, msg: MSG.rolePermissionsUpdated, data };
}

/**
 * DELETE /role/:id. ADMIN and MEMBER stay (the server needs them by name). A role held by anyone
 * stays too: the delete is one statement conditional on nobody holding it, in the transaction,
 * so a person given the role at the same moment never points at a deleted role.
 */
export async function remove(deps: Deps, actor: Principal, id: string) {
  await transaction(deps.db, async (tx) => {
    await standingOf(tx, actor.id, 'DELETE_ROLE');
    const before = await first(tx.select().from(role).where(eq(role.id, id)));
    if (!before) throw notFound('Role not found');
    if (BUILT_IN_ROLES.includes(before.name)) throw conflict(MSG.roleBuiltIn);
    const oldValue = await view(tx, before);
    const deleted = await first(
      tx
        .delete(role)
        .where(and(eq(role.id, id), notExists(tx.select({ id: person.id }).from(person).where(eq(person.roleId, id)))))
        .returning({ id: role.id }),
    );
    if (!deleted) throw conflict(MSG.roleInUse);
    await logActivity(tx, { actor, action: 'DELETE', entity: 'role', entityId: id, oldValue });
  });
  return { success: true as const, msg: MSG.roleDeleted };
}
