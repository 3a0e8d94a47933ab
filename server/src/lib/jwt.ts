import { SignJWT, jwtVerify } from 'jose';

export const JWT_ISSUER = 'pariksha-mitra';
export const JWT_AUDIENCE = 'pariksha-mitra-app';
const TTL = '7d';

export type TokenClaims = { sub: string; tv: number };

export async function signToken(secret: Uint8Array, claims: TokenClaims): Promise<string> {
  return new SignJWT({ tv: claims.tv })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.sub)
    .setIssuer(JWT_ISSUER)
    .setAudience(JWT_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(TTL)
    .sign(secret);
}

/** Verifies signature, algorithm (HS256 only, so `alg: none` is refused), issuer, audience, expiry. */
export async function verifyToken(secret: Uint8Array, token: string): Promise<TokenClaims | null> {
  try {
    const { payload } = await jwtVerify(token, secret, {
      algorithms: ['HS256'],
      issuer: JWT_ISSUER,
      audience: JWT_AUDIENCE,
      requiredClaims: ['exp', 'sub'],
    });
    if (typeof payload.sub !== 'string' || typeof payload.tv !== 'number') return null;
    return { sub: payload.sub, tv: payload.tv };
  } catch {
    return null;
  }
}
