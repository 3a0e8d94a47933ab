import { generateKeyPairSync, type JsonWebKey, webcrypto } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type BundleKey, type BundleKeyJwk, bundleKeyId, bundleKeyJwkSchema } from '@pm/protocol/bundle';
import type { Config } from '../../env';
import { privateJwkOf } from '../answer-file/answer-key';

export const BUNDLE_KEY_FILE = 'bundle-signing-key.json';

/** The signing key (its id and the private CryptoKey) and every public key devices may hold, current first. */
export type BundleKeys = { signer: { kid: string; privateKey: webcrypto.CryptoKey }; keys: BundleKey[] };

type KeyConfig = Pick<Config, 'dataDir' | 'BUNDLE_SIGNING_PRIVATE_JWK' | 'BUNDLE_PREVIOUS_PUBLIC_JWKS'>;

/**
 * The private JWK: BUNDLE_SIGNING_PRIVATE_JWK when set; otherwise generated on first start and
 * kept in DATA_DIR/bundle-signing-key.json (mode 600, written once with `wx` as the answer-file
 * key is, answer-file/answer-key.ts). Synchronous, so a bad key stops the start.
 */
export function ensureBundleKey(config: Pick<KeyConfig, 'dataDir' | 'BUNDLE_SIGNING_PRIVATE_JWK'>): JsonWebKey & BundleKeyJwk & { d: string } {
  if (config.BUNDLE_SIGNING_PRIVATE_JWK) return privateJwkOf(config.BUNDLE_SIGNING_PRIVATE_JWK, 'BUNDLE_SIGNING_PRIVATE_JWK');
  const file = path.join(config.dataDir, BUNDLE_KEY_FILE);
  if (!existsSync(file)) {
    const jwk = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' });
    try {
      writeFileSync(file, `${JSON.stringify({ kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y, d: jwk.d }, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
    } catch (err) {
      // Another process started on the same DATA_DIR wrote it first: theirs is the key.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  return privateJwkOf(readFileSync(file, 'utf8'), file);
}

/** BUNDLE_PREVIOUS_PUBLIC_JWKS read: public P-256 JWKs (a key with `d` is refused: it must not be published). */
export function previousBundleJwks(value: string | undefined): BundleKeyJwk[] {
  if (!value) return [];
  let list: unknown;
  try {
    list = JSON.parse(value);
  } catch {
    throw new Error('BUNDLE_PREVIOUS_PUBLIC_JWKS is not JSON');
  }
  if (!Array.isArray(list) || list.length > 7) throw new Error('BUNDLE_PREVIOUS_PUBLIC_JWKS must be a JSON array of at most 7 public keys');
  return list.map((k, i) => {
    const r = bundleKeyJwkSchema.safeParse(k);
    if (!r.success) throw new Error(`BUNDLE_PREVIOUS_PUBLIC_JWKS[${i}] is not a public P-256 JWK (kty, crv, x, y only)`);
    return r.data;
  });
}

/** The keys ready for use. */
export async function loadBundleKeys(config: KeyConfig): Promise<BundleKeys> {
  const privateJwk = ensureBundleKey(config);
  const previous = previousBundleJwks(config.BUNDLE_PREVIOUS_PUBLIC_JWKS);
  const current = bundleKeyJwkSchema.parse({ kty: privateJwk.kty, crv: privateJwk.crv, x: privateJwk.x, y: privateJwk.y });
  const privateKey = await webcrypto.subtle.importKey('jwk', { ...privateJwk }, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign']);
  const keys: BundleKey[] = [];
  for (const jwk of [current, ...previous]) {
    const kid = await bundleKeyId(jwk);
    if (!keys.some((k) => k.kid === kid)) keys.push({ kid, jwk });
  }
  return { signer: { kid: keys[0]!.kid, privateKey }, keys };
}
