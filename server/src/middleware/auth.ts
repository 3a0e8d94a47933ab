import type { Context } from 'hono';
import { MSG } from '@pm/protocol/messages';
import { SESSION_TOKEN_HEADER } from '@pm/protocol/session';
import type { Access } from '../access';
import type { AppEnv, Deps, Principal } from '../context';
import { forbidden, unauthenticated } from '../lib/errors';
import { renewalDue, sessionToken, TOUCH_EVERY_MS, tokenOwner, touchSession } from '../lib/sessions';

/** A principal, and a fresh token for its session when the presented one is due for renewal. */
export type Resolved = { principal: Principal; renewed: string | null };

/**
 * Resolves a bearer token to a principal. Whether the token is still its person's is
 * lib/sessions.ts tokenOwner's decision, the same for every route that reads a token: the session
 * and person rows are read on every request (one statement), so that a logout, a password change,
 * an admin reset, a status change or a revoked permission takes effect at once (the token carries
 * only the person id, the token version and the session id). The token's own expiry is the
 * sliding limit (lib/sessions.ts).
 */
export async function principalFromToken(deps: Deps, token: string, now = Date.now()): Promise<Resolved | null> {
  const verdict = await tokenOwner(deps.db, deps.config.jwtSecret, token, { now });
  if (!verdict.ok) return null;
  const { claims, row } = verdict;
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
