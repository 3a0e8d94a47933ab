import { performance } from 'node:perf_hooks';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MSG } from '@pm/protocol/messages';
import { person, rateLimit } from '../../server/src/db/schema';
import type { Outbox } from '../../server/src/lib/outbox';
import { DEMO, type Harness, startHarness } from '../../server/src/test/harness';

/**
 * docs/security.md "Rate limits, enumeration, passwords, the outbox": every account route gives a registered and an unknown account the same
 * answer — status and body byte for byte — in the same time, so that nobody can find out who is
 * registered. Timing: ~20 runs each, known and unknown interleaved, medians compared.
 *
 * The outbox here takes 150 ms per message, as a slow SMTP server or SMS gateway would: an answer
 * that waited for the message (sent only to registered accounts) would be 150 ms slower for them.
 * The rate limits are emptied before every request: these tests time the work, not the 429s
 * (tests/security/rate-limits.test.ts shows that an unknown account's budget is a known one's).
 */

let h: Harness;
const SLOW_SEND_MS = 150;
const RUNS = 20;

beforeAll(async () => {
  h = await startHarness();
  const real = h.deps.outbox;
  const slow: Outbox = {
    async send(m) {
      await new Promise((resolve) => setTimeout(resolve, SLOW_SEND_MS));
      return real.send(m);
    },
  };
  h.deps.outbox = slow;
  // A registered account whose status is BLOCKED must look unknown too (it gets no code).
  const blocked = await h.request('POST', '/UserLogin', {
    body: { n: 'Blocked Person', m: '9811100001', e: 'blocked@example.com', password: 'Tiger-Lily-42', p: DEMO.admin.id, terms: true },
  });
  expect(blocked.status).toBe(201);
  await h.deps.db.update(person).set({ status: 'BLOCKED' }).where(eq(person.id, blocked.body.id));
});
afterAll(() => h.destroy());

type Call = { method: string; url: string; body?: unknown; basic?: [string, string] };
type Answer = { status: number; text: string; ms: number };

/** One request through the real app, timed until its body has been read. */
async function call(c: Call): Promise<Answer> {
  await h.deps.db.delete(rateLimit);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (c.basic) headers.authorization = h.basic(...c.basic);
  const t0 = performance.now();
  const res = await h.app.request(`/api${c.url}`, {
    method: c.method,
    headers,
    body: c.body === undefined ? undefined : JSON.stringify(c.body),
  });
  const text = await res.text();
  return { status: res.status, text, ms: performance.now() - t0 };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return (s[Math.floor((s.length - 1) / 2)]! + s[Math.ceil((s.length - 1) / 2)]!) / 2;
};

/**
 * Runs known and unknown RUNS times each, back to back in pairs, alternating which goes first;
 * every answer must equal the first one. Timing compares the pairs: the median of (known −
 * unknown) over the pairs must be within 15 ms or 25 % of the slower median (whichever is more:
 * the argon2 routes take 50-100 ms on a busy machine; a message on the response path took 150).
 * Pairs cancel the drift of a machine whose other test files come and go; a round that still
 * misses is measured again, up to three rounds: a real difference misses every round, CI's
 * neighbours do not load every round the same way.
 */
async function expectIndistinguishable(known: Call, unknown: Call, expected: { status: number; msg: string }) {
  // Warm-up: the first argon2 hash of a process, the password list, prepared statements.
  await call(known);
  await call(unknown);
  let reference: Answer | undefined;
  const rounds: string[] = [];
  for (let round = 0; round < 3; round++) {
    const times = { known: [] as number[], unknown: [] as number[] };
    const diffs: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const order = i % 2 === 0 ? (['known', 'unknown'] as const) : (['unknown', 'known'] as const);
      const pair: Partial<Record<'known' | 'unknown', number>> = {};
      for (const who of order) {
        const a = await call(who === 'known' ? known : unknown);
        reference ??= a;
        expect({ who, status: a.status, text: a.text }).toEqual({ who, status: reference.status, text: reference.text });
        times[who].push(a.ms);
        pair[who] = a.ms;
      }
      diffs.push(pair.known! - pair.unknown!);
    }
    const [k, u, d] = [median(times.known), median(times.unknown), median(diffs)];
    const allowed = Math.max(15, 0.25 * Math.max(k, u));
    rounds.push(`median known ${k.toFixed(1)} ms, unknown ${u.toFixed(1)} ms, paired difference ${d.toFixed(1)} ms`);
    if (Math.abs(d) <= allowed) break;
    expect(round, rounds.join('; ')).toBeLessThan(2);
  }
  expect(reference!.status).toBe(expected.status);
  expect(JSON.parse(reference!.text).msg).toBe(expected.msg);
}

describe('the same answer in the same time for registered and unknown accounts', () => {
  test('login: a wrong password for a registered account answers like an unknown account', async () => {
    await expectIndistinguishable(
      { method: 'POST', url: '/UserLogin/login', basic: [DEMO.learner.username, 'not-the-password'] },
      { method: 'POST', url: '/UserLogin/login', basic: ['nobody.here@example.com', 'not-the-password'] },
      { status: 401, msg: MSG.badCredentials },
    );
  });

  test('login: a blocked account with a wrong password answers like an unknown account', async () => {
    await expectIndistinguishable(
      { method: 'POST', url: '/UserLogin/login', basic: ['9811100001', 'not-the-password'] },
      { method: 'POST', url: '/UserLogin/login', basic: ['9811100099', 'not-the-password'] },
      { status: 401, msg: MSG.badCredentials },
    );
  });

  test('resetPassword by e-mail: the code is sent after the answer, which names no channel', async () => {
    await expectIndistinguishable(
      { method: 'POST', url: '/UserLogin/resetPassword', body: { username: DEMO.learner.username } },
      { method: 'POST', url: '/UserLogin/resetPassword', body: { username: 'nobody.here@example.com' } },
      { status: 200, msg: MSG.resetCodeSent },
    );
  });

  test('resetPassword by mobile, for an account without e-mail (the code goes by SMS)', async () => {
    const sms = await h.request('POST', '/UserLogin', {
      body: { n: 'Sms Only Person', m: '9811100002', password: 'Tiger-Lily-42', p: DEMO.admin.id, terms: true },
    });
    expect(sms.status).toBe(201);
    await expectIndistinguishable(
      { method: 'POST', url: '/UserLogin/resetPassword', body: { username: '9811100002' } },
      { method: 'POST', url: '/UserLogin/resetPassword', body: { username: '9811100098' } },
      { status: 200, msg: MSG.resetCodeSent },
    );
  });

  test('resetPassword: a blocked account answers like an unknown one', async () => {
    await expectIndistinguishable(
      { method: 'POST', url: '/UserLogin/resetPassword', body: { username: 'blocked@example.com' } },
      { method: 'POST', url: '/UserLogin/resetPassword', body: { username: 'nobody.here@example.com' } },
      { status: 200, msg: MSG.resetCodeSent },
    );
  });

  test('updatePasswordWithResetCode: a wrong code for a registered account answers like an unknown account', async () => {
    await h.request('POST', '/UserLogin/resetPassword', { body: { username: DEMO.editor.username } });
    await expectIndistinguishable(
      { method: 'POST', url: '/UserLogin/updatePasswordWithResetCode', body: { username: DEMO.editor.username }, basic: ['000001', 'Brand-New-Pass-7'] },
      { method: 'POST', url: '/UserLogin/updatePasswordWithResetCode', body: { username: 'nobody.here@example.com' }, basic: ['000001', 'Brand-New-Pass-7'] },
      { status: 400, msg: MSG.invalidCode },
    );
    // The password policy answers alike too: it compares only what the caller typed before the
    // code is proved right.
    await expectIndistinguishable(
      { method: 'POST', url: '/UserLogin/updatePasswordWithResetCode', body: { username: DEMO.editor.mobile }, basic: ['000001', DEMO.editor.mobile] },
      { method: 'POST', url: '/UserLogin/updatePasswordWithResetCode', body: { username: '9811100097' }, basic: ['000001', '9811100097'] },
      { status: 400, msg: MSG.passwordIsMobile },
    );
  });

  test('requestOTP: the SMS is sent after the answer', async () => {
    await expectIndistinguishable(
      { method: 'POST', url: '/OTP/requestOTP', body: { type: 'mobile', mobile: DEMO.learner.mobile } },
      { method: 'POST', url: '/OTP/requestOTP', body: { type: 'mobile', mobile: '9811100096' } },
      { status: 200, msg: MSG.otpSent },
    );
  });

  test('verifyOTPAndSignIn: a wrong code for a registered mobile answers like an unknown mobile', async () => {
    await h.request('POST', '/OTP/requestOTP', { body: { type: 'mobile', mobile: DEMO.editor.mobile } });
    await expectIndistinguishable(
      { method: 'POST', url: '/OTP/verifyOTPAndSignIn', body: { type: 'mobile' }, basic: [DEMO.editor.mobile, '000001'] },
      { method: 'POST', url: '/OTP/verifyOTPAndSignIn', body: { type: 'mobile' }, basic: ['9811100095', '000001'] },
      { status: 401, msg: MSG.invalidCode },
    );
  });

  test('signup tells a registered mobile apart — inherent to signup — but only 30 times an hour per address', async () => {
    // A person who cannot register must be told why ('This mobile number is already
    // registered', docs/api.md "Signup"); the limit makes signup a slow way to probe a list of numbers.
    await h.deps.db.delete(rateLimit);
    const rs = await Promise.all(
      Array.from({ length: 60 }, () =>
        h.request('POST', '/UserLogin', {
          body: { n: 'Probe Person', m: DEMO.learner.mobile, password: 'Tiger-Lily-42', p: DEMO.admin.id, terms: true },
        }),
      ),
    );
    const statuses = rs.map((r) => r.status);
    expect(statuses.filter((s) => s === 409)).toHaveLength(30);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30);
  });
});
