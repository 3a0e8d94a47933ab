import { createDecipheriv, createECDH, createPublicKey, hkdfSync, verify } from 'node:crypto';

/*
 * The receiving side of Web Push, for the local push endpoint (local-push-service.ts): what a
 * browser does with a message (RFC 8291 decryption of an RFC 8188 `aes128gcm` body) and what a push
 * service does with the sender's request (RFC 8292 VAPID check). Only node:crypto primitives: ECDH
 * on P-256, HKDF-SHA-256, AES-128-GCM, ECDSA P-256 with SHA-256. The sending side is web-push's.
 */

/** "WebPush: info" || 0x00, RFC 8291 §3.3. */
const KEY_INFO = Buffer.from('WebPush: info\0', 'latin1');
/** RFC 8188 §2.2 and §2.3. */
const CEK_INFO = Buffer.from('Content-Encoding: aes128gcm\0', 'latin1');
const NONCE_INFO = Buffer.from('Content-Encoding: nonce\0', 'latin1');
const TAG_LENGTH = 16;
/** salt (16) + rs (4) + idlen (1). */
const HEADER_FIXED = 21;

export class WebPushDecryptError extends Error {}

/** The keys one message is read with, derived as RFC 8291 §3.4 and RFC 8188 §2.2–2.3 say. */
export function deriveMessageKeys(input: { ecdhSecret: Buffer; authSecret: Buffer; uaPublic: Buffer; asPublic: Buffer; salt: Buffer }) {
  // IKM = HKDF(salt = auth_secret, IKM = ecdh_secret, info = key_info, L = 32)
  const ikm = Buffer.from(hkdfSync('sha256', input.ecdhSecret, input.authSecret, Buffer.concat([KEY_INFO, input.uaPublic, input.asPublic]), 32));
  // CEK and NONCE: HKDF with the record's salt over that IKM.
  const cek = Buffer.from(hkdfSync('sha256', ikm, input.salt, CEK_INFO, 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, input.salt, NONCE_INFO, 12));
  return { ikm, cek, nonce };
}

/** The nonce of record `seq`: the derived nonce XOR the sequence number (RFC 8188 §2.3). */
function recordNonce(nonce: Buffer, seq: number): Buffer {
  const out = Buffer.from(nonce);
  // Sequence numbers of a Web Push message stay far below 2^32: XOR into the last 4 bytes.
  out.writeUInt32BE((out.readUInt32BE(8) ^ seq) >>> 0, 8);
  return out;
}

/** The parts of an aes128gcm body's header (RFC 8188 §2.1). */
export function parseHeader(body: Buffer) {
  if (body.length < HEADER_FIXED) throw new WebPushDecryptError('body shorter than the aes128gcm header');
  const salt = body.subarray(0, 16);
  const rs = body.readUInt32BE(16);
  const idlen = body[20]!;
  if (body.length < HEADER_FIXED + idlen) throw new WebPushDecryptError('body shorter than its key id');
  const keyid = body.subarray(HEADER_FIXED, HEADER_FIXED + idlen);
  return { salt, rs, keyid, records: body.subarray(HEADER_FIXED + idlen) };
}

/**
 * Reads a Web Push message as the user agent does (RFC 8291 §3–4): the sender's ephemeral public
 * key is the header's key id; ECDH with the subscription's private key, the auth secret mixed in,
 * then every record opened with AES-128-GCM and its padding and delimiter removed. Any deviation
 * (a wrong key, a changed byte, a bad delimiter) throws WebPushDecryptError.
 */
export function decryptAes128gcm(body: Buffer, ua: { privateKey: Buffer; publicKey: Buffer; authSecret: Buffer }): Buffer {
  const { salt, rs, keyid, records } = parseHeader(body);
  // RFC 8291 §4: the key id is the sender's uncompressed P-256 point.
  if (keyid.length !== 65 || keyid[0] !== 0x04) throw new WebPushDecryptError('the key id is not an uncompressed P-256 point');
  if (rs < TAG_LENGTH + 2) throw new WebPushDecryptError('record size too small');
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(ua.privateKey);
  let ecdhSecret: Buffer;
  try {
    ecdhSecret = ecdh.computeSecret(keyid);
  } catch {
    throw new WebPushDecryptError('the sender key is not a point on P-256');
  }
  const { cek, nonce } = deriveMessageKeys({ ecdhSecret, authSecret: ua.authSecret, uaPublic: ua.publicKey, asPublic: keyid, salt });

  const plain: Buffer[] = [];
  let seq = 0;
  for (let at = 0; at < records.length; at += rs, seq++) {
    const record = records.subarray(at, at + rs);
    const last = at + rs >= records.length;
    if (record.length <= TAG_LENGTH) throw new WebPushDecryptError('record without content');
    const decipher = createDecipheriv('aes-128-gcm', cek, recordNonce(nonce, seq), { authTagLength: TAG_LENGTH });
    decipher.setAuthTag(record.subarray(record.length - TAG_LENGTH));
    let opened: Buffer;
    try {
      opened = Buffer.concat([decipher.update(record.subarray(0, record.length - TAG_LENGTH)), decipher.final()]);
    } catch {
      throw new WebPushDecryptError('authentication failed (wrong key or altered message)');
    }
    // Content, then the delimiter (0x02 in the last record, 0x01 before it), then zero padding.
    let end = opened.length - 1;
    while (end >= 0 && opened[end] === 0) end--;
    if (end < 0 || opened[end] !== (last ? 2 : 1)) throw new WebPushDecryptError('bad record delimiter');
    plain.push(opened.subarray(0, end));
  }
  if (seq === 0) throw new WebPushDecryptError('no records');
  return Buffer.concat(plain);
}

export type VapidClaims = { aud: string; exp: number; sub?: string };
export type VapidResult = { ok: true; key: string; claims: VapidClaims } | { ok: false; reason: string };

/** RFC 8292 §2: a push service refuses an `exp` more than 24 hours ahead. */
const MAX_EXP_AHEAD_S = 24 * 60 * 60;

/**
 * Checks a request's `Authorization: vapid t=<JWT>, k=<public key>` as a push service does
 * (RFC 8292 §2–3): an ES256 JWT signed by the key `k`, whose `aud` is the push service's origin,
 * whose `exp` is in the future and at most 24 hours away, and whose `sub` is a contact URI. With
 * `expectedKey` (the applicationServerKey the subscription was made with), `k` must be it (§4).
 */
export function verifyVapid(header: string | undefined, origin: string, opts: { expectedKey?: string; now?: number } = {}): VapidResult {
  if (!header) return { ok: false, reason: 'no Authorization header' };
  const m = /^vapid\s+(.+)$/i.exec(header.trim());
  if (!m) return { ok: false, reason: 'not the vapid scheme' };
  const params = new Map<string, string>();
  for (const part of m[1]!.split(',')) {
    const eq = part.indexOf('=');
    if (eq > 0) params.set(part.slice(0, eq).trim().toLowerCase(), part.slice(eq + 1).trim());
  }
  const t = params.get('t');
  const k = params.get('k');
  if (!t || !k) return { ok: false, reason: 't and k are required' };
  const point = Buffer.from(k, 'base64url');
  if (point.length !== 65 || point[0] !== 0x04) return { ok: false, reason: 'k is not an uncompressed P-256 point' };
  if (opts.expectedKey && Buffer.compare(point, Buffer.from(opts.expectedKey, 'base64url')) !== 0) {
    return { ok: false, reason: 'k is not the key the subscription was made with' };
  }
  const parts = t.split('.');
  if (parts.length !== 3) return { ok: false, reason: 't is not a JWT' };
  const [h, p, s] = parts as [string, string, string];
  let head: { alg?: unknown; typ?: unknown };
  let claims: { aud?: unknown; exp?: unknown; sub?: unknown };
  try {
    head = JSON.parse(Buffer.from(h, 'base64url').toString('utf8')) as typeof head;
    claims = JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as typeof claims;
  } catch {
    return { ok: false, reason: 't is not a JWT' };
  }
  if (head.alg !== 'ES256') return { ok: false, reason: 'alg must be ES256' };
  let key;
  try {
    key = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') }, format: 'jwk' });
  } catch {
    return { ok: false, reason: 'k is not a point on P-256' };
  }
  // JWS ES256 signatures are r || s (64 bytes), not DER.
  const signature = Buffer.from(s, 'base64url');
  if (signature.length !== 64 || !verify('sha256', Buffer.from(`${h}.${p}`, 'latin1'), { key, dsaEncoding: 'ieee-p1363' }, signature)) {
    return { ok: false, reason: 'bad signature' };
  }
  if (claims.aud !== origin) return { ok: false, reason: `aud must be ${origin}` };
  const now = Math.floor((opts.now ?? Date.now()) / 1000);
  if (typeof claims.exp !== 'number' || claims.exp <= now) return { ok: false, reason: 'expired' };
  if (claims.exp > now + MAX_EXP_AHEAD_S) return { ok: false, reason: 'exp more than 24 hours ahead' };
  if (claims.sub !== undefined && (typeof claims.sub !== 'string' || !/^(mailto:|https:)/.test(claims.sub))) {
    return { ok: false, reason: 'sub must be a mailto: or https: URI' };
  }
  return { ok: true, key: k, claims: { aud: claims.aud, exp: claims.exp, ...(typeof claims.sub === 'string' && { sub: claims.sub }) } };
}
