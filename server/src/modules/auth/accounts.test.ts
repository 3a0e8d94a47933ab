import path from 'node:path';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MSG } from '@pm/protocol/messages';
import { activityLog, person } from '../../db/schema';
import { first } from '../../db/transaction';
import { readLocalInbox } from '../../lib/outbox';
import { DEMO, type Harness, startHarness } from '../../test/harness';

/*
 * API tests of the account rules of docs/api.md "Signup", "Terms" and "Profile": the terms a
 * signup must accept (and the version kept), "No one invited me", one's own name and e-mail, and
 * that asking for an address tells a stranger nothing. Through the real HTTP app on a real
 * database, as auth.test.ts.
 */

async function personCount(h: Harness): Promise<number> {
  return (await first(h.deps.db.select({ n: count() }).from(person)))?.n ?? -1;
}

function personRow(h: Harness, id: string) {
  return first(h.deps.db.select().from(person).where(eq(person.id, id)));
}

async function messagesTo(h: Harness, recipient: string) {
  await h.deps.afterAnswer.settled();
  return readLocalInbox(path.join(h.dataDir, 'local-inbox.jsonl')).filter((m) => m.to === recipient);
}

async function codeSentTo(h: Harness, recipient: string): Promise<string> {
  const msg = (await messagesTo(h, recipient)).at(-1);
  const code = msg ? /\b(\d{6})\b/.exec(msg.body)?.[1] : undefined;
  if (!code) throw new Error(`no code sent to ${recipient}`);
  return code;
}

let nextMobile = 9700000000;
const mobile = () => String(nextMobile++);

function signupBody(extra: Record<string, unknown> = {}) {
  return { n: 'Kiran Joshi', m: mobile(), password: 'kiran-joshi-1', confirmPassword: 'kiran-joshi-1', p: 'demo-learner', terms: true, ...extra };
}

describe('signup: the terms (18 or older, terms and privacy accepted)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.destroy());

  test.each([
    ['missing', undefined],
    ['false', false],
    ['a string', 'yes'],
    ['1', 1],
  ])('terms %s → 400 naming the field, nothing written', async (_label, terms) => {
    const before = await personCount(h);
    const logs = (await first(h.deps.db.select({ n: count() }).from(activityLog)))?.n;
    const body = signupBody({ terms });
    if (terms === undefined) delete (body as Record<string, unknown>).terms;
    const r = await h.request('POST', '/UserLogin', { body });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ success: false, msg: MSG.termsRequired });
    expect(r.body.msg.startsWith('terms:')).toBe(true);
    expect(await personCount(h)).toBe(before);
    expect((await first(h.deps.db.select({ n: count() }).from(activityLog)))?.n).toBe(logs);
    // The number was not taken by the refused signup.
    const again = await h.request('POST', '/UserLogin', { body: { ...body, terms: true } });
    expect(again.status).toBe(201);
  });

  test('an accepted signup keeps the version and the time; the login response says accepted', async () => {
    const t0 = Date.now();
    const r = await h.request('POST', '/UserLogin', { body: signupBody() });
    expect(r.status).toBe(201);
    expect(r.body.terms).toEqual({ version: h.deps.config.TERMS_VERSION, accepted: true });
    const row = await personRow(h, r.body.id);
    expect(row?.termsVersion).toBe(h.deps.config.TERMS_VERSION);
    expect(row?.termsAcceptedAt).toBeGreaterThanOrEqual(t0);
    expect(row?.termsAcceptedAt).toBeLessThanOrEqual(Date.now());
  });

  test('an account created by staff has accepted nothing until its first login asks', async () => {
    const admin = await h.tokenOf('admin');
    const m = mobile();
    const created = await h.request('POST', '/UserLogin/createUserOnBehalf', { token: admin, body: { n: 'Placed By Staff', m } });
    expect(created.status).toBe(201);
    const row = await personRow(h, created.body.id);
    expect(row?.termsVersion).toBeNull();
    expect(row?.termsAcceptedAt).toBeNull();
  });
});

describe('terms: a new version is asked for at the next login and recorded', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.destroy());

  test('the demo learner accepted the current version; after a bump login says not accepted, until accepted', async () => {
    const first1 = await h.login(DEMO.learner.username, DEMO.learner.password);
    expect(first1.body.terms).toEqual({ version: '1', accepted: true });

    h.deps.config.TERMS_VERSION = '2';
    const login = await h.login(DEMO.learner.username, DEMO.learner.password);
    expect(login.status).toBe(200);
    expect(login.body.terms).toEqual({ version: '2', accepted: false });
    const token = login.body.token as string;

    const state = await h.request('GET', '/UserLogin/terms', { token });
    expect(state.body).toMatchObject({ success: true, version: '2', accepted: false });

    // Without the confirmation, or for the version before, nothing is recorded.
    const without = await h.request('POST', '/UserLogin/acceptTerms', { token, body: { version: '2' } });
    expect(without.status).toBe(400);
    expect(without.body.msg).toBe(MSG.termsRequired);
    const old = await h.request('POST', '/UserLogin/acceptTerms', { token, body: { version: '1', terms: true } });
    expect(old.status).toBe(409);
    expect(old.body.msg).toBe(MSG.termsChanged);
    expect((await personRow(h, DEMO.learner.id))?.termsVersion).toBe('1');

    const t0 = Date.now();
    const ok = await h.request('POST', '/UserLogin/acceptTerms', { token, body: { version: '2', terms: true } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ success: true, msg: MSG.termsAccepted, version: '2', accepted: true });
    const row = await personRow(h, DEMO.learner.id);
    expect(row?.termsVersion).toBe('2');
    expect(row?.termsAcceptedAt).toBeGreaterThanOrEqual(t0);
    const after = await h.login(DEMO.learner.username, DEMO.learner.password);
    expect(after.body.terms).toEqual({ version: '2', accepted: true });
    expect((await h.request('GET', '/UserLogin/terms', { token })).body.accepted).toBe(true);
  });

  test('reading or accepting the terms needs a login', async () => {
    expect((await h.request('GET', '/UserLogin/terms')).status).toBe(401);
    expect((await h.request('POST', '/UserLogin/acceptTerms', { body: { version: '2', terms: true } })).status).toBe(401);
  });
});

describe('signup: "No one invited me" places the person under the trust account', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.destroy());

  test('noInviter → the parent is the demo trust account (TRUST_ACCOUNT default outside production)', async () => {
    const { p: _p, ...body } = signupBody({ noInviter: true });
    const r = await h.request('POST', '/UserLogin', { body });
    expect(r.status).toBe(201);
    expect((await personRow(h, r.body.id))?.parentId).toBe('demo-trust');
  });

  test('TRUST_ACCOUNT may name the account by its mobile', async () => {
    h.deps.config.TRUST_ACCOUNT = '9000000001';
    try {
      const { p: _p, ...body } = signupBody({ noInviter: true });
      const r = await h.request('POST', '/UserLogin', { body });
      expect(r.status).toBe(201);
      expect((await personRow(h, r.body.id))?.parentId).toBe('demo-admin');
    } finally {
      h.deps.config.TRUST_ACCOUNT = 'demo-trust';
    }
  });

  test.each([
    ['both a referrer and noInviter', { noInviter: true }, MSG.inviterChoiceTwice],
    ['noInviter false', { p: undefined, noInviter: false }, MSG.noInviterTrue],
    ['neither', { p: undefined }, MSG.referrerRequired],
  ])('%s → 400, nothing written', async (_label, patch, msg) => {
    const before = await personCount(h);
    const r = await h.request('POST', '/UserLogin', { body: signupBody(patch) });
    expect(r.status).toBe(400);
    expect(r.body.msg).toBe(msg);
    expect(await personCount(h)).toBe(before);
  });

  test('without a trust account configured the choice is refused (400 naming noInviter), nothing written', async () => {
    h.deps.config.TRUST_ACCOUNT = undefined;
    try {
      const before = await personCount(h);
      const { p: _p, ...body } = signupBody({ noInviter: true });
      const r = await h.request('POST', '/UserLogin', { body });
      expect(r.status).toBe(400);
      expect(r.body.msg).toBe(MSG.noTrustAccount);
      expect(await personCount(h)).toBe(before);
    } finally {
      h.deps.config.TRUST_ACCOUNT = 'demo-trust';
    }
  });
});

describe('profile: own name and e-mail', () => {
  let h: Harness;
  let token: string;
  beforeAll(async () => {
    h = await startHarness();
    token = await h.tokenOf('learner');
  });
  afterAll(() => h.destroy());

  test('PATCH /Person/me changes the name; a short one is refused and nothing changes', async () => {
    const bad = await h.request('PATCH', '/Person/me', { token, body: { n: 'Ab' } });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe(MSG.fullName);
    expect((await personRow(h, DEMO.learner.id))?.name).toBe('Lata Learner');
    const extra = await h.request('PATCH', '/Person/me', { token, body: { n: 'Lata Sharma', r: 'ADMIN' } });
    expect(extra.status).toBe(400);
    const ok = await h.request('PATCH', '/Person/me', { token, body: { n: '  Lata Sharma ' } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ success: true, msg: MSG.profileUpdated, name: 'Lata Sharma' });
    expect((await h.request('GET', '/Person', { token })).body.data.n).toBe('Lata Sharma');
    expect((await h.request('PATCH', '/Person/me', { body: { n: 'Someone Else' } })).status).toBe(401);
  });

  test('a changed e-mail is verified by a code sent to it; until then the old address stays in use', async () => {
    const asked = await h.request('POST', '/Person/me/email', { token, body: { e: ' Lata.New@Example.com ' } });
    expect(asked.status).toBe(200);
    expect(asked.body).toEqual({ success: true, msg: MSG.emailCodeSent });
    await h.deps.afterAnswer.settled();
    // Not yet: the old address logs in, the new one does not; the profile shows it waiting.
    expect((await personRow(h, DEMO.learner.id))?.email).toBe('learner@example.com');
    expect((await h.login('learner@example.com', DEMO.learner.password)).status).toBe(200);
    expect((await h.login('lata.new@example.com', DEMO.learner.password)).status).toBe(401);
    const me = await h.request('GET', '/Person', { token });
    expect(me.body.data).toMatchObject({ e: 'learner@example.com', pendingEmail: 'lata.new@example.com' });

    const code = await codeSentTo(h, 'lata.new@example.com');
    const wrong = await h.request('POST', '/Person/me/email/verify', { token, body: { code: code === '000000' ? '111111' : '000000' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.msg).toBe(MSG.invalidCode);
    const malformed = await h.request('POST', '/Person/me/email/verify', { token, body: { code: '12ab' } });
    expect(malformed.status).toBe(400);
    expect(malformed.body.msg).toBe(MSG.codeRequired);

    const ok = await h.request('POST', '/Person/me/email/verify', { token, body: { code } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ success: true, msg: MSG.emailChanged, email: 'lata.new@example.com' });
    const row = await personRow(h, DEMO.learner.id);
    expect(row).toMatchObject({ email: 'lata.new@example.com', emailVerified: true, pendingEmail: null });
    expect((await h.login('lata.new@example.com', DEMO.learner.password)).status).toBe(200);
    expect((await h.login('learner@example.com', DEMO.learner.password)).status).toBe(401);
    // A code is used once.
    expect((await h.request('POST', '/Person/me/email/verify', { token, body: { code } })).status).toBe(400);
    // Asking for the address one already has is refused (it is one's own, so that tells nothing).
    const same = await h.request('POST', '/Person/me/email', { token, body: { e: 'lata.new@example.com' } });
    expect(same.status).toBe(400);
    expect(same.body.msg).toBe(MSG.emailSameAsCurrent);
  });

  test('a stranger learns nothing: an address of another account gets the same answer and no message', async () => {
    const editor = await h.tokenOf('editor');
    const taken = await h.request('POST', '/Person/me/email', { token: editor, body: { e: 'admin@example.com' } });
    const free = await h.request('POST', '/Person/me/email', { token: editor, body: { e: 'nobody-yet@example.com' } });
    expect(taken.status).toBe(free.status);
    expect(taken.body).toEqual(free.body);
    expect(taken.headers.get('content-length')).toBe(free.headers.get('content-length'));

    // Asked for the taken address again, last: nothing goes to it, and no code makes it the editor's.
    const again = await h.request('POST', '/Person/me/email', { token: editor, body: { e: 'admin@example.com' } });
    expect(again.body).toEqual(free.body);
    expect(await messagesTo(h, 'admin@example.com')).toEqual([]);
    expect((await messagesTo(h, 'nobody-yet@example.com')).length).toBe(1);
    const guess = await h.request('POST', '/Person/me/email/verify', { token: editor, body: { code: '123456' } });
    expect(guess.status).toBe(400);
    expect(guess.body.msg).toBe(MSG.invalidCode);
    // The code of the free address died with the later request.
    const stale = await h.request('POST', '/Person/me/email/verify', { token: editor, body: { code: await codeSentTo(h, 'nobody-yet@example.com') } });
    expect(stale.status).toBe(400);
    expect((await personRow(h, DEMO.editor.id))?.email).toBe('editor@example.com');
    expect((await personRow(h, 'demo-admin'))?.email).toBe('admin@example.com');
  });

  test('an address taken after its code was sent is refused at verification (409), nothing changes', async () => {
    const m = mobile();
    const signup = await h.request('POST', '/UserLogin', { body: { ...signupBody(), m, e: 'racy@example.com' } });
    expect(signup.status).toBe(201);
    const other = signup.body.token as string;
    // The signup above holds racy@; this person asks for a free address that someone then registers.
    const asked = await h.request('POST', '/Person/me/email', { token: other, body: { e: 'later-taken@example.com' } });
    expect(asked.status).toBe(200);
    const code = await codeSentTo(h, 'later-taken@example.com');
    const thief = await h.request('POST', '/UserLogin', { body: { ...signupBody(), e: 'later-taken@example.com' } });
    expect(thief.status).toBe(201);
    const r = await h.request('POST', '/Person/me/email/verify', { token: other, body: { code } });
    expect(r.status).toBe(409);
    expect(r.body.msg).toBe(MSG.emailTaken);
    expect((await personRow(h, signup.body.id))?.email).toBe('racy@example.com');
  });
});
