import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import { MSG } from '../../../../sync-protocol/src/messages';
import type { PersonView } from '../../../../sync-protocol/src/person';
import type { Conn } from '../../db/client';
import { permission, person, personPermission, role, rolePermission } from '../../db/schema';
import { badRequest } from '../../lib/errors';

export type PersonRow = typeof person.$inferSelect;

/** Permission names a person holds (sorted). */
export function permissionsOf(db: Conn, personId: string): string[] {
  return db
    .select({ p: permission.permission })
    .from(personPermission)
    .innerJoin(permission, eq(permission.id, personPermission.permissionId))
    .where(eq(personPermission.personId, personId))
    .orderBy(permission.permission)
    .all()
    .map((r) => r.p);
}

export function roleOf(db: Conn, roleId: string | null): { id: string; name: string } | null {
  if (!roleId) return null;
  return db.select({ id: role.id, name: role.name }).from(role).where(eq(role.id, roleId)).get() ?? null;
}

/** Finds a role by id or by (case-insensitive) name. */
export function findRole(db: Conn, idOrName: string) {
  return (
    db.select().from(role).where(eq(role.id, idOrName)).get() ??
    db.select().from(role).where(eq(role.name, idOrName.toUpperCase())).get()
  );
}

/** Ids of the permissions with these names; throws the missing name back. */
export function permissionIds(db: Conn, names: string[]): { ids: string[]; missing: string[] } {
  if (names.length === 0) return { ids: [], missing: [] };
  const rows = db.select().from(permission).where(inArray(permission.permission, names)).all();
  const found = new Set(rows.map((r) => r.permission));
  return { ids: rows.map((r) => r.id), missing: names.filter((n) => !found.has(n)) };
}

/** Replaces a person's permissions with the given ids. */
export function setPersonPermissions(db: Conn, personId: string, ids: string[]): void {
  db.delete(personPermission).where(eq(personPermission.personId, personId)).run();
  if (ids.length) db.insert(personPermission).values(ids.map((permissionId) => ({ personId, permissionId }))).run();
}

/** Copies a role's permissions onto a person (spec §4 Person save). */
export function copyRolePermissions(db: Conn, personId: string, roleId: string): void {
  const ids = db
    .select({ id: rolePermission.permissionId })
    .from(rolePermission)
    .where(eq(rolePermission.roleId, roleId))
    .all()
    .map((r) => r.id);
  setPersonPermissions(db, personId, ids);
}

/** People whose referrer is this person (a self-referral left by older data is not one). */
export function directDownlineCount(db: Conn, personId: string): number {
  return (
    db
      .select({ n: sql<number>`count(*)` })
      .from(person)
      .where(and(eq(person.parentId, personId), ne(person.id, personId)))
      .get()?.n ?? 0
  );
}

/**
 * Everyone below a person in the referral tree (recursive over `parent_id`), never the person
 * themself. UNION (not UNION ALL) drops rows already found, so the walk ends even over a cycle
 * that older data may hold (issue 16 §8).
 */
export function teamSize(db: Conn, personId: string): number {
  const r = db.get<{ n: number }>(sql`
    with recursive down(id) as (
      select id from person where parent_id = ${personId} and id <> ${personId}
      union select p.id from person p join down d on p.parent_id = d.id where p.id <> ${personId}
    ) select count(*) as n from down`);
  return r?.n ?? 0;
}

/** How many referrers above a person GET /Person shows (the walk stops there too). */
export const UPLINE_LIMIT = 100;

/**
 * The referrer chain above a person, nearest first, each person once: the walk stops at the top,
 * at UPLINE_LIMIT, or where older data loops back to someone already listed (issue 16 §8).
 */
export function uplines(db: Conn, personId: string): { id: string; name: string }[] {
  const out: { id: string; name: string }[] = [];
  const seen = new Set([personId]);
  let next = db.select({ p: person.parentId }).from(person).where(eq(person.id, personId)).get()?.p ?? null;
  while (next !== null && !seen.has(next) && out.length < UPLINE_LIMIT) {
    const row = db.select({ id: person.id, name: person.name, p: person.parentId }).from(person).where(eq(person.id, next)).get();
    if (!row) break;
    out.push({ id: row.id, name: row.name });
    seen.add(row.id);
    next = row.p;
  }
  return out;
}

/** Whether `ancestorId` is `personId` or above them in the referral tree (ends over cycles, see teamSize). */
function isSelfOrAbove(db: Conn, ancestorId: string, personId: string): boolean {
  const r = db.get<{ found: number }>(sql`
    with recursive up(id) as (
      select ${personId}
      union select p.parent_id from person p join up u on p.id = u.id where p.parent_id is not null
    ) select count(*) as found from up where id = ${ancestorId}`);
  return (r?.found ?? 0) > 0;
}

/**
 * The referrer rules (issue 16 §8) for a signup, an account made on someone's behalf, an admin's
 * create, or an admin's change of a person's referrer: the referrer exists and is ACTIVE, and,
 * when `childId` is an existing person, is neither that person nor anyone in their team (which
 * would close a loop). A BLOCKED or INACTIVE referrer answers like an unknown one: the public
 * signup must not tell anyone the status of an account. Call it inside the transaction that
 * writes `parent_id`, so that two parallel changes cannot close a loop between them.
 */
export function assertReferrerAllowed(db: Conn, referrerId: string, childId?: string): void {
  if (childId !== undefined && referrerId === childId) throw badRequest(MSG.ownReferrer);
  const row = db.select({ status: person.status }).from(person).where(eq(person.id, referrerId)).get();
  if (!row || row.status !== 'ACTIVE') throw badRequest(MSG.referrerNotFound);
  if (childId !== undefined && isSelfOrAbove(db, childId, referrerId)) throw badRequest(MSG.referralCycle);
}

/** The API view of a person (spec §3 short names); never includes the password hash. */
export function toView(db: Conn, row: PersonRow, opts: { tree?: boolean } = {}): PersonView {
  return {
    id: row.id,
    n: row.name,
    m: row.mobile,
    mv: row.mobileVerified,
    e: row.email,
    ev: row.emailVerified,
    r: roleOf(db, row.roleId),
    s: row.status,
    p: row.parentId,
    permissions: permissionsOf(db, row.id).map((p) => ({ permission: p })),
    paidAmount: row.paidAmount,
    aw: row.amountWithdrawable,
    totalWithdrawn: row.totalWithdrawn,
    tac: row.totalAmountCollected,
    teamSize: opts.tree ? teamSize(db, row.id) : 0,
    directDownlines: opts.tree ? directDownlineCount(db, row.id) : 0,
    curr_orbit: row.currentOrbit,
    aadharFront: row.aadharFront,
    aadharBack: row.aadharBack,
    pan: row.pan,
    pic: row.pic,
    amountForNextLevel: row.amountForNextLevel,
    dq: row.donationQuota,
    taw: row.totalAmountWithdrawable,
    iprr: row.iprr,
    co: row.co,
    createdAt: row.createdAt,
  };
}

/** The activity-log form of a person: the stored row less its secrets, plus permissions. */
export function auditView(db: Conn, row: PersonRow) {
  const { passwordHash: _h, tokenVersion: _t, permissionNames: _p, ...rest } = row;
  return { ...rest, permissions: permissionsOf(db, row.id) };
}

export function findByMobileOrEmail(db: Conn, key: { mobile: string } | { email: string }) {
  return 'mobile' in key
    ? db.select().from(person).where(eq(person.mobile, key.mobile)).get()
    : db.select().from(person).where(eq(person.email, key.email)).get();
}
