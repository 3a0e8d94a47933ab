import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MSG } from '@pm/protocol/messages';
import { person } from '../../server/src/db/schema';
import { maskName } from '../../server/src/modules/persons/referrer';
import { DEMO, type Harness, startHarness } from '../../server/src/test/harness';
import { first } from '../../server/src/db/transaction';

/**
 * docs/security.md "Referrals and names": referral loops and the referrer lookup. The rules live in
 * server/src/modules/persons/persons.repo.ts (`assertReferrerAllowed`, `uplines`, `teamSize`) and
 * persons/referrer.ts (the masked name and the opaque handle):
 * no referral cycle can be made, by signup or by an admin's edit; only ACTIVE people refer; the
 * tree views stay finite over a loop older data may hold; the public lookup shows a masked name
 * and a handle, never the person's id or full name.
 */

let h: Harness;
let admin: string;
beforeAll(async () => {
  h = await startHarness();
  admin = await h.tokenOf('admin');
});
afterAll(() => h.destroy());

let seq = 0;
const nextMobile = () => `96${String(10_000_000 + seq++).slice(-8)}`;
const PASSWORD = 'Mango-Orchard-64';

/** A person made by the admin under `parent` (an id), with a known mobile. */
async function member(parent: string | null, name = `Member ${seq}`): Promise<{ id: string; m: string }> {
  const m = nextMobile();
  const r = await h.request('POST', '/Person', { token: admin, body: { n: name, m, password: PASSWORD, p: parent } });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return { id: r.body.id as string, m };
}
const parentOf = async (id: string) => (await first(h.deps.db.select({ p: person.parentId }).from(person).where(eq(person.id, id))))?.p;
const setParent = (id: string, p: string | null) => h.request('PUT', '/Person', { token: admin, body: { id, p } });
const lookup = (m: string) => h.request('GET', `/Person/getReferrer?strQuery=${m}`);
const signup = (p: string, name = 'New Learner') =>
  h.request('POST', '/UserLogin', { body: { n: name, m: nextMobile(), password: PASSWORD, confirmPassword: PASSWORD, p, terms: true } });

/** Whether following parents from `id` ever comes back to someone already seen. */
async function hasLoop(id: string): Promise<boolean> {
  const seen = new Set<string>();
  for (let at: string | null | undefined = id; at; at = await parentOf(at)) {
    if (seen.has(at)) return true;
    seen.add(at);
  }
  return false;
}

describe('no referral cycle can be made', () => {
  test('no one can be their own referrer', async () => {
    const a = await member(DEMO.admin.id);
    const r = await setParent(a.id, a.id);
    expect(r.status).toBe(400);
    expect(r.body.msg).toBe(MSG.ownReferrer);
    expect(await parentOf(a.id)).toBe(DEMO.admin.id);
  });

  test('an admin edit cannot close a cycle of length 2', async () => {
    const a = await member(DEMO.admin.id);
    const b = await member(a.id);
    const r = await setParent(a.id, b.id);
    expect(r.status).toBe(400);
    expect(r.body.msg).toBe(MSG.referralCycle);
    expect(await parentOf(a.id)).toBe(DEMO.admin.id);
  });

  test('an admin edit cannot close a cycle of length 3', async () => {
    const a = await member(DEMO.admin.id);
    const b = await member(a.id);
    const c = await member(b.id);
    const r = await setParent(a.id, c.id);
    expect(r.status).toBe(400);
    expect(r.body.msg).toBe(MSG.referralCycle);
    expect(await hasLoop(a.id)).toBe(false);
    // Moving a person elsewhere outside their own team is still an admin's to do.
    const other = await member(DEMO.admin.id);
    expect((await setParent(c.id, other.id)).status).toBe(200);
    expect(await parentOf(c.id)).toBe(other.id);
  });

  test('an admin cannot make the top of a tree the child of anyone in its own team', async () => {
    // The demo admin is the top of the seeded tree; the demo learner and its members are below.
    const r = await setParent(DEMO.admin.id, DEMO.learner.id);
    expect(r.status).toBe(400);
    expect(r.body.msg).toBe(MSG.referralCycle);
    expect(await parentOf(DEMO.admin.id)).toBeNull();
  });

  test('fifty parallel edits in both directions cannot close a cycle between them', async () => {
    const a = await member(DEMO.admin.id);
    const b = await member(DEMO.admin.id);
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => (i % 2 ? setParent(a.id, b.id) : setParent(b.id, a.id)).then((r) => ({ child: i % 2 ? a.id : b.id, r }))),
    );
    const ok = results.filter((x) => x.r.status === 200);
    // The first edit to run wins; its repeats change nothing and pass; every edit the other way is refused.
    expect(ok).toHaveLength(25);
    expect(new Set(ok.map((x) => x.child)).size).toBe(1);
    expect(results.filter((x) => x.r.status !== 200).every((x) => x.r.status === 400 && x.r.body.msg === MSG.referralCycle)).toBe(true);
    expect((await hasLoop(a.id)) || (await hasLoop(b.id))).toBe(false);
  });
});

describe('only ACTIVE people refer', () => {
  test('a signup under a blocked or inactive referrer is refused, by id or by a handle taken before', async () => {
    for (const status of ['BLOCKED', 'INACTIVE'] as const) {
      const ref = await member(DEMO.admin.id);
      const handle = (await lookup(ref.m)).body.data[0].id as string;
      expect((await h.request('PUT', '/Person', { token: admin, body: { id: ref.id, s: status } })).status).toBe(200);
      for (const p of [ref.id, handle]) {
        const r = await signup(p);
        expect(r.status, `${status} ${p}`).toBe(400);
        expect(r.body.msg).toBe(MSG.referrerNotFound);
      }
      // The lookup finds nobody either: it tells no one the account's status.
      expect((await lookup(ref.m)).body).toEqual({ success: true, data: [] });
    }
  });

  test('no account is made on behalf under a blocked referrer, nor by an admin under one', async () => {
    const ref = await member(DEMO.admin.id);
    expect((await h.request('PUT', '/Person', { token: admin, body: { id: ref.id, s: 'BLOCKED' } })).status).toBe(200);
    const before = (await h.deps.db.select().from(person)).length;
    const onBehalf = await h.request('POST', '/UserLogin/createUserOnBehalf', { token: admin, body: { n: 'Placed Below', m: nextMobile(), p: ref.id } });
    expect(onBehalf.status).toBe(400);
    expect(onBehalf.body.msg).toBe(MSG.referrerNotFound);
    const created = await h.request('POST', '/Person', { token: admin, body: { n: 'Placed Below', m: nextMobile(), p: ref.id } });
    expect(created.status).toBe(400);
    const moved = await setParent(DEMO.learner.id, ref.id);
    expect(moved.status).toBe(400);
    expect((await h.deps.db.select().from(person)).length).toBe(before);
    expect(await parentOf(DEMO.learner.id)).toBe(DEMO.admin.id);
  });
});

describe('the referrer lookup shows only what the signup form needs', () => {
  test('a masked name and an opaque handle, never the id or the full name', async () => {
    const r = await lookup(DEMO.learner.mobile);
    expect(r.status).toBe(200);
    expect(r.body.data).toHaveLength(1);
    const found = r.body.data[0];
    expect(Object.keys(found).sort()).toEqual(['id', 'n']);
    expect(found.n).toBe('La*** Le***');
    expect(found.id).not.toContain(DEMO.learner.id);
    expect(JSON.stringify(r.body)).not.toMatch(/Lata|Learner|demo-learner|learner@example\.com/);
  });

  test('names are masked word by word, by letters as written (Devanagari included)', () => {
    expect(maskName('Ravi Kumar')).toBe('Ra*** Ku***');
    expect(maskName('  Om  Prakash ')).toBe('O*** Pr***');
    expect(maskName('लता शर्मा')).toBe('ल*** श***');
    expect(maskName('क्षितिज')).toBe('क्षि***');
  });

  test('a signup with the handle lands under that person', async () => {
    const ref = await member(DEMO.admin.id);
    const handle = (await lookup(ref.m)).body.data[0].id as string;
    const r = await signup(handle);
    expect(r.status).toBe(201);
    expect(await parentOf(r.body.id)).toBe(ref.id);
  });

  test('a forged or altered handle is refused', async () => {
    const ref = await member(DEMO.admin.id);
    const handle = (await lookup(ref.m)).body.data[0].id as string;
    const mac = handle.split('.')[2]!;
    const flipped = `${mac.slice(0, -2)}${mac.at(-2) === 'A' ? 'B' : 'A'}${mac.at(-1)}`;
    for (const forged of [
      `r1.${ref.m}.${flipped}`,
      `r1.${DEMO.admin.mobile}.${mac}`,
      `r1.${ref.m}.${'A'.repeat(22)}`,
      `r1.${ref.m}`,
      'r1.garbage',
    ]) {
      const r = await signup(forged);
      expect(r.status, forged).toBe(400);
      expect(r.body.msg).toBe(MSG.referrerNotFound);
    }
  });

  test('a handle stops working when its mobile belongs to someone else', async () => {
    const ref = await member(DEMO.admin.id);
    const handle = (await lookup(ref.m)).body.data[0].id as string;
    expect((await h.request('PUT', '/Person', { token: admin, body: { id: ref.id, m: nextMobile() } })).status).toBe(200);
    const newcomer = await h.request('POST', '/Person', { token: admin, body: { n: 'Mobile Heir', m: ref.m, password: PASSWORD } });
    expect(newcomer.status).toBe(201);
    const r = await signup(handle);
    expect(r.status).toBe(400);
    expect(r.body.msg).toBe(MSG.referrerNotFound);
  });
});

describe('tree views over a loop that older data may hold', () => {
  test('uplines list each person once and team size never counts the person', async () => {
    const a = await member(DEMO.admin.id, 'Loop Alpha');
    const b = await member(a.id, 'Loop Beta');
    const c = await member(b.id, 'Loop Gamma');
    // A → B → C → A, written straight into the database: no route can make it any more.
    await h.deps.db.update(person).set({ parentId: c.id }).where(eq(person.id, a.id));
    await h.deps.db.update(person).set({ parentId: a.id }).where(eq(person.id, b.id));
    await h.deps.db.update(person).set({ parentId: b.id }).where(eq(person.id, c.id));

    const r = await h.request('GET', `/Person/${a.id}`, { token: admin });
    expect(r.status).toBe(200);
    expect(r.body.data.uplines.map((u: { id: string }) => u.id)).toEqual([c.id, b.id]);
    expect(r.body.data.teamSize).toBe(2);
    expect(r.body.data.directDownlines).toBe(1);

    const login = await h.login(a.m, PASSWORD);
    const own = await h.request('GET', '/Person', { token: login.body.token });
    expect(own.status).toBe(200);
    expect(own.body.data.uplines).toHaveLength(2);
    expect(own.body.data.teamSize).toBe(2);
  });

  test('a person who refers themselves (older data) is neither their own upline nor in their own team', async () => {
    const a = await member(DEMO.admin.id);
    await h.deps.db.update(person).set({ parentId: a.id }).where(eq(person.id, a.id));
    const r = await h.request('GET', `/Person/${a.id}`, { token: admin });
    expect(r.body.data.uplines).toEqual([]);
    expect(r.body.data.teamSize).toBe(0);
    expect(r.body.data.directDownlines).toBe(0);
  });

  test('deleting a person inside a loop leaves nobody as their own referrer', async () => {
    const a = await member(DEMO.admin.id);
    const b = await member(a.id);
    await h.deps.db.update(person).set({ parentId: b.id }).where(eq(person.id, a.id));
    const r = await h.request('DELETE', `/Person/${b.id}`, { token: admin });
    expect(r.status).toBe(200);
    expect(await parentOf(a.id)).toBeNull();
  });
});
