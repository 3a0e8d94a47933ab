import { crc32 } from 'node:zlib';
import { MEDIA_MAX_PIXELS, type MediaExt } from '@pm/protocol/media';

/*
 * What an uploaded image is, read from its own bytes (docs/security.md, "Files in and out"). A
 * content sniffer that tries every format it knows unzipped any body starting with `PK`: a 1 MiB
 * upload inflated to 1 GB, and a truncated zip threw. Here only PNG, JPEG and WebP are known, each
 * by its signature and then by walking its structure — PNG chunks (lengths, CRCs, IHDR first,
 * IDAT, IEND last), JPEG segments (SOI, one frame header, scans, EOI), WebP's RIFF chunks (the
 * VP8 / VP8L / VP8X headers) — with every length checked against the body before it is used.
 * Nothing is ever decompressed: the pixel data is left to the browser. The size the file states
 * (PNG IHDR, JPEG SOF, WebP canvas and bitstream headers, which must agree) must be within
 * MEDIA_MAX_PIXELS, and the file must end where its format ends (no bytes before or after it).
 */

export type ImageCheck =
  | { ok: true; ext: MediaExt; width: number; height: number }
  /** `type`: not PNG, JPEG or WebP; `broken`: their signature, but not a whole file of that format; `pixels`: over MEDIA_MAX_PIXELS. */
  | { ok: false; reason: 'type' | 'broken' | 'pixels' };

type Size = { width: number; height: number };

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

const startsWith = (b: Uint8Array, bytes: readonly number[], at = 0) => b.length >= at + bytes.length && bytes.every((x, i) => b[at + i] === x);
const ascii = (b: Uint8Array, at: number) => String.fromCharCode(b[at]!, b[at + 1]!, b[at + 2]!, b[at + 3]!);
const be32 = (b: Uint8Array, at: number) => ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;
const be16 = (b: Uint8Array, at: number) => (b[at]! << 8) | b[at + 1]!;
const le16 = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8);
const le24 = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16);
const le32 = (b: Uint8Array, at: number) => (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;

/** The format by the signature alone. */
function signature(b: Uint8Array): MediaExt | null {
  if (startsWith(b, PNG_SIGNATURE)) return 'png';
  if (startsWith(b, [0xff, 0xd8, 0xff])) return 'jpg';
  if (b.length >= 12 && ascii(b, 0) === 'RIFF' && ascii(b, 8) === 'WEBP') return 'webp';
  return null;
}

/** Bit depths PNG allows for each colour type (PNG spec, table 11.1). */
const PNG_DEPTHS: Record<number, number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };

function pngSize(b: Uint8Array): Size | null {
  let at = PNG_SIGNATURE.length;
  let size: Size | null = null;
  let colourType = -1;
  let palette = false;
  let idat: 'none' | 'in' | 'after' = 'none';
  while (at + 12 <= b.length) {
    const length = be32(b, at);
    if (length > 0x7fffffff || at + 12 + length > b.length) return null;
    const type = ascii(b, at + 4);
    if (!/^[A-Za-z]{4}$/.test(type)) return null;
    if (crc32(b.subarray(at + 4, at + 8 + length)) !== be32(b, at + 8 + length)) return null;
    const data = at + 8;
    if ((size === null) !== (type === 'IHDR')) return null;
    if (type === 'IHDR') {
      if (length !== 13) return null;
      const width = be32(b, data);
      const height = be32(b, data + 4);
      colourType = b[data + 9]!;
      if (width === 0 || height === 0 || width > 0x7fffffff || height > 0x7fffffff) return null;
      if (!PNG_DEPTHS[colourType]?.includes(b[data + 8]!) || b[data + 10] !== 0 || b[data + 11] !== 0 || b[data + 12]! > 1) return null;
      size = { width, height };
    } else if (type === 'PLTE') {
      if (idat !== 'none' || length === 0 || length % 3 !== 0 || length > 768) return null;
      palette = true;
    } else if (type === 'IDAT') {
      if (idat === 'after') return null;
      idat = 'in';
    } else if (type === 'IEND') {
      if (length !== 0 || idat === 'none' || (colourType === 3 && !palette)) return null;
      return at + 12 === b.length ? size : null;
    } else if (idat === 'in') {
      idat = 'after';
    }
    at += 12 + length;
  }
  return null;
}

/** JPEG frame headers (SOF0–SOF15 but DHT C4, JPG C8 and DAC CC). */
const isFrameHeader = (m: number) => m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc;

function jpegSize(b: Uint8Array): Size | null {
  let at = 2; // after SOI
  let size: Size | null = null;
  let scans = 0;
  for (;;) {
    if (b[at] !== 0xff) return null;
    while (b[at] === 0xff) at++; // fill bytes
    if (at >= b.length) return null;
    const marker = b[at++]!;
    if (marker === 0xd9) return size && scans > 0 && at === b.length ? size : null; // EOI
    // Markers without a length (SOI, TEM, RSTn) and stuffing have no place between segments.
    if (marker === 0x00 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) return null;
    if (at + 2 > b.length) return null;
    const length = be16(b, at);
    if (length < 2 || at + length > b.length) return null;
    const data = at + 2;
    if (isFrameHeader(marker)) {
      const components = b[data + 5];
      if (size || length < 8 || components === undefined || components < 1 || components > 4 || length !== 8 + 3 * components) return null;
      const height = be16(b, data + 1);
      const width = be16(b, data + 3);
      if (width === 0 || height === 0) return null;
      size = { width, height };
    }
    at += length;
    if (marker === 0xda) {
      // A scan: entropy-coded bytes up to the next marker (FF 00 is a stuffed FF, FF D0–D7 a restart).
      if (!size) return null;
      scans++;
      for (;;) {
        const ff = b.indexOf(0xff, at);
        if (ff < 0 || ff + 1 >= b.length) return null;
        const next = b[ff + 1]!;
        if (next === 0x00 || (next >= 0xd0 && next <= 0xd7)) at = ff + 2;
        else if (next === 0xff) at = ff + 1;
        else {
          at = ff;
          break;
        }
      }
    }
  }
}

type Chunk = { type: string; at: number; length: number };

/** RIFF chunks from `at` to exactly `end` (each padded to an even length), or null. */
function riffChunks(b: Uint8Array, at: number, end: number): Chunk[] | null {
  const out: Chunk[] = [];
  while (at < end) {
    if (at + 8 > end) return null;
    const length = le32(b, at + 4);
    const next = at + 8 + length + (length & 1);
    if (next > end) return null;
    out.push({ type: ascii(b, at), at: at + 8, length });
    at = next;
  }
  return out;
}

/** The size a VP8 (lossy key frame) or VP8L (lossless) bitstream header states. */
function bitstreamSize(b: Uint8Array, c: Chunk): Size | null {
  if (c.type === 'VP8 ') {
    if (c.length < 10) return null;
    const tag = le24(b, c.at);
    const keyFrame = (tag & 1) === 0;
    const firstPartition = (tag >> 5) & 0x7ffff;
    if (!keyFrame || firstPartition > c.length - 10 || !startsWith(b, [0x9d, 0x01, 0x2a], c.at + 3)) return null;
    const width = le16(b, c.at + 6) & 0x3fff;
    const height = le16(b, c.at + 8) & 0x3fff;
    return width && height ? { width, height } : null;
  }
  if (c.type === 'VP8L') {
    if (c.length < 5 || b[c.at] !== 0x2f) return null;
    const bits = le32(b, c.at + 1);
    if (bits >>> 29 !== 0) return null; // version
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  return null;
}

const isBitstream = (c: Chunk) => c.type === 'VP8 ' || c.type === 'VP8L';

function webpSize(b: Uint8Array): Size | null {
  if (le32(b, 4) + 8 !== b.length) return null;
  const chunks = riffChunks(b, 12, b.length);
  const first = chunks?.[0];
  if (!chunks || !first) return null;
  // Simple format: one bitstream and nothing else.
  if (isBitstream(first)) return chunks.length === 1 ? bitstreamSize(b, first) : null;
  // Extended format: the canvas in VP8X, then one still image or the frames of an animation.
  if (first.type !== 'VP8X' || first.length !== 10) return null;
  const width = le24(b, first.at + 4) + 1;
  const height = le24(b, first.at + 7) + 1;
  if (b[first.at]! & 0x02) {
    const frames = chunks.filter((c) => c.type === 'ANMF');
    if (!chunks.some((c) => c.type === 'ANIM') || frames.length === 0) return null;
    for (const f of frames) {
      if (f.length < 24) return null;
      const x = 2 * le24(b, f.at);
      const y = 2 * le24(b, f.at + 3);
      const frame = { width: le24(b, f.at + 6) + 1, height: le24(b, f.at + 9) + 1 };
      if (x + frame.width > width || y + frame.height > height) return null;
      const inner = riffChunks(b, f.at + 16, f.at + f.length);
      const image = inner?.filter(isBitstream);
      if (image?.length !== 1) return null;
      const stated = bitstreamSize(b, image[0]!);
      if (stated?.width !== frame.width || stated.height !== frame.height) return null;
    }
    return { width, height };
  }
  const images = chunks.filter(isBitstream);
  if (images.length !== 1) return null;
  const stated = bitstreamSize(b, images[0]!);
  return stated?.width === width && stated.height === height ? { width, height } : null;
}

const SIZE_OF: Record<MediaExt, (b: Uint8Array) => Size | null> = { png: pngSize, jpg: jpegSize, webp: webpSize };

/** Whether the bytes are a whole PNG, JPEG or WebP within the pixel limit, and which. */
export function checkImage(bytes: Uint8Array): ImageCheck {
  const ext = signature(bytes);
  if (!ext) return { ok: false, reason: 'type' };
  const size = SIZE_OF[ext](bytes);
  if (!size) return { ok: false, reason: 'broken' };
  if (size.width * size.height > MEDIA_MAX_PIXELS) return { ok: false, reason: 'pixels' };
  return { ok: true, ext, ...size };
}
