import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { TEAM_DEPTH } from '@pm/protocol/person';
import { person } from '../../db/schema';
import { unbalanced } from '../../lib/ledger';
import { type Harness, startHarness } from '../../test/harness';

/*
 * The referral team as information only (docs/charity.md "The referral team"): ten people enrol
 * in a chain, each invited by the one before, through the public signup; nobody's money figure
 * moves (login answer and Person view: tac, aw, taw, paid, dq, orbit, amount for the next level),
 * and each one's team is right: counts, depth, masked mobiles, search, pages, only one's own.
 */

let h: Harness;
let admin: string;
beforeAll(async () => {
  h = await startHarness();
  admin = await h.tokenOf('admin');
});
afterAll(() => h.destroy());

const PASSWORD = 'Mango-Orchard-64';
type Member = { id: string; m: string; name: string; token: string };
const chain: Member[] = [];

const LOGIN_MONEY = ['tac', 'aw', 'taw', 'dq', 'curr_orbit'] as const;
const VIEW_MONEY = ['paidAmount', 'aw', 'totalWithdrawn', 'tac', 'taw', 'dq', 'curr_orbit', 'amountForNextLevel'] as const;
const pick = (o: Record<string, unknown>, keys: readonly string[]) => Object.fromEntries(keys.map((k) => [k, o[k]]));
const team = (token: string, query = '') => h.request('GET', `/person/team${query}`, { token });

/** Signs up through the public form, invited by `by` (found by mobile, as the form does), or by no one. */
async function enrol(i: number, by: Member | null): Promise<{ member: Member; answer: Record<string, unknown> }> {
  const m = `97000000${String(i).padStart(2, '0')}`;
  const name = `Chain Person ${String.fromCharCode(65 + i)}`;
  let inviter: Record<string, unknown> = { noInviter: true };
  if (by) {
    const found = await h.request('GET', `/Person/getReferrer?strQuery=${by.m}`);
    expect(found.body.data).toHaveLength(1);
    inviter = { p: found.body.data[0].id };
  }
  const r = await h.request('POST', '/UserLogin', { body: { n: name, m, password: PASSWORD, confirmPassword: PASSWORD, terms: true, ...inviter } });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return { member: { id: r.body.id, m, name, token: r.body.token }, answer: r.body };
}

async function figuresOf(p: Member) {
  const login = (await h.login(p.m, PASSWORD)).body;
  const view = (await h.request('GET', '/Person', { token: p.token })).body.data;
  return { login: pick(login, LOGIN_MONEY), view: pick(view, VIEW_MONEY) };
}

describe('ten people enrol in a chain', () => {
  const atStart: { login: Record<string, unknown>; view: Record<string, unknown> }[] = [];

  beforeAll(async () => {
    for (let i = 0; i < 10; i++) {
      const { member, answer } = await enrol(i, chain[i - 1] ?? null);
      chain.push(member);
      atStart.push({ login: pick(answer, LOGIN_MONEY), view: pick((await h.request('GET', '/Person', { token: member.token })).body.data, VIEW_MONEY) });
    }
  });

  test('nobody\'s money figure moves: the login answer and the Person view are what they were when each joined, and neutral', async () => {
    for (const [i, p] of chain.entries()) {
      const now = await figuresOf(p);
      expect(now.login, `person ${i}`).toEqual(atStart[i]!.login);
      expect(now.view, `person ${i}`).toEqual(atStart[i]!.view);
      expect(now.login).toEqual({ tac: 0, aw: 0, taw: 0, dq: 0, curr_orbit: 0 });
      expect(now.view).toEqual({ paidAmount: 0, aw: 0, totalWithdrawn: 0, tac: 0, taw: 0, dq: 0, curr_orbit: 0, amountForNextLevel: 0 });
    }
    expect(await unbalanced(h.deps.db)).toEqual({ groups: [], total: 0 });
  });

  test('old values in the person\'s orbit, quota and next-level columns are never shown', async () => {
    const top = chain[0]!;
    await h.deps.db.update(person).set({ currentOrbit: 4, donationQuota: 250, amountForNextLevel: 900 }).where(eq(person.id, top.id));
    try {
      const now = await figuresOf(top);
      expect(now.login).toMatchObject({ dq: 0, curr_orbit: 0 });
      expect(now.view).toMatchObject({ dq: 0, curr_orbit: 0, amountForNextLevel: 0 });
    } finally {
      await h.deps.db.update(person).set({ currentOrbit: 0, donationQuota: 0, amountForNextLevel: 0 }).where(eq(person.id, top.id));
    }
  });

  test('each one\'s team: everyone below, nearest first, with depth and join date; the counts equal the Person view\'s', async () => {
    for (const [i, p] of chain.entries()) {
      const r = await team(p.token, '?size=50');
      expect(r.status).toBe(200);
      const below = chain.slice(i + 1);
      expect(r.body).toMatchObject({ success: true, total: below.length, team: below.length, direct: below.length ? 1 : 0, size: 50 });
      expect(r.body.data.map((x: { id: string; depth: number }) => [x.id, x.depth])).toEqual(below.map((b, k) => [b.id, k + 1]));
      for (const x of r.body.data) expect(x.joinedAt).toEqual(expect.any(Number));
      const view = (await h.request('GET', '/Person', { token: p.token })).body.data;
      expect({ teamSize: view.teamSize, directDownlines: view.directDownlines }).toEqual({ teamSize: below.length, directDownlines: below.length ? 1 : 0 });
    }
  });

  test('mobiles are masked as 98******78 and never given whole; names are shown', async () => {
    const r = await team(chain[0]!.token);
    for (const x of r.body.data as { id: string; mobile: string; name: string }[]) {
      const p = chain.find((c) => c.id === x.id)!;
      expect(x.mobile).toBe(`${p.m.slice(0, 2)}******${p.m.slice(-2)}`);
      expect(x.name).toBe(p.name);
      expect(JSON.stringify(r.body)).not.toContain(p.m);
    }
    expect(Object.keys(r.body.data[0]).sort()).toEqual(['depth', 'id', 'joinedAt', 'mobile', 'name']);
  });

  test('search: a part of a name, or a whole mobile number (never a part of one)', async () => {
    const top = chain[0]!.token;
    const byName = await team(top, '?q=person%20e');
    expect(byName.body.data.map((x: { id: string }) => x.id)).toEqual([chain[4]!.id]);
    expect(byName.body.total).toBe(1);
    expect(byName.body.team).toBe(9);
    const byMobile = await team(top, `?q=${chain[6]!.m}`);
    expect(byMobile.body.data.map((x: { id: string }) => x.id)).toEqual([chain[6]!.id]);
    expect((await team(top, `?q=%2B91${chain[6]!.m}`)).body.data.map((x: { id: string }) => x.id)).toEqual([chain[6]!.id]);
    expect((await team(top, `?q=${chain[6]!.m.slice(0, 8)}`)).body.total).toBe(0);
    // Someone outside one's team is not found, however they are named.
    expect((await team(chain[5]!.token, '?q=Chain%20Person%20B')).body.total).toBe(0);
  });

  test('pages of the size asked (at most 50) that neither overlap nor skip', async () => {
    const top = chain[0]!.token;
    const pages = [];
    for (let page = 1; page <= 3; page++) pages.push(await team(top, `?size=4&page=${page}`));
    expect(pages.map((p) => p.body.data.length)).toEqual([4, 4, 1]);
    expect(pages.flatMap((p) => p.body.data.map((x: { id: string }) => x.id))).toEqual(chain.slice(1).map((c) => c.id));
    expect(pages[0]!.body).toMatchObject({ total: 9, size: 4 });
    for (const bad of ['?size=51', '?size=0', '?page=0', '?q=' + 'x'.repeat(101)]) expect((await team(top, bad)).status, bad).toBe(400);
  });

  test('only one\'s own team: no id is taken, a stranger is refused', async () => {
    const r = await team(chain[8]!.token, `?id=${chain[0]!.id}`);
    expect(r.status).toBe(400);
    const own = await team(chain[8]!.token);
    expect(own.body.data.map((x: { id: string }) => x.id)).toEqual([chain[9]!.id]);
    expect((await h.request('GET', '/person/team')).status).toBe(401);
  });

  test(`the walk stops ${TEAM_DEPTH} levels down`, async () => {
    // Two more below the last: the top person's team reaches depth 11, one level beyond the bound.
    let parent = chain[9]!.id;
    for (const m of ['9700000010', '9700000011']) {
      const r = await h.request('POST', '/Person', { token: admin, body: { n: `Deep ${m}`, m, password: PASSWORD, p: parent } });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      parent = r.body.id;
    }
    const r = await team(chain[0]!.token, '?size=50');
    expect(r.body.team).toBe(TEAM_DEPTH);
    expect(Math.max(...r.body.data.map((x: { depth: number }) => x.depth))).toBe(TEAM_DEPTH);
    expect((await team(chain[1]!.token, '?size=50')).body.team).toBe(TEAM_DEPTH);
    expect((await team(chain[2]!.token, '?size=50')).body.team).toBe(9);
  });
});
