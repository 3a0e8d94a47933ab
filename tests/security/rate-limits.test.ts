import path from 'node:path';
import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MSG } from '@pm/protocol/messages';
import { person } from '../../server/src/db/schema';
import { readLocalInbox } from '../../server/src/lib/outbox';
import { RULES } from '../../server/src/lib/rate-limit';
import { DEMO, type Harness, startHarness } from '../../server/src/test/harness';
import { first } from '../../server/src/db/transaction';

/**
 * docs/security.md "Rate limits, enumeration, passwords, the outbox": every limit is spent atomically before the work it guards, so a burst of
 * parallel requests never gets more through than the limit (lib/rate-limit.ts has the numbers);
 * one code per request; limits on signup, on-behalf creation, OTP and reset requests; a lockout
 * that an attacker cannot turn against the owner of the account.
 *
 * Each burst fires at least 50 requests at once (Promise.all) and asserts exactly how many got
 * through. Clients are told apart by X-Forwarded-For (the harness runs with TRUST_PROXY on), so
 * that "another address" is a real second client to the limits.
 */

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  h.deps.config.TRUST_PROXY = true;
});
afterAll(() => h.destroy());

const BURST = 60;
const range = (n: number) => Array.from({ length: n }, (_, i) => i);
const from = (ip: string) => ({ 'x-forwarded-for': ip });
const tally = (statuses: number[]) =>
  statuses.reduce<Record<number, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {});

function login(username: string, password: string, ip: string) {
  return h.request('POST', '/UserLogin/login', { headers: { authorization: h.basic(username, password), ...from(ip) } });
}
function requestReset(username: string, ip: string) {
  return h.request('POST', '/UserLogin/resetPassword', { body: { username }, headers: from(ip) });
}
function resetWithCode(username: string, user: string, pass: string, ip: string) {
  return h.request('POST', '/UserLogin/updatePasswordWithResetCode', {
    body: { username },
    headers: { authorization: h.basic(user, pass), ...from(ip) },
  });
}
function requestOtp(mobile: string, ip: string) {
  return h.request('POST', '/OTP/requestOTP', { body: { type: 'mobile', mobile }, headers: from(ip) });
}
function verifyOtp(mobile: string, code: string, ip: string) {
  return h.request('POST', '/OTP/verifyOTPAndSignIn', {
    body: { type: 'mobile' },
    headers: { authorization: h.basic(mobile, code), ...from(ip) },
  });
}

/** Messages leave after the response (deps.afterAnswer, lib/outbox.ts). */
async function inbox() {
  await h.deps.afterAnswer.settled();
  return readLocalInbox(path.join(h.dataDir, 'local-inbox.jsonl'));
}
async function codeSentTo(recipient: string): Promise<string> {
  const last = (await inbox()).filter((m) => m.to === recipient).at(-1);
  const code = last && /\b(\d{6})\b/.exec(last.body)?.[1];
  if (!code) throw new Error(`no code sent to ${recipient}`);
  return code;
}
const wrongCode = (right: string, i: number) => String((Number(right) + 1 + i) % 1_000_000).padStart(6, '0');

/** A new member with a password, signed up from an address of its own. */
async function newMember(mobile: string, password = 'Tiger-Lily-42') {
  const r = await h.request('POST', '/UserLogin', {
    body: { n: `Member ${mobile}`, m: mobile, e: `m${mobile}@example.com`, password, p: DEMO.admin.id, terms: true },
    headers: from(`10.99.${Number(mobile.slice(-4)) % 250}.${Number(mobile.slice(-2)) % 250}`),
  });
  expect(r.status).toBe(201);
  return r.body as { id: string; token: string };
}

describe('password guessing', () => {
  test('parallel wrong logins for one account from one address: exactly 10 are checked, the rest get 429', async () => {
    const rs = await Promise.all(range(BURST).map((i) => login(DEMO.editor.username, `wrong-${i}`, '10.1.0.1')));
    expect(tally(rs.map((r) => r.status))).toEqual({ 401: RULES.loginPair.points, 429: BURST - RULES.loginPair.points });
    for (const r of rs.filter((x) => x.status === 429)) expect(r.body).toMatchObject({ success: false, msg: MSG.tooManyRequests });
    // Even the right password is not checked from that address any more...
    expect((await login(DEMO.editor.username, DEMO.editor.password, '10.1.0.1')).status).toBe(429);
  });

  test("an attacker's failures lock only the attacker's address: the owner still signs in from theirs", async () => {
    // The editor's account was just attacked from 10.1.0.1 (previous test).
    const r = await login(DEMO.editor.username, DEMO.editor.password, '10.1.0.2');
    expect(r.status).toBe(200);
    expect(typeof r.body.token).toBe('string');
  });

  test('wrong logins spread over many addresses stop at the per-account ceiling of 100', async () => {
    const victim = await newMember('9812300001');
    const guess = (i: number) => login('m9812300001@example.com', `guess-${i}`, `10.2.${Math.floor(i / 10)}.1`);
    // Each address may guess 10 times, the account 100 times. Five addresses spend 50 at once,
    // then six more fire 60 at once (two bursts: more than 64 requests in flight would meet the
    // load shedder, lib/overload.ts, before the limits).
    const first = await Promise.all(range(50).map((i) => guess(i)));
    expect(tally(first.map((r) => r.status))).toEqual({ 401: 50 });
    const rs = await Promise.all(range(BURST).map((i) => guess(50 + i)));
    expect(tally(rs.map((r) => r.status))).toEqual({ 401: RULES.loginAccount.points - 50, 429: BURST + 50 - RULES.loginAccount.points });
    // Password login of that account is now refused from everywhere, the owner's address too...
    expect((await login('m9812300001@example.com', 'Tiger-Lily-42', '10.2.200.9')).status).toBe(429);
    // ...but the owner signs in with a one-time code by SMS: its budgets are not the password's.
    expect((await requestOtp('9812300001', '10.2.200.9')).status).toBe(200);
    const code = await codeSentTo('+919812300001');
    const otp = await verifyOtp('9812300001', code, '10.2.200.9');
    expect(otp.status).toBe(200);
    expect(otp.body.id).toBe(victim.id);
  });

  test('one address gets at most 50 wrong credentials in 15 minutes, whatever the accounts', async () => {
    const rs = await Promise.all(range(BURST).map((i) => login(`97000${String(i).padStart(5, '0')}`, 'wrong-pass', '10.3.0.1')));
    expect(tally(rs.map((r) => r.status))).toEqual({ 401: RULES.authFailIp.points, 429: BURST - RULES.authFailIp.points });
  });

  test('right passwords give their point back: after a burst of correct logins the budget is whole again', async () => {
    // Points are spent before the check, so even right passwords are checked at most 10 at a time...
    const right = await Promise.all(range(BURST).map(() => login(DEMO.learner.username, DEMO.learner.password, '10.4.0.1')));
    expect(tally(right.map((r) => r.status))).toEqual({ 200: RULES.loginPair.points, 429: BURST - RULES.loginPair.points });
    // ...and each success returned its point: ten wrong guesses are still allowed, not one more.
    const wrong = await Promise.all(range(BURST).map((i) => login(DEMO.learner.username, `nope-${i}`, '10.4.0.1')));
    expect(tally(wrong.map((r) => r.status))).toEqual({ 401: RULES.loginPair.points, 429: BURST - RULES.loginPair.points });
  });
});

describe('reset-code guessing', () => {
  test('a burst of 60 guesses tests exactly 10 codes; the right code at the 43rd try is never tested', async () => {
    await newMember('9812300002');
    expect((await requestReset('m9812300002@example.com', '10.5.0.1')).status).toBe(200);
    const right = await codeSentTo('m9812300002@example.com');
    const rs = await Promise.all(
      range(BURST).map((i) =>
        resetWithCode('m9812300002@example.com', i === 42 ? right : wrongCode(right, i), 'Taken-Over-77', '10.5.0.1'),
      ),
    );
    expect(tally(rs.map((r) => r.status))).toEqual({ 400: RULES.codePair.points, 429: BURST - RULES.codePair.points });
    expect(rs[42]!.status).toBe(429);
    for (const r of rs.filter((x) => x.status === 400)) expect(r.body.msg).toBe(MSG.invalidCode);
    // The password did not change; the code is still unused and works from another address.
    expect((await login('m9812300002@example.com', 'Taken-Over-77', '10.5.0.2')).status).toBe(401);
    expect((await resetWithCode('m9812300002@example.com', right, 'Owner-Chose-88', '10.5.0.2')).status).toBe(200);
    expect((await login('m9812300002@example.com', 'Owner-Chose-88', '10.5.0.2')).status).toBe(200);
  });

  test('a request carrying two codes tests only one: the `user` part when both have 6 digits', async () => {
    await newMember('9812300003');
    await requestReset('9812300003', '10.6.0.1');
    const right = await codeSentTo('m9812300003@example.com');
    // `wrong:right` used to be tried both ways; now only the first part is the code.
    const twoCodes = await resetWithCode('9812300003', wrongCode(right, 0), right, '10.6.0.1');
    expect(twoCodes.status).toBe(400);
    expect(twoCodes.body.msg).toBe(MSG.invalidCode);
    expect((await login('9812300003', right, '10.6.0.2')).status).toBe(401);
    // With one 6-digit part, that part is the code, in either order.
    expect((await resetWithCode('9812300003', 'Either-Order-5', right, '10.6.0.1')).status).toBe(200);
    expect((await login('9812300003', 'Either-Order-5', '10.6.0.2')).status).toBe(200);
  });

  test('guesses spread over many addresses stop at 30 per account and hour', async () => {
    await newMember('9812300004');
    await requestReset('9812300004', '10.7.0.1');
    const right = await codeSentTo('m9812300004@example.com');
    // 6 addresses × 10 guesses at once; none is the right code.
    const rs = await Promise.all(
      range(BURST).map((i) => resetWithCode('9812300004', wrongCode(right, i), 'Spread-Guess-3', `10.7.${Math.floor(i / 10)}.2`)),
    );
    expect(tally(rs.map((r) => r.status))).toEqual({ 400: RULES.codeAccount.points, 429: BURST - RULES.codeAccount.points });
  });
});

describe('OTP', () => {
  test('parallel OTP guesses from one address: exactly 10 are checked, then even the right code waits', async () => {
    await newMember('9812300005');
    await requestOtp('9812300005', '10.8.0.1');
    const right = await codeSentTo('+919812300005');
    const rs = await Promise.all(range(BURST).map((i) => verifyOtp('9812300005', wrongCode(right, i), '10.8.0.1')));
    expect(tally(rs.map((r) => r.status))).toEqual({ 401: RULES.codePair.points, 429: BURST - RULES.codePair.points });
    expect((await verifyOtp('9812300005', right, '10.8.0.1')).status).toBe(429);
    expect((await verifyOtp('9812300005', right, '10.8.0.2')).status).toBe(200);
  });

  test('OTP requests for one mobile from one address: 3 an hour', async () => {
    await newMember('9812300006');
    const rs = await Promise.all(range(BURST).map(() => requestOtp('9812300006', '10.9.0.1')));
    expect(tally(rs.map((r) => r.status))).toEqual({ 200: RULES.sendPair.points, 429: BURST - RULES.sendPair.points });
    expect((await inbox()).filter((m) => m.to === '+919812300006')).toHaveLength(RULES.sendPair.points);
  });

  test('OTP requests for one mobile from 60 addresses: 10 SMS an hour reach the phone', async () => {
    await newMember('9812300007');
    const rs = await Promise.all(range(BURST).map((i) => requestOtp('9812300007', `10.10.${i}.1`)));
    expect(tally(rs.map((r) => r.status))).toEqual({ 200: RULES.sendAccount.points, 429: BURST - RULES.sendAccount.points });
    expect((await inbox()).filter((m) => m.to === '+919812300007')).toHaveLength(RULES.sendAccount.points);
  });

  test('OTP requests from one address for 60 mobiles: 30 an hour', async () => {
    const rs = await Promise.all(range(BURST).map((i) => requestOtp(`96000${String(i).padStart(5, '0')}`, '10.11.0.1')));
    expect(tally(rs.map((r) => r.status))).toEqual({ 200: RULES.sendIp.points, 429: BURST - RULES.sendIp.points });
  });
});

describe('reset requests', () => {
  test('reset requests for one account from one address: 3 an hour', async () => {
    await newMember('9812300008');
    const rs = await Promise.all(range(BURST).map(() => requestReset('m9812300008@example.com', '10.12.0.1')));
    expect(tally(rs.map((r) => r.status))).toEqual({ 200: RULES.sendPair.points, 429: BURST - RULES.sendPair.points });
    expect((await inbox()).filter((m) => m.to === 'm9812300008@example.com')).toHaveLength(RULES.sendPair.points);
  });

  test('reset requests for one account from 60 addresses: 10 messages an hour', async () => {
    await newMember('9812300009');
    const rs = await Promise.all(range(BURST).map((i) => requestReset('m9812300009@example.com', `10.13.${i}.1`)));
    expect(tally(rs.map((r) => r.status))).toEqual({ 200: RULES.sendAccount.points, 429: BURST - RULES.sendAccount.points });
    expect((await inbox()).filter((m) => m.to === 'm9812300009@example.com')).toHaveLength(RULES.sendAccount.points);
  });

  test('reset requests from one address for 60 accounts: 30 an hour', async () => {
    const rs = await Promise.all(range(BURST).map((i) => requestReset(`reset-${i}@example.org`, '10.14.0.1')));
    expect(tally(rs.map((r) => r.status))).toEqual({ 200: RULES.sendIp.points, 429: BURST - RULES.sendIp.points });
  });
});

describe('account creation', () => {
  const personCount = async () => (await first(h.deps.db.select({ n: count() }).from(person)))!.n;

  test('signups from one address: 30 an hour', async () => {
    const before = await personCount();
    const rs = await Promise.all(
      range(BURST).map((i) =>
        h.request('POST', '/UserLogin', {
          body: { n: `Burst Signup ${i}`, m: `95000${String(i).padStart(5, '0')}`, password: 'Tiger-Lily-42', p: DEMO.admin.id, terms: true },
          headers: from('10.15.0.1'),
        }),
      ),
    );
    expect(tally(rs.map((r) => r.status))).toEqual({ 201: RULES.signupIp.points, 429: BURST - RULES.signupIp.points });
    expect(await personCount()).toBe(before + RULES.signupIp.points);
  });

  test('accounts created on behalf by one actor: 10 an hour, and 10 SMS with a password', async () => {
    const actor = await newMember('9812300010');
    const before = await personCount();
    const rs = await Promise.all(
      range(BURST).map((i) =>
        h.request('POST', '/UserLogin/createUserOnBehalf', {
          token: actor.token,
          body: { n: `Behalf Person ${i}`, m: `94000${String(i).padStart(5, '0')}` },
          headers: from(`10.16.${i}.1`),
        }),
      ),
    );
    expect(tally(rs.map((r) => r.status))).toEqual({ 201: RULES.onBehalfActor.points, 429: BURST - RULES.onBehalfActor.points });
    expect(await personCount()).toBe(before + RULES.onBehalfActor.points);
    const sms = (await inbox()).filter((m) => m.subject === 'Your Pariksha Mitra account' && m.to.startsWith('+9194000'));
    expect(sms).toHaveLength(RULES.onBehalfActor.points);
  });

  test('accounts created on behalf from one address: 30 an hour, whatever the actors', async () => {
    const actors = await Promise.all(range(6).map((i) => newMember(`98123001${String(i).padStart(2, '0')}`)));
    const rs = await Promise.all(
      range(BURST).map((i) =>
        h.request('POST', '/UserLogin/createUserOnBehalf', {
          token: actors[i % actors.length]!.token,
          body: { n: `Behalf Address ${i}`, m: `93000${String(i).padStart(5, '0')}` },
          headers: from('10.17.0.1'),
        }),
      ),
    );
    expect(tally(rs.map((r) => r.status))).toEqual({ 201: RULES.onBehalfIp.points, 429: BURST - RULES.onBehalfIp.points });
  });
});
