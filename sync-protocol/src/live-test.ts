import { z } from 'zod';
import { idSchema } from './common';

/*
 * Live tests (docs/live-tests.md): a question set scheduled to open at one minute for everyone.
 * Its paper reaches devices ahead of time encrypted with a per-test key (AES-256-GCM); the key is
 * released at the start time, online in the learner's `live_key` document, offline as a short
 * unlock code that unwraps the same key (docs/live-tests.md "The key schedule", "Unlock codes").
 * Everything here runs alike on the server (Node's WebCrypto) and on a device (the browser's).
 */

type CryptoKeyLike = unknown;
type Subtle = {
  importKey(format: 'raw', key: Uint8Array, algorithm: string | { name: string; hash?: string }, extractable: boolean, usages: string[]): Promise<CryptoKeyLike>;
  sign(algorithm: 'HMAC', key: CryptoKeyLike, data: Uint8Array): Promise<ArrayBuffer>;
  encrypt(algorithm: { name: 'AES-GCM'; iv: Uint8Array; additionalData: Uint8Array }, key: CryptoKeyLike, data: Uint8Array): Promise<ArrayBuffer>;
  decrypt(algorithm: { name: 'AES-GCM'; iv: Uint8Array; additionalData: Uint8Array }, key: CryptoKeyLike, data: Uint8Array): Promise<ArrayBuffer>;
  deriveKey(
    algorithm: { name: 'PBKDF2'; salt: Uint8Array; iterations: number; hash: 'SHA-256' },
    base: CryptoKeyLike,
    derived: { name: 'AES-GCM'; length: 256 },
    extractable: false,
    usages: string[],
  ): Promise<CryptoKeyLike>;
};
const web = globalThis as unknown as {
  crypto: { subtle: Subtle; getRandomValues<T extends Uint8Array>(a: T): T };
  TextEncoder: new () => { encode(s: string): Uint8Array };
  TextDecoder: new (label: 'utf-8', opts: { fatal: true }) => { decode(b: Uint8Array): string };
  btoa(s: string): string;
  atob(s: string): string;
};
const utf8 = (s: string) => new web.TextEncoder().encode(s);

// --- Wire -----------------------------------------------------------------------------------------

/** Bytes as unpadded base64url. */
export function toBase64Url(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return web.btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Unpadded base64url to bytes (throws on anything else). */
export function fromBase64Url(text: string): Uint8Array {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new Error('not base64url');
  const s = web.atob(text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4));
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

/** AES-GCM output: a 96-bit IV and the ciphertext with its 128-bit tag, both base64url. */
export const sealedSchema = z.strictObject({
  iv: z.string().regex(/^[A-Za-z0-9_-]{16}$/),
  ct: z.string().max(8_000_000).regex(/^[A-Za-z0-9_-]+$/),
});
export type Sealed = z.infer<typeof sealedSchema>;

/** A per-test key on the wire: 32 bytes, base64url (43 characters). */
export const liveKeySchema = z.string().regex(/^[A-Za-z0-9_-]{43}$/);

/**
 * `qs_detail.live` (docs/live-tests.md "The key schedule"): a live test's times and its
 * encrypted paper. The document's `questions` is then empty: they are in `paper`, the JSON of the
 * questions (never a correct answer) sealed with the test's key; `wk` is that key sealed with the
 * key an unlock code derives (unlockKek).
 */
export const liveDetailSchema = z.strictObject({
  /** Start time (ms, server clock). */
  start: z.number().int().min(0),
  /** The window to start in (ms from the start). */
  win: z.number().int().min(0),
  /** Result time (ms): ranks and the answer key open then. */
  res: z.number().int().min(0),
  wk: sealedSchema,
  paper: sealedSchema,
});
export type LiveDetail = z.infer<typeof liveDetailSchema>;

/** Most minutes a live test's window may stay open, and most days ahead it may be scheduled. */
export const MAX_WINDOW_MINUTES = 180;
export const MAX_DAYS_AHEAD = 366;

/**
 * PUT /api/live/schedule: an editor schedules a published question set as a live test (or moves
 * a schedule whose start has not come). `start` and `res` are epoch ms; `winMin` the window in minutes.
 */
export const scheduleLiveSchema = z.strictObject({
  qsid: idSchema,
  start: z.number().int().min(0),
  winMin: z.number().int().min(1).max(MAX_WINDOW_MINUTES),
  res: z.number().int().min(0),
});
export type ScheduleLive = z.infer<typeof scheduleLiveSchema>;

/** POST /api/live/register: the caller registers for a live test; `sms`: send me the unlock code by SMS at the start. */
export const registerLiveSchema = z.strictObject({
  qsid: idSchema,
  sms: z.boolean().default(false),
  lang: z.enum(['en', 'hi']).default('en'),
});
export type RegisterLive = z.infer<typeof registerLiveSchema>;

/** One live test as GET /api/live/tests lists it. */
export type LiveTestView = { qsid: string; l: string; start: number; win: number; res: number; dur: number; free: boolean; isM: boolean; registered: boolean };

// --- The per-test key and the paper ----------------------------------------------------------------

/** A fresh per-test key (32 random bytes, base64url). */
export function newLiveKey(): string {
  return toBase64Url(web.crypto.getRandomValues(new Uint8Array(32)));
}

const aesKey = (raw: Uint8Array, usages: string[]) => web.crypto.subtle.importKey('raw', raw, 'AES-GCM', false, usages);

async function seal(key: CryptoKeyLike, plain: Uint8Array, aad: string): Promise<Sealed> {
  const iv = web.crypto.getRandomValues(new Uint8Array(12));
  const ct = new Uint8Array(await web.crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: utf8(aad) }, key, plain));
  return { iv: toBase64Url(iv), ct: toBase64Url(ct) };
}

/** Null when the tag does not verify (a wrong key, another test, tampered bytes). */
async function open(key: CryptoKeyLike, sealed: Sealed, aad: string): Promise<Uint8Array | null> {
  try {
    return new Uint8Array(await web.crypto.subtle.decrypt({ name: 'AES-GCM', iv: fromBase64Url(sealed.iv), additionalData: utf8(aad) }, key, fromBase64Url(sealed.ct)));
  } catch {
    return null;
  }
}

/** What each sealed value is bound to: the purpose and the test (a paper or key of one test never opens as another's). */
const paperAad = (qsid: string) => `pm-live-paper-v1:${qsid}`;
const wrapAad = (qsid: string) => `pm-live-wrap-v1:${qsid}`;

/** The paper (any JSON value: the questions) sealed with the test's key. */
export async function sealPaper(keyB64: string, qsid: string, paper: unknown): Promise<Sealed> {
  return seal(await aesKey(fromBase64Url(keyB64), ['encrypt']), utf8(JSON.stringify(paper)), paperAad(qsid));
}

/** The paper back; null when the key is not this test's or the bytes were changed. */
export async function openPaper<T = unknown>(keyB64: string, qsid: string, sealed: Sealed): Promise<T | null> {
  let key: CryptoKeyLike;
  try {
    key = await aesKey(fromBase64Url(keyB64), ['decrypt']);
  } catch {
    return null;
  }
  const bytes = await open(key, sealed, paperAad(qsid));
  return bytes === null ? null : (JSON.parse(new web.TextDecoder('utf-8', { fatal: true }).decode(bytes)) as T);
}

// --- Unlock codes ------------------------------------------------------------------------------------

/** Crockford's base32: no I, L, O or U, so that a code read out or typed is not misread. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** Characters of secret in a code (5 bits each: 55 bits), and the one check character after them. */
export const UNLOCK_SECRET_CHARS = 11;
export const UNLOCK_CODE_CHARS = UNLOCK_SECRET_CHARS + 1;
/**
 * PBKDF2 rounds from a code to the key that unwraps the test's key. Each guess costs an attacker
 * this many HMAC-SHA-256 (docs/live-tests.md "Unlock codes"); a device pays it once, in about a
 * second on a cheap phone.
 */
export const UNLOCK_ROUNDS = 200_000;

/** The check character: a weighted sum with odd weights mod 32, so every single mistyped character changes it. */
function checkChar(secret: string): string {
  let sum = 0;
  for (let i = 0; i < secret.length; i++) sum += (2 * i + 1) * ALPHABET.indexOf(secret[i]!);
  return ALPHABET[sum % 32]!;
}

/**
 * A code as typed, normalised: upper case, spaces and dashes dropped, the letters Crockford
 * reads as digits (O → 0, I and L → 1) mapped. Null when it is not 12 characters of the alphabet
 * or its check character disagrees (a typing mistake, told apart from a wrong code).
 */
export function normaliseUnlockCode(typed: string): string | null {
  const s = typed
    .toUpperCase()
    .replace(/[\s-]/g, '')
    .replace(/O/g, '0')
    .replace(/[IL]/g, '1');
  if (s.length !== UNLOCK_CODE_CHARS || [...s].some((c) => !ALPHABET.includes(c))) return null;
  const secret = s.slice(0, UNLOCK_SECRET_CHARS);
  return checkChar(secret) === s.slice(UNLOCK_SECRET_CHARS) ? s : null;
}

/** A code as shown and read out: three groups of four (XXXX-XXXX-XXXX). */
export const formatUnlockCode = (code: string) => `${code.slice(0, 4)}-${code.slice(4, 8)}-${code.slice(8)}`;

/**
 * The test's unlock code, derived from its key: 55 bits of HMAC-SHA-256(key, test id), then the
 * check character. Whoever holds the key (the server; a device once it has it, to show a friend)
 * computes the same code; nobody can compute it without the key.
 */
export async function unlockCodeOf(keyB64: string, qsid: string): Promise<string> {
  const mac = await web.crypto.subtle.importKey('raw', fromBase64Url(keyB64), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const bytes = new Uint8Array(await web.crypto.subtle.sign('HMAC', mac, utf8(`pm-live-unlock-v1:${qsid}`)));
  let bits = 0n;
  for (const b of bytes.subarray(0, 7)) bits = (bits << 8n) | BigInt(b);
  let secret = '';
  for (let i = 0; i < UNLOCK_SECRET_CHARS; i++) secret += ALPHABET[Number((bits >> BigInt(51 - 5 * i)) & 31n)];
  return secret + checkChar(secret);
}

/** The key a code derives (PBKDF2 over its secret, salted with the test's id): it wraps the test's key. */
async function unlockKek(code: string, qsid: string, usages: string[]): Promise<CryptoKeyLike> {
  const base = await web.crypto.subtle.importKey('raw', utf8(code.slice(0, UNLOCK_SECRET_CHARS)), 'PBKDF2', false, ['deriveKey']);
  return web.crypto.subtle.deriveKey({ name: 'PBKDF2', salt: utf8(`pm-live-kek-v1:${qsid}`), iterations: UNLOCK_ROUNDS, hash: 'SHA-256' }, base, { name: 'AES-GCM', length: 256 }, false, usages);
}

/** The test's key sealed under its own unlock code's key (what `qs_detail.live.wk` carries). */
export async function wrapLiveKey(keyB64: string, qsid: string): Promise<Sealed> {
  const code = await unlockCodeOf(keyB64, qsid);
  return seal(await unlockKek(code, qsid, ['encrypt']), fromBase64Url(keyB64), wrapAad(qsid));
}

/**
 * The test's key from a typed code and the wrapped key the device holds. `'typo'`: the code is
 * not one at all (length, characters, check character); `'wrong'`: a well-formed code that does
 * not open this test's key (forged, guessed, or another test's).
 */
export async function unwrapLiveKey(typed: string, qsid: string, wk: Sealed): Promise<{ key: string } | { error: 'typo' | 'wrong' }> {
  const code = normaliseUnlockCode(typed);
  if (!code) return { error: 'typo' };
  const raw = await open(await unlockKek(code, qsid, ['decrypt']), wk, wrapAad(qsid));
  return raw && raw.length === 32 ? { key: toBase64Url(raw) } : { error: 'wrong' };
}

// --- Times -------------------------------------------------------------------------------------------

/** The window's end (ms): the last moment an attempt may start. */
export const windowEnd = (t: { start: number; win: number }) => t.start + t.win;

/**
 * Whether an attempt that starts at `at` (server time, or the device's server-corrected time) may
 * start: not before the key exists, not after the window (docs/live-tests.md "Live tests").
 */
export function mayStartAt(t: { start: number; win: number }, at: number): 'early' | 'open' | 'closed' {
  if (at < t.start) return 'early';
  return at <= windowEnd(t) ? 'open' : 'closed';
}
