import { eq, inArray, sql } from 'drizzle-orm';
import { MSG } from '@pm/protocol/messages';
import type { PersonView } from '@pm/protocol/person';
import type { Conn } from '../../db/client';
import { permission, person, personPermission, role, rolePermission } from '../../db/schema';
import { takeTurns } from '../../db/dialect';
import { first, row } from '../../db/transaction';
import { badRequest, conflict } from '../../lib/errors';
import { personMoney } from '../../lib/ledger';
import { teamCounts } from './team';

export type PersonRow = typeof person.$inferSelect;

/** Permission names a person holds (sorted). */
export async function permissionsOf(db: Conn, personId: string): Promise<string[]> {
  const rows = await db
    .select({ p: permission.permission })
    .from(personPermission)
    .innerJoin(permission, eq(permission.id, personPermission.permissionId))
    .where(eq(personPermission.personId, personId))
    .orderBy(permission.permission);
  return rows.map((r) => r.p);
}

export async function roleOf(db: Conn, roleId: string | null): Promise<{ id: string; name: string } | null> {
  if (!roleId) return null;
  return (await first(db.select({ id: role.id, name: role.name }).from(role).where(eq(role.id, roleId)))) ?? null;
}

/** Finds a role by id or by (case-insensitive) name. */
export async function findRole(db: Conn, idOrName: string) {
  return (
    (await first(db.select().from(role).where(eq(role.id, idOrName)))) ??
    (await first(db.select().from(role).where(eq(role.name, idOrName.toUpperCase()))))
  );
}

/** Ids of the permissions with these names; throws the missing name back. */
export async function permissionIds(db: Conn, names: string[]): Promise<{ ids: string[]; missing: string[] }> {
  if (names.length === 0) return { ids: [], missing: [] };
  const rows = await db.select().from(permission).where(inArray(permission.permission, names));
  const found = new Set(rows.map((r) => r.permission));
  return { ids: rows.map((r) => r.id), missing: names.filter((n) => !found.has(n)) };
}

/** Replaces a person's permissions with the given ids. */
export async function setPersonPermissions(db: Conn, personId: string, ids: string[]): Promise<void> {
  await db.delete(personPermission).where(eq(personPermission.personId, personId));
  if (ids.length) await db.insert(personPermission).values(ids.map((permissionId) => ({ personId, permissionId })));
}

/** Copies a role's permissions onto a person (docs/api.md). */
export async function copyRolePermissions(db: Conn, personId: string, roleId: string): Promise<void> {
  const rows = await db.select({ id: rolePermission.permissionId }).from(rolePermission).where(eq(rolePermission.roleId, roleId));
  await setPersonPermissions(
    db,
    personId,
    rows.map((r) => r.id),
  );
}

/** How many referrers above a person GET /Person shows (the walk stops there too). */
export const UPLINE_LIMIT = 100;

/**
 * The referrer chain above a person, nearest first, each person once: the walk stops at the top,
 * at UPLINE_LIMIT, or where older data loops back to someone already listed (docs/security.md "Referrals and names").
 */
export async function uplines(db: Conn, personId: string): Promise<{ id: string; name: string }[]> {
  const out: { id: string; name: string }[] = [];
  const seen = new Set([personId]);
  let next = (await first(db.select({ p: person.parentId }).from(person).where(eq(person.id, personId))))?.p ?? null;
  while (next !== null && !seen.has(next) && out.length < UPLINE_LIMIT) {
    const above = await first(db.select({ id: person.id, name: person.name, p: person.parentId }).from(person).where(eq(person.id, next)));
    if (!above) break;
    out.push({ id: above.id, name: above.name });
    seen.add(above.id);
    next = above.p;
  }
  return out;
}

/** The turns of the changes of referrers (db/dialect.ts takeTurns). */
const REFERRAL_TREE = 'referral-tree';

/** Whether `ancestorId` is `personId` or above them in the referral tree (ends over cycles, see teamSize). */
async function isSelfOrAbove(db: Conn, ancestorId: string, personId: string): Promise<boolean> {
  const r = await row<{ found: number }>(
    db,
    sql`
      with recursive up(id) as (
        select cast(${personId} as text)
        union select p.parent_id from person p join up u on p.id = u.id where p.parent_id is not null
      ) select count(*) as found from up where id = ${ancestorId}`,
  );
  return (r?.found ?? 0) > 0;
}

/**
 * The referrer rules (docs/security.md "Referrals and names") for a signup, an account made on someone's behalf, an admin's
 * create, or an admin's change of a person's referrer: the referrer exists and is ACTIVE, and,
 * when `childId` is an existing person, is neither that person nor anyone in their team (which
 * would close a loop). A BLOCKED or INACTIVE referrer answers like an unknown one: the public
 * signup must not tell anyone the status of an account. Call it inside the transaction that
 * writes `parent_id`, so that two parallel changes cannot close a loop between them.
 */
export async function assertReferrerAllowed(db: Conn, referrerId: string, childId?: string): Promise<void> {
  if (childId !== undefined && referrerId === childId) throw badRequest(MSG.ownReferrer);
  const row = await first(db.select({ status: person.status }).from(person).where(eq(person.id, referrerId)));
  if (!row || row.status !== 'ACTIVE') throw badRequest(MSG.referrerNotFound);
  if (childId === undefined) return;
  // Changes of the tree take turns from here to their commit: each then sees the other's link.
  await takeTurns(db, REFERRAL_TREE);
  if (await isSelfOrAbove(db, childId, referrerId)) throw badRequest(MSG.referralCycle);
}

/**
 * The spec's orbit, amount for the next level and donation quota, always neutral: no money,
 * credit, level or quota may depend on people joining below someone (docs/charity.md "The
 * referral team": money-circulation schemes are banned in India). The person's old columns of
 * them are never read.
 */
export const NEUTRAL_TEAM_FIGURES = { curr_orbit: 0, amountForNextLevel: 0, dq: 0 } as const;

/** The API view of a person (its short names: docs/glossary.md "People"); never includes the password hash. */
export async function toView(db: Conn, row: PersonRow, opts: { tree?: boolean } = {}): Promise<PersonView> {
  // Money figures are sums over the ledger, never the person's own columns (docs/charity.md "The ledger").
  const money = (await personMoney(db, [row.id])).get(row.id)!;
  const team = opts.tree ? await teamCounts(db, row.id) : { team: 0, direct: 0 };
  return {
    id: row.id,
    n: row.name,
    m: row.mobile,
    mv: row.mobileVerified,
    e: row.email,
    ev: row.emailVerified,
    r: await roleOf(db, row.roleId),
    s: row.status,
    p: row.parentId,
    permissions: (await permissionsOf(db, row.id)).map((p) => ({ permission: p })),
    paidAmount: money.paid / 100,
    aw: (money.collected - money.withdrawn) / 100,
    totalWithdrawn: money.withdrawn / 100,
    tac: money.collected / 100,
    // Counts of the referral team (team.ts), information only: nothing below depends on them.
    teamSize: team.team,
    directDownlines: team.direct,
    ...NEUTRAL_TEAM_FIGURES,
    aadharFront: row.aadharFront,
    aadharBack: row.aadharBack,
    pan: row.pan,
    pic: row.pic,
    taw: money.withdrawn / 100,
    iprr: row.iprr,
    co: row.co,
    createdAt: row.createdAt,
  };
}

/** The activity-log form of a person: the stored row less its secrets, plus permissions. */
export async function auditView(db: Conn, row: PersonRow) {
  const { passwordHash: _h, tokenVersion: _t, permissionNames: _p, ...rest } = row;
  return { ...rest, permissions: await permissionsOf(db, row.id) };
}

export async function findByMobileOrEmail(db: Conn, key: { mobile: string } | { email: string }) {
  return 'mobile' in key
    ? await first(db.select().from(person).where(eq(person.mobile, key.mobile)))
    : await first(db.select().from(person).where(eq(person.email, key.email)));
}

/** Through `db`: the database, or the handle of the transaction that writes. */
/**
 * Refuses (409) a mobile or e-mail another person holds. */
export async function assertUnique(db: Conn, mobile: string, email: string | null, exceptId?: string) {
  // In the transaction that writes: writes of the same mobile or e-mail take turns until their
  // commit, so that the second sees the first and answers 409 (never the unique index's error).
  await takeTurns(db, `identity:${mobile}`);
  if (email) await takeTurns(db, `identity:${email}`);
  const byMobile = await findByMobileOrEmail(db, { mobile });
  if (byMobile && byMobile.id !== exceptId) throw conflict(MSG.mobileTaken);
  if (email) {
    const byEmail = await findByMobileOrEmail(db, { email });
    if (byEmail && byEmail.id !== exceptId) throw conflict(MSG.emailTaken);
  }
}
