import { z } from 'zod';
import { qsDetailDocSchema } from './sync/qs-detail';
import { questionSetDocSchema } from './sync/question-set';

/*
 * A test handed from phone to phone (docs/live-tests.md "A test handed from phone to phone"): a
 * set, its questions in every language and their images, signed by the server, as one file a
 * learner passes to a phone with no network. The receiving app checks the signature offline with
 * the server's public key it already holds.
 *
 * The file, bytes:
 *
 *   0..3    "PMB1"               magic and format version
 *   4..19   key id               the first 16 bytes of SHA-256 of the signing key's raw public point
 *   20..83  signature            ECDSA P-256 with SHA-256, r ‖ s (IEEE P1363, as WebCrypto makes it)
 *   84..    payload              gzip of the BundlePayload JSON (UTF-8)
 *
 * The signature covers bytes 0..19 and the compressed payload: a changed byte anywhere, a payload
 * moved under another key id, or a key the app does not hold is refused before anything is
 * decompressed (no unsigned input reaches the decompressor or the JSON parser).
 *
 * Everything is done with the platform's WebCrypto and CompressionStream (browsers and Node alike).
 */

/** The platform's pieces used here (sync-protocol compiles without DOM or Node types). */
type Bytes = Uint8Array<ArrayBuffer>;
type Key = object;
type Subtle = {
  importKey(format: 'jwk', key: object, alg: { name: 'ECDSA'; namedCurve: 'P-256' }, extractable: boolean, usages: string[]): Promise<Key>;
  exportKey(format: 'raw', key: Key): Promise<ArrayBuffer>;
  sign(alg: { name: 'ECDSA'; hash: 'SHA-256' }, key: Key, data: Bytes): Promise<ArrayBuffer>;
  verify(alg: { name: 'ECDSA'; hash: 'SHA-256' }, key: Key, signature: Bytes, data: Bytes): Promise<boolean>;
  digest(alg: 'SHA-256', data: Bytes): Promise<ArrayBuffer>;
};
declare const crypto: { subtle: Subtle };
declare const TextEncoder: new () => { encode(input: string): Bytes };
declare const TextDecoder: new (label?: string, opts?: { fatal?: boolean }) => { decode(input: Bytes): string };
type Stream = { readable: unknown; writable: unknown };
declare const CompressionStream: new (format: 'gzip') => Stream;
declare const DecompressionStream: new (format: 'gzip') => Stream;
declare const Response: new (body: unknown) => { arrayBuffer(): Promise<ArrayBuffer>; body: { pipeThrough(s: Stream): unknown } | null };

/** The file's first bytes ("PMB1"). */
export const BUNDLE_MAGIC = [0x50, 0x4d, 0x42, 0x31] as const;
export const BUNDLE_KID_BYTES = 16;
export const BUNDLE_SIGNATURE_BYTES = 64;
export const BUNDLE_HEADER_BYTES = BUNDLE_MAGIC.length + BUNDLE_KID_BYTES + BUNDLE_SIGNATURE_BYTES;
/** File name extension of a bundle (`<set>.pmtest`). */
export const BUNDLE_EXT = 'pmtest';
export const BUNDLE_MIME = 'application/vnd.pariksha-mitra.test';
/** Version of the payload below. */
export const BUNDLE_VERSION = 1;
/**
 * How long a bundle may be imported after it was made: a week, long enough to pass a test around
 * a village or a class; short enough that a set an editor corrected or withdrew stops travelling.
 */
export const BUNDLE_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** Largest file taken (a set of 1,000 questions with its images fits); larger is refused unread. */
export const MAX_BUNDLE_BYTES = 20 * 1024 * 1024;
/** Largest payload once decompressed (a signed bundle is ours, but a cap costs nothing). */
export const MAX_BUNDLE_JSON_BYTES = 64 * 1024 * 1024;

const b64u = /^[A-Za-z0-9_-]+$/;

/** A public P-256 signing key as a JWK. */
export const bundleKeyJwkSchema = z.strictObject({
  kty: z.literal('EC'),
  crv: z.literal('P-256'),
  x: z.string().regex(b64u).length(43),
  y: z.string().regex(b64u).length(43),
});
export type BundleKeyJwk = z.infer<typeof bundleKeyJwkSchema>;

/** GET /api/bundle/v1/keys: the keys bundles are checked with, the current one first. */
export const bundleKeysResponseSchema = z.strictObject({
  success: z.literal(true),
  keys: z
    .array(z.strictObject({ kid: z.string().regex(/^[0-9a-f]{32}$/), jwk: bundleKeyJwkSchema }))
    .min(1)
    .max(8),
});
export type BundleKeysResponse = z.infer<typeof bundleKeysResponseSchema>;
export type BundleKey = BundleKeysResponse['keys'][number];

/** Our images' addresses (sync-protocol MEDIA_URL), with their bytes in base64. */
const mediaUrl = z.string().regex(/^\/media\/[0-9a-f]{64}\.(?:png|jpg|webp)$/);

/** The signed content of a bundle. */
export const bundlePayloadSchema = z.strictObject({
  v: z.literal(BUNDLE_VERSION),
  /** Made at (server time, ms). */
  iat: z.number().int().min(0),
  /** Not to be imported after (server time, ms). */
  exp: z.number().int().min(0),
  /** The set as the question_set replication sends it. */
  set: questionSetDocSchema,
  /** Its questions as the qs_detail replication sends them, without any correct answer or explanation. */
  detail: qsDetailDocSchema,
  /** The images the questions show, by address, base64. */
  media: z.record(mediaUrl, z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/)),
});
export type BundlePayload = z.infer<typeof bundlePayloadSchema>;

/** Why a file was refused (each has a message in English and Hindi on the device). */
export type BundleRefusal = 'notBundle' | 'tampered' | 'otherKey' | 'expired' | 'noKeys';

export class BundleError extends Error {
  constructor(readonly reason: BundleRefusal) {
    super(`bundle refused: ${reason}`);
    this.name = 'BundleError';
  }
}

const ECDSA = { name: 'ECDSA', hash: 'SHA-256' } as const;

async function pipe(bytes: Bytes, stream: Stream): Promise<Bytes> {
  return new Uint8Array(await new Response(new Response(bytes).body!.pipeThrough(stream)).arrayBuffer());
}

export const gzip = (bytes: Bytes) => pipe(bytes, new CompressionStream('gzip'));
export const gunzip = (bytes: Bytes) => pipe(bytes, new DecompressionStream('gzip'));

const hex = (bytes: Bytes) => [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
const fromHex = (s: string): Bytes => new Uint8Array(s.match(/../g)!.map((h) => parseInt(h, 16)));

/** A key's id: the first 16 bytes of SHA-256 of its raw public point (0x04 ‖ x ‖ y), hex. */
export async function bundleKeyId(jwk: BundleKeyJwk): Promise<string> {
  const key = await crypto.subtle.importKey('jwk', { ...jwk, ext: true }, { name: 'ECDSA', namedCurve: 'P-256' }, true, ['verify']);
  const raw = new Uint8Array(await crypto.subtle.exportKey('raw', key));
  return hex(new Uint8Array(await crypto.subtle.digest('SHA-256', raw)).slice(0, BUNDLE_KID_BYTES));
}

/** The signed bytes: magic, key id and the compressed payload. */
function signedPart(head: Bytes, body: Bytes): Bytes {
  const out = new Uint8Array(head.length + body.length);
  out.set(head, 0);
  out.set(body, head.length);
  return out;
}

/**
 * Makes a bundle file: the payload checked against its schema, compressed, signed with the
 * private key (a WebCrypto ECDSA P-256 signing key) whose id is `kid`.
 */
export async function sealBundle(payload: BundlePayload, signer: { kid: string; privateKey: Key }): Promise<Bytes> {
  const checked = bundlePayloadSchema.parse(payload);
  const body = await gzip(new TextEncoder().encode(JSON.stringify(checked)));
  const head = new Uint8Array([...BUNDLE_MAGIC, ...fromHex(signer.kid)]);
  const signature = new Uint8Array(await crypto.subtle.sign(ECDSA, signer.privateKey, signedPart(head, body)));
  const file = new Uint8Array(BUNDLE_HEADER_BYTES + body.length);
  file.set(head, 0);
  file.set(signature, head.length);
  file.set(body, BUNDLE_HEADER_BYTES);
  return file;
}

/** The key id a file names, or null when it is not a bundle at all. */
export function bundleKidOf(file: Bytes): string | null {
  if (file.length <= BUNDLE_HEADER_BYTES || BUNDLE_MAGIC.some((b, i) => file[i] !== b)) return null;
  return hex(file.slice(BUNDLE_MAGIC.length, BUNDLE_MAGIC.length + BUNDLE_KID_BYTES));
}

/**
 * Opens a bundle file with the keys the app holds, offline: refused (BundleError) when it is not
 * a bundle or too large, names a key the app does not hold, fails its signature (a changed byte),
 * or has expired at `now` (the device's best estimate of the server's time).
 */
export async function openBundle(file: Bytes, keys: readonly BundleKey[], now: number): Promise<BundlePayload> {
  if (file.length > MAX_BUNDLE_BYTES) throw new BundleError('notBundle');
  const kid = bundleKidOf(file);
  if (kid === null) throw new BundleError('notBundle');
  if (keys.length === 0) throw new BundleError('noKeys');
  const known = keys.find((k) => k.kid === kid);
  if (!known) throw new BundleError('otherKey');
  const head = file.slice(0, BUNDLE_MAGIC.length + BUNDLE_KID_BYTES);
  const signature = file.slice(head.length, BUNDLE_HEADER_BYTES);
  const body = file.slice(BUNDLE_HEADER_BYTES);
  const key = await crypto.subtle.importKey('jwk', { ...known.jwk, ext: true }, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['verify']);
  // The id is the key's own hash: a list whose entry names another key's id is no way around it.
  if ((await bundleKeyId(known.jwk)) !== kid) throw new BundleError('otherKey');
  if (!(await crypto.subtle.verify(ECDSA, key, signature, signedPart(head, body)))) throw new BundleError('tampered');
  let payload: unknown;
  try {
    const json = await gunzip(body);
    if (json.length > MAX_BUNDLE_JSON_BYTES) throw new BundleError('notBundle');
    payload = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(json));
  } catch {
    throw new BundleError('notBundle');
  }
  const r = bundlePayloadSchema.safeParse(payload);
  if (!r.success) throw new BundleError('notBundle');
  if (r.data.exp <= now) throw new BundleError('expired');
  return r.data;
}
