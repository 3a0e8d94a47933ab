import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import type { z } from 'zod';
import { MSG } from '@pm/protocol/messages';
import { badRequest } from './errors';

/*
 * A refused body's `msg` names the field (its path in the body; `body` for the body itself) and
 * what it must be, as `<field> <text of MSG>` (docs/security.md, "Smaller points"): the client
 * keeps the name and translates the rest (client/src/lib/server-messages.ts). A schema's own
 * message is kept where it has one, except for a field that is there with the wrong type: "is
 * required" (or the like) would be false for it, so that always says what the type must be.
 */

type Issue = z.core.$ZodIssue;

/** The kinds of JSON value a zod type expects, in the words of the messages. */
type Kind = 'text' | 'number' | 'whole' | 'boolean' | 'list' | 'object';
const KIND_OF: Partial<Record<string, Kind>> = {
  string: 'text',
  number: 'number',
  bigint: 'number',
  int: 'whole',
  boolean: 'boolean',
  array: 'list',
  tuple: 'list',
  set: 'list',
  object: 'object',
  record: 'object',
  map: 'object',
};
const MUST_BE: Record<Kind, string> = {
  text: MSG.mustBeText,
  number: MSG.mustBeNumber,
  whole: MSG.mustBeWholeNumber,
  boolean: MSG.mustBeBoolean,
  list: MSG.mustBeList,
  object: MSG.mustBeObject,
};
/** Two kinds a union takes, sorted and joined by '+'. */
const MUST_BE_EITHER: Record<string, string> = {
  'number+text': MSG.mustBeNumberOrText,
  'list+text': MSG.mustBeTextOrList,
  'object+text': MSG.mustBeTextOrObject,
  'list+object': MSG.mustBeListOrObject,
};

function mustBe(kinds: Kind[]): string {
  const unique = [...new Set(kinds.map((k) => (k === 'whole' ? 'number' : k)))].sort();
  if (unique.length === 1 && kinds.length === 1) return MUST_BE[kinds[0]!];
  return MUST_BE_EITHER[unique.join('+')] ?? MUST_BE[(unique[0] as Kind | undefined) ?? 'object'];
}

/**
 * The messages of one parse. `root` names the value parsed itself (an empty path): `body` for a
 * JSON body, `value` for a path parameter.
 */
function messagesFor(root: string) {
  const fieldOf = (path: readonly PropertyKey[]) => (path.length > 0 ? path.map(String).join('.') : root);

  /** The message of a union none of whose options took the value. */
  function unionMessage(field: string, issue: Extract<Issue, { code: 'invalid_union' }>): string {
    // An option that took the value's type and failed further in is what the sender meant.
    for (const option of issue.errors) {
      const deeper = option.find((i) => !(i.code === 'invalid_type' && i.path.length === 0) && i.code !== 'invalid_value');
      if (deeper) return messageOf({ ...deeper, path: [...issue.path, ...deeper.path] } as Issue);
    }
    const kinds = issue.errors.flatMap((option) => option.flatMap((i) => (i.code === 'invalid_type' ? [KIND_OF[i.expected]] : []))).filter((k): k is Kind => k !== undefined);
    return `${field} ${kinds.length > 0 ? mustBe(kinds) : MSG.fieldNotAllowed}`;
  }

  /** Ours for an issue the schema gave no message of its own (the parse's `error` option). */
  function defaultMessage(issue: z.core.$ZodRawIssue): string {
    const field = fieldOf(issue.path ?? []);
    switch (issue.code) {
      case 'invalid_type': {
        if (issue.input === undefined) return `${field} ${MSG.fieldRequired}`;
        const kind = KIND_OF[issue.expected];
        return `${field} ${kind ? MUST_BE[kind] : MSG.fieldInvalid}`;
      }
      case 'too_small': {
        if (issue.origin === 'string') return `${field} ${issue.minimum === 1 ? MSG.fieldEmpty : MSG.fieldTooShort}`;
        if (issue.origin === 'array' || issue.origin === 'set') return `${field} ${MSG.fieldTooFewItems}`;
        return `${field} ${MSG.fieldTooSmall}`;
      }
      case 'too_big': {
        if (issue.origin === 'string') return `${field} ${MSG.fieldTooLong}`;
        if (issue.origin === 'array' || issue.origin === 'set') return `${field} ${MSG.fieldTooManyItems}`;
        return `${field} ${MSG.fieldTooLarge}`;
      }
      case 'invalid_format':
        return `${field} ${issue.format === 'email' ? MSG.mustBeEmail : issue.format === 'url' ? MSG.mustBeWebAddress : MSG.fieldFormat}`;
      case 'invalid_value':
        return `${field} ${MSG.fieldNotAllowed}`;
      case 'invalid_union':
        if (issue.input === undefined) return `${field} ${MSG.fieldRequired}`;
        return unionMessage(field, issue as unknown as Extract<Issue, { code: 'invalid_union' }>);
      default:
        return `${field} ${MSG.fieldInvalid}`;
    }
  }

  /** The `msg` of one issue, as the parse left it (a schema's message, or defaultMessage's). */
  function messageOf(issue: Issue): string {
    if (issue.code === 'unrecognized_keys') return `Unknown field: ${issue.keys.join(', ')}`;
    // A field present with the wrong type: a schema's "… is required" would be false here.
    if (issue.code === 'invalid_type' && issue.input !== undefined) return defaultMessage({ ...issue, input: issue.input });
    return issue.message;
  }

  return { defaultMessage, messageOf };
}

/**
 * Validates `value`; refused, a 400 whose `msg` is the first issue's (the spec shows one message
 * at a time; docs/api.md). `root` names the value itself in a message about it rather than one of its fields.
 */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown, root = 'value'): z.output<S> {
  const { defaultMessage, messageOf } = messagesFor(root);
  // reportInput: without it zod leaves `input` out of its issues, and a field present with the
  // wrong type could not be told from a missing one.
  const r = schema.safeParse(value, { reportInput: true, error: defaultMessage });
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  throw badRequest(issue ? messageOf(issue) : MSG.someError);
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
  return parseWith(schema, body, 'body');
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
