import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib';
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../context';

/** The content codings this server sends, in its order of preference (docs/benchmarks.md "bench:bundle"). */
export type ContentCoding = 'br' | 'gzip';
const PREFERENCE: readonly ContentCoding[] = ['br', 'gzip'];

/**
 * The coding to send for a request's Accept-Encoding (RFC 9110 §12.5.3), among `available`:
 * the one the client weighs highest, brotli on a tie; none without the header, or when every
 * coding is refused (`q=0`) — the identity is always acceptable to us. `*` stands for the codings
 * the header does not name; `x-gzip` is gzip.
 */
export function negotiateEncoding(header: string | undefined, available: readonly ContentCoding[] = PREFERENCE): ContentCoding | undefined {
  if (!header) return undefined;
  const weights = new Map<string, number>();
  let wildcard: number | undefined;
  for (const part of header.split(',')) {
    const semi = part.indexOf(';');
    let coding = (semi < 0 ? part : part.slice(0, semi)).trim().toLowerCase();
    if (!coding) continue;
    if (coding === 'x-gzip') coding = 'gzip';
    let q = 1;
    if (semi >= 0) {
      const m = /(?:^|;)\s*q\s*=\s*([0-9.]+)/i.exec(part.slice(semi));
      q = m ? Number(m[1]) : 1;
      if (!(q >= 0)) q = 0;
    }
    if (coding === '*') wildcard = q;
    else weights.set(coding, q);
  }
  let best: ContentCoding | undefined;
  let bestQ = 0;
  for (const coding of PREFERENCE) {
    if (!available.includes(coding)) continue;
    const q = weights.get(coding) ?? wildcard ?? 0;
    if (q > bestQ) {
      best = coding;
      bestQ = q;
    }
  }
  return best;
}

/**
 * API answers below this go as they are: compressing a few hundred bytes saves less than a TCP
 * packet and costs the server a compressor per request (most answers are this small: a push's
 * acknowledgement, a login, a 4xx).
 */
export const COMPRESS_MIN_BYTES = 1024;
/**
 * Bodies up to this size are compressed on the event loop (well under a millisecond); larger ones
 * (a replica's pull, a long list) on libuv's thread pool, so that other requests are not held up.
 */
const COMPRESS_INLINE_MAX_BYTES = 64 * 1024;
/**
 * JSON only. Never `text/event-stream` (the sync stream: each event must reach the client as it
 * is written, and a compressor would hold it back), nor images or other bodies already
 * compressed (uploaded images live outside /api, under /media/).
 */
const COMPRESSIBLE_TYPE = /^application\/(?:[\w.-]+\+)?json(?:[;\s]|$)/i;
const NO_TRANSFORM = /(?:^|,)\s*no-transform\s*(?:,|$)/i;

/**
 * Brotli at quality 5 for answers made per request. Measured on fixtures/questions.json (60 kB of
 * bilingual question rows) and slices of the question sets: ~6–10 % smaller than gzip's default
 * level at about the same CPU time (~1.2 ms for 60 kB); qualities 3–4 came out no smaller than
 * gzip on this JSON. Quality 11 is for the build's files, compressed once.
 */
const BROTLI_DYNAMIC = {
  params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT },
};
const GZIP_DYNAMIC = { level: 6 };
const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

function compressBody(body: Uint8Array, coding: ContentCoding): Buffer | Promise<Buffer> {
  const inline = body.byteLength <= COMPRESS_INLINE_MAX_BYTES;
  if (coding === 'br') {
    const opts = { ...BROTLI_DYNAMIC, params: { ...BROTLI_DYNAMIC.params, [constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength } };
    return inline ? brotliCompressSync(body, opts) : brotliAsync(body, opts);
  }
  return inline ? gzipSync(body, GZIP_DYNAMIC) : gzipAsync(body, GZIP_DYNAMIC);
}

/**
 * The body of an answer made from a string or bytes (c.json, c.body), read without building a
 * fetch Response. Under Node, @hono/node-server's lightweight Response keeps `[status, body,
 * headers]` under its own symbol (`Symbol('cache')`) and builds a real Response only when
 * something asks for `body`, `arrayBuffer()`…; doing that for every answer made the API ~4×
 * slower on small answers. Undefined when the body is not held that way (a stream, the
 * platform's Response under app.request() in tests, another version of the adapter): the caller
 * then reads the body the standard way. Only ever read, never written.
 */
export function heldBody(res: Response): string | Uint8Array<ArrayBuffer> | null | undefined {
  for (const key of Object.getOwnPropertySymbols(res)) {
    if (key.description !== 'cache') continue;
    const held: unknown = (res as unknown as Record<symbol, unknown>)[key];
    if (!Array.isArray(held)) return undefined;
    const body: unknown = held[1];
    if (body instanceof Uint8Array) return body as Uint8Array<ArrayBuffer>;
    return typeof body === 'string' || body === null ? body : undefined;
  }
  return undefined;
}

const byteLength = (body: string | Uint8Array) => (typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);

/**
 * Compresses the API's JSON answers of at least `COMPRESS_MIN_BYTES` with brotli or gzip,
 * whichever the request allows (docs/benchmarks.md "bench:bundle"), with `Vary: Accept-Encoding`. HEAD, 204/206/304,
 * answers that already have a Content-Encoding or say `no-transform` are left alone. A request
 * without Accept-Encoding (app.request() in the API tests, most load generators) costs one
 * header lookup, a small answer under Node a length check.
 */
export function compressApi(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    const accept = c.req.header('accept-encoding');
    if (!accept || c.req.method === 'HEAD') return;
    const res = c.res;
    let body = heldBody(res);
    if (body === null || (body !== undefined && byteLength(body) < COMPRESS_MIN_BYTES)) return;
    const status = res.status;
    if (status === 204 || status === 206 || status === 304) return;
    const type = res.headers.get('content-type');
    if (!type || !COMPRESSIBLE_TYPE.test(type) || res.headers.has('content-encoding') || NO_TRANSFORM.test(res.headers.get('cache-control') ?? '')) return;
    const declared = res.headers.get('content-length');
    if (declared !== null && Number(declared) < COMPRESS_MIN_BYTES) return;
    const coding = negotiateEncoding(accept);
    if (body !== undefined && !coding) {
      res.headers.append('Vary', 'Accept-Encoding');
      return;
    }
    // Copied before the body is read: reading it may swap the headers object under @hono/node-server.
    const headers = new Headers(res.headers);
    if (body === undefined) {
      // c.json() declares no length: read the body to learn it.
      body = new Uint8Array(await res.arrayBuffer());
      if (body.byteLength < COMPRESS_MIN_BYTES) return replace(c, new Response(body, { status, headers }));
    }
    headers.append('Vary', 'Accept-Encoding');
    if (!coding) return replace(c, new Response(body, { status, headers }));
    const compressed = await compressBody(typeof body === 'string' ? Buffer.from(body) : body, coding);
    headers.set('Content-Encoding', coding);
    headers.set('Content-Length', String(compressed.byteLength));
    // A strong validator names the bytes; the compressed bytes are other bytes (RFC 9110 §8.8.3).
    const etag = headers.get('ETag');
    if (etag && !etag.startsWith('W/')) headers.set('ETag', `W/${etag}`);
    replace(c, new Response(new Uint8Array(compressed.buffer as ArrayBuffer, compressed.byteOffset, compressed.byteLength), { status, headers }));
  };
}

/**
 * Puts `res` in place of the answer. Made from bytes and a plain init, it stays a lightweight
 * Response under Node (written straight to the socket); one made from another Response would not.
 * Cleared first: Hono's setter would otherwise copy the old answer's headers onto the new one.
 */
function replace(c: Context<AppEnv>, res: Response): void {
  c.res = undefined;
  c.res = res;
}
