import { eq } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MSG } from '@pm/protocol/messages';
import { person } from '../../db/schema';
import { JWT_AUDIENCE, JWT_ISSUER } from '../../lib/jwt';
import { startSession } from '../../lib/sessions';
import { DEMO, type Harness, startHarness } from '../../test/harness';

/*
 * Bearer tokens (docs/security.md "Sessions and logout"): only HS256 tokens signed with the server secret, issued by
 * 'pariksha-mitra' for 'pariksha-mitra-app', unexpired, whose token version matches the person's
 * and that name a live session of that person (docs/security.md "Sessions and logout"), are accepted. Each negative test is paired with the positive one below it, which builds a
 * token the same way but correctly, so a refusal is not just a broken token builder.
 */

let h: Harness;
/** A live session of the admin, for hand-made tokens. */
let adminSid: string;
beforeAll(async () => {
  h = await startHarness();
  adminSid = (await startSession(h.deps.db, 'demo-admin')).id;
});
afterAll(() => h.destroy());

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const nowSec = () => Math.floor(Date.now() / 1000);

type Claims = { sub?: string; tv?: unknown; sid?: string | null; iss?: string; aud?: string; exp?: number | null; alg?: 'HS256' | 'HS384' | 'HS512' };

/** Builds a token with jose; every field defaults to what the server itself would issue. */
function makeToken(claims: Claims = {}, secret: Uint8Array = h.deps.config.jwtSecret): Promise<string> {
  const sid = claims.sid === undefined ? adminSid : claims.sid;
  const jwt = new SignJWT({ tv: claims.tv === undefined ? 0 : claims.tv, ...(sid !== null && { sid }) } as Record<string, unknown>)
    .setProtectedHeader({ alg: claims.alg ?? 'HS256', typ: 'JWT' })
    .setSubject(claims.sub ?? 'demo-admin')
    .setIssuer(claims.iss ?? JWT_ISSUER)
    .setAudience(claims.aud ?? JWT_AUDIENCE)
    .setIssuedAt();
  if (claims.exp !== null) jwt.setExpirationTime(claims.exp ?? nowSec() + 3600);
  return jwt.sign(secret);
}

/** GET /api/Person needs a login; the status tells whether the token opened a session. */
async function me(token: string) {
  return h.request('GET', '/Person', { token });
}

async function expectRefused(token: string) {
  const r = await me(token);
  expect(r.status).toBe(401);
  expect(r.body).toMatchObject({ success: false, msg: MSG.sessionExpired, code: 'UNAUTHENTICATED' });
  expect(r.body.data).toBeUndefined();
}

describe('a valid token', () => {
  test('a hand-made token with the right secret, issuer, audience, version and session works', async () => {
    const r = await me(await makeToken());
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(true);
    expect(r.body.data.id).toBe('demo-admin');
  });

  test('a token from the login works', async () => {
    const r = await me(await h.tokenOf('learner'));
    expect(r.status).toBe(200);
    expect(r.body.data.id).toBe('demo-learner');
  });

  test('the server issues HS256 tokens with issuer, audience, subject, version, session and a 30-day expiry', async () => {
    const token = await h.tokenOf('editor');
    const [header, payload] = token.split('.');
    expect(JSON.parse(Buffer.from(header ?? '', 'base64url').toString())).toMatchObject({ alg: 'HS256' });
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString());
    expect(claims).toMatchObject({ sub: 'demo-editor', tv: 0, iss: JWT_ISSUER, aud: JWT_AUDIENCE });
    expect(claims.exp - claims.iat).toBe(30 * 24 * 3600);
    expect(typeof claims.sid).toBe('string');
    // No secrets or personal data ride in the token.
    expect(Object.keys(claims).sort()).toEqual(['aud', 'exp', 'iat', 'iss', 'sid', 'sub', 'tv']);
  });
});

describe('tampered tokens are refused with 401', () => {
  test('alg: none (unsigned)', async () => {
    const header = b64url({ alg: 'none', typ: 'JWT' });
    const payload = b64url({ sub: 'demo-admin', tv: 0, iss: JWT_ISSUER, aud: JWT_AUDIENCE, iat: nowSec(), exp: nowSec() + 3600 });
    await expectRefused(`${header}.${payload}.`);
    // The same with a junk signature appended.
    await expectRefused(`${header}.${payload}.${Buffer.from('sig').toString('base64url')}`);
  });

  test('signed with another secret', async () => {
    const other = new TextEncoder().encode('a-completely-different-secret-of-32+chars');
    await expectRefused(await makeToken({}, other));
  });

  test('a real token whose payload was swapped for another person', async () => {
    const token = await h.tokenOf('learner');
    const [header, , signature] = token.split('.');
    const payload = b64url({ sub: 'demo-admin', tv: 0, iss: JWT_ISSUER, aud: JWT_AUDIENCE, iat: nowSec(), exp: nowSec() + 3600 });
    await expectRefused(`${header}.${payload}.${signature}`);
  });

  test('a real token with its signature altered', async () => {
    const token = await h.tokenOf('learner');
    const [header, payload, signature = ''] = token.split('.');
    const flipped = (signature[0] === 'A' ? 'B' : 'A') + signature.slice(1);
    await expectRefused(`${header}.${payload}.${flipped}`);
  });

  test('another HMAC algorithm than HS256, even with the right secret', async () => {
    await expectRefused(await makeToken({ alg: 'HS512' }));
  });

  test('expired', async () => {
    await expectRefused(await makeToken({ exp: nowSec() - 60 }));
  });

  test('without an expiry', async () => {
    await expectRefused(await makeToken({ exp: null }));
  });

  test('wrong audience', async () => {
    await expectRefused(await makeToken({ aud: 'someone-else' }));
  });

  test('wrong issuer', async () => {
    await expectRefused(await makeToken({ iss: 'evil-issuer' }));
  });

  test('a token version the person no longer has', async () => {
    await expectRefused(await makeToken({ tv: 1 }));
  });

  test('a token version that is not a number', async () => {
    await expectRefused(await makeToken({ tv: '0' }));
  });

  test('a subject that is no person', async () => {
    await expectRefused(await makeToken({ sub: 'no-such-person' }));
  });

  test('a token without a session (as issued before sessions existed)', async () => {
    await expectRefused(await makeToken({ sid: null }));
  });

  test('a session that does not exist', async () => {
    await expectRefused(await makeToken({ sid: 'no-such-session' }));
  });

  test("another person's session", async () => {
    const learnerSid = (await startSession(h.deps.db, 'demo-learner')).id;
    await expectRefused(await makeToken({ sid: learnerSid }));
  });

  test('garbage strings', async () => {
    for (const junk of ['garbage', 'a.b.c', '...', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0', '%%%']) {
      await expectRefused(junk);
    }
  });

  test('a Bearer header without a token', async () => {
    const r = await h.request('GET', '/Person', { headers: { authorization: 'Bearer ' } });
    expect(r.status).toBe(401);
    expect(r.body.success).toBe(false);
  });
});

describe('missing tokens', () => {
  test('no token on a login route → 401 with a msg', async () => {
    const r = await h.request('GET', '/Person');
    expect(r.status).toBe(401);
    expect(r.body).toMatchObject({ success: false, msg: MSG.loginRequired, code: 'UNAUTHENTICATED' });
  });

  test('Basic credentials are not a session', async () => {
    const r = await h.request('GET', '/Person', { headers: { authorization: h.basic(DEMO.admin.username, DEMO.admin.password) } });
    expect(r.status).toBe(401);
    expect(r.body.msg).toBe(MSG.loginRequired);
  });

  test('no token on a permission route → 401, not 403 (the needed permission is not revealed)', async () => {
    const r = await h.request('GET', '/Person/get?strQuery=lata');
    expect(r.status).toBe(401);
    expect(r.body.msg).toBe(MSG.loginRequired);
  });

  test('a bad token on a permission route → 401', async () => {
    const r = await h.request('GET', '/Person/get?strQuery=lata', { token: await makeToken({ exp: nowSec() - 60 }) });
    expect(r.status).toBe(401);
  });

  test('a bad token on a public route is ignored', async () => {
    const r = await h.request('GET', '/plan', { token: 'garbage' });
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(true);
  });
});

describe('a person who is no longer active', () => {
  test('their token stops working and they cannot log in', async () => {
    const signup = await h.request('POST', '/UserLogin', {
      body: { n: 'Soon Inactive', m: '9888888888', password: 'inactive1', p: 'demo-admin', terms: true },
    });
    expect(signup.status).toBe(201);
    const token = signup.body.token as string;
    expect((await me(token)).status).toBe(200);

    await h.deps.db.update(person).set({ status: 'INACTIVE' }).where(eq(person.id, signup.body.id));
    await expectRefused(token);
    const login = await h.login('9888888888', 'inactive1');
    expect(login.status).toBe(403);
    expect(login.body.msg).toBe(MSG.accountInactive);
  });
});
