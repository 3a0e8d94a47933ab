import path from 'node:path';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MSG } from '@pm/protocol/messages';
import { oneTimeCode, outbox, person } from '../../db/schema';
import { first } from '../../db/transaction';
import { readLocalInbox } from '../../lib/outbox';
import { DEMO, type Harness, startHarness } from '../../test/harness';

/*
 * API tests of signup, login, forgot / reset / change password (docs/api.md), through the
 * real HTTP app on a real SQLite file. Every request of a harness comes from the same client IP
 * ('local'), so the groups that spend failed attempts or code requests get a harness of their own
 * and the per-IP budgets never leak from one group into another.
 */

async function personCount(h: Harness): Promise<number> {
  return (await first(h.deps.db.select({ n: count() }).from(person)))?.n ?? -1;
}


async function outboxCount(h: Harness): Promise<number> {
  await h.deps.afterAnswer.settled();
  return (await first(h.deps.db.select({ n: count() }).from(outbox)))?.n ?? -1;
}

function personRow(h: Harness, id: string) {
  return first(h.deps.db.select().from(person).where(eq(person.id, id)));
}

/**
 * The newest message delivered to a recipient, as the local adapter's inbox file has it (the
 * outbox table keeps it with the secret masked).
 */
async function lastMessageTo(h: Harness, recipient: string) {
  await h.deps.afterAnswer.settled();
  return readLocalInbox(path.join(h.dataDir, 'local-inbox.jsonl'))
    .filter((m) => m.to === recipient)
    .at(-1);
}

/** The 6-digit code of the newest message to a recipient. */
async function codeSentTo(h: Harness, recipient: string): Promise<string> {
  const msg = await lastMessageTo(h, recipient);
  const code = msg ? /\b(\d{6})\b/.exec(msg.body)?.[1] : undefined;
  if (!code) throw new Error(`no code sent to ${recipient}: ${JSON.stringify(msg)}`);
  return code;
}

function expectLoginShape(body: any, who: { id?: string; name?: string; mobile: string; email: string | null; role: string }) {
  expect(body.success).toBe(true);
  expect(typeof body.token).toBe('string');
  expect(body.token.split('.')).toHaveLength(3);
  if (who.id) expect(body.id).toBe(who.id);
  else expect(typeof body.id).toBe('string');
  if (who.name) expect(body.name).toBe(who.name);
  expect(body.mobile).toBe(who.mobile);
  expect(body.email).toBe(who.email);
  expect(body.r).toEqual({ name: who.role });
  expect(Array.isArray(body.permissions)).toBe(true);
  for (const p of body.permissions) expect(p).toEqual({ permission: expect.any(String) });
  for (const k of ['tac', 'iprr', 'dq', 'aw', 'curr_orbit', 'taw']) expect(typeof body[k]).toBe('number');
}

describe('signup (POST /api/UserLogin)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.destroy());

  const valid = {
    n: 'Ravi Kumar',
    m: '9123456780',
    e: 'ravi@example.com',
    password: 'ravi1234',
    confirmPassword: 'ravi1234',
    p: 'demo-learner',
    terms: true,
  };

  /** Posts a signup that must be refused, and checks that nobody was added. */
  async function refused(body: unknown, status: number, msg?: string) {
    const before = await personCount(h);
    const r = await h.request('POST', '/UserLogin', { body });
    expect(r.status).toBe(status);
    expect(r.body.success).toBe(false);
    if (msg !== undefined) expect(r.body.msg).toBe(msg);
    else expect(typeof r.body.msg).toBe('string');
    expect(await personCount(h)).toBe(before);
    return r;
  }

  test.each([
    ['name of 3 characters', { n: 'Ram' }, MSG.fullName],
    ['name of 3 characters padded with spaces', { n: '   Ram   ' }, MSG.fullName],
    ['empty name', { n: '' }, MSG.fullName],
    ['invalid e-mail', { e: 'not-an-email' }, MSG.validEmail],
    ['e-mail without a domain', { e: 'ravi@' }, MSG.validEmail],
    ['mobile of 9 digits', { m: '912345678' }, MSG.validMobile],
    ['mobile of 11 digits', { m: '91234567801' }, MSG.validMobile],
    ['mobile with letters', { m: '91234abcde' }, MSG.validMobile],
    ['empty mobile', { m: '' }, MSG.validMobile],
    ['password of 3 characters', { password: 'abc', confirmPassword: 'abc' }, MSG.passwordMin],
    ['confirm password not matching', { confirmPassword: 'ravi12345' }, MSG.passwordMismatch],
    ['empty referrer', { p: '' }, MSG.referrerRequired],
    ['referrer that is no person', { p: 'no-such-person' }, MSG.referrerNotFound],
  ])('%s → 400 with the spec message', async (_label, patch, msg) => {
    await refused({ ...valid, ...patch }, 400, msg);
  });

  test.each([
    ['name', 'n', MSG.fullName],
    ['mobile', 'm', MSG.validMobile],
    ['password', 'password', MSG.passwordMin],
    ['referrer', 'p', MSG.referrerRequired],
  ] as const)('missing %s → 400 with the spec message', async (_label, field, msg) => {
    const body: Record<string, unknown> = { ...valid };
    delete body[field];
    await refused(body, 400, msg);
  });

  test('duplicate mobile → 409, also when written with +91 and spaces', async () => {
    const r = await refused({ ...valid, m: DEMO.learner.mobile }, 409, MSG.mobileTaken);
    expect(r.body.code).toBe('CONFLICT');
    await refused({ ...valid, m: '+91 90000 00003' }, 409, MSG.mobileTaken);
  });

  test('duplicate e-mail → 409, whatever its case', async () => {
    await refused({ ...valid, e: 'Learner@Example.COM' }, 409, MSG.emailTaken);
  });

  test('unknown fields → 400 (a client cannot pick its own role or id)', async () => {
    const r = await refused({ ...valid, r: 'ADMIN' }, 400);
    expect(r.body.msg).toBe('Unknown field: r');
    await refused({ ...valid, id: 'chosen-id' }, 400);
    await refused({ ...valid, roleId: 'x', iprr: 0 }, 400);
  });

  test('malformed JSON → 400', async () => {
    const before = await personCount(h);
    const r = await h.request('POST', '/UserLogin', { rawBody: '{"n": "Ravi Kumar", "m": ' });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ success: false, msg: MSG.invalidJson });
    expect(await personCount(h)).toBe(before);
  });

  test('a body that is not JSON-typed → 400', async () => {
    const before = await personCount(h);
    const r = await h.request('POST', '/UserLogin', {
      rawBody: JSON.stringify(valid),
      headers: { 'content-type': 'text/plain' },
    });
    expect(r.status).toBe(400);
    expect(r.body.success).toBe(false);
    expect(await personCount(h)).toBe(before);
  });

  test.each([
    ['name as a number', { n: 12345678 }],
    ['mobile as a number', { m: 9123456780 }],
    ['e-mail as a number', { e: 42 }],
    ['password as a number', { password: 12345678, confirmPassword: undefined }],
    ['password as an object', { password: { $ne: '' }, confirmPassword: undefined }],
    ['referrer as an array', { p: ['demo-learner'] }],
    ['confirm password as a boolean', { confirmPassword: true }],
  ])('wrong type: %s → 400', async (_label, patch) => {
    await refused({ ...valid, ...patch }, 400);
  });

  test.each([
    ['an array', [valid]],
    ['null', null],
    ['a string', 'Ravi Kumar'],
  ])('a body that is %s → 400', async (_label, body) => {
    await refused(body, 400);
  });

  test('a valid signup → 201 with the login shape; mobile stored with +91, parent = p, token works', async () => {
    const before = await personCount(h);
    const r = await h.request('POST', '/UserLogin', { body: valid });
    expect(r.status).toBe(201);
    expect(r.body.msg).toBe(MSG.userCreated);
    expectLoginShape(r.body, { name: 'Ravi Kumar', mobile: '+919123456780', email: 'ravi@example.com', role: 'MEMBER' });
    expect(r.body.iprr).toBe(0);
    expect(await personCount(h)).toBe(before + 1);

    const row = await personRow(h, r.body.id);
    expect(row?.mobile).toBe('+919123456780');
    expect(row?.email).toBe('ravi@example.com');
    expect(row?.parentId).toBe('demo-learner');
    expect(row?.passwordHash).not.toContain('ravi1234');
    expect(row?.passwordHash.startsWith('$argon2id$')).toBe(true);

    const me = await h.request('GET', '/Person', { token: r.body.token });
    expect(me.status).toBe(200);
    expect(me.body.data.id).toBe(r.body.id);
    expect(me.body.data.m).toBe('+919123456780');
    expect(me.body.data.p).toBe('demo-learner');
    expect(me.body.data.r.name).toBe('MEMBER');

    // The new account logs in with its mobile (no +91 typed) and its password.
    const login = await h.login('9123456780', 'ravi1234');
    expect(login.status).toBe(200);
    expect(login.body.id).toBe(r.body.id);

    // Signing up again with the same mobile is refused now.
    await refused({ ...valid, e: 'other@example.com' }, 409, MSG.mobileTaken);
  });

  test('signup without e-mail and without confirm password is accepted; e-mail is stored as null', async () => {
    const { e: _e, confirmPassword: _c, ...rest } = valid;
    const r = await h.request('POST', '/UserLogin', { body: { ...rest, m: '9123456781' } });
    expect(r.status).toBe(201);
    expectLoginShape(r.body, { mobile: '+919123456781', email: null, role: 'MEMBER' });
    expect((await personRow(h, r.body.id))?.email).toBeNull();
  });

  test('an e-mail is stored lower-cased and trimmed', async () => {
    const r = await h.request('POST', '/UserLogin', {
      body: { ...valid, m: '9123456782', e: '  Mixed.Case@Example.COM ' },
    });
    expect(r.status).toBe(201);
    expect(r.body.email).toBe('mixed.case@example.com');
    const login = await h.login('MIXED.case@example.com', 'ravi1234');
    expect(login.status).toBe(200);
  });
});

describe('login (POST /api/UserLogin/login)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.destroy());

  test('by 10-digit mobile (gets +91)', async () => {
    const r = await h.login(DEMO.learner.mobile, DEMO.learner.password);
    expect(r.status).toBe(200);
    expect(r.body.msg).toBe(MSG.loginSuccessful);
    expectLoginShape(r.body, {
      id: 'demo-learner',
      name: 'Lata Learner',
      mobile: '+919000000003',
      email: 'learner@example.com',
      role: 'MEMBER',
    });
    expect(r.body.iprr).toBe(0);
  });

  test('by mobile already written with +91', async () => {
    const r = await h.login('+919000000003', DEMO.learner.password);
    expect(r.status).toBe(200);
    expect(r.body.id).toBe('demo-learner');
  });

  test('by e-mail, case-insensitively', async () => {
    const r = await h.login('LEARNER@Example.Com', DEMO.learner.password);
    expect(r.status).toBe(200);
    expect(r.body.id).toBe('demo-learner');
  });

  test('the admin gets the ADMIN role and its permissions', async () => {
    const r = await h.login(DEMO.admin.username, DEMO.admin.password);
    expect(r.status).toBe(200);
    expect(r.body.r.name).toBe('ADMIN');
    const names = r.body.permissions.map((p: { permission: string }) => p.permission);
    expect(names).toEqual(expect.arrayContaining(['UPDATE_PERSON', 'CREATE_ROLE', 'QUESTION_EDITOR']));
  });

  test('a wrong password → 401 with a msg', async () => {
    const r = await h.login(DEMO.learner.username, 'wrong-password');
    expect(r.status).toBe(401);
    expect(r.body).toMatchObject({ success: false, msg: MSG.badCredentials });
    expect(r.body.token).toBeUndefined();
  });

  test('an unknown account answers exactly like a wrong password', async () => {
    const r = await h.login('nobody@example.com', 'whatever1');
    expect(r.status).toBe(401);
    expect(r.body).toMatchObject({ success: false, msg: MSG.badCredentials });
  });

  test('a password is case-sensitive', async () => {
    const r = await h.login(DEMO.learner.username, DEMO.learner.password.toUpperCase());
    expect(r.status).toBe(401);
  });

  test('no Basic header → 400 "Username and password required"', async () => {
    const r = await h.request('POST', '/UserLogin/login');
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ success: false, msg: MSG.credentialsRequired });
  });

  test('a Bearer header instead of Basic → 400 "Username and password required"', async () => {
    const r = await h.request('POST', '/UserLogin/login', { token: 'abc.def.ghi' });
    expect(r.status).toBe(400);
    expect(r.body.msg).toBe(MSG.credentialsRequired);
  });

  test('an empty username or password → 400 "Username and password required"', async () => {
    for (const [u, p] of [
      ['', DEMO.learner.password],
      [DEMO.learner.username, ''],
    ] as const) {
      const r = await h.request('POST', '/UserLogin/login', { headers: { authorization: h.basic(u, p) } });
      expect(r.status).toBe(400);
      expect(r.body.msg).toBe(MSG.credentialsRequired);
    }
  });

  test('a password containing ":" works (only the first ":" splits Basic)', async () => {
    const signup = await h.request('POST', '/UserLogin', {
      body: { n: 'Colon Person', m: '9111111111', password: 'a:b:c:d', p: 'demo-admin', terms: true },
    });
    expect(signup.status).toBe(201);
    const r = await h.login('9111111111', 'a:b:c:d');
    expect(r.status).toBe(200);
    expect(r.body.id).toBe(signup.body.id);
  });
});

describe('login rate limit', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.destroy());

  test('after 10 failed attempts for one account the 11th answers 429, even with the right password', async () => {
    for (let i = 0; i < 10; i++) {
      const r = await h.login(DEMO.editor.username, `wrong-${i}`);
      expect(r.status).toBe(401);
    }
    const r = await h.login(DEMO.editor.username, DEMO.editor.password);
    expect(r.status).toBe(429);
    expect(r.body).toMatchObject({ success: false, msg: MSG.tooManyRequests, code: 'RATE_LIMITED' });
    expect(r.body.token).toBeUndefined();

    // The limit is per account: another account on the same client still logs in.
    const other = await h.login(DEMO.learner.username, DEMO.learner.password);
    expect(other.status).toBe(200);
  });

  test('the limit is per username as normalised: a mobile with or without +91 is one; the e-mail is another', async () => {
    // Failures spread over the ways of writing the mobile add up.
    for (let i = 0; i < 5; i++) expect((await h.login(DEMO.learner.mobile, `bad-${i}`)).status).toBe(401);
    for (let i = 0; i < 5; i++) expect((await h.login(`+91 ${DEMO.learner.mobile}`, `bad-${i}`)).status).toBe(401);
    const r = await h.login(`+91${DEMO.learner.mobile}`, DEMO.learner.password);
    expect(r.status).toBe(429);
    expect(r.body.msg).toBe(MSG.tooManyRequests);
    // The e-mail has a budget of its own (docs/security.md "Rate limits, enumeration, passwords, the outbox"): sharing one would tell an attacker which
    // e-mail and which mobile belong to the same account.
    expect((await h.login(DEMO.learner.username, DEMO.learner.password)).status).toBe(200);
  });

  test('a successful login does not count towards the limit', async () => {
    for (let i = 0; i < 12; i++) {
      const r = await h.login(DEMO.admin.username, DEMO.admin.password);
      expect(r.status).toBe(200);
    }
  });
});

describe('forgot password: reset code flow', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.destroy());

  async function requestCode(username: string) {
    const r = await h.request('POST', '/UserLogin/resetPassword', { body: { username } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: true, msg: MSG.resetCodeSent });
    return r;
  }

  function resetWith(username: string, user: string, pass: string) {
    return h.request('POST', '/UserLogin/updatePasswordWithResetCode', {
      body: { username },
      headers: { authorization: h.basic(user, pass) },
    });
  }

  test('code:newPassword resets the password; the old one stops working; the code is single-use', async () => {
    const oldToken = await h.tokenOf('learner');
    await requestCode(DEMO.learner.username);
    const msg = await lastMessageTo(h, 'learner@example.com');
    expect(msg?.channel).toBe('email');
    const code = await codeSentTo(h, 'learner@example.com');
    expect(code).toMatch(/^\d{6}$/);

    // The code is stored only as a hash.
    const codes = await h.deps.db.select().from(oneTimeCode).where(eq(oneTimeCode.personId, 'demo-learner'));
    expect(codes.length).toBeGreaterThan(0);
    for (const c of codes) expect(c.codeHash).not.toContain(code);

    const r = await resetWith(DEMO.learner.username, code, 'fresh-pass-1');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: true, msg: MSG.passwordResetSuccessful });

    expect((await h.login(DEMO.learner.username, DEMO.learner.password)).status).toBe(401);
    const login = await h.login(DEMO.learner.username, 'fresh-pass-1');
    expect(login.status).toBe(200);
    expect(login.body.iprr).toBe(0);

    // Sessions opened with the old password end.
    expect((await h.request('GET', '/Person', { token: oldToken })).status).toBe(401);

    // The same code cannot be used twice.
    const again = await resetWith(DEMO.learner.username, code, 'fresh-pass-2');
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ success: false, msg: MSG.invalidCode });
    expect((await h.login(DEMO.learner.username, 'fresh-pass-2')).status).toBe(401);
    expect((await h.login(DEMO.learner.username, 'fresh-pass-1')).status).toBe(200);
  });

  test('newPassword:code order works too, and the username may be the mobile', async () => {
    await requestCode(DEMO.editor.mobile);
    // The editor has an e-mail, so the code goes there.
    const code = await codeSentTo(h, 'editor@example.com');
    const r = await resetWith(DEMO.editor.mobile, 'other-pass-9', code);
    expect(r.status).toBe(200);
    expect(r.body.msg).toBe(MSG.passwordResetSuccessful);
    expect((await h.login(DEMO.editor.username, DEMO.editor.password)).status).toBe(401);
    expect((await h.login(DEMO.editor.username, 'other-pass-9')).status).toBe(200);
  });

  test('a wrong code fails and leaves the password and the real code alone', async () => {
    await requestCode(DEMO.admin.username);
    const code = await codeSentTo(h, 'admin@example.com');
    const wrong = code === '000000' ? '111111' : '000000';
    const r = await resetWith(DEMO.admin.username, wrong, 'hijack-pass');
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ success: false, msg: MSG.invalidCode });
    expect((await h.login(DEMO.admin.username, 'hijack-pass')).status).toBe(401);
    expect((await h.login(DEMO.admin.username, DEMO.admin.password)).status).toBe(200);

    // A code of another account is no good either.
    const r2 = await resetWith(DEMO.learner.username, code, 'hijack-pass');
    expect(r2.status).toBe(400);

    // The right code still works afterwards.
    const ok = await resetWith(DEMO.admin.username, code, 'admin-new-1');
    expect(ok.status).toBe(200);
    expect((await h.login(DEMO.admin.username, 'admin-new-1')).status).toBe(200);
  });

  test('an expired code fails', async () => {
    const signup = await h.request('POST', '/UserLogin', {
      body: { n: 'Expiry Person', m: '9222222222', e: 'expiry@example.com', password: 'expiry1', p: 'demo-admin', terms: true },
    });
    expect(signup.status).toBe(201);
    await requestCode('expiry@example.com');
    const code = await codeSentTo(h, 'expiry@example.com');
    await h.deps.db
      .update(oneTimeCode)
      .set({ expiresAt: Date.now() - 1000 })
      .where(eq(oneTimeCode.personId, signup.body.id));
    const r = await resetWith('expiry@example.com', code, 'expiry-new');
    expect(r.status).toBe(400);
    expect(r.body.msg).toBe(MSG.invalidCode);
    expect((await h.login('expiry@example.com', 'expiry1')).status).toBe(200);
  });

  test('a newer code replaces an older one', async () => {
    const signup = await h.request('POST', '/UserLogin', {
      body: { n: 'Twice Person', m: '9333333333', e: 'twice@example.com', password: 'twice1', p: 'demo-admin', terms: true },
    });
    expect(signup.status).toBe(201);
    await requestCode('twice@example.com');
    const first = await codeSentTo(h, 'twice@example.com');
    await requestCode('twice@example.com');
    const second = await codeSentTo(h, 'twice@example.com');
    if (first !== second) {
      expect((await resetWith('twice@example.com', first, 'twice-new')).status).toBe(400);
    }
    expect((await resetWith('twice@example.com', second, 'twice-new')).status).toBe(200);
    expect((await h.login('twice@example.com', 'twice-new')).status).toBe(200);
  });

  test('a person without e-mail gets the code by SMS to the +91 mobile', async () => {
    const signup = await h.request('POST', '/UserLogin', {
      body: { n: 'Sms Person', m: '9444444444', password: 'smsperson', p: 'demo-admin', terms: true },
    });
    expect(signup.status).toBe(201);
    await requestCode('9444444444');
    const msg = await lastMessageTo(h, '+919444444444');
    expect(msg?.channel).toBe('sms');
    const code = await codeSentTo(h, '+919444444444');
    const r = await resetWith('9444444444', code, 'sms-new-pass');
    expect(r.status).toBe(200);
    expect((await h.login('9444444444', 'sms-new-pass')).status).toBe(200);
  });

  test('an unknown username still answers success and sends nothing', async () => {
    const before = await outboxCount(h);
    await requestCode('nobody-here@example.com');
    await requestCode('9876543219');
    expect(await outboxCount(h)).toBe(before);
  });

  test('a reset without the Basic header → 400 "Password and OTP are required"', async () => {
    const r = await h.request('POST', '/UserLogin/updatePasswordWithResetCode', { body: { username: DEMO.learner.username } });
    expect(r.status).toBe(400);
    expect(r.body.msg).toBe(MSG.passwordAndOtpRequired);
  });

  test('a new password shorter than 4 characters is refused', async () => {
    const signup = await h.request('POST', '/UserLogin', {
      body: { n: 'Short Person', m: '9555555555', e: 'short@example.com', password: 'brief-ness-7', p: 'demo-admin', terms: true },
    });
    expect(signup.status).toBe(201);
    await requestCode('short@example.com');
    const code = await codeSentTo(h, 'short@example.com');
    const r = await resetWith('short@example.com', code, 'abc');
    expect(r.status).toBe(400);
    expect(r.body.msg).toBe(MSG.passwordMin);
    expect((await h.login('short@example.com', 'abc')).status).toBe(401);
    // The code was not spent by the refused attempt.
    expect((await resetWith('short@example.com', code, 'long-enough')).status).toBe(200);
  });

  test('an invalid username → 400', async () => {
    const r1 = await h.request('POST', '/UserLogin/resetPassword', { body: { username: 'not-a-mobile' } });
    expect(r1.status).toBe(400);
    expect(r1.body.msg).toBe(MSG.validMobile);
    const r2 = await h.request('POST', '/UserLogin/resetPassword', { body: { username: 'bad@' } });
    expect(r2.status).toBe(400);
    expect(r2.body.msg).toBe(MSG.invalidEmail);
    const r3 = await h.request('POST', '/UserLogin/resetPassword', { body: {} });
    expect(r3.status).toBe(400);
  });
});

describe('forgot password: request limit', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.destroy());

  test('too many code requests for one account from one client → 429', async () => {
    const statuses: number[] = [];
    let last: Awaited<ReturnType<Harness['request']>> | undefined;
    for (let i = 0; i < 4; i++) {
      last = await h.request('POST', '/UserLogin/resetPassword', { body: { username: DEMO.learner.username } });
      statuses.push(last.status);
    }
    // lib/rate-limit.ts sendPair: 3 messages per account and IP in an hour.
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(last?.body).toMatchObject({ success: false, msg: MSG.tooManyRequests });
    // Writing the mobile with +91 is the same username.
    const plus91 = await h.request('POST', '/UserLogin/resetPassword', { body: { username: `+91${DEMO.admin.mobile}` } });
    expect(plus91.status).toBe(200);
    for (let i = 0; i < 2; i++) await h.request('POST', '/UserLogin/resetPassword', { body: { username: DEMO.admin.mobile } });
    expect((await h.request('POST', '/UserLogin/resetPassword', { body: { username: DEMO.admin.mobile } })).status).toBe(429);
  });

  test('guessing codes is limited like password guessing', async () => {
    await h.request('POST', '/UserLogin/resetPassword', { body: { username: DEMO.editor.username } });
    const code = await codeSentTo(h, 'editor@example.com');
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) {
      const guess = String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0');
      const r = await h.request('POST', '/UserLogin/updatePasswordWithResetCode', {
        body: { username: DEMO.editor.username },
        headers: { authorization: h.basic(guess, 'guessed-pass') },
      });
      statuses.push(r.status);
    }
    expect(statuses.every((s) => s === 400)).toBe(true);
    const r = await h.request('POST', '/UserLogin/updatePasswordWithResetCode', {
      body: { username: DEMO.editor.username },
      headers: { authorization: h.basic(code, 'guessed-pass') },
    });
    expect(r.status).toBe(429);
    expect((await h.login(DEMO.editor.username, 'guessed-pass')).status).not.toBe(200);
  });
});

describe('OTP sign-in', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.destroy());

  function verify(user: string, pass: string) {
    return h.request('POST', '/OTP/verifyOTPAndSignIn', {
      body: { type: 'mobile' },
      headers: { authorization: h.basic(user, pass) },
    });
  }

  test('requestOTP then verifyOTPAndSignIn with the code from the SMS → login shape', async () => {
    const req = await h.request('POST', '/OTP/requestOTP', { body: { type: 'mobile', mobile: DEMO.learner.mobile } });
    expect(req.status).toBe(200);
    expect(req.body).toEqual({ success: true, msg: MSG.otpSent });
    const sms = await lastMessageTo(h, '+919000000003');
    expect(sms?.channel).toBe('sms');
    const code = await codeSentTo(h, '+919000000003');

    const r = await verify(DEMO.learner.mobile, code);
    expect(r.status).toBe(200);
    expect(r.body.msg).toBe(MSG.loginSuccessful);
    expectLoginShape(r.body, {
      id: 'demo-learner',
      name: 'Lata Learner',
      mobile: '+919000000003',
      email: 'learner@example.com',
      role: 'MEMBER',
    });
    const me = await h.request('GET', '/Person', { token: r.body.token });
    expect(me.status).toBe(200);
    expect(me.body.data.id).toBe('demo-learner');

    // An OTP is single-use.
    const again = await verify(DEMO.learner.mobile, code);
    expect(again.status).toBe(401);
  });

  test('a wrong code → 401 with a msg', async () => {
    await h.request('POST', '/OTP/requestOTP', { body: { type: 'mobile', mobile: DEMO.editor.mobile } });
    const code = await codeSentTo(h, '+919000000002');
    const wrong = code === '123456' ? '654321' : '123456';
    const r = await verify(DEMO.editor.mobile, wrong);
    expect(r.status).toBe(401);
    expect(r.body).toMatchObject({ success: false, msg: MSG.invalidCode });
    expect(r.body.token).toBeUndefined();
    // The right code still works.
    expect((await verify(DEMO.editor.mobile, code)).status).toBe(200);
  });

  test('a reset code is not an OTP', async () => {
    await h.request('POST', '/UserLogin/resetPassword', { body: { username: DEMO.admin.mobile } });
    const resetCode = await codeSentTo(h, 'admin@example.com');
    const r = await verify(DEMO.admin.mobile, resetCode);
    expect(r.status).toBe(401);
  });

  test('an unknown mobile answers OTP sent and sends nothing; verifying it → 401', async () => {
    const before = await outboxCount(h);
    const req = await h.request('POST', '/OTP/requestOTP', { body: { type: 'mobile', mobile: '9898989898' } });
    expect(req.status).toBe(200);
    expect(req.body.msg).toBe(MSG.otpSent);
    expect(await outboxCount(h)).toBe(before);
    expect((await verify('9898989898', '123456')).status).toBe(401);
  });

  test('bad requests → 400', async () => {
    const r1 = await h.request('POST', '/OTP/requestOTP', { body: { type: 'mobile', mobile: '12345' } });
    expect(r1.status).toBe(400);
    expect(r1.body.msg).toBe(MSG.validMobile);
    const r2 = await h.request('POST', '/OTP/requestOTP', { body: { type: 'email', mobile: DEMO.learner.mobile } });
    expect(r2.status).toBe(400);
    const r3 = await h.request('POST', '/OTP/verifyOTPAndSignIn', { body: { type: 'mobile' } });
    expect(r3.status).toBe(400);
    expect(r3.body.msg).toBe(MSG.credentialsRequired);
  });
});

describe('change password (PATCH /api/UserLogin/updatePasswordWithOldPassword)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.destroy());

  const url = '/UserLogin/updatePasswordWithOldPassword';

  test('needs a login', async () => {
    const r = await h.request('PATCH', url, { body: { oldPassword: 'x1234', newPassword: 'y1234' } });
    expect(r.status).toBe(401);
    expect(r.body.msg).toBe(MSG.loginRequired);
  });

  test('a wrong old password → 400 and nothing changes', async () => {
    const token = await h.tokenOf('learner');
    const r = await h.request('PATCH', url, { token, body: { oldPassword: 'not-it', newPassword: 'learner-new' } });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ success: false, msg: MSG.oldPasswordWrong });
    expect((await h.request('GET', '/Person', { token })).status).toBe(200);
    expect((await h.login(DEMO.learner.username, 'learner-new')).status).toBe(401);
  });

  test('a new password shorter than 4 characters → 400', async () => {
    const token = await h.tokenOf('learner');
    const r = await h.request('PATCH', url, { token, body: { oldPassword: DEMO.learner.password, newPassword: 'abc' } });
    expect(r.status).toBe(400);
    expect(r.body.msg).toBe(MSG.passwordMin);
  });

  test('a confirm password that differs → 400 with the spec message', async () => {
    const token = await h.tokenOf('learner');
    const r = await h.request('PATCH', url, {
      token,
      body: { oldPassword: DEMO.learner.password, newPassword: 'learner-new', confirmPassword: 'learner-other' },
    });
    expect(r.status).toBe(400);
    expect(r.body.msg).toBe(MSG.passwordsNotSame);
  });

  test('success returns a new token; the old token is refused; the new password logs in', async () => {
    const oldToken = await h.tokenOf('learner');
    const r = await h.request('PATCH', url, {
      token: oldToken,
      body: { oldPassword: DEMO.learner.password, newPassword: 'learner-new' },
    });
    expect(r.status).toBe(200);
    expect(r.body.msg).toBe(MSG.passwordChanged);
    expectLoginShape(r.body, { id: 'demo-learner', mobile: '+919000000003', email: 'learner@example.com', role: 'MEMBER' });
    expect(r.body.token).not.toBe(oldToken);

    const old = await h.request('GET', '/Person', { token: oldToken });
    expect(old.status).toBe(401);
    expect(old.body).toMatchObject({ success: false, msg: MSG.sessionExpired });
    const fresh = await h.request('GET', '/Person', { token: r.body.token });
    expect(fresh.status).toBe(200);

    expect((await h.login(DEMO.learner.username, DEMO.learner.password)).status).toBe(401);
    expect((await h.login(DEMO.learner.username, 'learner-new')).status).toBe(200);
  });
});

describe('admin reset (PUT /api/UserLogin/resetUserPasswordByAdmin)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.destroy());

  const url = '/UserLogin/resetUserPasswordByAdmin';

  test('a learner calling it → 403 "Permission denied" and nothing changes', async () => {
    const token = await h.tokenOf('learner');
    const r = await h.request('PUT', url, { token, body: { personId: 'demo-editor', password: 'taken-over' } });
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({ success: false, msg: MSG.permissionDenied });
    expect((await h.login(DEMO.editor.username, 'taken-over')).status).toBe(401);
    expect((await h.login(DEMO.editor.username, DEMO.editor.password)).status).toBe(200);
  });

  test('without a token → 401', async () => {
    const r = await h.request('PUT', url, { body: { personId: 'demo-learner', password: 'anything1' } });
    expect(r.status).toBe(401);
  });

  test('an unknown person → 404', async () => {
    const token = await h.tokenOf('admin');
    const r = await h.request('PUT', url, { token, body: { personId: 'no-such-person', password: 'anything1' } });
    expect(r.status).toBe(404);
    expect(r.body.success).toBe(false);
  });

  test('a short password → 400', async () => {
    const token = await h.tokenOf('admin');
    const r = await h.request('PUT', url, { token, body: { personId: 'demo-learner', password: 'abc' } });
    expect(r.status).toBe(400);
    expect(r.body.msg).toBe(MSG.passwordMin);
  });

  test('as admin: success; the learner’s old token is refused; the new password logs in with iprr 1', async () => {
    const learnerToken = await h.tokenOf('learner');
    const adminToken = await h.tokenOf('admin');
    const r = await h.request('PUT', url, { token: adminToken, body: { personId: 'demo-learner', password: 'set-by-admin' } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: true, msg: MSG.passwordResetSuccessful });

    expect((await h.request('GET', '/Person', { token: learnerToken })).status).toBe(401);
    expect((await h.login(DEMO.learner.username, DEMO.learner.password)).status).toBe(401);
    const login = await h.login(DEMO.learner.username, 'set-by-admin');
    expect(login.status).toBe(200);
    expect(login.body.iprr).toBe(1);
    expect((await personRow(h, 'demo-learner'))?.iprr).toBe(1);

    // Changing the password afterwards clears the flag.
    const changed = await h.request('PATCH', '/UserLogin/updatePasswordWithOldPassword', {
      token: login.body.token,
      body: { oldPassword: 'set-by-admin', newPassword: 'chosen-by-me' },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.iprr).toBe(0);

    // The admin's own session is untouched.
    expect((await h.request('GET', '/Person', { token: adminToken })).status).toBe(200);
  });
});

describe('createUserOnBehalf', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.destroy());

  const url = '/UserLogin/createUserOnBehalf';

  test('needs a login', async () => {
    const before = await personCount(h);
    const r = await h.request('POST', url, { body: { n: 'Someone Else', m: '9666666666' } });
    expect(r.status).toBe(401);
    expect(await personCount(h)).toBe(before);
  });

  test('as learner: 201, parent is the learner, password arrives by SMS and logs in with iprr 1', async () => {
    const token = await h.tokenOf('learner');
    const before = await personCount(h);
    const r = await h.request('POST', url, { token, body: { n: 'Nisha Newcomer', m: '9777777777' } });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ success: true, msg: MSG.userCreated });
    expect(typeof r.body.id).toBe('string');
    expect(await personCount(h)).toBe(before + 1);

    const row = await personRow(h, r.body.id);
    expect(row?.parentId).toBe('demo-learner');
    expect(row?.mobile).toBe('+919777777777');
    expect(row?.iprr).toBe(1);

    const sms = await lastMessageTo(h, '+919777777777');
    expect(sms?.channel).toBe('sms');
    const password = sms ? /the password (\S+), then/.exec(sms.body)?.[1] : undefined;
    expect(password).toMatch(/^[A-Za-z0-9]{10}$/);
    expect(row?.passwordHash).not.toContain(password ?? '');

    const login = await h.login('9777777777', password ?? '');
    expect(login.status).toBe(200);
    expect(login.body.id).toBe(r.body.id);
    expect(login.body.iprr).toBe(1);
    expect(login.body.r.name).toBe('MEMBER');
  });

  test('with an e-mail, the password goes to the e-mail too', async () => {
    const token = await h.tokenOf('learner');
    const r = await h.request('POST', url, { token, body: { n: 'Mail Newcomer', m: '9777777778', e: 'mail.new@example.com' } });
    expect(r.status).toBe(201);
    const mail = await lastMessageTo(h, 'mail.new@example.com');
    expect(mail?.channel).toBe('email');
    const password = mail ? /the password (\S+), then/.exec(mail.body)?.[1] : undefined;
    expect((await h.login('mail.new@example.com', password ?? '')).status).toBe(200);
  });

  test('a duplicate mobile → 409; bad fields → 400; nobody is added', async () => {
    const token = await h.tokenOf('learner');
    const before = await personCount(h);
    const dup = await h.request('POST', url, { token, body: { n: 'Dup Person', m: DEMO.admin.mobile } });
    expect(dup.status).toBe(409);
    expect(dup.body.msg).toBe(MSG.mobileTaken);
    const shortName = await h.request('POST', url, { token, body: { n: 'Abc', m: '9777777779' } });
    expect(shortName.status).toBe(400);
    expect(shortName.body.msg).toBe(MSG.fullName);
    const extra = await h.request('POST', url, { token, body: { n: 'Extra Field', m: '9777777779', password: 'mine1' } });
    expect(extra.status).toBe(400);
    expect(await personCount(h)).toBe(before);
  });
});
