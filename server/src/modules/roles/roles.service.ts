import { and, eq, inArray, notExists } from 'drizzle-orm';
import { MSG } from '../../../../sync-protocol/src/messages';
import { ADMIN_ROLE, BUILT_IN_ROLES } from '../../../../sync-protocol/src/role';
import type { Conn } from '../../db/client';
import type { Deps, Principal } from '../../context';
import { permission, person, role, rolePermission } from '../../db/schema';
import { logActivity } from '../../lib/activity';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors';
import { permissionIds } from '../persons/persons.repo';
import { assertHoldsAll, rolePermissionNames, type Standing, standingOf } from '../persons/privileges';

type RoleRow = typeof role.$inferSelect;

function view(db: Conn, r: RoleRow) {
  const perms = db
    .select({ id: permission.id, permission: permission.permission, description: permission.description })
    .from(rolePermission)
    .innerJoin(permission, eq(permission.id, rolePermission.permissionId))
    .where(eq(rolePermission.roleId, r.id))
    .orderBy(permission.permission)
    .all();
  return { id: r.id, name: r.name, description: r.description, permissions: perms };
}

export function list(deps: Deps) {
  return { success: true as const, data: deps.db.select().from(role).orderBy(role.name).all().map((r) => view(deps.db, r)) };
}

function resolvePermissions(deps: Deps, names: string[] | undefined) {
  if (!names) return undefined;
  const { ids, missing } = permissionIds(deps.db, names);
  if (missing.length) throw badRequest(`Unknown permission: ${missing.join(', ')}`);
  return ids;
}

function setRolePermissions(tx: Conn, roleId: string, ids: string[]) {
  tx.delete(rolePermission).where(eq(rolePermission.roleId, roleId)).run();
  if (ids.length) tx.insert(rolePermission).values(ids.map((permissionId) => ({ roleId, permissionId }))).run();
}

function assertFree(db: Conn, name: string, exceptId?: string) {
  const other = db.select().from(role).where(eq(role.name, name)).get();
  if (other && other.id !== exceptId) throw conflict(MSG.roleExists);
}

/**
 * Who may edit a role's template (issue 16 §3, persons/privileges.ts): the ADMIN role only an
 * ADMIN; a permission is added or removed only by someone who holds it. People who already hold
 * the role keep their own permissions (see setPermissions), so this guards what the role gives
 * the next person it is assigned to.
 */
function assertMayEdit(db: Conn, me: Standing, r: RoleRow, ids: string[] | undefined) {
  if (r.name === ADMIN_ROLE && !me.isAdmin) throw forbidden(MSG.adminOnly);
  if (!ids) return;
  const before = rolePermissionNames(db, r.id);
  const after = permissionNamesOf(db, ids);
  assertHoldsAll(me, [...after.filter((p) => !before.includes(p)), ...before.filter((p) => !after.includes(p))]);
}

function permissionNamesOf(db: Conn, ids: string[]): string[] {
  if (ids.length === 0) return [];
  return db.select({ p: permission.permission }).from(permission).where(inArray(permission.id, ids)).all().map((r) => r.p);
}

export function create(deps: Deps, actor: Principal, input: { name: string; description: string; permissions?: string[] | undefined }) {
  const ids = resolvePermissions(deps, input.permissions) ?? [];
  const data = deps.db.transaction((tx) => {
    const me = standingOf(tx, actor.id, 'CREATE_ROLE');
    assertFree(tx, input.name);
    assertHoldsAll(me, permissionNamesOf(tx, ids));
    const created = tx.insert(role).values({ name: input.name, description: input.description }).returning().get();
    setRolePermissions(tx, created.id, ids);
    const v = view(tx, created);
    logActivity(tx, { actor, action: 'CREATE', entity: 'role', entityId: created.id, newValue: v });
    return v;
  });
  return { success: true as const, msg: MSG.roleAdded, data };
}

export function update(deps: Deps, actor: Principal, input: { id: string; name: string; description: string; permissions?: string[] | undefined }) {
  const ids = resolvePermissions(deps, input.permissions);
  const data = deps.db.transaction((tx) => {
    const me = standingOf(tx, actor.id, 'UPDATE_ROLE');
    const before = tx.select().from(role).where(eq(role.id, input.id)).get();
    if (!before) throw notFound('Role not found');
    // The server finds ADMIN and MEMBER by name: renamed, they would stop being what they are.
    if (input.name !== before.name && BUILT_IN_ROLES.includes(before.name)) throw conflict(MSG.roleBuiltIn);
    assertFree(tx, input.name, input.id);
    assertMayEdit(tx, me, before, ids);
    const oldValue = view(tx, before);
    const after = tx.update(role).set({ name: input.name, description: input.description }).where(eq(role.id, input.id)).returning().get();
    if (ids) setRolePermissions(tx, after.id, ids);
    const v = view(tx, after);
    logActivity(tx, { actor, action: 'UPDATE', entity: 'role', entityId: after.id, oldValue, newValue: v });
    return v;
  });
  return { success: true as const, msg: MSG.roleUpdated, data };
}

/**
 * PUT /role/updatePermissionCollection. People already holding the role keep their own
 * permission sets: a role is the template copied when it is assigned (spec §4 Person save).
 */
export function setPermissions(deps: Deps, actor: Principal, input: { id: string; permissions: string[] }) {
  const ids = resolvePermissions(deps, input.permissions) ?? [];
  const data = deps.db.transaction((tx) => {
    const me = standingOf(tx, actor.id, 'UPDATE_ROLE');
    const before = tx.select().from(role).where(eq(role.id, input.id)).get();
    if (!before) throw notFound('Role not found');
    assertMayEdit(tx, me, before, ids);
    const oldValue = view(tx, before);
    setRolePermissions(tx, before.id, ids);
    const v = view(tx, before);
    logActivity(tx, { actor, action: 'UPDATE', entity: 'role', entityId: before.id, oldValue, newValue: v });
    return v;
  });
  return { success: true as const, msg: MSG.rolePermissionsUpdated, data };
}

/**
 * DELETE /role/:id. ADMIN and MEMBER stay (the server needs them by name). A role held by anyone
 * stays too: the delete is one statement conditional on nobody holding it, in the transaction,
 * so a person given the role at the same moment never points at a deleted role.
 */
export function remove(deps: Deps, actor: Principal, id: string) {
  deps.db.transaction((tx) => {
    standingOf(tx, actor.id, 'DELETE_ROLE');
    const before = tx.select().from(role).where(eq(role.id, id)).get();
    if (!before) throw notFound('Role not found');
    if (BUILT_IN_ROLES.includes(before.name)) throw conflict(MSG.roleBuiltIn);
    const oldValue = view(tx, before);
    const deleted = tx
      .delete(role)
      .where(and(eq(role.id, id), notExists(tx.select({ id: person.id }).from(person).where(eq(person.roleId, id)))))
      .returning({ id: role.id })
      .get();
    if (!deleted) throw conflict(MSG.roleInUse);
    logActivity(tx, { actor, action: 'DELETE', entity: 'role', entityId: id, oldValue });
  });
  return { success: true as const, msg: MSG.roleDeleted };
}
