import { eq } from 'drizzle-orm';
import { MSG } from '@pm/protocol/messages';
import { PERMISSIONS } from '@pm/protocol/permission';
import type { Deps, Principal } from '../../context';
import type { Conn } from '../../db/client';
import { permission, personPermission } from '../../db/schema';
import { first, transaction } from '../../db/transaction';
import { logActivity } from '../../lib/activity';
import { conflict, notFound } from '../../lib/errors';
import { assertHoldsAll, standingOf } from '../persons/privileges';

export async function list(deps: Deps) {
  return {
    success: true as const,
    data: await deps.db.select({ id: permission.id, permission: permission.permission, description: permission.description }).from(permission).orderBy(permission.permission),
  };
}

/**
 * The server checks these names (access.ts): renaming or deleting one would lock everyone out, and
 * a name of this list is never made by an admin either (created or renamed into), so that a
 * permission nobody was granted cannot become one the server honours (docs/security.md "People, roles and permissions").
 */
function isBuiltIn(name: string) {
  return Object.hasOwn(PERMISSIONS, name);
}

async function assertFree(db: Conn, name: string, exceptId?: string) {
  const other = await first(db.select().from(permission).where(eq(permission.permission, name)));
  if (other && other.id !== exceptId) throw conflict(MSG.permissionExists);
}

/**
 * POST /permission. Its creator holds the new permission at once: nobody may grant what they do
 * not hold (persons/privileges.ts), and without this nobody would ever hold a new one to grant.
 */
export async function create(deps: Deps, actor: Principal, input: { permission: string; description: string }) {
  const row = await transaction(deps.db, async (tx) => {
    const me = await standingOf(tx, actor.id, 'CREATE_PERMISSION');
    await assertFree(tx, input.permission);
    if (isBuiltIn(input.permission)) throw conflict(MSG.permissionBuiltIn);
    const created = (await first(tx.insert(permission).values(input).returning()))!;
    await tx.insert(personPermission).values({ personId: me.id, permissionId: created.id });
    await logActivity(tx, { actor, action: 'CREATE', entity: 'permission', entityId: created.id, newValue: { ...created, grantedTo: me.id } });
    return created;
  });
  return { success: true as const, msg: `${row.permission} ${MSG.permissionCreated}`, data: row };
}

/**
 * PUT /permission. A rename changes what every holder holds, so only someone holding the
 * permission renames it; built-in names are neither renamed nor taken. The description alone
 * grants nothing and stays editable.
 */
export async function update(deps: Deps, actor: Principal, input: { id: string; permission: string; description: string }) {
  const result = await transaction(deps.db, async (tx) => {
    const me = await standingOf(tx, actor.id, 'UPDATE_PERMISSION');
    const before = await first(tx.select().from(permission).where(eq(permission.id, input.id)));
    if (!before) throw notFound('Permission not found');
    if (before.permission !== input.permission) {
      if (isBuiltIn(before.permission)) throw conflict(MSG.permissionBuiltIn);
      await assertFree(tx, input.permission, input.id);
      if (isBuiltIn(input.permission)) throw conflict(MSG.permissionBuiltIn);
      assertHoldsAll(me, [before.permission]);
    }
    const after = (await first(
      tx.update(permission).set({ permission: input.permission, description: input.description }).where(eq(permission.id, input.id)).returning(),
    ))!;
    await logActivity(tx, { actor, action: 'UPDATE', entity: 'permission', entityId: after.id, oldValue: before, newValue: after });
    return after;
  });
  return { success: true as const, msg: `${result.permission} ${MSG.permissionUpdated}`, data: result };
}

/**
 * Deleting a permission takes it from every role and person (foreign keys cascade), so only
 * someone holding it deletes it; built-in ones are never deleted.
 */
export async function remove(deps: Deps, actor: Principal, id: string) {
  await transaction(deps.db, async (tx) => {
    const me = await standingOf(tx, actor.id, 'DELETE_PERMISSION');
    const before = await first(tx.select().from(permission).where(eq(permission.id, id)));
    if (!before) throw notFound('Permission not found');
    if (isBuiltIn(before.permission)) throw conflict(MSG.permissionBuiltIn);
    assertHoldsAll(me, [before.permission]);
    await tx.delete(permission).where(eq(permission.id, id));
    await logActivity(tx, { actor, action: 'DELETE', entity: 'permission', entityId: id, oldValue: before });
  });
  return { success: true as const, msg: MSG.permissionDeleted };
}
