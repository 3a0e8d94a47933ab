import { randomUUID } from 'node:crypto';
import { attemptDoc } from '../attempt-doc';
import { and, eq, isNull } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MSG } from '@pm/protocol/messages';
import { SESSION_TOKEN_HEADER } from '@pm/protocol/session';
import { PROTOCOL_VERSION } from '@pm/protocol/version';
import { person, session } from '../../server/src/db/schema';
import { JWT_AUDIENCE, JWT_ISSUER } from '../../server/src/lib/jwt';
import { hashPassword } from '../../server/src/lib/passwords';
import { MAX_LIVE_SESSIONS, SESSION_MAX_MS, sessionToken, startSession, TOKEN_TTL_MS } from '../../server/src/lib/sessions';
import { DEMO, type Harness, startHarness } from '../../server/src/test/harness';
import { first } from '../../server/src/db/transaction';

/**
 * docs/security.md "Sessions and logout": logout on the server, sessions, token lifetime. Every sign-in starts a session;
 * every token names it, and the session row is read on every request, so ending a session ends
 * all its tokens at once on every route, the sync routes included. Tokens live 30 days from their
 * issue (renewed when more than a day old), sessions at most 180 days. The rules live in
 * server/src/lib/sessions.ts and server/src/middleware/auth.ts.
 */

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.destroy());

const DAY = 24 * 3600 * 1000;
const V = { 'x-sync-protocol': PROTOCOL_VERSION };

/** A fresh sign-in of a demo account: a new session and its token. */
async function signIn(who: keyof typeof DEMO): Promise<string> {
  return h.tokenOf(who);
}

const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as { sid: string; iat: number; exp: number; sub: string; tv: number };

const me = (token: string) => h.request('GET', '/Person', { token });
const pull = (token: string) => h.request('GET', '/sync/v1/test_summary/pull?rev=0&limit=10', { token, headers: V });
const push = (token: string) => h.request('POST', '/sync/v1/test_summary/push', { token, headers: V, body: [{ newDocumentState: attemptDoc(`attempt-${randomUUID()}`), assumedMasterState: null }] });

async function stream(token: string): Promise<number> {
  const ac = new AbortController();
  const res = await h.app.request('/api/sync/v1/stream', { headers: { authorization: `Bearer ${token}`, ...V }, signal: ac.signal });
  ac.abort();
  await res.body?.cancel().catch(() => undefined);
  return res.status;
}


/** Refused on the API and on every sync route (pull, push, stream), with the session message. */
async function expectRefusedEverywhere(token: string) {
  const api = await me(token);
  expect(api.status).toBe(401);
  expect(api.body).toMatchObject({ success: false, msg: MSG.sessionExpired, code: 'UNAUTHENTICATED' });
  expect((await pull(token)).status).toBe(401);
  expect((await push(token)).status).toBe(401);
  expect(await stream(token)).toBe(401);
}

async function expectWorksEverywhere(token: string) {
  expect((await me(token)).status).toBe(200);
  expect((await pull(token)).status).toBe(200);
  const pushed = await push(token);
  expect(pushed.status).toBe(200);
  expect(pushed.body).toEqual([]);
  expect(await stream(token)).toBe(200);
}

/** A session of `personId` that started `ageMs` ago, and a token issued `tokenAgeMs` ago. */
async function agedSession(personId: string, ageMs: number, tokenAgeMs = ageMs) {
  const now = Date.now();
  const tv = (await first(h.deps.db.select({ tv: person.tokenVersion }).from(person).where(eq(person.id, personId))))!.tv;
  const s = await startSession(h.deps.db, personId, now - ageMs);
  const token = await sessionToken(h.deps.config.jwtSecret, { id: personId, tokenVersion: tv }, s, now - tokenAgeMs);
  return { session: s, token };
}

const sessionRow = (id: string) => first(h.deps.db.select().from(session).where(eq(session.id, id)));

describe('logout', () => {
  test('logout ends only the session of the token that asks; the person’s other sessions keep working', async () => {
    const phone = await signIn('learner');
    const laptop = await signIn('learner');
    expect(claimsOf(phone).sid).not.toBe(claimsOf(laptop).sid);

    const r = await h.request('POST', '/UserLogin/logout', { token: phone });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: true, msg: MSG.loggedOut });

    await expectRefusedEverywhere(phone);
    await expectWorksEverywhere(laptop);
    expect((await sessionRow(claimsOf(phone).sid))?.revokedAt).toEqual(expect.any(Number));
    expect((await sessionRow(claimsOf(laptop).sid))?.revokedAt).toBeNull();
  });

  test('a logged-out token cannot log out again or do anything else (401)', async () => {
    const token = await signIn('learner');
    expect((await h.request('POST', '/UserLogin/logout', { token })).status).toBe(200);
    expect((await h.request('POST', '/UserLogin/logout', { token })).status).toBe(401);
    expect((await h.request('POST', '/UserLogin/logoutAll', { token })).status).toBe(401);
  });

  test('logout needs a token and takes no body', async () => {
    expect((await h.request('POST', '/UserLogin/logout')).status).toBe(401);
    const token = await signIn('learner');
    const r = await h.request('POST', '/UserLogin/logout', { token, body: { everyone: true } });
    expect(r.status).toBe(400);
    expect((await me(token)).status).toBe(200);
  });

  test("logging out does not touch another person's sessions", async () => {
    const learner = await signIn('learner');
    const editor = await signIn('editor');
    expect((await h.request('POST', '/UserLogin/logoutAll', { token: learner })).status).toBe(200);
    await expectWorksEverywhere(editor);
  });
});

describe('log out of all devices', () => {
  test('logoutAll ends every session of the person, the asking one included, on the API and on sync', async () => {
    const tokens = [await signIn('learner'), await signIn('learner'), await signIn('learner')];
    const old = await agedSession(DEMO.learner.id, 20 * DAY);
    for (const t of [...tokens, old.token]) expect((await me(t)).status).toBe(200);

    const r = await h.request('POST', '/UserLogin/logoutAll', { token: tokens[1] });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: true, msg: MSG.loggedOutEverywhere });

    for (const t of [...tokens, old.token]) await expectRefusedEverywhere(t);
    const live = await h.deps.db.select().from(session).where(and(eq(session.personId, DEMO.learner.id), isNull(session.revokedAt)));
    expect(live).toEqual([]);
    // Signing in again works, with a new session.
    const again = await signIn('learner');
    await expectWorksEverywhere(again);
  });
});

describe('token lifetime and renewal', () => {
  test('a learner offline for 20 days still pulls and pushes with the token they left with', async () => {
    const { token } = await agedSession(DEMO.learner.id, 20 * DAY);
    expect(claimsOf(token).exp * 1000).toBeGreaterThan(Date.now());
    await expectWorksEverywhere(token);
  });

  test('a token more than a day old comes back renewed for the same session; both work until the old one expires', async () => {
    const { session: s, token } = await agedSession(DEMO.learner.id, 3 * DAY, 2 * DAY);
    const r = await pull(token);
    expect(r.status).toBe(200);
    const fresh = r.headers.get(SESSION_TOKEN_HEADER);
    expect(fresh).toBeTruthy();
    const c = claimsOf(fresh!);
    expect(c.sid).toBe(s.id);
    expect(c.sub).toBe(DEMO.learner.id);
    expect(Math.abs(c.iat * 1000 - Date.now())).toBeLessThan(5000);
    expect(c.exp - c.iat).toBe(TOKEN_TTL_MS / 1000);
    expect(c.exp).toBeGreaterThan(claimsOf(token).exp);

    await expectWorksEverywhere(fresh!);
    // A fresh token is not renewed again; the old one keeps working (and keeps being renewed).
    const again = await me(fresh!);
    expect(again.headers.get(SESSION_TOKEN_HEADER)).toBeNull();
    const old = await me(token);
    expect(old.status).toBe(200);
    expect(old.headers.get(SESSION_TOKEN_HEADER)).toBeTruthy();

    // Logging out the session ends both.
    expect((await h.request('POST', '/UserLogin/logout', { token: fresh! })).status).toBe(200);
    await expectRefusedEverywhere(fresh!);
    await expectRefusedEverywhere(token);
  });

  test('the sync stream renews an old token too', async () => {
    const { token } = await agedSession(DEMO.learner.id, 2 * DAY);
    const ac = new AbortController();
    const res = await h.app.request('/api/sync/v1/stream', { headers: { authorization: `Bearer ${token}`, ...V }, signal: ac.signal });
    expect(res.status).toBe(200);
    const fresh = res.headers.get(SESSION_TOKEN_HEADER);
    ac.abort();
    await res.body?.cancel().catch(() => undefined);
    expect(fresh && claimsOf(fresh).sid).toBe(claimsOf(token).sid);
  });

  test('a token less than a day old is not renewed', async () => {
    const token = await signIn('learner');
    const r = await me(token);
    expect(r.status).toBe(200);
    expect(r.headers.get(SESSION_TOKEN_HEADER)).toBeNull();
  });

  test('a renewal never goes past the session’s absolute end (180 days)', async () => {
    // A session 175 days old: 5 days left. Its token, issued 2 days ago, already expires then.
    const { session: s, token } = await agedSession(DEMO.learner.id, 175 * DAY, 2 * DAY);
    expect(claimsOf(token).exp).toBe(Math.floor(s.expiresAt / 1000));
    const r = await me(token);
    expect(r.status).toBe(200);
    expect(r.headers.get(SESSION_TOKEN_HEADER)).toBeNull();
  });

  test('a session past its absolute end is refused, even with an unexpired token', async () => {
    const { session: s, token } = await agedSession(DEMO.learner.id, 0);
    expect((await me(token)).status).toBe(200);
    await h.deps.db.update(session).set({ expiresAt: Date.now() - 1000 }).where(eq(session.id, s.id));
    await expectRefusedEverywhere(token);
  });

  test('sessions end 180 days after sign-in', async () => {
    const token = await signIn('learner');
    const s = (await sessionRow(claimsOf(token).sid))!;
    expect(s.expiresAt - s.createdAt).toBe(SESSION_MAX_MS);
  });

  test('an expired token is refused even though its session lives', async () => {
    const { token } = await agedSession(DEMO.learner.id, 31 * DAY);
    expect(claimsOf(token).exp * 1000).toBeLessThan(Date.now());
    await expectRefusedEverywhere(token);
  });

  test('a token issued before sessions existed (no sid) is refused: its holder signs in again', async () => {
    const now = Math.floor(Date.now() / 1000);
    const legacy = await new SignJWT({ tv: 0 })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(DEMO.learner.id)
      .setIssuer(JWT_ISSUER)
      .setAudience(JWT_AUDIENCE)
      .setIssuedAt(now - 3600)
      .setExpirationTime(now + 6 * 24 * 3600)
      .sign(h.deps.config.jwtSecret);
    await expectRefusedEverywhere(legacy);
  });

  test('a session id of another person does not open it', async () => {
    const editorToken = await signIn('editor');
    const { sid } = claimsOf(editorToken);
    const forged = await sessionToken(h.deps.config.jwtSecret, { id: DEMO.learner.id, tokenVersion: 0 }, { id: sid, expiresAt: Date.now() + DAY });
    await expectRefusedEverywhere(forged);
  });

  test('last_seen_at is written at most once an hour per session, not on every request', async () => {
    const token = await signIn('learner');
    const { sid } = claimsOf(token);
    const stale = Date.now() - 2 * 3600 * 1000;
    await h.deps.db.update(session).set({ lastSeenAt: stale }).where(eq(session.id, sid));
    const burst = await Promise.all(Array.from({ length: 50 }, () => me(token)));
    expect(burst.filter((r) => r.status === 200)).toHaveLength(50);
    const seen = (await sessionRow(sid))!.lastSeenAt;
    expect(seen).toBeGreaterThan(Date.now() - 60_000);

    const recent = Date.now() - 30 * 60 * 1000;
    await h.deps.db.update(session).set({ lastSeenAt: recent }).where(eq(session.id, sid));
    expect((await me(token)).status).toBe(200);
    expect((await sessionRow(sid))!.lastSeenAt).toBe(recent);
  });
});

describe('password change and reset', () => {
  test('a password change keeps the session it was made in (with a new token) and ends every other', async () => {
    const here = await signIn('editor');
    const elsewhere = await signIn('editor');
    const r = await h.request('PATCH', '/UserLogin/updatePasswordWithOldPassword', {
      token: here,
      body: { oldPassword: DEMO.editor.password, newPassword: 'Quiet-river-42', confirmPassword: 'Quiet-river-42' },
    });
    expect(r.status).toBe(200);
    const fresh = r.body.token as string;
    expect(claimsOf(fresh).sid).toBe(claimsOf(here).sid);

    await expectWorksEverywhere(fresh);
    // The token the change was made with belongs to the old version: a copy of it is dead too.
    await expectRefusedEverywhere(here);
    await expectRefusedEverywhere(elsewhere);
    expect((await sessionRow(claimsOf(here).sid))?.revokedAt).toBeNull();
    expect((await sessionRow(claimsOf(elsewhere).sid))?.revokedAt).toEqual(expect.any(Number));
  });

  test("an admin's password reset ends every session of the person", async () => {
    const admin = await signIn('admin');
    const learner = await signIn('learner');
    const r = await h.request('PUT', '/UserLogin/resetUserPasswordByAdmin', { token: admin, body: { personId: DEMO.learner.id, password: 'Amber-lantern-77' } });
    expect(r.status).toBe(200);
    await expectRefusedEverywhere(learner);
    const live = await h.deps.db.select().from(session).where(and(eq(session.personId, DEMO.learner.id), isNull(session.revokedAt)));
    expect(live).toEqual([]);
    // Put the demo password back for the tests after this one: straight into the database, as the
    // demo seed does; the API refuses every published password (docs/security.md).
    await h.deps.db.update(person).set({ passwordHash: await hashPassword(DEMO.learner.password) }).where(eq(person.id, DEMO.learner.id));
  });

  test('blocking a person ends every session of theirs', async () => {
    const admin = await signIn('admin');
    // The editor's password was changed above; a session made directly stands for a sign-in.
    const { token: editor } = await agedSession(DEMO.editor.id, 0);
    await expectWorksEverywhere(editor);
    const blocked = await h.request('PUT', '/Person', { token: admin, body: { id: DEMO.editor.id, s: 'BLOCKED' } });
    expect(blocked.status).toBe(200);
    await expectRefusedEverywhere(editor);
    const live = await h.deps.db.select().from(session).where(and(eq(session.personId, DEMO.editor.id), isNull(session.revokedAt)));
    expect(live).toEqual([]);
    // Unblocking does not bring the old sessions back.
    expect((await h.request('PUT', '/Person', { token: admin, body: { id: DEMO.editor.id, s: 'ACTIVE' } })).status).toBe(200);
    await expectRefusedEverywhere(editor);
  });
});

describe('how many sessions a person keeps', () => {
  test(`50 sign-ins of one account, 10 at a time in parallel, leave exactly ${MAX_LIVE_SESSIONS} live sessions`, async () => {
    // Waves of 10: the login limiter holds at most 10 password checks of one account from one
    // address at a time (rate-limits.test.ts); this is about the session bound.
    const results = [];
    for (let wave = 0; wave < 5; wave++) {
      results.push(...(await Promise.all(Array.from({ length: 10 }, () => h.login(DEMO.admin.username, DEMO.admin.password)))));
    }
    expect(results.filter((r) => r.status === 200)).toHaveLength(50);
    const live = await h.deps.db.select().from(session).where(and(eq(session.personId, DEMO.admin.id), isNull(session.revokedAt)));
    expect(live).toHaveLength(MAX_LIVE_SESSIONS);
    const working = await Promise.all(results.map((r) => me(r.body.token as string)));
    expect(working.filter((r) => r.status === 200)).toHaveLength(MAX_LIVE_SESSIONS);
  });
});
