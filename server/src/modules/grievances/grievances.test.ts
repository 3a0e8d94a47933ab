import path from 'node:path';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { financialYearOf } from '@pm/protocol/donation';
import { MSG } from '@pm/protocol/messages';
import { activityLog, grievance, rateLimit } from '../../db/schema';
import { first } from '../../db/transaction';
import { unbalanced } from '../../lib/ledger';
import { readLocalInbox } from '../../lib/outbox';
import { DEMO, type Harness, startHarness } from '../../test/harness';
import { type SandboxControl, sandboxControl } from '../payments/providers/sandbox-phonepe';
import { oneMonthAfter, REOPEN_WINDOW_MS } from './grievances.machine';

/*
 * Grievances and reports of campaigns through the real app (docs/charity.md "Grievances"): the
 * numbers (consecutive under 50 raises at once), the due date, what a grievance may be about,
 * who reads and moves it (a stranger gets 404, only staff answer and resolve), the thread's
 * states, the reopen window, the raiser told by push and e-mail, the staff queue, reports by
 * guests (rate-limited, the same answer whether the campaign exists or not).
 */

type Who = 'admin' | 'learner' | 'beneficiary' | 'trustee' | 'editor';
let h: Harness;
let sb: SandboxControl;
const tokens = {} as Record<Who, string>;
const CAMPAIGN = 'demo-campaign-1';

beforeAll(async () => {
  h = await startHarness();
  sb = sandboxControl(h.deps.payments.sandbox);
  for (const who of ['admin', 'learner', 'beneficiary', 'trustee', 'editor'] as const) tokens[who] = await h.tokenOf(who);
});
afterAll(async () => {
  await sb.idle();
  await h.destroy();
});
beforeEach(async () => {
  await h.deps.db.delete(rateLimit).where(like(rateLimit.key, 'campaignReport:%'));
});

const as = (who: Who | null, method: string, url: string, body?: unknown, headers?: Record<string, string>) =>
  h.request(method, url, { ...(who ? { token: tokens[who] } : {}), ...(body === undefined ? {} : { body }), ...(headers ? { headers } : {}) });
const balanced = async () => expect(await unbalanced(h.deps.db)).toEqual({ groups: [], total: 0 });

const hindi = JSON.parse(readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), '../../../../client/src/locales/hi/messages.json'), 'utf8')) as Record<string, string>;
const keyOf = new Map<string, string>(Object.entries(MSG).map(([k, v]) => [v, k]));
/** The message is a server message (or a field's name and one) with a Hindi translation. */
function expectBilingual(msg: string) {
  const key = keyOf.get(msg) ?? keyOf.get(msg.slice(msg.indexOf(' ') + 1));
  expect(key, `"${msg}" is not a server message`).toBeDefined();
  expect(hindi[key!], `no Hindi for ${key}`).toMatch(/[\u0900-\u097F]/);
}

const raise = (who: Who, over: Record<string, unknown> = {}) => as(who, 'POST', '/grievance', { subject: 'OTHER', title: 'The receipt did not arrive', text: 'I gave on Monday and got no e-mail.', ...over });

/** A donation paid through the sandbox, by a guest with this e-mail or signed in: its order id. */
async function paidDonation(email: string, who?: Who): Promise<string> {
  const r = await as(who ?? null, 'POST', '/donation', { campaignId: CAMPAIGN, amount: 51, name: 'Asha Devi', email, mobile: '9812345678', indianPassport: true });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  const pay = await as(who ?? null, 'POST', `/donation/${r.body.id}/pay`, { token: r.body.token });
  expect(pay.status, JSON.stringify(pay.body)).toBe(200);
  await sb.complete(r.body.id, 'PAY');
  await h.deps.webhooks.drain();
  return r.body.id as string;
}

describe('raising a grievance', () => {
  test('201 with a number of the financial year, OPEN, due one calendar month ahead, no owner; logged', async () => {
    const before = Date.now();
    const r = await raise('learner');
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.msg).toBe(MSG.grievanceRaised);
    const g = r.body.data;
    expect(g.number).toMatch(new RegExp(`^G${financialYearOf(Date.now())}-\\d{6}$`));
    expect(g).toMatchObject({ status: 'OPEN', owner: null, subject: 'OTHER', subjectId: null, raiser: { id: DEMO.learner.id }, messages: [] });
    expect(g.dueAt).toBeGreaterThanOrEqual(oneMonthAfter(before));
    expect(g.dueAt).toBeLessThanOrEqual(oneMonthAfter(Date.now()));
    const logged = await first(h.deps.db.select().from(activityLog).where(and(eq(activityLog.entityAffected, 'grievance'), eq(activityLog.entityId, g.id))));
    expect(logged?.actionType).toBe('CREATE');
  });

  test('50 raised at once get 50 consecutive numbers', async () => {
    const rs = await Promise.all(Array.from({ length: 50 }, (_, i) => raise(i % 2 ? 'learner' : 'beneficiary', { title: `Parallel ${i}` })));
    expect(rs.map((r) => r.status)).toEqual(Array(50).fill(201));
    const seqs = rs.map((r) => Number((r.body.data.number as string).slice(-6))).sort((a, b) => a - b);
    expect(seqs).toEqual(Array.from({ length: 50 }, (_, i) => seqs[0]! + i));
    const all = await h.deps.db.select({ seq: grievance.seq }).from(grievance);
    const everySeq = all.map((g) => g.seq).sort((a, b) => a - b);
    expect(everySeq).toEqual(Array.from({ length: everySeq.length }, (_, i) => i + 1));
  });

  test.each([
    [{ subject: 'MONEY' }, 'subject'],
    [{ title: '' }, 'title cannot be empty'],
    [{ title: 'x'.repeat(121) }, 'title'],
    [{ text: 'x'.repeat(5001) }, 'text'],
    [{ extra: 1 }, 'Unknown field: extra'],
    [{ subject: 'DONATION' }, MSG.grievanceSubjectIdRequired],
    [{ subject: 'OTHER', subjectId: 'x1' }, MSG.grievanceSubjectIdNotAllowed],
    [{ subject: 'ACCOUNT', subjectId: DEMO.admin.id }, MSG.grievanceAccountNotYours],
    [{ subject: 'CAMPAIGN', subjectId: 'no-such-campaign' }, MSG.grievanceCampaignUnknown],
    [{ subject: 'DONATION', subjectId: 'no-such-order' }, MSG.grievanceDonationNotYours],
  ])('%j is refused (400) naming the field, and nothing is written', async (bad, msg) => {
    const before = (await h.deps.db.select({ id: grievance.id }).from(grievance)).length;
    const r = await raise('learner', bad);
    expect(r.status).toBe(400);
    expect(r.body.msg).toContain(msg);
    if (keyOf.has(r.body.msg)) expectBilingual(r.body.msg);
    expect((await h.deps.db.select({ id: grievance.id }).from(grievance)).length).toBe(before);
  });

  test('anonymous callers are asked to sign in', async () => {
    expect((await as(null, 'POST', '/grievance', { subject: 'OTHER', title: 't', text: 't' })).status).toBe(401);
  });

  test('a donation: their own signed in, or one given as a guest with their e-mail; not someone else\'s', async () => {
    const signedIn = await paidDonation('someone@example.com', 'learner');
    expect((await raise('learner', { subject: 'DONATION', subjectId: signedIn })).status).toBe(201);
    const asGuest = await paidDonation(DEMO.learner.username);
    expect((await raise('learner', { subject: 'DONATION', subjectId: asGuest })).status).toBe(201);
    const r = await raise('beneficiary', { subject: 'DONATION', subjectId: signedIn });
    expect(r.status).toBe(400);
    expect(r.body.msg).toBe(MSG.grievanceDonationNotYours);
    await balanced();
  });

  test('a campaign: a public one, or their own draft; a withdrawal: one they may read; an account: their own', async () => {
    expect((await raise('learner', { subject: 'CAMPAIGN', subjectId: CAMPAIGN })).status).toBe(201);
    const draft = await as('beneficiary', 'POST', '/campaign', {
      title: { en: 'A draft' },
      story: { en: '<p>Story</p>' },
      cause: 'BOOKS',
      need: [{ what: { en: 'Books' }, amount: 10_000 }],
      endsAt: Date.now() + 86_400_000 * 30,
    });
    expect(draft.status).toBe(201);
    expect((await raise('beneficiary', { subject: 'CAMPAIGN', subjectId: draft.body.data.id })).status).toBe(201);
    expect((await raise('learner', { subject: 'CAMPAIGN', subjectId: draft.body.data.id })).body.msg).toBe(MSG.grievanceCampaignUnknown);
    // A withdrawal of the demo campaign, funded by a donation: its beneficiary may raise one about it, nobody else.
    await paidDonation('funder@example.com');
    const w = await as('beneficiary', 'POST', `/campaign/${CAMPAIGN}/withdrawals`, { amount: 1_000, purpose: { en: 'Books' }, payoutAccountId: 'demo-payout-vpa' });
    expect(w.status, JSON.stringify(w.body)).toBe(201);
    expect((await raise('beneficiary', { subject: 'WITHDRAWAL', subjectId: w.body.data.id })).body.data).toMatchObject({ subject: 'WITHDRAWAL', subjectId: w.body.data.id });
    for (const [who, id] of [['learner', w.body.data.id], ['beneficiary', 'wd-anything']] as const) {
      const refused = await raise(who, { subject: 'WITHDRAWAL', subjectId: id });
      expect(refused.status).toBe(400);
      expect(refused.body.msg).toBe(MSG.grievanceWithdrawalNotYours);
    }
    expect((await raise('learner', { subject: 'ACCOUNT' })).body.data.subjectId).toBe(DEMO.learner.id);
  });
});

describe('the thread and its states', () => {
  test('staff answer (ANSWERED, the raiser told by push and e-mail), the raiser writes (OPEN), staff resolve with a note (RESOLVED), the raiser reopens', async () => {
    const g = (await raise('learner', { title: 'Thread test' })).body.data;
    const inbox = path.join(h.dataDir, 'local-inbox.jsonl');
    const pushes: string[][] = [];
    const notify = h.deps.push.notify;
    h.deps.push.notify = async (ids, m) => {
      pushes.push([...ids, m.kind, m.url]);
      return notify(ids, m);
    };
    try {
      const answered = await as('trustee', 'POST', `/grievance/${g.id}/messages`, { text: 'We are looking into it.' });
      expect(answered.status, JSON.stringify(answered.body)).toBe(201);
      expect(answered.body.data.status).toBe('ANSWERED');
      expect(answered.body.data.messages).toMatchObject([{ staff: true, text: 'We are looking into it.', author: { id: DEMO.trustee.id } }]);
      await new Promise((r) => setTimeout(r, 50));
      expect(pushes).toContainEqual([DEMO.learner.id, 'grievance-answer', `/grievances/${g.id}`]);
      const mail = readLocalInbox(inbox).filter((m) => m.to === DEMO.learner.username && m.subject.includes(g.number));
      expect(mail).toHaveLength(1);
      expect(mail[0]!.body).toContain('We are looking into it.');

      const wrote = await as('learner', 'POST', `/grievance/${g.id}/messages`, { text: 'Thank you, still waiting.' });
      expect(wrote.body.data.status).toBe('OPEN');
      expect(wrote.body.data.messages.map((m: { staff: boolean }) => m.staff)).toEqual([true, false]);

      const resolved = await as('trustee', 'POST', `/grievance/${g.id}/resolve`, { note: 'The receipt was sent again.' });
      expect(resolved.status).toBe(200);
      expect(resolved.body.data).toMatchObject({ status: 'RESOLVED', resolutionNote: 'The receipt was sent again.' });
      expect(resolved.body.data.reopenUntil).toBe(resolved.body.data.resolvedAt + REOPEN_WINDOW_MS);
      await new Promise((r) => setTimeout(r, 50));
      expect(pushes.filter((p) => p[0] === DEMO.learner.id)).toHaveLength(2);

      // Resolved: nobody writes until it is reopened; it cannot be resolved twice.
      const closed = await as('learner', 'POST', `/grievance/${g.id}/messages`, { text: 'One more thing' });
      expect(closed.status).toBe(409);
      expect(closed.body).toMatchObject({ msg: MSG.grievanceMoveNotAllowed, status: 'RESOLVED' });
      expect((await as('trustee', 'POST', `/grievance/${g.id}/resolve`, { note: 'again' })).status).toBe(409);

      const reopened = await as('learner', 'POST', `/grievance/${g.id}/reopen`, { text: 'It did not arrive.' });
      expect(reopened.status).toBe(200);
      expect(reopened.body.data).toMatchObject({ status: 'OPEN', resolutionNote: null, reopenUntil: null });
      expect(reopened.body.data.dueAt).toBeGreaterThan(g.dueAt - 1);
      // Every step logged; compared as a set: a read has no order on PostgreSQL without ORDER BY,
      // and two steps may share a millisecond.
      const entries = await h.deps.db
        .select()
        .from(activityLog)
        .where(and(eq(activityLog.entityAffected, 'grievance'), eq(activityLog.entityId, g.id)));
      const moves = entries.map((e) => (e.newValue as { move?: string }).move ?? 'create');
      expect([...moves].sort()).toEqual(['create', 'reply', 'write', 'resolve', 'reopen'].sort());
    } finally {
      h.deps.push.notify = notify;
    }
  });

  test('reopening: the raiser only, within 30 days of the resolution', async () => {
    const g = (await raise('learner')).body.data;
    await as('trustee', 'POST', `/grievance/${g.id}/resolve`, { note: 'Done.' });
    // Not the raiser: a trustee may read it but does not reopen it (404: it is not theirs to reopen).
    expect((await as('trustee', 'POST', `/grievance/${g.id}/reopen`, {})).status).toBe(404);
    await h.deps.db
      .update(grievance)
      .set({ resolvedAt: Date.now() - REOPEN_WINDOW_MS - 60_000 })
      .where(eq(grievance.id, g.id));
    const late = await as('learner', 'POST', `/grievance/${g.id}/reopen`, {});
    expect(late.status).toBe(409);
    expect(late.body.msg).toBe(MSG.grievanceReopenExpired);
    expectBilingual(late.body.msg);
    // An open grievance is not reopened.
    const open = (await raise('learner')).body.data;
    expect((await as('learner', 'POST', `/grievance/${open.id}/reopen`, {})).status).toBe(409);
  });

  test('a stranger gets 404 for everything of another\'s grievance; only staff resolve and assign', async () => {
    const g = (await raise('learner')).body.data;
    for (const [method, url, body] of [
      ['GET', `/grievance/${g.id}`, undefined],
      ['POST', `/grievance/${g.id}/messages`, { text: 'hello' }],
      ['POST', `/grievance/${g.id}/reopen`, {}],
    ] as const) {
      const r = await as('beneficiary', method, url, body);
      expect(r.status, url).toBe(404);
      expect(r.body.msg).toBe(MSG.grievanceNotFound);
    }
    expect((await as('learner', 'POST', `/grievance/${g.id}/resolve`, { note: 'mine' })).status).toBe(403);
    expect((await as('learner', 'POST', `/grievance/${g.id}/assign`, { ownerId: DEMO.learner.id })).status).toBe(403);
    expect((await as('learner', 'GET', '/grievance/queue')).status).toBe(403);
    expect((await as('learner', 'GET', `/grievance/${g.id}`)).status).toBe(200);
    expect((await as('trustee', 'GET', `/grievance/${g.id}`)).status).toBe(200);
    expect((await as('learner', 'GET', '/grievance/no-such-id')).status).toBe(404);
  });

  test('assigning: to a person holding HANDLE_GRIEVANCE, logged; not to anyone else', async () => {
    const g = (await raise('learner')).body.data;
    const bad = await as('trustee', 'POST', `/grievance/${g.id}/assign`, { ownerId: DEMO.editor.id });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe(MSG.grievanceOwnerNotStaff);
    expectBilingual(bad.body.msg);
    const ok = await as('trustee', 'POST', `/grievance/${g.id}/assign`, { ownerId: DEMO.trustee.id });
    expect(ok.status).toBe(200);
    expect(ok.body.data.owner).toEqual({ id: DEMO.trustee.id, name: expect.any(String) });
    const handlers = await as('admin', 'GET', '/grievance/handlers');
    expect(handlers.body.data.map((p: { id: string }) => p.id).sort()).toEqual([DEMO.admin.id, DEMO.trustee.id, DEMO.trustee2.id].sort());
    const entries = await h.deps.db.select().from(activityLog).where(and(eq(activityLog.entityAffected, 'grievance'), eq(activityLog.entityId, g.id)));
    expect(entries.map((e) => e.newValue)).toContainEqual({ ownerId: DEMO.trustee.id });
  });

  test('50 staff resolving one grievance at once: one resolves, 49 get 409', async () => {
    const g = (await raise('learner')).body.data;
    const rs = await Promise.all(Array.from({ length: 50 }, (_, i) => as(i % 2 ? 'trustee' : 'admin', 'POST', `/grievance/${g.id}/resolve`, { note: `note ${i}` })));
    expect(rs.filter((r) => r.status === 200)).toHaveLength(1);
    expect(rs.filter((r) => r.status === 409)).toHaveLength(49);
  });
});

describe('lists', () => {
  test('the raiser\'s own, newest first', async () => {
    const g = (await raise('beneficiary', { title: 'Mine only' })).body.data;
    const mine = await as('beneficiary', 'GET', '/grievance/mine');
    expect(mine.status).toBe(200);
    expect(mine.body.data[0].id).toBe(g.id);
    expect(mine.body.data.every((x: { raiser: { id: string } }) => x.raiser.id === DEMO.beneficiary.id)).toBe(true);
  });

  test('the queue: not resolved, overdue first then by due time; search; a status', async () => {
    const late = (await raise('learner', { title: 'Overdue one zq' })).body.data;
    await h.deps.db
      .update(grievance)
      .set({ dueAt: Date.now() - 1000 })
      .where(eq(grievance.id, late.id));
    const q = await as('trustee', 'GET', '/grievance/queue');
    expect(q.status).toBe(200);
    expect(q.body.data[0]).toMatchObject({ id: late.id, overdue: true });
    expect(q.body.data.every((r: { status: string }) => r.status !== 'RESOLVED')).toBe(true);
    const dues = q.body.data.slice(1).map((r: { dueAt: number }) => r.dueAt);
    expect(dues).toEqual([...dues].sort((a, b) => a - b));
    expect(q.body.total).toBeGreaterThan(20);
    expect(q.body.data).toHaveLength(20);
    const found = await as('trustee', 'GET', '/grievance/queue?q=overdue%20one%20zq');
    expect(found.body.data.map((r: { id: string }) => r.id)).toEqual([late.id]);
    const resolved = await as('trustee', 'GET', '/grievance/queue?status=RESOLVED');
    expect(resolved.body.data.every((r: { status: string }) => r.status === 'RESOLVED')).toBe(true);
    expect((await as('trustee', 'GET', '/grievance/queue?status=NOPE')).status).toBe(400);
  });
});

describe('reports of a campaign', () => {
  const report = (who: Who | null, id: string, body: Record<string, unknown> = {}, ip = '203.0.113.7') =>
    as(who, 'POST', `/campaign/${id}/report`, { reason: 'WRONG_INFO', text: 'The fees stated are too high.', ...body }, { 'x-forwarded-for': ip });

  test('a guest reports: the same answer for a public campaign, a draft and one that does not exist; only the public one lands in the queue, anonymous', async () => {
    const before = (await h.deps.db.select({ id: grievance.id }).from(grievance)).length;
    const answers = [await report(null, CAMPAIGN, { contact: 'guest@example.com' }), await report(null, 'no-such-campaign'), await report(null, 'demo-draft-none')];
    for (const a of answers) {
      expect(a.status).toBe(201);
      expect(a.body).toEqual({ success: true, msg: MSG.reportReceived });
    }
    const rows = await h.deps.db.select().from(grievance);
    expect(rows.length).toBe(before + 1);
    const stored = rows.find((r) => r.reportReason === 'WRONG_INFO' && r.contact === 'guest@example.com')!;
    expect(stored).toMatchObject({ subject: 'CAMPAIGN', subjectId: CAMPAIGN, raiserId: null, status: 'OPEN' });
    const q = await as('trustee', 'GET', `/grievance/queue?q=${encodeURIComponent(stored.number)}`);
    expect(q.body.data).toMatchObject([{ id: stored.id, reportReason: 'WRONG_INFO', raiser: null }]);
    // Staff see the way back; the contact is not shown to anyone else (there is no one else).
    expect((await as('trustee', 'GET', `/grievance/${stored.id}`)).body.data.contact).toBe('guest@example.com');
  });

  test('signed in, the reporter is the raiser and follows it in their grievances', async () => {
    const r = await report('learner', CAMPAIGN, { reason: 'FRAUD' });
    expect(r.status).toBe(201);
    const mine = await as('learner', 'GET', '/grievance/mine');
    expect(mine.body.data[0]).toMatchObject({ reportReason: 'FRAUD', subjectId: CAMPAIGN });
  });

  test.each([
    [{ reason: 'SPAM' }, 'reason'],
    [{ text: '' }, 'text cannot be empty'],
    [{ text: 'x'.repeat(2001) }, 'text'],
    [{ contact: 'not a contact' }, MSG.reportContact],
  ])('%j is refused naming the field', async (bad, msg) => {
    const r = await report(null, CAMPAIGN, bad);
    expect(r.status).toBe(400);
    expect(r.body.msg).toContain(msg);
  });

  test('10 an hour per address (also for campaigns that do not exist), then 429 and nothing stored', async () => {
    const rs = [];
    for (let i = 0; i < 10; i++) rs.push(await report(null, i % 2 ? CAMPAIGN : 'no-such-campaign'));
    expect(rs.map((r) => r.status)).toEqual(Array(10).fill(201));
    const before = (await h.deps.db.select({ id: grievance.id }).from(grievance)).length;
    for (const id of [CAMPAIGN, 'no-such-campaign']) {
      const refused = await report(null, id);
      expect(refused.status).toBe(429);
      expect(refused.body.msg).toBe(MSG.tooManyRequests);
    }
    // Signed in, the address's budget still counts (and the person's own too).
    expect((await report('learner', CAMPAIGN)).status).toBe(429);
    expect((await h.deps.db.select({ id: grievance.id }).from(grievance)).length).toBe(before);
    const keys = (await h.deps.db.select({ key: rateLimit.key }).from(rateLimit).where(like(rateLimit.key, 'campaignReport:%'))).map((r) => r.key);
    expect(keys.every((k) => k.startsWith('campaignReport:ip:'))).toBe(true);
  });
});
