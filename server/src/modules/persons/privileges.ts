import { and, count, eq } from 'drizzle-orm';
import { MSG } from '@pm/protocol/messages';
import type { PermissionName } from '@pm/protocol/permission';
import { ADMIN_ROLE } from '@pm/protocol/role';
import type { Conn } from '../../db/client';
import { permission, person, role, rolePermission } from '../../db/schema';
import { takeTurns } from '../../db/dialect';
import { first } from '../../db/transaction';
import { conflict, forbidden, notFound } from '../../lib/errors';
import { permissionsOf, type PersonRow } from './persons.repo';

/*
 * Who may change whom (docs/security.md "People, roles and permissions"). The rules, each checked inside the transaction that writes,
 * against what the database holds at that moment, never against the request's principal (read
 * before the body was parsed and the password hashed; a parallel request may have demoted or
 * blocked the actor since):
 * 1. Nobody changes their own role, permissions or status, nor resets their own password through
 *    the admin route.
 * 2. Nobody grants what they do not hold: every permission added to a person or a role, and every
 *    permission of a role given to a person, is one the actor holds.
 * 3. Nobody manages a person who holds a permission the actor lacks (a password reset is a
 *    takeover of every permission of the target), and only an ADMIN manages an ADMIN, gives or
 *    takes the ADMIN role, or edits that role.
 * 4. At least one ACTIVE person holds the ADMIN role after every write.
 */

/** The turns of the writes of people, roles and permissions (db/dialect.ts takeTurns). */
const PRIVILEGES = 'privileges';

/** The acting person as the database has them inside the write's transaction. */
export type Standing = { id: string; name: string; isAdmin: boolean; permissions: ReadonlySet<string> };

export async function isAdminRole(db: Conn, roleId: string | null): Promise<boolean> {
  if (!roleId) return false;
  return (await first(db.select({ name: role.name }).from(role).where(eq(role.id, roleId))))?.name === ADMIN_ROLE;
}

/**
 * The actor's standing now: ACTIVE and still holding `needs`, the permission of the route (the
 * access table checked it when the request began; a parallel request may have taken it since).
 */
export async function standingOf(db: Conn, actorId: string, needs: PermissionName): Promise<Standing> {
  // Writes that change who may do what take turns from here to their commit, so that each checks
  // these rules against the others' outcome (PostgreSQL; SQLite runs one transaction at a time).
  await takeTurns(db, PRIVILEGES);
  const row = await first(
    db.select({ id: person.id, name: person.name, status: person.status, roleId: person.roleId }).from(person).where(eq(person.id, actorId)),
  );
  if (!row || row.status !== 'ACTIVE') throw forbidden(MSG.permissionDenied);
  const permissions = new Set(await permissionsOf(db, row.id));
  if (!permissions.has(needs)) throw forbidden(MSG.permissionDenied);
  return { id: row.id, name: row.name, isAdmin: await isAdminRole(db, row.roleId), permissions };
}

/** Rule 2: every name is one the actor holds. */
export function assertHoldsAll(me: Standing, names: Iterable<string>): void {
  for (const n of names) if (!me.permissions.has(n)) throw forbidden(MSG.permissionNotHeld);
}

/** Rule 3: the actor may change, block, delete or reset the password of `target`. */
export async function assertMayManage(db: Conn, me: Standing, target: PersonRow): Promise<void> {
  if ((await isAdminRole(db, target.roleId)) && !me.isAdmin) throw forbidden(MSG.adminOnly);
  if ((await permissionsOf(db, target.id)).some((p) => !me.permissions.has(p))) throw forbidden(MSG.personOutranks);
}

/** The permission names of a role's template. */
export async function rolePermissionNames(db: Conn, roleId: string): Promise<string[]> {
  const rows = await db
    .select({ p: permission.permission })
    .from(rolePermission)
    .innerJoin(permission, eq(permission.id, rolePermission.permissionId))
    .where(eq(rolePermission.roleId, roleId));
  return rows.map((r) => r.p);
}

/** Rules 2 and 3 for giving a role to a person: the ADMIN role only by an ADMIN, any role only within the actor's permissions. */
export async function assertMayGiveRole(db: Conn, me: Standing, r: { id: string; name: string }): Promise<void> {
  if (r.name === ADMIN_ROLE && !me.isAdmin) throw forbidden(MSG.adminOnly);
  assertHoldsAll(me, await rolePermissionNames(db, r.id));
}

/**
 * Rule 4, checked after the write and before the commit: throwing rolls the write back. The
 * rules above already stop every path to zero admins that is known (an actor must be an active
 * ADMIN to touch one, and never themselves); this is the invariant itself, so that a path
 * added later cannot break it unnoticed.
 */
export async function assertActiveAdminRemains(db: Conn): Promise<void> {
  const row = await first(
    db
      .select({ n: count() })
      .from(person)
      .innerJoin(role, eq(role.id, person.roleId))
      .where(and(eq(role.name, ADMIN_ROLE), eq(person.status, 'ACTIVE'))),
  );
  const n = row?.n ?? 0;
  if (n === 0) throw conflict(MSG.lastAdmin);
}

/**
 * PUT /UserLogin/resetUserPasswordByAdmin (auth.service `adminReset`): rules 1 and 3. Returns true
 * so that it can be the `beforeWrite` of the password write.
 */
export async function assertMayResetPassword(db: Conn, actorId: string, targetId: string): Promise<true> {
  const me = await standingOf(db, actorId, 'UPDATE_PERSON');
  if (targetId === me.id) throw forbidden(MSG.ownPasswordByProfile);
  const target = await first(db.select().from(person).where(eq(person.id, targetId)));
  if (!target) throw notFound('Person not found');
  await assertMayManage(db, me, target);
  return true;
}
