import { count, eq } from 'drizzle-orm';
import { MSG } from '../../../../sync-protocol/src/messages';
import type { Conn } from '../../db/client';
import type { Deps, Principal } from '../../context';
import { permission, person, role, rolePermission } from '../../db/schema';
import { logActivity } from '../../lib/activity';
import { badRequest, conflict, notFound } from '../../lib/errors';
import { permissionIds } from '../persons/persons.repo';

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

function assertFree(deps: Deps, name: string, exceptId?: string) {
  const other = deps.db.select().from(role).where(eq(role.name, name)).get();
  if (other && other.id !== exceptId) throw conflict(MSG.roleExists);
}

export function create(deps: Deps, actor: Principal, input: { name: string; description: string; permissions?: string[] | undefined }) {
  assertFree(deps, input.name);
  const ids = resolvePermissions(deps, input.permissions) ?? [];
  const data = deps.db.transaction((tx) => {
    const created = tx.insert(role).values({ name: input.name, description: input.description }).returning().get();
    setRolePermissions(tx, created.id, ids);
    const v = view(tx, created);
    logActivity(tx, { actor, action: 'CREATE', entity: 'role', entityId: created.id, newValue: v });
    return v;
  });
  return { success: true as const, msg: MSG.roleAdded, data };
}

export function update(deps: Deps, actor: Principal, input: { id: string; name: string; description: string; permissions?: string[] | undefined }) {
  const before = deps.db.select().from(role).where(eq(role.id, input.id)).get();
  if (!before) throw notFound('Role not found');
  assertFree(deps, input.name, input.id);
  const ids = resolvePermissions(deps, input.permissions);
  const data = deps.db.transaction((tx) => {
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
  const before = deps.db.select().from(role).where(eq(role.id, input.id)).get();
  if (!before) throw notFound('Role not found');
  const ids = resolvePermissions(deps, input.permissions) ?? [];
  const data = deps.db.transaction((tx) => {
    const oldValue = view(tx, before);
    setRolePermissions(tx, before.id, ids);
    const v = view(tx, before);
    logActivity(tx, { actor, action: 'UPDATE', entity: 'role', entityId: before.id, oldValue, newValue: v });
    return v;
  });
  return { success: true as const, msg: MSG.rolePermissionsUpdated, data };
}

export function remove(deps: Deps, actor: Principal, id: string) {
  const before = deps.db.select().from(role).where(eq(role.id, id)).get();
  if (!before) throw notFound('Role not found');
  const holders = deps.db.select({ n: count() }).from(person).where(eq(person.roleId, id)).get()?.n ?? 0;
  if (holders > 0) throw conflict(MSG.roleInUse);
  deps.db.transaction((tx) => {
    const oldValue = view(tx, before);
    tx.delete(role).where(eq(role.id, id)).run();
    logActivity(tx, { actor, action: 'DELETE', entity: 'role', entityId: id, oldValue });
  });
  return { success: true as const, msg: MSG.roleDeleted };
}
