import { and, desc, eq, gt, inArray, isNull, lt, ne, not, sql } from 'drizzle-orm';
import type { AnySQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { Conn, DB } from '../db/client';
import { lockRows, prepared } from '../db/dialect';
import { person, pushSubscription, session } from '../db/schema';
import { first, transaction } from '../db/transaction';
import { signToken, type VerifiedClaims } from './jwt';

/*
 * Sessions and token lifetime (issue 16 §4).
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
 */
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
export const TOKEN_TTL_MS = 30 * DAY;
export const SESSION_MAX_MS = 180 * DAY;
export const RENEW_AFTER_MS = DAY;
export const TOUCH_EVERY_MS = HOUR;
export const MAX_LIVE_SESSIONS = 20;

export type SessionRow = typeof session.$inferSelect;
type TokenOwner = { id: string; tokenVersion: number };

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

/** Revokes the given sessions and removes the push subscriptions they registered. */
async function revoke(tx: Conn, ids: string[], now: number): Promise<void> {
  if (ids.length === 0) return;
  await tx.delete(pushSubscription).where(inArray(pushSubscription.sessionId, ids));
  await tx.update(session).set({ revokedAt: now }).where(and(inArray(session.id, ids), isNull(session.revokedAt)));
}

/**
 * Starts a session for a person, inside the caller's transaction. The person's dead sessions are
 * deleted on the way (with their push subscriptions first, whatever the foreign key does), and
 * live sessions beyond MAX_LIVE_SESSIONS are revoked, least recently seen first.
 */
export async function startSession(tx: Conn, personId: string, now = Date.now()): Promise<SessionRow> {
  // Sign-ins of one person take turns (the person's row, locked until the commit; SQLite runs one
  // transaction at a time), so that parallel ones never leave more than MAX_LIVE_SESSIONS live.
  await lockRows(tx, person, eq(person.id, personId));
  const gone = tx.select({ id: session.id }).from(session).where(dead(personId, now));
  await tx.delete(pushSubscription).where(inArray(pushSubscription.sessionId, gone));
  await tx.delete(session).where(dead(personId, now));
  const created = (await first(tx.insert(session).values({ personId, createdAt: now, lastSeenAt: now, expiresAt: now + SESSION_MAX_MS }).returning()))!;
  const others = await tx
    .select({ id: session.id })
    .from(session)
    .where(and(eq(session.personId, personId), isNull(session.revokedAt), ne(session.id, created.id)))
    .orderBy(desc(session.lastSeenAt), desc(session.createdAt));
  await revoke(
    tx,
    others.slice(MAX_LIVE_SESSIONS - 1).map((r) => r.id),
    now,
  );
  return created;
}

/** A token for a session: valid TOKEN_TTL_MS from now, never past the session's absolute end. */
export function sessionToken(secret: Uint8Array, owner: TokenOwner, s: Pick<SessionRow, 'id' | 'expiresAt'>, now = Date.now()): Promise<string> {
  return signToken(secret, { sub: owner.id, tv: owner.tokenVersion, sid: s.id }, { issuedAt: now, expiresAt: Math.min(now + TOKEN_TTL_MS, s.expiresAt) });
}

/** Starts a session and signs its first token (login, signup, OTP sign-in; benchmarks too). */
export async function openSession(db: DB, secret: Uint8Array, owner: TokenOwner, now = Date.now()): Promise<{ token: string; session: SessionRow }> {
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
