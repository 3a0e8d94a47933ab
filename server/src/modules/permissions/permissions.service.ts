import { eq } from 'drizzle-orm';
import { MSG } from '../../../../sync-protocol/src/messages';
import { PERMISSIONS } from '../../../../sync-protocol/src/permission';
import type { Deps, Principal } from '../../context';
import { permission } from '../../db/schema';
import { logActivity } from '../../lib/activity';
import { conflict, notFound } from '../../lib/errors';

export function list(deps: Deps) {
  return { success: true as const, data: deps.db.select({ id: permission.id, permission: permission.permission, description: permission.description }).from(permission).orderBy(permission.permission).all() };
}

/** The server checks these names (access.ts); renaming or deleting one would lock everyone out. */
function assertNotBuiltIn(name: string) {
  if (Object.hasOwn(PERMISSIONS, name)) throw conflict(MSG.permissionBuiltIn);
}

function assertFree(deps: Deps, name: string, exceptId?: string) {
  const other = deps.db.select().from(permission).where(eq(permission.permission, name)).get();
  if (other && other.id !== exceptId) throw conflict(MSG.permissionExists);
}

export function create(deps: Deps, actor: Principal, input: { permission: string; description: string }) {
  assertFree(deps, input.permission);
  const row = deps.db.transaction((tx) => {
    const created = tx.insert(permission).values(input).returning().get();
    logActivity(tx, { actor, action: 'CREATE', entity: 'permission', entityId: created.id, newValue: created });
    return created;
  });
  return { success: true as const, msg: `${row.permission} ${MSG.permissionCreated}`, data: row };
}

export function update(deps: Deps, actor: Principal, input: { id: string; permission: string; description: string }) {
  const before = deps.db.select().from(permission).where(eq(permission.id, input.id)).get();
  if (!before) throw notFound('Permission not found');
  if (before.permission !== input.permission) assertNotBuiltIn(before.permission);
  assertFree(deps, input.permission, input.id);
  const row = deps.db.transaction((tx) => {
    const after = tx
      .update(permission)
      .set({ permission: input.permission, description: input.description })
      .where(eq(permission.id, input.id))
      .returning()
      .get();
    logActivity(tx, { actor, action: 'UPDATE', entity: 'permission', entityId: after.id, oldValue: before, newValue: after });
    return after;
  });
  return { success: true as const, msg: `${row.permission} ${MSG.permissionUpdated}`, data: row };
}

/** Deleting a permission takes it from every role and person (foreign keys cascade). */
export function remove(deps: Deps, actor: Principal, id: string) {
  const before = deps.db.select().from(permission).where(eq(permission.id, id)).get();
  if (!before) throw notFound('Permission not found');
  assertNotBuiltIn(before.permission);
  deps.db.transaction((tx) => {
    tx.delete(permission).where(eq(permission.id, id)).run();
    logActivity(tx, { actor, action: 'DELETE', entity: 'permission', entityId: id, oldValue: before });
  });
  return { success: true as const, msg: MSG.permissionDeleted };
}
