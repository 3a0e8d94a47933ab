import { eq, sql } from 'drizzle-orm';
import type { Context } from 'hono';
import { MSG } from '../../../sync-protocol/src/messages';
import type { Access } from '../access';
import type { AppEnv, Deps, Principal } from '../context';
import type { DB } from '../db/client';
import { person } from '../db/schema';
import { forbidden, unauthenticated } from '../lib/errors';
import { verifyToken } from '../lib/jwt';

/**
 * Resolves a bearer token to a principal. The person row is read on every request so that a
 * password change, an admin reset, a status change or a revoked permission takes effect at once
 * (the token carries only the person id and the token version).
 */
export async function principalFromToken(deps: Deps, token: string): Promise<Principal | null> {
  const claims = await verifyToken(deps.config.jwtSecret, token);
  if (!claims) return null;
  const row = principalQuery(deps.db).get({ id: claims.sub });
  if (!row || row.tokenVersion !== claims.tv || row.status !== 'ACTIVE') return null;
  return {
    id: row.id,
    name: row.name,
    permissions: new Set(row.permissions ? row.permissions.split(',') : []),
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
  // person.permission_names is kept by triggers (migration 0002), so this is one primary-key read.
  return db
    .select({
      id: person.id,
      name: person.name,
      status: person.status,
      tokenVersion: person.tokenVersion,
      permissions: person.permissionNames,
    })
    .from(person)
    .where(eq(person.id, sql.placeholder('id')))
    .prepare();
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
  const principal = token ? await principalFromToken(deps, token) : null;
  if (!principal) throw unauthenticated(MSG.sessionExpired);
  c.set('principal', principal);
  if (Array.isArray(access)) {
    for (const p of access) if (!principal.permissions.has(p)) throw forbidden(MSG.permissionDenied);
  }
}
