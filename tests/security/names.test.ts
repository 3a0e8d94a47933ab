import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { hasUnsafeChars } from '@pm/protocol/common';
import { MSG } from '@pm/protocol/messages';
import { person, permission, role } from '../../server/src/db/schema';
import { DEMO, type Harness, startHarness } from '../../server/src/test/harness';
import { first } from '../../server/src/db/transaction';

/**
 * docs/security.md "Referrals and names": names accepted NUL, right-to-left override and zero-width characters. The
 * rule is one shared function, `hasUnsafeChars` in sync-protocol/src/common.ts, used by the
 * schemas of every person name (signup, on-behalf, admin create and update) and of role and
 * permission descriptions (role and permission names allow only A–Z, 0–9 and _), so the client
 * forms and the server refuse the same texts. Hindi keeps its joiners between Devanagari letters.
 */

let h: Harness;
let admin: string;
beforeAll(async () => {
  h = await startHarness();
  admin = await h.tokenOf('admin');
});
afterAll(() => h.destroy());

let seq = 0;
const nextMobile = () => `97${String(10_000_000 + seq++).slice(-8)}`;
const PASSWORD = 'Lotus-Pond-83';

const cp = (n: number) => String.fromCodePoint(n);
const CONTROLS = [0x00, 0x07, 0x09, 0x0a, 0x0d, 0x1b, 0x7f, 0x85, 0x9b].map(cp);
const BIDI = [0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0x200e, 0x200f, 0x061c].map(cp);
const ZERO_WIDTH = [0x200b, 0x200c, 0x200d, 0x2060, 0xfeff].map(cp);
/** Also refused: tag characters (invisible text), line separators, private use, an unpaired surrogate. */
const OTHER_INVISIBLE = [0xe0041, 0x2028, 0x2029, 0xe000, 0xd800, 0x00ad].map(cp);

/** Every route that takes a person's name, with a fresh body around `n`. */
const NAME_ROUTES: [string, string, (n: string) => object, () => string | undefined][] = [
  ['POST', '/UserLogin', (n) => ({ n, m: nextMobile(), password: PASSWORD, p: DEMO.admin.id, terms: true }), () => undefined],
  ['POST', '/UserLogin/createUserOnBehalf', (n) => ({ n, m: nextMobile() }), () => admin],
  ['POST', '/Person', (n) => ({ n, m: nextMobile() }), () => admin],
  ['PUT', '/Person', (n) => ({ id: DEMO.learner.id, n }), () => admin],
];

const personCount = async () => (await h.deps.db.select().from(person)).length;
const learnerName = async () => (await first(h.deps.db.select().from(person).where(eq(person.id, DEMO.learner.id))))?.name;

async function expectRefusedEverywhere(bad: string[]) {
  const before = await personCount();
  for (const [method, url, body, token] of NAME_ROUTES) {
    for (const ch of bad) {
      const n = `Ravi${ch}Kumar`;
      const t = token();
      const r = await h.request(method, url, { ...(t ? { token: t } : {}), body: body(n) });
      expect(r.status, `${method} ${url} U+${ch.codePointAt(0)!.toString(16)}`).toBe(400);
      expect(r.body.msg).toBe(MSG.unsafeCharacters);
    }
  }
  expect(await personCount()).toBe(before);
  expect(await learnerName()).toBe('Lata Learner');
}

describe('person names', () => {
  test('names refuse control characters (NUL, newline, escape, DEL, C1)', async () => {
    await expectRefusedEverywhere(CONTROLS);
  });

  test('names refuse bidi overrides, isolates and direction marks', async () => {
    await expectRefusedEverywhere(BIDI);
  });

  test('names refuse zero-width characters outside Indic words', async () => {
    await expectRefusedEverywhere(ZERO_WIDTH);
  });

  test('names refuse other invisible characters: tags, separators, private use, lone surrogates, soft hyphen', async () => {
    await expectRefusedEverywhere(OTHER_INVISIBLE);
  });

  test('Hindi names with ZWJ or ZWNJ inside a word are accepted and stored as written', async () => {
    // क्‍ष (a half form, ZWJ after the virama) and क्‌ष (the virama shown, ZWNJ).
    const names = ['क्\u200dषमा शर्मा', 'रा\u200cम क्\u200cष', 'Lakshmi लक्ष्\u200dमी'];
    for (const n of names) {
      const signup = await h.request('POST', '/UserLogin', { body: { n, m: nextMobile(), password: PASSWORD, p: DEMO.admin.id, terms: true } });
      expect(signup.status, n).toBe(201);
      expect((await first(h.deps.db.select().from(person).where(eq(person.id, signup.body.id))))?.name).toBe(n);
      const created = await h.request('POST', '/Person', { token: admin, body: { n, m: nextMobile() } });
      expect(created.status, n).toBe(201);
      expect(created.body.data.n).toBe(n);
    }
  });

  test('a joiner at the edge of a Hindi word, between two scripts or doubled is refused', async () => {
    for (const n of ['राम\u200d', '\u200cराम', 'राम\u200d Kumar', 'Ram\u200dराम', 'क्\u200d\u200dष', 'a\u200db']) {
      const r = await h.request('POST', '/Person', { token: admin, body: { n, m: nextMobile() } });
      expect(r.status, JSON.stringify(n)).toBe(400);
      expect(r.body.msg).toBe(MSG.unsafeCharacters);
    }
  });
});

describe('role and permission texts', () => {
  test('descriptions refuse control, bidi and zero-width characters but keep line breaks', async () => {
    for (const ch of ['\u0000', '\u202e', '\u200b', '\u2066', '\u001b']) {
      const r = await h.request('POST', '/role', { token: admin, body: { name: `R${seq++}`, description: `Runs${ch}things` } });
      expect(r.status).toBe(400);
      expect(r.body.msg).toBe(MSG.unsafeCharacters);
      const p = await h.request('POST', '/permission', { token: admin, body: { permission: `P${seq++}`, description: `Does${ch}things` } });
      expect(p.status).toBe(400);
      expect(p.body.msg).toBe(MSG.unsafeCharacters);
    }
    const multiLine = await h.request('POST', '/role', { token: admin, body: { name: 'NOTED', description: 'First line\nसेकंड लाइन' } });
    expect(multiLine.status).toBe(201);
    expect((await first(h.deps.db.select().from(role).where(eq(role.name, 'NOTED'))))?.description).toBe('First line\nसेकंड लाइन');
  });

  test('role and permission names allow only A–Z, 0–9 and _', async () => {
    for (const name of ['ADMIN\u202e', 'AD\u200bMIN', 'ADMIN\u0000', 'АDMIN' /* Cyrillic А */]) {
      expect((await h.request('POST', '/role', { token: admin, body: { name } })).status).toBe(400);
      expect((await h.request('POST', '/permission', { token: admin, body: { permission: name } })).status).toBe(400);
    }
    expect((await h.deps.db.select().from(permission)).every((p) => /^[A-Z0-9_]+$/.test(p.permission))).toBe(true);
  });
});

test('client and server share one rule (hasUnsafeChars)', () => {
  for (const ch of [...CONTROLS, ...BIDI, ...ZERO_WIDTH, ...OTHER_INVISIBLE]) expect(hasUnsafeChars(`a${ch}b`), ch.codePointAt(0)!.toString(16)).toBe(true);
  expect(hasUnsafeChars('Ravi Kumar')).toBe(false);
  expect(hasUnsafeChars('रवि कुमार')).toBe(false);
  expect(hasUnsafeChars('क्\u200dष')).toBe(false);
  expect(hasUnsafeChars('ক্\u200dষ')).toBe(false); // Bengali, same rule
  expect(hasUnsafeChars('क्\u200dষ')).toBe(true); // Devanagari then Bengali: not one word
  expect(hasUnsafeChars('one\ntwo', { multiline: true })).toBe(false);
  expect(hasUnsafeChars('one\ntwo')).toBe(true);
  expect(hasUnsafeChars('one\u202etwo', { multiline: true })).toBe(true);
});
