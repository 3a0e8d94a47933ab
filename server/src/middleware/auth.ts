import { and, eq, sql } from 'drizzle-orm';
import type { Context } from 'hono';
import { MSG } from '../../../sync-protocol/src/messages';
import { SESSION_TOKEN_HEADER } from '../../../sync-protocol/src/session';
import type { Access } from '../access';
import type { AppEnv, Deps, Principal } from '../context';
import type { DB } from '../db/client';
import { prepared as preparedQuery } from '../db/dialect';
import { person, session } from '../db/schema';
import { forbidden, unauthenticated } from '../lib/errors';
import { verifyToken } from '../lib/jwt';
import { renewalDue, sessionToken, TOUCH_EVERY_MS, touchSession } from '../lib/sessions';

/** A principal, and a fresh token for its session when the presented one is due for renewal. */
export type Resolved = { principal: Principal; renewed: string | null };

/**
 * Resolves a bearer token to a principal. The session and person rows are read on every request
 * (one statement), so that a logout, a password change, an admin reset, a status change or a
 * revoked permission takes effect at once (the token carries only the person id, the token
 * version and the session id). The session must be this person's, not revoked and not past its
 * absolute end; the token's own expiry is the sliding limit (lib/sessions.ts).
 */
export async function principalFromToken(deps: Deps, token: string, now = Date.now()): Promise<Resolved | null> {
  const claims = await verifyToken(deps.config.jwtSecret, token);
  if (!claims) return null;
  const row = await principalQuery(deps.db).get({ sid: claims.sid, id: claims.sub });
  if (!row || row.tokenVersion !== claims.tv || row.status !== 'ACTIVE') return null;
  if (row.revokedAt !== null || row.expiresAt <= now) return null;
  if (now - row.lastSeenAt >= TOUCH_EVERY_MS) await touchSession(deps.db, claims.sid, now);
  const renewed = renewalDue(claims, row, now)
    ? await sessionToken(deps.config.jwtSecret, { id: row.id, tokenVersion: row.tokenVersion }, { id: claims.sid, expiresAt: row.expiresAt }, now)
    : null;
  return {
    principal: {
      id: row.id,
      name: row.name,
      permissions: new Set(row.permissions ? row.permissions.split(',') : []),
      sessionId: claims.sid,
    },
    renewed,
  };
}

/** Prepared once per database: this runs on every authenticated request. */
const prepared = new WeakMap<DB, ReturnType<typeof preparePrincipal>>();
function principalQuery(db: DB) {
  let q = prepared.get(db);
  if (!q) {
    q = preparePrincipal(db);
    prepared.set(db, q);
  }
  return q;
}
function preparePrincipal(db: DB) {
  // Two primary-key reads in one statement: the session, and the person it belongs to (the join
  // also checks that the token's person owns the session). person.permission_names is kept by
  // triggers (migration 0002; on PostgreSQL migrations-pg 0002).
  return preparedQuery(
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

function bearer(header: string | undefined): string | null | undefined {
  if (!header) return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m?.[1] ?? null;
}

/**
 * Checks a route's entry of the access table and sets the request's principal. Order: token first
 * (401), then permissions (403), so that an anonymous caller never learns which permission a
 * route needs.
 */
export async function authorize(deps: Deps, access: Access, c: Context<AppEnv>): Promise<void> {
  c.set('principal', null);
  if (access === 'public') return;
  const header = c.req.header('authorization');
  // Basic credentials are a login's business, not a session.
  const token = header && /^Basic\s/i.test(header) ? undefined : bearer(header);
  if (token === undefined) {
    if (access === 'optional') return;
    throw unauthenticated(MSG.loginRequired);
  }
  const resolved = token ? await principalFromToken(deps, token) : null;
  if (!resolved) throw unauthenticated(MSG.sessionExpired);
  const { principal } = resolved;
  c.set('principal', principal);
  // Set before the handler runs (also on a 403 below): the client keeps whichever token is newest.
  if (resolved.renewed) c.header(SESSION_TOKEN_HEADER, resolved.renewed);
  if (Array.isArray(access)) {
    for (const p of access) if (!principal.permissions.has(p)) throw forbidden(MSG.permissionDenied);
  }
}
