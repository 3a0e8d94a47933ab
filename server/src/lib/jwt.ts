import type { webcrypto } from 'node:crypto';
import { errors, SignJWT, jwtVerify, type JWTPayload } from 'jose';
import { LRUCache } from 'lru-cache';

export const JWT_ISSUER = 'pariksha-mitra';
export const JWT_AUDIENCE = 'pariksha-mitra-app';

/**
 * What a token says: the person (`sub`), their token version (`tv`, bumped by a password or
 * status change) and the session it belongs to (`sid`, docs/security.md "Sessions and logout"). Nothing personal.
 */
export type TokenClaims = { sub: string; tv: number; sid: string };
/** The claims of a verified token with its issue and expiry times (epoch seconds, as in the JWT). */
export type VerifiedClaims = TokenClaims & { iat: number; exp: number };

/*
 * Importing the HMAC key costs more than verifying a signature, so each secret is imported once
 * (it is verified on every authenticated request).
 */
const keys = new WeakMap<Uint8Array, Promise<webcrypto.CryptoKey>>();
function keyOf(secret: Uint8Array): Promise<webcrypto.CryptoKey> {
  let k = keys.get(secret);
  if (!k) {
    k = crypto.subtle.importKey('raw', new Uint8Array(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    keys.set(secret, k);
  }
  return k;
}

/**
 * Signs a token. Its lifetime is the caller's decision (lib/sessions.ts: the session's sliding and
 * absolute limits), given as epoch milliseconds.
 */
export async function signToken(secret: Uint8Array, claims: TokenClaims, times: { issuedAt: number; expiresAt: number }): Promise<string> {
  return new SignJWT({ tv: claims.tv, sid: claims.sid })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.sub)
    .setIssuer(JWT_ISSUER)
    .setAudience(JWT_AUDIENCE)
    .setIssuedAt(Math.floor(times.issuedAt / 1000))
    .setExpirationTime(Math.floor(times.expiresAt / 1000))
    .sign(await keyOf(secret));
}

/**
 * Tokens whose signature was already checked, with their claims, until they expire. A pure cache
 * of a deterministic check (no per-user state a second instance would need): it never says a
 * session is alive. The session and person rows are still read on every request
 * (middleware/auth.ts), so a logout, a revoked session or a token-version bump takes effect at once.
 */
type Verified = { claims: VerifiedClaims; secret: Uint8Array };
const verified = new LRUCache<string, Verified>({ max: 20_000 });

/**
 * Verifies signature, algorithm (HS256 only, so `alg: none` is refused), issuer, audience, expiry,
 * and that the token names a session: tokens from before sessions existed (no `sid`) are refused,
 * so their holders sign in once more and get a session that logout can end.
 */
export async function verifyToken(secret: Uint8Array, token: string): Promise<VerifiedClaims | null> {
  const hit = verified.get(token);
  if (hit && hit.secret === secret) {
    if (hit.claims.exp * 1000 > Date.now()) return hit.claims;
    verified.delete(token);
    return null;
  }
  return verifySignature(secret, token);
}

async function verifySignature(secret: Uint8Array, token: string): Promise<VerifiedClaims | null> {
  try {
    const { payload } = await jwtVerify(token, await keyOf(secret), {
      algorithms: ['HS256'],
      issuer: JWT_ISSUER,
      audience: JWT_AUDIENCE,
      requiredClaims: ['exp', 'iat', 'sub'],
    });
    const { sub, tv, sid, iat, exp } = payload;
    if (typeof sub !== 'string' || typeof tv !== 'number' || typeof sid !== 'string' || !sid) return null;
    if (typeof iat !== 'number' || typeof exp !== 'number') return null;
    const claims = { sub, tv, sid, iat, exp };
    verified.set(token, { claims, secret });
    return claims;
  } catch {
    return null;
  }
}

/**
 * A token's claims when its signature, algorithm, issuer and audience are right, whether or not
 * it has expired (`expired` says which): for a last-resort answer file (docs/answer-file.md), which may
 * be uploaded days after it was made. A bad signature, `alg: none` or a token of another issuer
 * is null, as in verifyToken. Never a substitute for verifyToken on a request: it does not say
 * that a session is alive.
 */
export async function verifyTokenSignature(secret: Uint8Array, token: string): Promise<(VerifiedClaims & { expired: boolean }) | null> {
  let payload: JWTPayload;
  let expired = false;
  try {
    ({ payload } = await jwtVerify(token, await keyOf(secret), {
      algorithms: ['HS256'],
      issuer: JWT_ISSUER,
      audience: JWT_AUDIENCE,
      requiredClaims: ['exp', 'iat', 'sub'],
    }));
  } catch (err) {
    // jose checks the signature, then the issuer, audience and required claims, and the expiry
    // last: a JWTExpired means everything else held.
    if (!(err instanceof errors.JWTExpired) || err.claim !== 'exp') return null;
    payload = err.payload;
    expired = true;
  }
  const { sub, tv, sid, iat, exp } = payload;
  if (typeof sub !== 'string' || typeof tv !== 'number' || typeof sid !== 'string' || !sid) return null;
  if (typeof iat !== 'number' || typeof exp !== 'number') return null;
  return { sub, tv, sid, iat, exp, expired };
}
