import { and, desc, eq, gt, inArray, isNull, lt, ne, not, sql } from 'drizzle-orm';
import type { AnySQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { Conn, DB } from '../db/client';
import { lockRows, prepared } from '../db/dialect';
import { person, pushSubscription, session } from '../db/schema';
import { first, transaction } from '../db/transaction';
import { signToken, type VerifiedClaims, verifyToken, verifyTokenSignature } from './jwt';

/*
 * Sessions and token lifetime (docs/security.md "Sessions and logout").
 *
 * Every sign-in (login, signup, OTP sign-in) starts a session row; every token names it (`sid`),
 * and the row is read on every authenticated request, so revoking it ends all its tokens at once.
 *
 * - A token lives 30 days from its issue. That is the sliding idle limit: a device that has not
 *   talked to the server for 30 days signs in again. An offline-first learner can be away for
 *   weeks (holidays, no data pack) and must still upload the attempts they took meanwhile; a month
 *   covers that, and a copied token is not what the lifetime guards against — logout, "log out of
 *   all devices" and a password change revoke the session, whatever the token's expiry says.
 * - A session ends 180 days after sign-in whatever happens (absolute limit): no renewal goes past it.
 * - A token more than a day old is renewed: the response carries a fresh token for the same
 *   session (SESSION_TOKEN_HEADER), valid 30 days from now. Older tokens of the session keep
 *   working until their own expiry; refusing them would break every request already in flight
 *   from another tab or the replication when the new token arrives, and would buy nothing, as the
 *   session is the unit that is revoked.
 * - `last_seen_at` is written at most once an hour per session (a conditional UPDATE), not on every
 *   request: the check runs on every request and must stay a read.
 * - A person keeps at most MAX_LIVE_SESSIONS live sessions; a new sign-in beyond it ends the least
 *   recently seen, so that signing in in a loop cannot grow the table without bound.
 * - Whether a token is still its person's is decided in one place, tokenOwner below, for every
 *   route that reads one (middleware/auth.ts for the Authorization header, the answer file for
 *   the token inside it). A revoked session or a token version below the person's current one
 *   refuses the token everywhere (docs/security.md, "Sessions and logout").
 * - A session that ended by plain expiry (never revoked) is kept ENDED_SESSION_KEPT_MS after its
 *   end: it still vouches for answer files of attempts made before that end. A revoked one is
 *   deleted at the person's next sign-in; a token naming a session that is not there is refused.
 */
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
export const TOKEN_TTL_MS = 30 * DAY;
export const SESSION_MAX_MS = 180 * DAY;
export const RENEW_AFTER_MS = DAY;
export const TOUCH_EVERY_MS = HOUR;
export const MAX_LIVE_SESSIONS = 20;
/**
 * How long a session that ended by plain expiry is kept, and so how long after its token's
 * expiry an answer file made with it is still taken: a session's absolute limit, so a file is
 * good for at least six months after it was made and a token found years later opens nothing.
 * Bounded: each such session was one of the person's at most MAX_LIVE_SESSIONS live sessions for
 * the TOKEN_TTL_MS before it ended, so at most that many end in any TOKEN_TTL_MS.
 */
export const ENDED_SESSION_KEPT_MS = SESSION_MAX_MS;

export type SessionRow = typeof session.$inferSelect;
type Signer = { id: string; tokenVersion: number };

type SessionColumns = { revokedAt: AnySQLiteColumn; expiresAt: AnySQLiteColumn; lastSeenAt: AnySQLiteColumn };

/**
 * SQL: a token of this session (the table or an alias of it) can still be accepted: not revoked,
 * before its absolute end, and seen within a token's lifetime (a token expires at most
 * TOKEN_TTL_MS + TOUCH_EVERY_MS after `last_seen_at`, as renewals touch the row at most hourly).
 */
export function sessionLive(s: SessionColumns, now: number) {
  return and(isNull(s.revokedAt), gt(s.expiresAt, now), gt(s.lastSeenAt, now - TOKEN_TTL_MS - TOUCH_EVERY_MS));
}

function dead(personId: string, now: number) {
  return and(eq(session.personId, personId), not(sessionLive(session, now)!));
}

/** A session of the person that vouches for nothing any more: revoked, or ended long ago. */
function spent(personId: string, now: number) {
  return dead(personId, now - ENDED_SESSION_KEPT_MS);
}

/** Revokes the given sessions and removes the push subscriptions they registered. */
async function revoke(tx: Conn, ids: string[], now: number): Promise<void> {
  if (ids.length === 0) return;
  await tx.delete(pushSubscription).where(inArray(pushSubscription.sessionId, ids));
  await tx.update(session).set({ revokedAt: now }).where(and(inArray(session.id, ids), isNull(session.revokedAt)));
}

/**
 * Starts a session for a person, inside the caller's transaction. The push subscriptions of the
 * person's dead sessions are deleted on the way, and the sessions that vouch for nothing any more
 * (revoked, or ended more than ENDED_SESSION_KEPT_MS ago); live sessions beyond MAX_LIVE_SESSIONS
 * are revoked, least recently seen first.
 */
export async function startSession(tx: Conn, personId: string, now = Date.now()): Promise<SessionRow> {
  // Sign-ins of one person take turns (the person's row, locked until the commit; SQLite runs one
  // transaction at a time), so that parallel ones never leave more than MAX_LIVE_SESSIONS live.
  await lockRows(tx, person, eq(person.id, personId));
  const gone = tx.select({ id: session.id }).from(session).where(dead(personId, now));
  await tx.delete(pushSubscription).where(inArray(pushSubscription.sessionId, gone));
  await tx.delete(session).where(spent(personId, now));
  const created = (await first(tx.insert(session).values({ personId, createdAt: now, lastSeenAt: now, expiresAt: now + SESSION_MAX_MS }).returning()))!;
  const others = await tx
    .select({ id: session.id })
    .from(session)
    .where(and(eq(session.personId, personId), sessionLive(session, now), ne(session.id, created.id)))
    .orderBy(desc(session.lastSeenAt), desc(session.createdAt));
  await revoke(
    tx,
    others.slice(MAX_LIVE_SESSIONS - 1).map((r) => r.id),
    now,
  );
  return created;
}

/** A token for a session: valid TOKEN_TTL_MS from now, never past the session's absolute end. */
export function sessionToken(secret: Uint8Array, owner: Signer, s: Pick<SessionRow, 'id' | 'expiresAt'>, now = Date.now()): Promise<string> {
  return signToken(secret, { sub: owner.id, tv: owner.tokenVersion, sid: s.id }, { issuedAt: now, expiresAt: Math.min(now + TOKEN_TTL_MS, s.expiresAt) });
}

/** Starts a session and signs its first token (login, signup, OTP sign-in; benchmarks too). */
export async function openSession(db: DB, secret: Uint8Array, owner: Signer, now = Date.now()): Promise<{ token: string; session: SessionRow }> {
  const s = await transaction(db, (tx) => startSession(tx, owner.id, now));
  return { token: await sessionToken(secret, owner, s, now), session: s };
}

/** The session of `sessionId` if it is a live session of this person (password change keeps it). */
export async function liveSession(db: Conn, personId: string, sessionId: string, now = Date.now()): Promise<SessionRow | undefined> {
  const s = await first(
    db
      .select()
      .from(session)
      .where(and(eq(session.id, sessionId), eq(session.personId, personId))),
  );
  return s && s.revokedAt === null && s.expiresAt > now ? s : undefined;
}

/**
 * Logout: ends one session of a person. Its tokens stop working on their next request and the push
 * subscription it registered is removed, so the next person on the same phone can register it.
 */
export async function endSession(db: DB, personId: string, sessionId: string, now = Date.now()): Promise<void> {
  await transaction(db, async (tx) => {
    const own = await first(
      tx
        .select({ id: session.id })
        .from(session)
        .where(and(eq(session.id, sessionId), eq(session.personId, personId))),
    );
    if (own) await revoke(tx, [own.id], now);
  });
}

/**
 * Ends every session of a person but `except` (the one a password change was made in), inside the
 * caller's transaction, and removes the push subscriptions they registered. Log out of all
 * devices, password change and reset, admin reset, a status change.
 */
export async function endSessionsOf(tx: Conn, personId: string, opts: { except?: string } = {}, now = Date.now()): Promise<void> {
  const keep = opts.except;
  await tx.delete(pushSubscription).where(and(eq(pushSubscription.personId, personId), keep ? ne(pushSubscription.sessionId, keep) : undefined));
  await tx
    .update(session)
    .set({ revokedAt: now })
    .where(and(eq(session.personId, personId), isNull(session.revokedAt), keep ? ne(session.id, keep) : undefined));
}

/** Whether a presented token is old enough to be replaced, and the replacement would outlive it. */
export function renewalDue(claims: VerifiedClaims, s: Pick<SessionRow, 'expiresAt'>, now = Date.now()): boolean {
  return now - claims.iat * 1000 >= RENEW_AFTER_MS && Math.floor(Math.min(now + TOKEN_TTL_MS, s.expiresAt) / 1000) > claims.exp;
}

/** Prepared once per database: runs at most once an hour per session, from the request check. */
const touches = new WeakMap<DB, ReturnType<typeof prepareTouch>>();
function prepareTouch(db: DB) {
  // The condition makes concurrent requests of one session write once, and a late one a no-op.
  return prepared(
    db,
    db
      .update(session)
      .set({ lastSeenAt: sql`${sql.placeholder('now')}` })
      .where(and(eq(session.id, sql.placeholder('sid')), lt(session.lastSeenAt, sql.placeholder('before')))),
  );
}

/**
 * Records that a session was used, if its `last_seen_at` is more than TOUCH_EVERY_MS old. The
 * statement is prepared on `db`, so this runs outside a transaction (or pass its handle).
 */
export async function touchSession(db: DB, sessionId: string, now = Date.now()): Promise<void> {
  let q = touches.get(db);
  if (!q) {
    q = prepareTouch(db);
    touches.set(db, q);
  }
  await q.execute({ sid: sessionId, now, before: now - TOUCH_EVERY_MS });
}

/** The person and the session a token names, as tokenOwner reads them (one statement). */
export type TokenOwnerRow = {
  id: string;
  name: string;
  status: string;
  tokenVersion: number;
  /** person.permission_names: comma-joined. */
  permissions: string;
  revokedAt: number | null;
  expiresAt: number;
  lastSeenAt: number;
};

/** Why a token is not its person's (any of them is a 401 on a request). */
export type TokenRefusal =
  /** Not our signature, `alg: none`, another issuer, no session id; on a request, also expired. */
  | 'invalid'
  /** Expired longer ago than ENDED_SESSION_KEPT_MS (answer files only). */
  | 'too-old'
  /** The person is blocked or otherwise not active. */
  | 'inactive'
  /**
   * Ended by the person or for them: logout, log out of all devices, a password change or reset,
   * an admin reset, a status change (the session revoked, or deleted since, or the token's
   * version below the person's current one).
   */
  | 'revoked'
  /** The session is past its absolute end (requests only; a token never outlives it). */
  | 'ended';

export type TokenVerdict =
  | {
      ok: true;
      claims: VerifiedClaims;
      row: TokenOwnerRow;
      /**
       * When the session ended by plain expiry (ms, server clock), or null while it lives. A
       * token of a session that has ended vouches only for what was done before this time.
       */
      endedAt: number | null;
    }
  | { ok: false; why: TokenRefusal };

/**
 * Whether a token is still this person's: the one check of every route that reads a token
 * (docs/security.md, "Sessions and logout"). The signature, issuer, audience and session id are
 * checked (lib/jwt.ts), then the session and person rows are read in one statement: the session
 * must be the token's person's and not revoked, the token's version the person's current one,
 * the person active.
 *
 * A request (`expired` unset) also needs an unexpired token and a session before its absolute
 * end. `expired: true` is for the last-resort answer file, uploaded perhaps long after it was
 * made: an expired token is then taken, with `endedAt` saying when its session ended, provided
 * the session ended by plain expiry (never revoked) no more than ENDED_SESSION_KEPT_MS ago.
 */
export async function tokenOwner(db: DB, secret: Uint8Array, token: string, opts: { now?: number; expired?: boolean } = {}): Promise<TokenVerdict> {
  const now = opts.now ?? Date.now();
  const claims = opts.expired ? await verifyTokenSignature(secret, token) : await verifyToken(secret, token);
  if (!claims) return { ok: false, why: 'invalid' };
  if (claims.exp * 1000 < now - ENDED_SESSION_KEPT_MS) return { ok: false, why: 'too-old' };
  const row = await ownerQuery(db).get({ sid: claims.sid, id: claims.sub });
  // No session of this person by that id: a revoked one is deleted at the next sign-in.
  if (!row) return { ok: false, why: 'revoked' };
  if (row.status !== 'ACTIVE') return { ok: false, why: 'inactive' };
  if (row.revokedAt !== null || claims.tv < row.tokenVersion) return { ok: false, why: 'revoked' };
  // A version above the person's was never signed for them.
  if (claims.tv !== row.tokenVersion) return { ok: false, why: 'invalid' };
  if (!opts.expired) return row.expiresAt > now ? { ok: true, claims, row, endedAt: null } : { ok: false, why: 'ended' };
  // The latest any token of the session could expire: renewals touch last_seen_at at most hourly.
  const end = Math.min(row.expiresAt, row.lastSeenAt + TOKEN_TTL_MS + TOUCH_EVERY_MS);
  return { ok: true, claims, row, endedAt: end <= now ? end : null };
}

/** Prepared once per database: tokenOwner runs on every authenticated request. */
const ownerQueries = new WeakMap<DB, ReturnType<typeof prepareOwner>>();
function ownerQuery(db: DB) {
  let q = ownerQueries.get(db);
  if (!q) {
    q = prepareOwner(db);
    ownerQueries.set(db, q);
  }
  return q;
}
function prepareOwner(db: DB) {
  // Two primary-key reads in one statement: the session, and the person it belongs to (the join
  // also checks that the token's person owns the session). person.permission_names is kept by
  // triggers (migration 0002; on PostgreSQL migrations-pg 0002).
  return prepared(
    db,
    db
      .select({
        id: person.id,
        name: person.name,
        status: person.status,
        tokenVersion: person.tokenVersion,
        permissions: person.permissionNames,
        revokedAt: session.revokedAt,
        expiresAt: session.expiresAt,
        lastSeenAt: session.lastSeenAt,
      })
      .from(session)
      .innerJoin(person, eq(person.id, session.personId))
      .where(and(eq(session.id, sql.placeholder('sid')), eq(session.personId, sql.placeholder('id')))),
  );
}
