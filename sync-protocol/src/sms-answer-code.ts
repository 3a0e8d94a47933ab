import type { QuestionType } from './question';
import type { TestSummaryDoc } from './sync/test-summary';

/*
 * The answer code: a submitted attempt packed into one text message, for a learner whose device
 * has no data but can send an SMS (docs/sms.md "Answers by SMS", where the format is worked
 * through on an example). Pure and shared: the device packs, the server reads, with these very
 * functions.
 *
 * `PM1 ` and then, in ALPHABET, the bytes
 *   flags (1) · attempt id · set tag (4) · submittedAt (6) · st offset · elapsed · questions ·
 *   answers (mixed radix) · texts · MAC (4)
 * The MAC is HMAC-SHA256 under the person's SMS key (the server derives it from the session,
 * docs/sms.md "The key"), truncated to 32 bits, over the bytes before it, the set's id and the
 * shape of its questions (ids, types, option keys), so that a code read against another set, or
 * against the set changed since, fails like a forgery.
 */

/** What every answer code starts with: recognisable, and the format's version. */
export const SMS_ANSWER_PREFIX = 'PM1 ';

/**
 * base64url with `.` in place of `_`: 64 characters of GSM 03.38's basic set that have the same
 * code there as in ASCII, so no gateway's conversion between the two changes one. `_` is in the
 * basic set too but at 0x11, not 0x5F, and some gateways mangle it; `@` (0x00) and `$` likewise.
 * None of these is in the extension table (`{ } [ ] ~ \ | ^ €`, two septets each).
 */
export const SMS_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-.';

/** GSM-7 characters in one message, and per part of a longer one (7 septets of each part carry the joining header). */
export const SMS_SINGLE = 160;
export const SMS_PART = 153;
/** Most parts an answer code with its texts may take; beyond, the texts follow by data. */
export const SMS_MAX_PARTS = 3;
/** Bytes of the MAC: 32 bits (the security argument is in docs/sms.md "Answers by SMS"). */
export const SMS_MAC_BYTES = 4;

/**
 * GET /api/sms-answers/key (signed in): the key of the caller's session, base64url of 16 bytes,
 * which the device keeps to sign codes offline (docs/sms.md "The key"); the number codes are sent
 * to, null when the installation takes none; and whose key it is.
 */
export type SmsAnswerKeyResponse = { success: true; key: string; number: string | null; personId: string };

/** A question of the set, as both ends see it: in the set's order, with its option keys in the question's order. */
export type SmsQuestion = { id: string; qt: QuestionType; options: readonly string[] };

/** What the code carries of an attempt. */
export type SmsAttempt = Pick<TestSummaryDoc, 'id' | 'qsid' | 'st' | 'answers' | 'submittedAt' | 'elapsed'>;

/** What a packed code is. */
export type PackedCode = {
  text: string;
  /** Messages the phone sends it as (1 for up to SMS_SINGLE characters, else parts of SMS_PART). */
  parts: number;
  /** The written (fill-in, numerical, subjective) answers did not fit SMS_MAX_PARTS parts: they follow by data. */
  textsFollow: boolean;
};

/** A code as read before its key and set are known. */
export type CodeEnvelope = {
  attemptId: string;
  /** smsSetTag of the set's id. */
  setTag: number;
  submittedAt: number;
  st: number;
  elapsed: number | undefined;
  count: number;
  textsIncluded: boolean;
  textsFollow: boolean;
  /** The language the server answers in. */
  lang: 'en' | 'hi';
  /** The bytes after the header: the answers and the texts. */
  body: Uint8Array;
  /** The bytes the MAC is over, and the MAC. */
  signed: Uint8Array;
  mac: Uint8Array;
};

/** The answers a code gives for a set; a text that follows by data is `undefined`. */
export type DecodedAnswers = Record<string, { ua: string | string[] | null | undefined; status: 'VISITED' | 'MARKED' | 'ANSWERED' | 'ANSWERED_MARKED' }>;

type Subtle = {
  importKey(format: 'raw', key: Uint8Array, algorithm: { name: 'HMAC'; hash: 'SHA-256' }, extractable: false, usages: ['sign']): Promise<unknown>;
  sign(algorithm: 'HMAC', key: unknown, data: Uint8Array): Promise<ArrayBuffer>;
};
const web = globalThis as unknown as {
  crypto: { subtle: Subtle };
  TextEncoder: new () => { encode(s: string): Uint8Array };
  TextDecoder: new (label: 'utf-8', opts: { fatal: true }) => { decode(b: Uint8Array): string };
};
const utf8 = (s: string) => new web.TextEncoder().encode(s);

const FLAG_ID_UUID = 0;
const FLAG_ID_HEX = 1;
const FLAG_ID_TEXT = 2;
const FLAG_TEXTS = 4;
const FLAG_FOLLOW = 8;
/** The reply in Hindi: the language of the app when the code was made. */
const FLAG_HINDI = 16;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const HEX32 = /^[0-9a-f]{32}$/;

/** Per question: no entry, VISITED, MARKED (both without an answer), then the answered states. */
const ABSENT = 0;
const VISITED = 1;
const MARKED = 2;
const FIRST_ANSWER = 3;

const isText = (qt: QuestionType) => qt === 'f' || qt === 'n' || qt === 's';

/** How many answers a question may have: options (mcq1), non-empty subsets (mcq2), one text. */
function choices(q: SmsQuestion): number {
  if (q.qt === 'mcq1') return q.options.length;
  if (q.qt === 'mcq2') return 2 ** q.options.length - 1;
  return 1;
}
/** The states of a question: the three without an answer, and each answer ANSWERED or ANSWERED_MARKED. */
const radixOf = (q: SmsQuestion) => BigInt(FIRST_ANSWER + 2 * choices(q));

// ---- bytes ------------------------------------------------------------------------------------

class Writer {
  private readonly out: number[] = [];
  byte(b: number) {
    this.out.push(b & 0xff);
  }
  bytes(b: Uint8Array) {
    for (const x of b) this.out.push(x);
  }
  /** Big-endian, `n` bytes. */
  fixed(v: number, n: number) {
    for (let i = n - 1; i >= 0; i--) this.out.push(Math.floor(v / 2 ** (8 * i)) % 256);
  }
  /** Unsigned LEB128 over safe integers (arithmetic, not 32-bit shifts). */
  varint(v: number) {
    let x = v;
    while (x >= 128) {
      this.out.push((x % 128) | 128);
      x = Math.floor(x / 128);
    }
    this.out.push(x);
  }
  done(): Uint8Array {
    return Uint8Array.from(this.out);
  }
}

class Reader {
  pos = 0;
  constructor(readonly buf: Uint8Array) {}
  byte(): number {
    if (this.pos >= this.buf.length) throw new RangeError('short');
    return this.buf[this.pos++]!;
  }
  take(n: number): Uint8Array {
    if (this.pos + n > this.buf.length) throw new RangeError('short');
    const b = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return b;
  }
  fixed(n: number): number {
    let v = 0;
    for (let i = 0; i < n; i++) v = v * 256 + this.byte();
    return v;
  }
  varint(): number {
    let v = 0;
    for (let i = 0; ; i++) {
      const b = this.byte();
      v += (b % 128) * 2 ** (7 * i);
      if (b < 128) {
        // The shortest form only (a padded one would be a second text of the same code), and safe integers.
        if (i > 0 && b === 0) throw new RangeError('padded');
        if (!Number.isSafeInteger(v)) throw new RangeError('too big');
        return v;
      }
      if (i >= 7) throw new RangeError('too long');
    }
  }
}

const zigzag = (v: number) => (v >= 0 ? 2 * v : -2 * v - 1);
const unzigzag = (v: number) => (v % 2 === 0 ? v / 2 : -(v + 1) / 2);

/** The bytes as text in SMS_ALPHABET, 6 bits a character, the last one padded with zero bits. */
export function toSmsText(bytes: Uint8Array): string {
  let out = '';
  let acc = 0;
  let bits = 0;
  for (const b of bytes) {
    acc = (acc << 8) | b;
    bits += 8;
    while (bits >= 6) {
      bits -= 6;
      out += SMS_ALPHABET[(acc >> bits) & 63];
    }
    acc &= (1 << bits) - 1;
  }
  if (bits > 0) out += SMS_ALPHABET[(acc << (6 - bits)) & 63];
  return out;
}

/** The bytes of a text in SMS_ALPHABET; null for any other character, a length no encoder writes, or non-zero padding. */
export function fromSmsText(text: string): Uint8Array | null {
  const out: number[] = [];
  let acc = 0;
  let bits = 0;
  if (text.length % 4 === 1) return null;
  for (const ch of text) {
    const v = SMS_ALPHABET.indexOf(ch);
    if (v < 0) return null;
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push((acc >> bits) & 0xff);
    }
    acc &= (1 << bits) - 1;
  }
  return acc === 0 ? Uint8Array.from(out) : null;
}

/** Messages a text of SMS_ALPHABET (GSM-7, one septet a character) is sent as. */
export function smsParts(text: string): number {
  return text.length <= SMS_SINGLE ? 1 : Math.ceil(text.length / SMS_PART);
}

/** A 32-bit tag of a set's id (FNV-1a over its UTF-8): finds the set; the MAC, over the whole id, proves it. */
export function smsSetTag(qsid: string): number {
  let h = 0x811c9dc5;
  for (const b of utf8(qsid)) {
    h ^= b;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

// ---- the answers --------------------------------------------------------------------------------

/** The digit of one question, or null when its entry is nothing the code can say exactly. */
function digitOf(q: SmsQuestion, entry: SmsAttempt['answers'][string] | undefined): number | null {
  if (!entry) return ABSENT;
  const { ua, status } = entry;
  if (status === 'VISITED' || status === 'MARKED') return ua === null ? (status === 'VISITED' ? VISITED : MARKED) : null;
  const marked = status === 'ANSWERED_MARKED' ? choices(q) : 0;
  if (q.qt === 'mcq1') {
    const k = typeof ua === 'string' ? q.options.indexOf(ua) : -1;
    return k < 0 ? null : FIRST_ANSWER + marked + k;
  }
  if (q.qt === 'mcq2') {
    // The keys in the order of the question's options, as the test screen writes them.
    if (!Array.isArray(ua) || ua.length === 0) return null;
    const inOrder = q.options.filter((k) => ua.includes(k));
    if (inOrder.length !== ua.length || inOrder.some((k, i) => ua[i] !== k)) return null;
    let mask = 0;
    q.options.forEach((k, i) => {
      if (ua.includes(k)) mask += 2 ** i;
    });
    return FIRST_ANSWER + marked + mask - 1;
  }
  return typeof ua === 'string' && ua.trim() !== '' ? FIRST_ANSWER + marked : null;
}

/** Bytes of the mixed-radix number of `radices`: enough for its largest value. */
function answerBytes(radices: readonly bigint[]): number {
  let max = 1n;
  for (const r of radices) max *= r;
  return Math.ceil((max - 1n).toString(2).length / 8);
}

function writeDigits(w: Writer, digits: readonly number[], radices: readonly bigint[]) {
  let value = 0n;
  for (let i = digits.length - 1; i >= 0; i--) value = value * radices[i]! + BigInt(digits[i]!);
  const n = answerBytes(radices);
  for (let i = n - 1; i >= 0; i--) w.byte(Number((value >> BigInt(8 * i)) & 0xffn));
}

function readDigits(r: Reader, radices: readonly bigint[]): number[] | null {
  let value = 0n;
  for (const b of r.take(answerBytes(radices))) value = (value << 8n) | BigInt(b);
  const digits: number[] = [];
  for (const radix of radices) {
    digits.push(Number(value % radix));
    value /= radix;
  }
  return value === 0n ? digits : null;
}

// ---- the MAC ------------------------------------------------------------------------------------

/** What the MAC binds besides the bytes: the format, the set and the shape of its questions. */
function macContext(qsid: string, questions: readonly SmsQuestion[]): Uint8Array {
  return utf8(JSON.stringify(['PM1', qsid, questions.map((q) => [q.id, q.qt, q.options])]));
}

/** HMAC-SHA256 (WebCrypto) of the context and the bytes, truncated to SMS_MAC_BYTES. */
export async function answerCodeMac(key: Uint8Array, qsid: string, questions: readonly SmsQuestion[], signed: Uint8Array): Promise<Uint8Array> {
  const ctx = macContext(qsid, questions);
  const data = new Uint8Array(4 + ctx.length + signed.length);
  new DataView(data.buffer).setUint32(0, ctx.length);
  data.set(ctx, 4);
  data.set(signed, 4 + ctx.length);
  const k = await web.crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return new Uint8Array(await web.crypto.subtle.sign('HMAC', k, data)).subarray(0, SMS_MAC_BYTES);
}

/** Equal bytes, compared without stopping at the first difference. */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let d = 0;
  for (let i = 0; i < a.length; i++) d |= a[i]! ^ b[i]!;
  return d === 0;
}

// ---- packing ----------------------------------------------------------------------------------

function writeAttemptId(w: Writer, id: string): number {
  if (UUID.test(id) || HEX32.test(id)) {
    const hex = id.replaceAll('-', '');
    for (let i = 0; i < 32; i += 2) w.byte(parseInt(hex.slice(i, i + 2), 16));
    return UUID.test(id) ? FLAG_ID_UUID : FLAG_ID_HEX;
  }
  const b = utf8(id);
  w.varint(b.length);
  w.bytes(b);
  return FLAG_ID_TEXT;
}

function readAttemptId(r: Reader, form: number): string {
  if (form === FLAG_ID_TEXT) return new web.TextDecoder('utf-8', { fatal: true }).decode(r.take(r.varint()));
  const hex = Array.from(r.take(16), (b) => b.toString(16).padStart(2, '0')).join('');
  return form === FLAG_ID_HEX ? hex : `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The bytes before the MAC, with or without the texts. */
function codeBytes(
  a: SmsAttempt & { submittedAt: number },
  questions: readonly SmsQuestion[],
  digits: readonly number[],
  texts: 'in' | 'follow' | 'none',
  lang: 'en' | 'hi',
): Uint8Array {
  const head = new Writer();
  const rest = new Writer();
  const idForm = writeAttemptId(rest, a.id);
  rest.fixed(smsSetTag(a.qsid), 4);
  rest.fixed(a.submittedAt, 6);
  rest.varint(zigzag(a.submittedAt - a.st));
  rest.varint(a.elapsed === undefined ? 0 : a.elapsed + 1);
  rest.varint(questions.length);
  writeDigits(rest, digits, questions.map(radixOf));
  if (texts === 'in') {
    questions.forEach((q, i) => {
      if (!isText(q.qt) || digits[i]! < FIRST_ANSWER) return;
      const b = utf8(a.answers[q.id]!.ua as string);
      rest.varint(b.length);
      rest.bytes(b);
    });
  }
  head.byte(idForm | (texts === 'in' ? FLAG_TEXTS : 0) | (texts === 'follow' ? FLAG_FOLLOW : 0) | (lang === 'hi' ? FLAG_HINDI : 0));
  head.bytes(rest.done());
  return head.done();
}

async function sealed(key: Uint8Array, qsid: string, questions: readonly SmsQuestion[], signed: Uint8Array): Promise<string> {
  const mac = await answerCodeMac(key, qsid, questions, signed);
  const all = new Uint8Array(signed.length + mac.length);
  all.set(signed);
  all.set(mac, signed.length);
  return SMS_ANSWER_PREFIX + toSmsText(all);
}

/**
 * Packs a submitted attempt. Null when the attempt is not something the code can say exactly
 * (not submitted, an answer to a question outside `questions`, an answer in a form the test screen
 * never writes): what the server rebuilds must be the attempt itself, receipt and all.
 */
export async function packAnswerCode(a: SmsAttempt, questions: readonly SmsQuestion[], key: Uint8Array, lang: 'en' | 'hi' = 'en'): Promise<PackedCode | null> {
  if (a.submittedAt === null) return null;
  const ids = new Set(questions.map((q) => q.id));
  if (Object.keys(a.answers).some((id) => !ids.has(id))) return null;
  const digits = questions.map((q) => digitOf(q, a.answers[q.id]));
  if (digits.some((d) => d === null)) return null;
  const attempt = { ...a, submittedAt: a.submittedAt };
  const hasTexts = questions.some((q, i) => isText(q.qt) && digits[i]! >= FIRST_ANSWER);
  const full = await sealed(key, a.qsid, questions, codeBytes(attempt, questions, digits as number[], hasTexts ? 'in' : 'none', lang));
  if (!hasTexts || smsParts(full) <= SMS_MAX_PARTS) return { text: full, parts: smsParts(full), textsFollow: false };
  const short = await sealed(key, a.qsid, questions, codeBytes(attempt, questions, digits as number[], 'follow', lang));
  return { text: short, parts: smsParts(short), textsFollow: true };
}

/** Whether a message is meant as an answer code (its prefix), whatever else it holds. */
export function looksLikeAnswerCode(text: string): boolean {
  return text.trimStart().toUpperCase().startsWith(SMS_ANSWER_PREFIX.trim());
}

/**
 * Reads a code's header, before its set and key are known. Null when it is not a whole code:
 * another prefix, a character outside the alphabet, too short (a part lost), bytes left over.
 * Phones and gateways may break a long text at its parts with white space: that is dropped.
 */
export function readAnswerCode(text: string): CodeEnvelope | null {
  const t = text.trim();
  if (!t.startsWith(SMS_ANSWER_PREFIX)) return null;
  const bytes = fromSmsText(t.slice(SMS_ANSWER_PREFIX.length).replace(/\s+/g, ''));
  if (!bytes || bytes.length <= SMS_MAC_BYTES) return null;
  const signed = bytes.subarray(0, bytes.length - SMS_MAC_BYTES);
  const mac = bytes.subarray(bytes.length - SMS_MAC_BYTES);
  try {
    const r = new Reader(signed);
    const flags = r.byte();
    const form = flags & 3;
    if (form === 3 || flags & 0xe0 || (flags & FLAG_TEXTS && flags & FLAG_FOLLOW)) return null;
    const attemptId = readAttemptId(r, form);
    const setTag = r.fixed(4);
    const submittedAt = r.fixed(6);
    const st = submittedAt - unzigzag(r.varint());
    const e = r.varint();
    const count = r.varint();
    return {
      attemptId,
      setTag,
      submittedAt,
      st,
      elapsed: e === 0 ? undefined : e - 1,
      count,
      textsIncluded: (flags & FLAG_TEXTS) !== 0,
      textsFollow: (flags & FLAG_FOLLOW) !== 0,
      lang: flags & FLAG_HINDI ? 'hi' : 'en',
      body: signed.subarray(r.pos),
      signed,
      mac,
    };
  } catch {
    return null;
  }
}

/** Whether the code's MAC is right for this key and set. */
export async function verifyAnswerCode(env: CodeEnvelope, qsid: string, questions: readonly SmsQuestion[], key: Uint8Array): Promise<boolean> {
  if (env.setTag !== smsSetTag(qsid) || env.count !== questions.length) return false;
  return sameBytes(await answerCodeMac(key, qsid, questions, env.signed), env.mac);
}

function answerOf(q: SmsQuestion, digit: number, text: () => string | undefined): DecodedAnswers[string] | undefined {
  if (digit === ABSENT) return undefined;
  if (digit === VISITED) return { ua: null, status: 'VISITED' };
  if (digit === MARKED) return { ua: null, status: 'MARKED' };
  const n = choices(q);
  const k = (digit - FIRST_ANSWER) % n;
  const status = digit - FIRST_ANSWER >= n ? 'ANSWERED_MARKED' : 'ANSWERED';
  if (q.qt === 'mcq1') return { ua: q.options[k]!, status };
  if (q.qt === 'mcq2') return { ua: q.options.filter((_, i) => Math.floor((k + 1) / 2 ** i) % 2 === 1), status };
  return { ua: text(), status };
}

/**
 * The answers of a code (after verifyAnswerCode) against the set's questions, as the device stored
 * them; null when the body does not read as exactly that (bytes left over, a text cut short).
 */
export function decodeAnswers(env: CodeEnvelope, questions: readonly SmsQuestion[]): DecodedAnswers | null {
  try {
    const r = new Reader(env.body);
    const digits = readDigits(r, questions.map(radixOf));
    if (!digits) return null;
    const decoder = new web.TextDecoder('utf-8', { fatal: true });
    const out: DecodedAnswers = {};
    questions.forEach((q, i) => {
      const a = answerOf(q, digits[i]!, () => (env.textsIncluded ? decoder.decode(r.take(r.varint())) : undefined));
      if (a) out[q.id] = a;
    });
    return r.pos === env.body.length ? out : null;
  } catch {
    return null;
  }
}

/**
 * Whether an attempt's answers are the ones a code said (an upload by data after an SMS, docs/sms.md
 * "When the data comes"): the same questions, each in the same state with the same answer; a text
 * that followed by data may be any text.
 */
export function sameAsCode(code: DecodedAnswers, answers: SmsAttempt['answers']): boolean {
  const ids = new Set([...Object.keys(code), ...Object.keys(answers)]);
  return [...ids].every((id) => {
    const said = code[id];
    const now = answers[id];
    if (!said || !now || said.status !== now.status) return false;
    if (said.ua === undefined) return typeof now.ua === 'string';
    return JSON.stringify(said.ua) === JSON.stringify(now.ua);
  });
}

/** The questions of a set as the code reads them: in the set's order, each question's option keys in order. */
export function smsQuestions(ids: readonly string[], byId: (id: string) => { id: string; qt: QuestionType; ops: Record<string, unknown> } | undefined): SmsQuestion[] {
  return ids.flatMap((id) => {
    const q = byId(id);
    return q ? [{ id: q.id, qt: q.qt, options: Object.keys(q.ops) }] : [];
  });
}
