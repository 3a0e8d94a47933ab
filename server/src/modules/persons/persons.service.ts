import { and, count, eq, ne, or, sql } from 'drizzle-orm';
import { MSG } from '@pm/protocol/messages';
import type { TeamPage } from '@pm/protocol/person';
import { DEFAULT_ROLE } from '@pm/protocol/role';
import type { Deps, Principal } from '../../context';
import type { Conn } from '../../db/client';
import { person } from '../../db/schema';
import { containsText } from '../../db/dialect';
import { first, transaction } from '../../db/transaction';
import { logActivity } from '../../lib/activity';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors';
import { generatePassword, hashPassword } from '../../lib/passwords';
import { endSessionsOf } from '../../lib/sessions';
import {
  assertReferrerAllowed,
  assertUnique,
  auditView,
  copyRolePermissions,
  findByMobileOrEmail,
  findRole,
  permissionIds,
  type PersonRow,
  permissionsOf,
  setPersonPermissions,
  toView,
  uplines,
} from './persons.repo';
import {
  assertActiveAdminRemains,
  assertHoldsAll,
  assertMayGiveRole,
  assertMayManage,
  rolePermissionNames,
  standingOf,
} from './privileges';
import { maskName, referrerHandle } from './referrer';
import { teamCounts, teamPage } from './team';

function searchWhere(db: Conn, q: string) {
  if (!q) return undefined;
  return or(containsText(db, person.name, q), containsText(db, person.mobile, q), containsText(db, person.email, q));
}

/** GET /Person — the signed-in person, with the referral tree around them. */
export async function me(deps: Deps, actor: Principal) {
  const row = await first(deps.db.select().from(person).where(eq(person.id, actor.id)));
  if (!row) throw notFound('Person not found');
  return {
    success: true as const,
    data: {
      ...(await toView(deps.db, row, { tree: true })),
      uplines: await uplines(deps.db, row.id),
      // The address waiting for its code (docs/api.md "Profile"); the person's own, shown only to them.
      pendingEmail: row.pendingEmail,
      termsVersion: row.termsVersion,
      termsAcceptedAt: row.termsAcceptedAt,
    },
  };
}

/** GET /Person/:id (admin detail view). */
export async function getOne(deps: Deps, id: string) {
  const row = await first(deps.db.select().from(person).where(eq(person.id, id)));
  if (!row) throw notFound('Person not found');
  return { success: true as const, data: { ...(await toView(deps.db, row, { tree: true })), uplines: await uplines(deps.db, row.id) } };
}

/** GET /Person/get — search by name, mobile or e-mail; page size 30 (docs/glossary.md "Fixed values"). */
export async function search(deps: Deps, input: { strQuery: string; limit: number; offset: number }) {
  const where = searchWhere(deps.db, input.strQuery);
  const rows = await deps.db.select().from(person).where(where).orderBy(person.name, person.id).limit(input.limit).offset(input.offset);
  const total = (await first(deps.db.select({ n: count() }).from(person).where(where)))?.n ?? 0;
  return { success: true as const, data: await viewsOf(deps, rows), count: total };
}

/** The API views of rows, one after another (as they were read). */
async function viewsOf(deps: Deps, rows: PersonRow[]) {
  const out = [];
  for (const r of rows) out.push(await toView(deps.db, r));
  return out;
}

/**
 * GET /Person/getReferrer — exact match by mobile, for the public signup form: a masked name and an
 * opaque handle for the signup's `p`, nothing else (docs/security.md "Referrals and names", see referrer.ts). Only ACTIVE
 * people may refer, so no one else is found.
 */
export async function referrer(deps: Deps, mobile: string) {
  const row = await findByMobileOrEmail(deps.db, { mobile });
  return {
    success: true as const,
    data: row && row.status === 'ACTIVE' ? [{ id: referrerHandle(deps.config.jwtSecret, row), n: maskName(row.name) }] : [],
  };
}

/**
 * GET /person/team — the signed-in person's own referral team, paged and searchable, mobiles
 * masked; information only (docs/charity.md "The referral team"). No id is taken: nobody reads
 * another person's team here.
 */
export async function myTeam(deps: Deps, actor: Principal, input: { q: string; page: number; size: number }): Promise<TeamPage> {
  const { members, total } = await teamPage(deps.db, actor.id, input);
  const counts = await teamCounts(deps.db, actor.id);
  return { success: true, data: members, total, team: counts.team, direct: counts.direct, size: input.size };
}

/** Customers are the people holding the MEMBER role (the learners). */
async function customerWhere(deps: Deps, q: string) {
  const member = await findRole(deps.db, DEFAULT_ROLE);
  return and(eq(person.roleId, member?.id ?? ''), searchWhere(deps.db, q));
}

export async function queryCustomers(deps: Deps, input: { q: string; l: number; o: number }) {
  const rows = await deps.db
    .select()
    .from(person)
    .where(await customerWhere(deps, input.q))
    // The id breaks ties between people created in the same millisecond, so pages neither overlap nor skip.
    .orderBy(person.createdAt, person.id)
    .limit(input.l)
    .offset(input.o);
  return { success: true as const, data: await viewsOf(deps, rows) };
}

export async function totalCustomers(deps: Deps) {
  const row = await first(deps.db.select({ n: count() }).from(person).where(await customerWhere(deps, '')));
  return { success: true as const, count: row?.n ?? 0 };
}

async function resolveRole(deps: Deps, r: string | undefined) {
  const found = await findRole(deps.db, r ?? DEFAULT_ROLE);
  if (!found) throw badRequest('Role not found');
  return found;
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const set = new Set(a);
  return set.size === new Set(b).size && b.every((x) => set.has(x));
}

/**
 * POST /Person (admin): the role's permissions are copied to the new person. The role must be one
 * the actor could give (privileges.ts rules 2 and 3), the referrer ACTIVE.
 */
export async function create(
  deps: Deps,
  actor: Principal,
  input: { n: string; m: string; e: string | null; password?: string | undefined; r?: string | undefined; s?: string | undefined; p?: string | null | undefined },
) {
  const check = async (db: Conn) => {
    const me = await standingOf(db, actor.id, 'CREATE_PERSON');
    const found = await findRole(db, input.r ?? DEFAULT_ROLE);
    if (!found) throw badRequest('Role not found');
    await assertMayGiveRole(db, me, found);
    if (input.p) await assertReferrerAllowed(db, input.p);
    await assertUnique(db, input.m, input.e);
    return found;
  };
  // Once before the slow hash, to refuse early; again in the transaction, which decides (the
  // role may have been deleted, the actor demoted, the referrer blocked during the hash).
  await check(deps.db);
  const passwordHash = await hashPassword(input.password ?? generatePassword());
  const row = await transaction(deps.db, async (tx) => {
    const roleRow = await check(tx);
    const created = (await first(
      tx
        .insert(person)
        .values({
          name: input.n,
          mobile: input.m,
          email: input.e,
          roleId: roleRow.id,
          status: input.s ?? 'ACTIVE',
          parentId: input.p ?? null,
          passwordHash,
          // Without a password given, the person must set one through the reset-code flow.
          iprr: input.password ? 0 : 1,
        })
        .returning(),
    ))!;
    await copyRolePermissions(tx, created.id, roleRow.id);
    await logActivity(tx, { actor, action: 'CREATE', entity: 'person', entityId: created.id, newValue: await auditView(tx, created) });
    return created;
  });
  return { success: true as const, id: row.id, msg: `${row.name} ${MSG.personCreated}`, data: await toView(deps.db, row) };
}

/**
 * PUT /Person (admin). A changed role copies its permissions; explicit `permissions` win. Every
 * rule of privileges.ts and the referrer rules are checked in the write's transaction.
 */
export async function update(
  deps: Deps,
  actor: Principal,
  input: {
    id: string;
    n?: string | undefined;
    m?: string | undefined;
    e?: string | null | undefined;
    r?: string | undefined;
    s?: string | undefined;
    p?: string | null | undefined;
    permissions?: string[] | undefined;
  },
) {
  const roleRow = input.r ? await resolveRole(deps, input.r) : undefined;
  let permIds: string[] | undefined;
  if (input.permissions) {
    const { ids, missing } = await permissionIds(deps.db, input.permissions);
    if (missing.length) throw badRequest(`Unknown permission: ${missing.join(', ')}`);
    permIds = ids;
  }
  const row = await transaction(deps.db, async (tx) => {
    const me = await standingOf(tx, actor.id, 'UPDATE_PERSON');
    const before = await first(tx.select().from(person).where(eq(person.id, input.id)));
    if (!before) throw notFound('Person not found');

    const oldPerms = await permissionsOf(tx, before.id);
    const roleChanges = roleRow !== undefined && roleRow.id !== before.roleId;
    const newPerms = input.permissions ?? (roleRow && roleChanges ? await rolePermissionNames(tx, roleRow.id) : oldPerms);
    const accessChanges = roleChanges || !sameSet(oldPerms, newPerms) || (input.s !== undefined && input.s !== before.status);
    if (before.id === me.id) {
      // Their own name, mobile, e-mail and referrer stay theirs to correct; their access does not.
      if (accessChanges) throw forbidden(MSG.ownAccessChange);
    } else {
      await assertMayManage(tx, me, before);
    }
    if (roleRow && roleChanges) await assertMayGiveRole(tx, me, roleRow);
    // Removed permissions are the target's, which assertMayManage found all held by the actor.
    assertHoldsAll(me, newPerms.filter((p) => !oldPerms.includes(p)));
    if (input.p && input.p !== before.parentId) await assertReferrerAllowed(tx, input.p, before.id);
    if (input.m !== undefined || input.e) await assertUnique(tx, input.m ?? before.mobile, input.e ?? null, before.id);

    const oldValue = await auditView(tx, before);
    const after = (await first(
      tx
        .update(person)
        .set({
          ...(input.n !== undefined && { name: input.n }),
          ...(input.m !== undefined && { mobile: input.m, mobileVerified: input.m === before.mobile && before.mobileVerified }),
          ...(input.e !== undefined && { email: input.e, emailVerified: input.e === before.email && before.emailVerified }),
          ...(input.s !== undefined && { status: input.s }),
          ...(input.p !== undefined && { parentId: input.p }),
          ...(roleRow && { roleId: roleRow.id }),
          // A status change away from ACTIVE must end the person's sessions.
          ...(input.s !== undefined && input.s !== before.status && { tokenVersion: sql`${person.tokenVersion} + 1` }),
          updatedAt: Date.now(),
        })
        .where(eq(person.id, input.id))
        .returning(),
    ))!;
    // The version bump voids the tokens; ending the sessions removes their push tokens too, and
    // unblocking later does not revive them (docs/security.md "Sessions and logout").
    if (input.s !== undefined && input.s !== before.status) await endSessionsOf(tx, after.id);
    if (roleRow && roleChanges) await copyRolePermissions(tx, after.id, roleRow.id);
    if (permIds) await setPersonPermissions(tx, after.id, permIds);
    if (accessChanges) await assertActiveAdminRemains(tx);
    await logActivity(tx, { actor, action: 'UPDATE', entity: 'person', entityId: after.id, oldValue, newValue: await auditView(tx, after) });
    return after;
  });
  return { success: true as const, msg: `${row.name} ${MSG.personUpdated}`, data: await toView(deps.db, row) };
}

/** PATCH /Person/updatePermissionCollection: replaces a person's permissions (privileges.ts rules 1–3). */
export async function setPermissions(deps: Deps, actor: Principal, input: { id: string; permissions: string[] }) {
  const { ids, missing } = await permissionIds(deps.db, input.permissions);
  if (missing.length) throw badRequest(`Unknown permission: ${missing.join(', ')}`);
  const before = await transaction(deps.db, async (tx) => {
    const me = await standingOf(tx, actor.id, 'UPDATE_PERSON');
    const target = await first(tx.select().from(person).where(eq(person.id, input.id)));
    if (!target) throw notFound('Person not found');
    const oldPerms = await permissionsOf(tx, target.id);
    if (target.id === me.id) {
      if (!sameSet(oldPerms, input.permissions)) throw forbidden(MSG.ownAccessChange);
    } else {
      await assertMayManage(tx, me, target);
    }
    assertHoldsAll(me, input.permissions.filter((p) => !oldPerms.includes(p)));
    const oldValue = await auditView(tx, target);
    await setPersonPermissions(tx, target.id, ids);
    await logActivity(tx, { actor, action: 'UPDATE', entity: 'person', entityId: target.id, oldValue, newValue: await auditView(tx, target) });
    return target;
  });
  return { success: true as const, msg: `${before.name} ${MSG.personUpdated}`, data: await toView(deps.db, before) };
}

/**
 * DELETE /Person/:id. The referral tree closes over the gap (children move to the grandparent);
 * a child that is the grandparent itself (a loop left by older data) is detached instead of
 * becoming its own referrer.
 */
export async function remove(deps: Deps, actor: Principal, id: string) {
  if (id === actor.id) throw conflict(MSG.cannotDeleteSelf);
  await transaction(deps.db, async (tx) => {
    const me = await standingOf(tx, actor.id, 'DELETE_PERSON');
    const before = await first(tx.select().from(person).where(eq(person.id, id)));
    if (!before) throw notFound('Person not found');
    await assertMayManage(tx, me, before);
    const oldValue = await auditView(tx, before);
    const grandparent = before.parentId;
    await tx
      .update(person)
      .set({ parentId: grandparent })
      .where(grandparent ? and(eq(person.parentId, id), ne(person.id, grandparent)) : eq(person.parentId, id));
    await tx.delete(person).where(eq(person.id, id));
    await assertActiveAdminRemains(tx);
    await logActivity(tx, { actor, action: 'DELETE', entity: 'person', entityId: id, oldValue });
  });
  return { success: true as const, msg: MSG.personDeleted };
}
