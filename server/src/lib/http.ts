import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import type { z } from 'zod';
import { MSG } from '../../../sync-protocol/src/messages';
import { badRequest } from './errors';

/** The first zod issue as the `msg` of a 400 (spec §8 shows one message at a time). */
function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return MSG.someError;
  if (issue.code === 'unrecognized_keys') return `Unknown field: ${issue.keys.join(', ')}`;
  if (issue.code === 'invalid_type' && issue.input === undefined && issue.path.length > 0) {
    // zod reports a missing field as a type error; keep a custom message when the schema has one.
    return issue.message.startsWith('Invalid input') ? `${issue.path.join('.')} is required` : issue.message;
  }
  return issue.message;
}

export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const r = schema.safeParse(value);
  if (!r.success) throw badRequest(firstIssue(r.error));
  return r.data;
}

/** Reads and validates a JSON body. Malformed JSON and other content types get 400. */
export async function parseJson<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  const type = c.req.header('content-type') ?? '';
  if (!/^application\/json\b/i.test(type)) throw badRequest('Content-Type must be application/json');
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    throw badRequest(MSG.invalidJson);
  }
  return parseWith(schema, body);
}

/** Validates the query string; a repeated parameter is refused rather than silently merged. */
export function parseQuery<S extends z.ZodType>(c: Context, schema: S): z.output<S> {
  const url = c.req.url;
  const q = url.indexOf('?');
  const params: Record<string, string> = {};
  if (q >= 0) {
    // One pass of URLSearchParams (Hono's query helpers would parse the string twice).
    for (const [k, v] of new URLSearchParams(url.slice(q + 1))) {
      if (Object.hasOwn(params, k)) throw badRequest(`Parameter ${k} given more than once`);
      params[k] = v;
    }
  }
  return parseWith(schema, params);
}

/** Splits a `Basic` Authorization header into its two parts, or null. */
export function parseBasic(c: Context): { user: string; pass: string } | null {
  const h = c.req.header('authorization');
  const m = h ? /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(h) : null;
  if (!m?.[1]) return null;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const i = decoded.indexOf(':');
  if (i < 0) return null;
  return { user: decoded.slice(0, i), pass: decoded.slice(i + 1) };
}

export function clientIp(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    // The last entry is the one our proxy appended (the address it saw); earlier entries are
    // whatever the client sent, and a client choosing them could dodge every per-IP limit.
    const fwd = c.req.header('x-forwarded-for')?.split(',').at(-1)?.trim();
    if (fwd) return fwd;
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    // app.request() in tests has no socket.
    return 'local';
  }
}
