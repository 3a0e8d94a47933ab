import { createECDH, createPrivateKey, generateKeyPairSync, type JsonWebKey } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { calculateJwkThumbprint, type CryptoKey, importJWK } from 'jose';
import { ANSWER_FILE_ALG, type AnswerKeyJwk, answerKeyJwkSchema } from '@pm/protocol/answer-file';
import type { Config } from '../../env';

export const ANSWER_KEY_FILE = 'answer-file-key.json';

/** The server's answer-file key (docs/answer-file.md): the public half devices encrypt to, its thumbprint, the private half. */
export type AnswerKey = { jwk: AnswerKeyJwk; kid: string; privateKey: CryptoKey };

/** A private P-256 JWK checked by Node's own parser (a point off the curve is refused there). */
export function privateJwkOf(text: string, where: string): JsonWebKey & AnswerKeyJwk & { d: string } {
  let jwk: unknown;
  try {
    jwk = JSON.parse(text);
  } catch {
    throw new Error(`${where} is not JSON`);
  }
  const j = jwk as Record<string, unknown>;
  if (j.kty !== 'EC' || j.crv !== 'P-256' || typeof j.d !== 'string' || typeof j.x !== 'string' || typeof j.y !== 'string') {
    throw new Error(`${where} is not a P-256 private key in JWK form (kty EC, crv P-256, x, y, d)`);
  }
  try {
    createPrivateKey({ key: j as JsonWebKey, format: 'jwk' });
  } catch (err) {
    throw new Error(`${where} is not a valid P-256 private key: ${(err as Error).message}`);
  }
  // Node takes `d` without checking it against `x`, `y`: halves that do not belong together
  // would publish a key no file could be opened with. The public point is worked out from `d`.
  let point: Buffer;
  try {
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(Buffer.from(j.d, 'base64url'));
    point = ecdh.getPublicKey();
  } catch (err) {
    throw new Error(`${where} is not a valid P-256 private key: ${(err as Error).message}`);
  }
  if (point.subarray(1, 33).toString('base64url') !== j.x || point.subarray(33).toString('base64url') !== j.y) {
    throw new Error(`${where} is not a valid P-256 private key: d does not match x and y`);
  }
  return { kty: 'EC', crv: 'P-256', x: j.x, y: j.y, d: j.d };
}

/**
 * The private JWK: ANSWER_FILE_PRIVATE_JWK when set; otherwise a key generated on first start
 * and kept in DATA_DIR/answer-file-key.json (mode 600, written once with `wx` as the VAPID keys
 * are, modules/push/vapid.ts), so that files made before a restart can still be read. Synchronous,
 * so that the key exists as soon as the app is built (the start), before any device asks for it.
 */
export function ensureAnswerKey(config: Pick<Config, 'dataDir' | 'ANSWER_FILE_PRIVATE_JWK'>): JsonWebKey & AnswerKeyJwk & { d: string } {
  if (config.ANSWER_FILE_PRIVATE_JWK) return privateJwkOf(config.ANSWER_FILE_PRIVATE_JWK, 'ANSWER_FILE_PRIVATE_JWK');
  const file = path.join(config.dataDir, ANSWER_KEY_FILE);
  if (!existsSync(file)) {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = privateKey.export({ format: 'jwk' });
    try {
      writeFileSync(file, `${JSON.stringify({ kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y, d: jwk.d }, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
    } catch (err) {
      // Another process started on the same DATA_DIR wrote it first: theirs is the key.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  return privateJwkOf(readFileSync(file, 'utf8'), file);
}

/** The key ready for use: the public JWK, its RFC 7638 thumbprint (`kid`) and the private CryptoKey. */
export async function loadAnswerKey(privateJwk: AnswerKeyJwk & { d: string }): Promise<AnswerKey> {
  const jwk = answerKeyJwkSchema.parse({ kty: privateJwk.kty, crv: privateJwk.crv, x: privateJwk.x, y: privateJwk.y });
  const [kid, privateKey] = await Promise.all([calculateJwkThumbprint(jwk, 'sha256'), importJWK({ ...privateJwk }, ANSWER_FILE_ALG)]);
  return { jwk, kid, privateKey: privateKey as CryptoKey };
}
