import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MSG } from '@pm/protocol/messages';
import { person } from '../../server/src/db/schema';
import { readLocalInbox } from '../../server/src/lib/outbox';
import { DEMO, type Harness, startHarness } from '../../server/src/test/harness';
import { first } from '../../server/src/db/transaction';

/**
 * docs/security.md "Rate limits, enumeration, passwords, the outbox": passwords keep the spec's minimum of 4 characters, but blank passwords,
 * control characters, the account's own mobile or e-mail (or the part before @) and the most
 * common breached passwords (zxcvbn-ts' list of 49,233) are refused wherever a password is set:
 * signup, reset with a code, change with the old password, admin reset.
 */

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.destroy());

const personCount = async () => (await first(h.deps.db.select({ n: count() }).from(person)))!.n;

let nextMobile = 9822200000;
function signup(password: string, extra: { m?: string; e?: string } = {}) {
  nextMobile += 1;
  return h.request('POST', '/UserLogin', {
    body: { n: 'Policy Person', m: String(nextMobile), e: `policy${nextMobile}@example.com`, password, p: DEMO.admin.id, terms: true, ...extra },
  });
}

/** The refused passwords, each with the rule it breaks (for an account of mobile 9822299999, e-mail rahul.k@example.com). */
const REFUSED: Array<[string, string, string]> = [
  ['four spaces', '    ', MSG.passwordBlank],
  ['ideographic spaces', '\u3000\u3000\u3000\u3000', MSG.passwordBlank],
  ['zero-width spaces', '\u200b\u200b\u200b\u200b\u200b', MSG.passwordBlank],
  ['four NULs', '\0\0\0\0', MSG.passwordControlChars],
  ['a NUL inside', 'good\0pass', MSG.passwordControlChars],
  ['a newline', 'line\nbreak', MSG.passwordControlChars],
  ['an escape', 'esc\u001bape', MSG.passwordControlChars],
  ['own mobile', '9822299999', MSG.passwordIsMobile],
  ['own mobile with +91', '+919822299999', MSG.passwordIsMobile],
  ['own mobile with 91 and spaces', '91 98222 99999', MSG.passwordIsMobile],
  ['own e-mail', 'rahul.k@example.com', MSG.passwordIsEmail],
  ['own e-mail in capitals', 'Rahul.K@Example.com', MSG.passwordIsEmail],
  ["own e-mail's local part", 'rahul.k', MSG.passwordIsEmail],
  ['breached: password1', 'password1', MSG.passwordTooCommon],
  ['breached: iloveyou', 'iloveyou', MSG.passwordTooCommon],
  ['breached: 1234', '1234', MSG.passwordTooCommon],
  ['breached whatever its case: Qwerty', 'Qwerty', MSG.passwordTooCommon],
  ['breached: 123456789', '123456789', MSG.passwordTooCommon],
  ['three characters', 'k9#', MSG.passwordMin],
];

describe('signup', () => {
  test.each(REFUSED)('signup refuses %s', async (_name, password) => {
    const before = await personCount();
    const r = await signup(password, { m: '9822299999', e: 'rahul.k@example.com' });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ success: false, msg: REFUSED.find(([, p]) => p === password)![2] });
    expect(await personCount()).toBe(before);
  });

  test.each([['kx9#'], ['Tiger-Lily-42'], ['पासवर्ड-मेरा'], ['  padded but not blank  ']])(
    'signup accepts a normal password of 4 or more characters: %j',
    async (password) => {
      const r = await signup(password);
      expect(r.status).toBe(201);
      expect((await h.login(String(nextMobile), password)).status).toBe(200);
    },
  );
});

describe('reset with a code', () => {
  const email = 'reset.policy@example.com';
  async function code() {
    expect((await h.request('POST', '/UserLogin/resetPassword', { body: { username: email } })).status).toBe(200);
    await h.deps.afterAnswer.settled();
    const msg = readLocalInbox(path.join(h.dataDir, 'local-inbox.jsonl'))
      .filter((m) => m.to === email)
      .at(-1);
    return /\b(\d{6})\b/.exec(msg!.body)![1]!;
  }
  const reset = (username: string, c: string, password: string) =>
    h.request('POST', '/UserLogin/updatePasswordWithResetCode', {
      body: { username },
      headers: { authorization: h.basic(c, password) },
    });

  beforeAll(async () => {
    expect((await signup('Tiger-Lily-42', { m: '9822288888', e: email })).status).toBe(201);
  });

  test('a reset with a code refuses breached, blank and NUL passwords, and keeps the code usable', async () => {
    const c = await code();
    for (const [password, msg] of [
      ['letmein', MSG.passwordTooCommon],
      ['    ', MSG.passwordBlank],
      ['\0\0\0\0', MSG.passwordControlChars],
    ] as const) {
      const r = await reset(email, c, password);
      expect(r.status).toBe(400);
      expect(r.body.msg).toBe(msg);
    }
    expect((await reset(email, c, 'Lantern-Ridge-5')).status).toBe(200);
  });

  test("a reset with a code refuses the account's own mobile once the code is right; the code stays usable", async () => {
    const c = await code();
    // Asked by e-mail, the mobile is known only to the account: refused after the code is checked.
    const r = await reset(email, c, '+919822288888');
    expect(r.status).toBe(400);
    expect(r.body.msg).toBe(MSG.passwordIsMobile);
    const local = await reset(email, c, 'reset.policy');
    expect(local.status).toBe(400);
    expect(local.body.msg).toBe(MSG.passwordIsEmail);
    expect((await h.login(email, '+919822288888')).status).toBe(401);
    expect((await reset(email, c, 'Harbour-Light-6')).status).toBe(200);
    expect((await h.login(email, 'Harbour-Light-6')).status).toBe(200);
  });
});

describe('change with the old password', () => {
  test("a change refuses a breached password and the account's own e-mail", async () => {
    const created = await signup('Tiger-Lily-42', { m: '9822277777', e: 'change.me@example.com' });
    const token = created.body.token as string;
    const change = (newPassword: string) =>
      h.request('PATCH', '/UserLogin/updatePasswordWithOldPassword', {
        token,
        body: { oldPassword: 'Tiger-Lily-42', newPassword, confirmPassword: newPassword },
      });
    for (const [password, msg] of [
      ['sunshine', MSG.passwordTooCommon],
      ['change.me', MSG.passwordIsEmail],
      ['9822277777', MSG.passwordIsMobile],
      ['\u00a0\u00a0\u00a0\u00a0', MSG.passwordBlank],
    ] as const) {
      const r = await change(password);
      expect(r.status).toBe(400);
      expect(r.body.msg).toBe(msg);
    }
    expect((await h.login('change.me@example.com', 'Tiger-Lily-42')).status).toBe(200);
    const ok = await change('Copper-Kettle-9');
    expect(ok.status).toBe(200);
    expect((await h.login('change.me@example.com', 'Copper-Kettle-9')).status).toBe(200);
  });
});

describe('admin reset', () => {
  test("an admin reset refuses a breached password and the person's own mobile; a generated one is accepted", async () => {
    const admin = await h.tokenOf('admin');
    const reset = (password: string) =>
      h.request('PUT', '/UserLogin/resetUserPasswordByAdmin', { token: admin, body: { personId: DEMO.learner.id, password } });
    const breached = await reset('qwerty123');
    expect(breached.status).toBe(400);
    expect(breached.body.msg).toBe(MSG.passwordTooCommon);
    const mobile = await reset(DEMO.learner.mobile);
    expect(mobile.status).toBe(400);
    expect(mobile.body.msg).toBe(MSG.passwordIsMobile);
    const nul = await reset('\0\0\0\0');
    expect(nul.status).toBe(400);
    expect((await h.login(DEMO.learner.username, DEMO.learner.password)).status).toBe(200);
    // What the dialog's "generate" makes (docs/glossary.md "Fixed values": 10 random characters).
    const generated = await reset('hT4kPq9ZwX');
    expect(generated.status).toBe(200);
    expect((await h.login(DEMO.learner.username, 'hT4kPq9ZwX')).status).toBe(200);
  });
});

test('the breached-password list stays on the server: no client file imports it', () => {
  const root = path.resolve(import.meta.dirname, '../../client/src');
  const offenders: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(ts|tsx|js|mjs)$/.test(e.name) && /@zxcvbn-ts|password-policy/.test(readFileSync(p, 'utf8'))) offenders.push(p);
    }
  };
  walk(root);
  expect(offenders).toEqual([]);
});
