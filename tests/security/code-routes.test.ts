import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { and, eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MSG } from '@pm/protocol/messages';
import { txEngines } from '../../server/src/db/client';
import { oneTimeCode, rateLimit } from '../../server/src/db/schema';
import { exec } from '../../server/src/db/transaction';
import { readLocalInbox } from '../../server/src/lib/outbox';
import { smsSandboxControl } from '../../server/src/modules/sms/sandbox-sms';
import { DEMO, type Harness, startHarness } from '../../server/src/test/harness';

/**
 * docs/security.md "Smaller points": the code routes — resetPassword,
 * requestOTP, verifyOTPAndSignIn, and updatePasswordWithResetCode beside them — run the same
 * database statements before they answer for a registered account as for an unknown one. What
 * differs (looking the account up to issue a code, writing the code, sending it) runs after the
 * answer. A fraction of a millisecond of work done only for real accounts is measurable on a
 * quiet server; so the first tests compare, deterministically, the statements each request runs
 * before its answer resolves. The last one times the answers with the code's write made slow
 * (a trigger of 60 ms), which a request that waited for it could not hide.
 */

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  // The start-up repairs (compose.ts startRepairs) run their own statements: over before any is counted.
  await h.repaired;
});
afterAll(async () => {
  await h.deps.afterAnswer.settled();
  await h.destroy();
});

type Call = { url: string; body: unknown; basic?: [string, string] };
type Answer = { status: number; text: string; statements: string[]; ms: number };

/**
 * One request through the real app, recording the SQL text of every statement the database runs
 * from the request until its answer resolves (better-sqlite3's statements and exec on SQLite,
 * the pg client's queries on PostgreSQL). Work left for after the answer has not run yet then:
 * it waits for a later turn of the event loop. The rate limits are emptied first, so that every
 * request finds the same counters.
 */
async function call(c: Call): Promise<Answer> {
  await h.deps.afterAnswer.settled();
  // The SMS provider's delivery reports of earlier codes come back on their own time: none may
  // land inside the statements a call is measured by.
  await smsSandboxControl(h.deps.sms.sandbox).idle();
  await h.deps.db.delete(rateLimit);
  const statements: string[] = [];
  const undo: (() => void)[] = [];
  const patch = <T extends object>(target: T, name: keyof T & string, sqlOf: (args: unknown[], self: unknown) => string | undefined) => {
    const original = target[name] as (...args: unknown[]) => unknown;
    (target as Record<string, unknown>)[name] = function (this: unknown, ...args: unknown[]) {
      const text = sqlOf(args, this);
      if (text) statements.push(text.trim());
      return original.apply(this, args);
    };
    undo.push(() => {
      (target as Record<string, unknown>)[name] = original;
    });
  };
  const engine = txEngines.get(h.deps.db);
  if (engine) {
    const statement = Object.getPrototypeOf(engine.sqlite.prepare('SELECT 1')) as Record<string, unknown>;
    for (const m of ['run', 'get', 'all', 'iterate']) patch(statement, m, (_args, self) => (self as { source: string }).source);
    patch(engine.sqlite, 'exec', (args) => String(args[0]));
  } else {
    patch(pg.Client.prototype, 'query', (args) => {
      const q = args[0] as string | { text?: string } | undefined;
      return typeof q === 'string' ? q : q?.text;
    });
  }
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (c.basic) headers.authorization = h.basic(...c.basic);
  let res: Response;
  const t0 = performance.now();
  try {
    res = await h.app.request(`/api${c.url}`, { method: 'POST', headers, body: JSON.stringify(c.body) });
  } finally {
    for (const u of undo) u();
  }
  const ms = performance.now() - t0;
  return { status: res.status, text: await res.text(), statements, ms };
}

/** A registered and an unknown account: the same answer, after the same statements. */
async function expectSameWork(known: Call, unknown: Call, expected: { status: number; msg: string }) {
  // The first request of a route prepares its statements; compare the second of each.
  await call(known);
  await call(unknown);
  const a = await call(known);
  const b = await call(unknown);
  expect({ status: a.status, msg: JSON.parse(a.text).msg }).toEqual(expected);
  expect(b.text).toBe(a.text);
  expect(b.status).toBe(a.status);
  expect(a.statements.length).toBeGreaterThan(0);
  expect(a.statements).toEqual(b.statements);
}

const codesOf = async (personId: string, purpose: 'OTP' | 'RESET') =>
  (await h.deps.db.select().from(oneTimeCode).where(and(eq(oneTimeCode.personId, personId), eq(oneTimeCode.purpose, purpose)))).length;
const inbox = () => readLocalInbox(path.join(h.dataDir, 'local-inbox.jsonl'));

describe('code routes: the same statements before the answer for every account', () => {
  test('resetPassword: the account is looked up, the code written and sent after the answer', async () => {
    const before = await codesOf(DEMO.learner.id, 'RESET');
    await expectSameWork(
      { url: '/UserLogin/resetPassword', body: { username: DEMO.learner.username } },
      { url: '/UserLogin/resetPassword', body: { username: 'nobody.here@example.com' } },
      { status: 200, msg: MSG.resetCodeSent },
    );
    // The work was done all the same, after the answers.
    await h.deps.afterAnswer.settled();
    expect(await codesOf(DEMO.learner.id, 'RESET')).toBe(before + 2);
    expect(inbox().filter((m) => m.to === DEMO.learner.username && m.subject === 'Password reset code')).toHaveLength(2);
  });

  test('requestOTP: the account is looked up, the code written and sent after the answer', async () => {
    const before = await codesOf(DEMO.learner.id, 'OTP');
    await expectSameWork(
      { url: '/OTP/requestOTP', body: { type: 'mobile', mobile: DEMO.learner.mobile } },
      { url: '/OTP/requestOTP', body: { type: 'mobile', mobile: '9811100196' } },
      { status: 200, msg: MSG.otpSent },
    );
    await h.deps.afterAnswer.settled();
    expect(await codesOf(DEMO.learner.id, 'OTP')).toBe(before + 2);
  });

  test('verifyOTPAndSignIn: a wrong code for a registered mobile runs what an unknown mobile runs', async () => {
    // The registered mobile has a live code: its guess is compared with it, and is wrong.
    await call({ url: '/OTP/requestOTP', body: { type: 'mobile', mobile: DEMO.editor.mobile } });
    await h.deps.afterAnswer.settled();
    await expectSameWork(
      { url: '/OTP/verifyOTPAndSignIn', body: { type: 'mobile' }, basic: [DEMO.editor.mobile, '000001'] },
      { url: '/OTP/verifyOTPAndSignIn', body: { type: 'mobile' }, basic: ['9811100195', '000001'] },
      { status: 401, msg: MSG.invalidCode },
    );
  });

  test('updatePasswordWithResetCode: a wrong code for a registered account runs what an unknown one runs', async () => {
    await call({ url: '/UserLogin/resetPassword', body: { username: DEMO.editor.username } });
    await h.deps.afterAnswer.settled();
    await expectSameWork(
      { url: '/UserLogin/updatePasswordWithResetCode', body: { username: DEMO.editor.username }, basic: ['000001', 'Brand-New-Pass-7'] },
      { url: '/UserLogin/updatePasswordWithResetCode', body: { username: 'nobody.here@example.com' }, basic: ['000001', 'Brand-New-Pass-7'] },
      { status: 400, msg: MSG.invalidCode },
    );
  });
});

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return (s[Math.floor((s.length - 1) / 2)]! + s[Math.ceil((s.length - 1) / 2)]!) / 2;
};

describe('code routes: the answer does not wait for the per-account work', () => {
  const SLOW_MS = 60;
  beforeAll(async () => {
    // Writing a code takes SLOW_MS: an answer that waited for it would be that much later.
    const engine = txEngines.get(h.deps.db);
    if (engine) {
      engine.sqlite.function('pm_test_busy', (ms: number) => {
        const end = performance.now() + ms;
        while (performance.now() < end);
        return ms;
      });
      await exec(h.deps.db, sql.raw(`CREATE TRIGGER pm_test_slow_code AFTER INSERT ON one_time_code BEGIN SELECT pm_test_busy(${SLOW_MS}); END`));
    } else {
      await exec(h.deps.db, sql.raw(`CREATE FUNCTION pm_test_slow_code() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(${SLOW_MS / 1000}); RETURN NEW; END $$`));
      await exec(h.deps.db, sql.raw('CREATE TRIGGER pm_test_slow_code AFTER INSERT ON one_time_code FOR EACH ROW EXECUTE FUNCTION pm_test_slow_code()'));
    }
  });
  afterAll(async () => {
    await h.deps.afterAnswer.settled();
    await exec(h.deps.db, sql.raw(txEngines.get(h.deps.db) ? 'DROP TRIGGER pm_test_slow_code' : 'DROP TRIGGER pm_test_slow_code ON one_time_code'));
  });

  /**
   * Pairs of requests, known and unknown in turn, each timed until its answer resolved: the
   * median of the pairs' differences stays well under SLOW_MS (half of it, a margin no busy
   * neighbour closes in every pair).
   */
  async function expectNoWait(known: Call, unknown: Call) {
    const diffs: number[] = [];
    for (let i = 0; i < 12; i++) {
      const k = await call(known);
      const u = await call(unknown);
      expect(k.text).toBe(u.text);
      diffs.push(k.ms - u.ms);
    }
    expect(Math.abs(median(diffs)), `paired differences ${diffs.map((d) => d.toFixed(1)).join(', ')} ms`).toBeLessThan(SLOW_MS / 2);
  }

  test('resetPassword', async () => {
    await expectNoWait({ url: '/UserLogin/resetPassword', body: { username: DEMO.learner.username } }, { url: '/UserLogin/resetPassword', body: { username: 'nobody.here@example.com' } });
  });

  test('requestOTP', async () => {
    await expectNoWait({ url: '/OTP/requestOTP', body: { type: 'mobile', mobile: DEMO.learner.mobile } }, { url: '/OTP/requestOTP', body: { type: 'mobile', mobile: '9811100196' } });
  });
});
