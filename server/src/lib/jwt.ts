import type { webcrypto } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import { LRUCache } from 'lru-cache';

export const JWT_ISSUER = 'pariksha-mitra';
export const JWT_AUDIENCE = 'pariksha-mitra-app';
const TTL = '7d';

export type TokenClaims = { sub: string; tv: number };

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

export async function signToken(secret: Uint8Array, claims: TokenClaims): Promise<string> {
  return new SignJWT({ tv: claims.tv })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.sub)
    .setIssuer(JWT_ISSUER)
    .setAudience(JWT_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(TTL)
    .sign(await keyOf(secret));
}

/**
 * Tokens whose signature was already checked, with their claims, until they expire. A pure cache
 * of a deterministic check (no per-user state a second instance would need): the person row is
 * still read on every request, so revocation through the token version is immediate.
 */
type Verified = { claims: TokenClaims; exp: number; secret: Uint8Array };
const verified = new LRUCache<string, Verified>({ max: 20_000 });

/** Verifies signature, algorithm (HS256 only, so `alg: none` is refused), issuer, audience, expiry. */
export async function verifyToken(secret: Uint8Array, token: string): Promise<TokenClaims | null> {
  const hit = verified.get(token);
  if (hit && hit.secret === secret) {
    if (hit.exp * 1000 > Date.now()) return hit.claims;
    verified.delete(token);
    return null;
  }
  return verifySignature(secret, token);
}

async function verifySignature(secret: Uint8Array, token: string): Promise<TokenClaims | null> {
  try {
    const { payload } = await jwtVerify(token, await keyOf(secret), {
      algorithms: ['HS256'],
      issuer: JWT_ISSUER,
      audience: JWT_AUDIENCE,
      requiredClaims: ['exp', 'sub'],
    });
    if (typeof payload.sub !== 'string' || typeof payload.tv !== 'number' || typeof payload.exp !== 'number') return null;
    const claims = { sub: payload.sub, tv: payload.tv };
    verified.set(token, { claims, exp: payload.exp, secret });
    return claims;
  } catch {
    return null;
  }
}
