import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { eq, getTableName, is, sql, Table } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ANSWER_FILE_MSG, type AnswerKeyResponse } from '@pm/protocol/answer-file';
import { sealAnswerFile } from '@pm/protocol/answer-file-seal';
import { MSG } from '@pm/protocol/messages';
import type { TestSummaryDoc } from '@pm/protocol/sync/test-summary';
import { PROTOCOL_VERSION } from '@pm/protocol/version';
import { ACCESS, type Access, type RouteKey } from '../../server/src/access';
import * as schema from '../../server/src/db/schema';
import { attempt, permission, person, personPermission, session } from '../../server/src/db/schema';
import { first } from '../../server/src/db/transaction';
import { hashPassword } from '../../server/src/lib/passwords';
import { sessionToken, startSession, TOKEN_TTL_MS } from '../../server/src/lib/sessions';
import { submittedAttempt } from '../../server/src/test/builders';
import { type Harness, startHarness } from '../../server/src/test/harness';

/**
 * Sessions everywhere (docs/security.md, "The second probe", and "Sessions and logout"): a token
 * ended by logout, log out of all devices, a password change or an admin reset opens nothing on
 * any route that reads a token, the answer file included, and stores nothing. Whether a token is
 * still its person's is one function, lib/sessions.ts tokenOwner. An answer file with an expired
 * token is taken only when its session ended by plain expiry after the file's attempts.
 */

let h: Harness;
let admin: string;
let key: AnswerKeyResponse;
beforeAll(async () => {
  h = await startHarness();
  admin = await h.tokenOf('admin');
  const r = await h.request('GET', '/answer-file/key');
  expect(r.status).toBe(200);
  key = r.body as AnswerKeyResponse;
});
afterAll(() => h.destroy());

const DAY = 86_400_000;
const V = { 'x-sync-protocol': PROTOCOL_VERSION };

/**
 * Public entries that read a token of their own rather than the Authorization header: the answer
 * file carries its learner's token inside. Every other entry that reads a token is non-public in
 * the access table, where the middleware reads it (lib/route.ts), so a new route is walked below
 * without being named here.
 */
const TOKEN_INSIDE = new Set<RouteKey>(['POST /answer-file']);
const TAKES_TOKEN = (Object.entries(ACCESS) as [RouteKey, Access][]).filter(([k, a]) => a !== 'public' || TOKEN_INSIDE.has(k)).map(([k]) => k);

/** A person holding every permission, so that no route would refuse the token for want of one. */
let people = 0;
async function newPerson(): Promise<{ id: string; email: string; password: string }> {
  people++;
  const id = `revocation-${process.pid}-${people}`;
  const email = `${id}@example.com`;
  const password = 'Copper-kettle-31';
  await h.deps.db.insert(person).values({
    id,
    name: `Revocation ${people}`,
    mobile: `7${String(process.pid % 1000).padStart(3, '0')}${String(people).padStart(6, '0')}`,
    mobileVerified: true,
    email,
    emailVerified: true,
    passwordHash: await hashPassword(password),
  });
  for (const p of await h.deps.db.select({ id: permission.id }).from(permission)) await h.deps.db.insert(personPermission).values({ personId: id, permissionId: p.id });
  return { id, email, password };
}
type Person = Awaited<ReturnType<typeof newPerson>>;

async function signIn(p: Person): Promise<string> {
  const r = await h.login(p.email, p.password);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.token as string;
}

/** A ranked mock test submitted with nothing answered: what a thief would send to be ranked. */
const blankRanked = (at = Date.now()) => submittedAttempt('revocation', { st: at - 600_000, submittedAt: at, updatedAt: at });

/** The request for a route, with a body that stores something when the token is good. */
async function requestOf(route: RouteKey, token: string, doc: TestSummaryDoc): Promise<{ method: string; url: string; init: RequestInit }> {
  const space = route.indexOf(' ');
  const method = route.slice(0, space);
  const url = route
    .slice(space + 1)
    .replace(':collection', 'test_summary')
    .replace(/:[a-z]+/gi, method === 'DELETE' ? 'no-such-id' : 'demo-learner');
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, ...V, 'content-type': 'application/json' };
  let body: unknown = method === 'GET' || method === 'DELETE' ? undefined : {};
  if (route === 'POST /sync/v1/:collection/push') body = [{ newDocumentState: doc, assumedMasterState: null }];
  if (route === 'POST /answer-file') {
    // The file carries the token; the uploader (anyone) sends none.
    delete headers.authorization;
    body = { file: await sealAnswerFile({ v: 1, token, createdAt: doc.submittedAt!, attempts: [doc] }, key) };
  }
  return { method, url, init: { method, headers, ...(body !== undefined && { body: JSON.stringify(body) }) } };
}

/** Calls a route; a stream that opens (a bug) is read no further. */
async function call(route: RouteKey, token: string, doc: TestSummaryDoc): Promise<{ status: number; body: { msg?: string } | null }> {
  const { url, init } = await requestOf(route, token, doc);
  const ac = new AbortController();
  const res = await h.app.request(`/api${url}`, { ...init, signal: ac.signal });
  if ((res.headers.get('content-type') ?? '').includes('text/event-stream')) {
    ac.abort();
    await res.body?.cancel().catch(() => undefined);
    return { status: res.status, body: null };
  }
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as { msg?: string }) : null };
}

/** Every table's rows but the rate limiter's (a refused request may still count against a limit). */
async function snapshot(): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const t of Object.values(schema)) {
    if (!is(t, Table)) continue;
    const name = getTableName(t);
    if (name === 'rate_limit') continue;
    const rows = await h.deps.db.select().from(t).orderBy(sql`1`);
    out[name] = rows;
  }
  return out;
}

/**
 * The four ways a token is ended. Each signs the person in (more than once where the ending
 * spares one session) and returns the tokens that must be dead, and the password now.
 */
const REVOCATIONS: Record<string, (p: Person) => Promise<{ dead: string[]; password: string }>> = {
  logout: async (p) => {
    const token = await signIn(p);
    expect((await h.request('POST', '/UserLogin/logout', { token })).status).toBe(200);
    return { dead: [token], password: p.password };
  },
  'log out of all devices': async (p) => {
    const [phone, laptop] = [await signIn(p), await signIn(p)];
    expect((await h.request('POST', '/UserLogin/logoutAll', { token: laptop })).status).toBe(200);
    return { dead: [phone, laptop], password: p.password };
  },
  'password change': async (p) => {
    const [elsewhere, here] = [await signIn(p), await signIn(p)];
    const password = 'Quiet-river-42';
    const r = await h.request('PATCH', '/UserLogin/updatePasswordWithOldPassword', { token: here, body: { oldPassword: p.password, newPassword: password, confirmPassword: password } });
    expect(r.status).toBe(200);
    // `here` keeps its session but carries the old token version; `elsewhere` lost its session.
    return { dead: [elsewhere, here], password };
  },
  'admin password reset': async (p) => {
    const token = await signIn(p);
    const password = 'Amber-lantern-77';
    expect((await h.request('PUT', '/UserLogin/resetUserPasswordByAdmin', { token: admin, body: { personId: p.id, password } })).status).toBe(200);
    return { dead: [token], password };
  },
};

describe.each(Object.keys(REVOCATIONS))('after %s', (kind) => {
  test('the old token is refused on every route that takes one, and nothing is stored', async () => {
    expect(TAKES_TOKEN).toContain('POST /sync/v1/:collection/push');
    expect(TAKES_TOKEN).toContain('POST /answer-file');
    const p = await newPerson();
    // Made while the session was live, before it was ended: the file of a device handed on.
    const doc = blankRanked();
    const { dead, password } = await REVOCATIONS[kind]!(p);

    const before = await snapshot();
    for (const token of dead) {
      for (const route of TAKES_TOKEN) {
        const r = await call(route, token, doc);
        if (route === 'POST /answer-file') {
          // The uploader is not the one signed out: a refusal of the file, not of the caller.
          expect([r.status, r.body?.msg], route).toEqual([403, ANSWER_FILE_MSG.signedOut]);
        } else {
          expect([r.status, r.body?.msg], route).toEqual([401, MSG.sessionExpired]);
        }
      }
    }
    expect(await snapshot()).toEqual(before);
    expect(await first(h.deps.db.select().from(attempt).where(eq(attempt.id, doc.id)))).toBeUndefined();

    // The same requests with a live token of the same person do store: the refusals above are the token's.
    const live = await signIn({ ...p, password });
    expect((await call('POST /answer-file', live, doc)).status).toBe(200);
    const again = blankRanked();
    expect((await call('POST /sync/v1/:collection/push', live, again)).status).toBe(200);
    for (const id of [doc.id, again.id]) expect(await first(h.deps.db.select().from(attempt).where(eq(attempt.id, id)))).toMatchObject({ personId: p.id, status: 'SUBMITTED' });
  });
});

describe('an answer file with an expired token', () => {
  /** A session last seen `idleDays` ago, never renewed since: it ended by plain expiry. */
  async function endedSession(p: Person, idleDays: number) {
    const at = Date.now() - idleDays * DAY;
    const s = await startSession(h.deps.db, p.id, at);
    const token = await sessionToken(h.deps.config.jwtSecret, { id: p.id, tokenVersion: 0 }, s, at);
    return { token, endedAt: at + TOKEN_TTL_MS };
  }
  const upload = async (token: string, doc: TestSummaryDoc) => call('POST /answer-file', token, doc);
  const stored = async (doc: TestSummaryDoc) => (await first(h.deps.db.select().from(attempt).where(eq(attempt.id, doc.id)))) !== undefined;

  test('is taken when its session ended by plain expiry after the attempt, even after the person signed in again', async () => {
    const p = await newPerson();
    const { token, endedAt } = await endedSession(p, 40);
    // A later sign-in on another device clears the person's spent sessions, not this one.
    await signIn(p);
    const doc = blankRanked(endedAt - DAY);
    const r = await upload(token, doc);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(await stored(doc)).toBe(true);
  });

  test('is refused for an attempt submitted after its session had ended', async () => {
    const p = await newPerson();
    const { token, endedAt } = await endedSession(p, 40);
    const doc = blankRanked(endedAt + DAY);
    const r = await upload(token, doc);
    expect([r.status, r.body?.msg]).toEqual([403, ANSWER_FILE_MSG.afterSignIn]);
    expect(await stored(doc)).toBe(false);
  });

  test.each(Object.keys(REVOCATIONS))('is refused when the session was ended by %s, even after it had expired', async (kind) => {
    const p = await newPerson();
    const { token, endedAt } = await endedSession(p, 40);
    const doc = blankRanked(endedAt - DAY);
    if (kind === 'logout') {
      // A logout needs a live token of the session: the expired session, signed once more.
      const s = (await first(h.deps.db.select().from(session).where(eq(session.personId, p.id))))!;
      const fresh = await sessionToken(h.deps.config.jwtSecret, { id: p.id, tokenVersion: 0 }, s);
      expect((await h.request('POST', '/UserLogin/logout', { token: fresh })).status).toBe(200);
    } else {
      await REVOCATIONS[kind]!(p);
    }
    // Another sign-in deletes the revoked session: a token naming a missing session is refused too.
    for (let i = 0; i < 2; i++) {
      const r = await upload(token, doc);
      expect([r.status, r.body?.msg], kind).toEqual([403, ANSWER_FILE_MSG.signedOut]);
      await signIn({ ...p, password: kind === 'password change' ? 'Quiet-river-42' : kind === 'admin password reset' ? 'Amber-lantern-77' : p.password });
    }
    expect(await stored(doc)).toBe(false);
  });
});

test('one function decides whether a token is still its person’s: nothing else in the server verifies one', () => {
  const root = path.resolve(__dirname, '../../server/src');
  const readers: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const f = path.join(dir, e.name);
      if (e.isDirectory()) walk(f);
      else if (/\.ts$/.test(e.name) && !/\.test\.ts$/.test(e.name) && /\b(verifyToken|verifyTokenSignature|jwtVerify)\b/.test(readFileSync(f, 'utf8'))) readers.push(path.relative(root, f));
    }
  };
  walk(root);
  // lib/jwt.ts defines the checks of the signature; lib/sessions.ts tokenOwner is their one caller.
  expect(readers.sort()).toEqual(['lib/jwt.ts', 'lib/sessions.ts']);
});
