import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CAMPAIGN_STATUSES, type CampaignStatus } from '@pm/protocol/campaign';
import { MSG } from '@pm/protocol/messages';
import { activityLog, campaign, campaignEvent, trust } from '../../db/schema';
import { first } from '../../db/transaction';
import { DEMO, type Harness, startHarness } from '../../test/harness';
import { MOVES, type CampaignMove } from './campaigns.machine';

/*
 * Campaigns through the real HTTP app (docs/charity.md "API"): drafting, validation, who sees
 * what, every move of campaigns.machine.ts allowed and refused, the public list, My campaigns,
 * the approval queue, the featured campaign and updates. Images: campaign-images.test.ts.
 */

type Who = 'admin' | 'editor' | 'learner' | 'beneficiary' | 'trustee';
let h: Harness;
const tokens = {} as Record<Who, string>;

beforeAll(async () => {
  h = await startHarness();
  for (const who of ['admin', 'editor', 'learner', 'beneficiary', 'trustee'] as const) tokens[who] = await h.tokenOf(who);
});
afterAll(() => h.destroy());

const DAY = 86_400_000;
const as = (who: Who | null, method: string, url: string, body?: unknown) =>
  h.request(method, url, { ...(who ? { token: tokens[who] } : {}), ...(body === undefined ? {} : { body }) });

const hindi = JSON.parse(readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), '../../../../client/src/locales/hi/messages.json'), 'utf8')) as Record<string, string>;
const keyOf = new Map<string, string>(Object.entries(MSG).map(([k, v]) => [v, k]));
/** The message is a server message (or a field's name and one) with a Hindi translation. */
function expectBilingual(msg: string) {
  const key = keyOf.get(msg) ?? keyOf.get(msg.slice(msg.indexOf(' ') + 1));
  expect(key, `"${msg}" is not a server message`).toBeDefined();
  expect(hindi[key!], `no Hindi for ${key}`).toMatch(/[\u0900-\u097F]/);
}

let seq = 0;
/** A complete campaign as POST /api/campaign takes it (fields of `over` win). */
const campaignBody = (over: Record<string, unknown> = {}) => ({
  title: { en: `Books for Class 10 no. ${++seq}`, hi: `कक्षा 10 की किताबें ${seq}` },
  story: { en: '<p>I need books for my <strong>board exams</strong>.</p>', hi: '<p>मुझे बोर्ड परीक्षा के लिए किताबें चाहिए।</p>' },
  cause: 'BOOKS',
  need: [
    { what: { en: 'Mathematics textbook', hi: 'गणित की पाठ्यपुस्तक' }, from: 'Saraswati Book Depot', amount: 45_000 },
    { what: { en: 'Geometry box' }, amount: 15_000 },
  ],
  endsAt: Date.now() + 30 * DAY,
  ...over,
});

async function draft(who: Who = 'beneficiary', over: Record<string, unknown> = {}): Promise<string> {
  const r = await as(who, 'POST', '/campaign', campaignBody(over));
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.data.id as string;
}
/** Puts a campaign into a status directly (for the move matrix: every status, every move). */
const setStatus = (id: string, status: CampaignStatus) => h.deps.db.update(campaign).set({ status }).where(eq(campaign.id, id));
const statusOf = async (id: string) => (await first(h.deps.db.select({ s: campaign.status }).from(campaign).where(eq(campaign.id, id))))?.s;
const eventsOf = (id: string) => h.deps.db.select().from(campaignEvent).where(eq(campaignEvent.campaignId, id)).orderBy(campaignEvent.createdAt, campaignEvent.id);
const activityOf = (id: string) => h.deps.db.select().from(activityLog).where(and(eq(activityLog.entityAffected, 'campaign'), eq(activityLog.entityId, id))).orderBy(activityLog.createdAt);

async function approved(over: Record<string, unknown> = {}): Promise<string> {
  const id = await draft('beneficiary', over);
  expect((await as('beneficiary', 'POST', `/campaign/${id}/submit`, {})).status).toBe(200);
  expect((await as('trustee', 'POST', `/campaign/${id}/approve`, {})).status).toBe(200);
  return id;
}

describe('the demo data', () => {
  test('a trust (FCRA false, 600 bps) and an approved campaign of the demo beneficiary, with a need breakdown and no image', async () => {
    expect(await first(h.deps.db.select().from(trust).where(eq(trust.id, 'demo-trust')))).toMatchObject({ code: 'PMT', fcraRegistered: false, shareBps: 600 });
    const r = await as(null, 'GET', '/campaigns/demo-campaign-1');
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ status: 'APPROVED', beneficiaryId: DEMO.beneficiary.id, beneficiaryName: 'Bina Beneficiary', approvedBy: DEMO.trustee.id, images: [], raised: 0, donors: 0, updates: [], recentDonations: [], ledger: [] });
    expect(r.body.data.goal).toBe(r.body.data.need.reduce((s: number, i: { amount: number }) => s + i.amount, 0));
    expect(r.body.data.need.length).toBeGreaterThan(1);
    // Strangers do not read the history; trustees do (created, submitted, approved).
    expect(r.body.data.history).toBeUndefined();
    const inside = await as('trustee', 'GET', '/campaigns/demo-campaign-1');
    expect(inside.body.data.history.map((e: { action: string }) => e.action)).toEqual(['create', 'submit', 'approve']);
  });
});

describe('POST /api/campaign', () => {
  test('a signed-in person drafts their own campaign: DRAFT, goal = the sum of the need, Hindi kept, one history entry and one activity entry', async () => {
    const r = await as('beneficiary', 'POST', '/campaign', campaignBody());
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ success: true, msg: MSG.campaignCreated });
    const c = r.body.data;
    expect(c).toMatchObject({ status: 'DRAFT', beneficiaryId: DEMO.beneficiary.id, createdBy: DEMO.beneficiary.id, trustId: 'demo-trust', goal: 60_000, raised: 0, donors: 0, images: [], reason: null });
    expect(c.title.hi).toMatch(/कक्षा/);
    // Hindi is optional: '' when not given.
    expect(c.need[1].what).toEqual({ en: 'Geometry box', hi: '' });
    expect(await eventsOf(c.id)).toMatchObject([{ action: 'create', fromStatus: null, toStatus: 'DRAFT', actorId: DEMO.beneficiary.id }]);
    expect(await activityOf(c.id)).toMatchObject([{ actionType: 'CREATE', personId: DEMO.beneficiary.id, newValue: { status: 'DRAFT', goal: 60_000 } }]);
  });

  test('the story is sanitised as a question is; a story that sanitising empties is refused naming the field', async () => {
    const r = await as('beneficiary', 'POST', '/campaign', campaignBody({ story: { en: '<p onclick="x()">Help <script>alert(1)</script>me</p>' } }));
    expect(r.status).toBe(201);
    expect(r.body.data.story.en).toBe('<p>Help me</p>');
    expect(r.body.data.story.hi).toBe('');
    const empty = await as('beneficiary', 'POST', '/campaign', campaignBody({ story: { en: '<script>alert(1)</script>' } }));
    expect(empty.status).toBe(400);
    expect(empty.body.msg).toBe(`story.en ${MSG.fieldEmpty}`);
  });

  test('staff name the beneficiary; anyone else may not, and the person must exist', async () => {
    const r = await as('admin', 'POST', '/campaign', campaignBody({ beneficiaryId: DEMO.learner.id }));
    expect(r.status).toBe(201);
    expect(r.body.data).toMatchObject({ beneficiaryId: DEMO.learner.id, createdBy: DEMO.admin.id });
    // The learner owns it: it is among theirs.
    expect((await as('learner', 'GET', '/campaign/mine')).body.data.map((c: { id: string }) => c.id)).toContain(r.body.data.id);
    const other = await as('learner', 'POST', '/campaign', campaignBody({ beneficiaryId: DEMO.beneficiary.id }));
    expect(other.status).toBe(403);
    const own = await as('learner', 'POST', '/campaign', campaignBody({ beneficiaryId: DEMO.learner.id }));
    expect(own.status).toBe(201);
    const nobody = await as('admin', 'POST', '/campaign', campaignBody({ beneficiaryId: 'no-such-person' }));
    expect(nobody.status).toBe(400);
    expect(nobody.body.msg).toBe(MSG.campaignBeneficiaryNotFound);
  });

  test.each([
    ['no English title', { title: { hi: 'शीर्षक' } }, `title.en ${MSG.fieldRequired}`],
    ['a blank English title', { title: { en: '   ' } }, `title.en ${MSG.fieldEmpty}`],
    ['a title of the wrong type', { title: 'Books' }, `title ${MSG.mustBeObject}`],
    ['no story', { story: undefined }, `story ${MSG.fieldRequired}`],
    ['an unknown cause', { cause: 'HOLIDAY' }, `cause ${MSG.fieldNotAllowed}`],
    ['no need item', { need: [] }, `need ${MSG.fieldTooFewItems}`],
    ['21 need items', { need: Array.from({ length: 21 }, () => ({ what: { en: 'Pen' }, amount: 1000 })) }, `need ${MSG.fieldTooManyItems}`],
    ['an amount of 0', { need: [{ what: { en: 'Pen' }, amount: 0 }] }, `need.0.amount ${MSG.fieldTooSmall}`],
    ['a negative amount', { need: [{ what: { en: 'Pen' }, amount: -5 }] }, `need.0.amount ${MSG.fieldTooSmall}`],
    ['a fractional amount', { need: [{ what: { en: 'Pen' }, amount: 10.5 }] }, `need.0.amount ${MSG.mustBeWholeNumber}`],
    ['an amount as text', { need: [{ what: { en: 'Pen' }, amount: '100' }] }, `need.0.amount ${MSG.mustBeNumber}`],
    ['an item without what', { need: [{ amount: 100 }] }, `need.0.what ${MSG.fieldRequired}`],
    ['no end date', { endsAt: undefined }, `endsAt ${MSG.fieldRequired}`],
    ['a goal sent by the client', { goal: 1 }, 'Unknown field: goal'],
    ['a status sent by the client', { status: 'APPROVED' }, 'Unknown field: status'],
  ])('%s is refused (400) with a message naming the field, in English and Hindi, and nothing is stored', async (_name, over, msg) => {
    const before = (await h.deps.db.select({ id: campaign.id }).from(campaign)).length;
    const r = await as('beneficiary', 'POST', '/campaign', campaignBody(over));
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ success: false, msg });
    if (!msg.startsWith('Unknown field')) expectBilingual(msg);
    expect((await h.deps.db.select({ id: campaign.id }).from(campaign)).length).toBe(before);
  });
});

describe('who reads a campaign that is not public', () => {
  test('a draft is 404 to strangers and to anonymous callers, exactly as a campaign that does not exist; its owner, staff and trustees read it', async () => {
    const id = await draft();
    const missing = await as('learner', 'GET', '/campaigns/no-such-campaign');
    expect(missing.status).toBe(404);
    for (const who of ['learner', 'editor', null] as const) {
      const r = await as(who, 'GET', `/campaigns/${id}`);
      expect(r.status).toBe(404);
      expect(r.body).toEqual(missing.body);
    }
    for (const who of ['beneficiary', 'admin', 'trustee'] as const) {
      const r = await as(who, 'GET', `/campaigns/${id}`);
      expect(r.status, who).toBe(200);
      expect(r.body.data.history).toHaveLength(1);
    }
    // A stranger can neither change it nor learn that it exists; a trustee reads but does not edit it.
    expect((await as('learner', 'PATCH', `/campaign/${id}`, { cause: 'FEES' })).status).toBe(404);
    expect((await as('learner', 'POST', `/campaign/${id}/submit`, {})).status).toBe(404);
    expect((await as('trustee', 'PATCH', `/campaign/${id}`, { cause: 'FEES' })).status).toBe(403);
    expect(await statusOf(id)).toBe('DRAFT');
  });

  test('submitted and refused campaigns stay private; approved, paused and closed ones are public', async () => {
    const id = await draft();
    for (const status of CAMPAIGN_STATUSES) {
      await setStatus(id, status);
      const r = await as(null, 'GET', `/campaigns/${id}`);
      expect(r.status, status).toBe(['APPROVED', 'PAUSED', 'CLOSED'].includes(status) ? 200 : 404);
    }
  });
});

describe('moves (campaigns.machine.ts)', () => {
  const MOVE_ROUTES: [Exclude<CampaignMove, 'edit'>, Who, Record<string, unknown>][] = [
    ['submit', 'beneficiary', {}],
    ['approve', 'trustee', {}],
    ['refuse', 'trustee', { reason: 'The need is not explained' }],
    ['pause', 'trustee', {}],
    ['resume', 'trustee', {}],
    ['close', 'trustee', {}],
  ];

  test.each(MOVE_ROUTES.flatMap(([move, who, body]) => CAMPAIGN_STATUSES.map((from) => [move, from, who, body] as const)))(
    '%s from %s: allowed exactly as the diagram says; a move, its history entry and its activity entry, or 409 and nothing',
    async (move, from, who, body) => {
      const id = await draft();
      await setStatus(id, from);
      const events = (await eventsOf(id)).length;
      const log = (await activityOf(id)).length;
      const r = await as(who, 'POST', `/campaign/${id}/${move}`, body);
      const rule = MOVES[move];
      if (rule.from.includes(from)) {
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        expect(r.body.data.status).toBe(rule.to);
        expect(await statusOf(id)).toBe(rule.to);
        const added = (await eventsOf(id)).slice(events);
        expect(added).toMatchObject([{ action: move, fromStatus: from, toStatus: rule.to, actorId: DEMO[who].id }]);
        const entry = (await activityOf(id)).slice(log);
        expect(entry).toMatchObject([{ actionType: 'UPDATE', oldValue: { status: from }, newValue: { status: rule.to } }]);
        expectBilingual(r.body.msg);
      } else {
        expect(r.status).toBe(409);
        expect(r.body).toMatchObject({ success: false, code: 'CONFLICT', msg: MSG.campaignMoveNotAllowed, status: from });
        expectBilingual(r.body.msg);
        expect(await statusOf(id)).toBe(from);
        expect((await eventsOf(id)).length).toBe(events);
        expect((await activityOf(id)).length).toBe(log);
      }
    },
  );

  test.each(CAMPAIGN_STATUSES)('edit from %s: a draft stays a draft, a refused campaign becomes one, anything else is 409', async (from) => {
    const id = await draft();
    await setStatus(id, from);
    const r = await as('beneficiary', 'PATCH', `/campaign/${id}`, { cause: 'FEES' });
    if (MOVES.edit.from.includes(from)) {
      expect(r.status).toBe(200);
      expect(r.body.data).toMatchObject({ status: 'DRAFT', cause: 'FEES' });
      expect((await eventsOf(id)).at(-1)).toMatchObject({ action: 'edit', fromStatus: from, toStatus: 'DRAFT' });
    } else {
      expect(r.status).toBe(409);
      expect(r.body).toMatchObject({ msg: MSG.campaignNotEditable, status: from });
      expect(await statusOf(id)).toBe(from);
    }
  });

  test('a refusal needs a reason; the owner reads it, edits, answers and submits again; the history tells it all', async () => {
    const id = await draft();
    await as('beneficiary', 'POST', `/campaign/${id}/submit`, {});
    for (const [body, msg] of [
      [{}, `reason ${MSG.fieldRequired}`],
      [{ reason: '   ' }, `reason ${MSG.fieldEmpty}`],
    ] as const) {
      const r = await as('trustee', 'POST', `/campaign/${id}/refuse`, body);
      expect(r.status).toBe(400);
      expect(r.body.msg).toBe(msg);
    }
    expect(await statusOf(id)).toBe('SUBMITTED');
    const refused = await as('trustee', 'POST', `/campaign/${id}/refuse`, { reason: 'Say which school the fees are for' });
    expect(refused.body.data).toMatchObject({ status: 'REFUSED', reason: 'Say which school the fees are for' });
    const edited = await as('beneficiary', 'PATCH', `/campaign/${id}`, { need: [{ what: { en: 'Fees of Govt. School, Ajmer' }, amount: 120_000 }] });
    expect(edited.body.data).toMatchObject({ status: 'DRAFT', goal: 120_000 });
    const again = await as('beneficiary', 'POST', `/campaign/${id}/submit`, { note: 'The school is named now' });
    expect(again.body.data.status).toBe('SUBMITTED');
    const history = (await as('beneficiary', 'GET', `/campaigns/${id}`)).body.data.history;
    expect(history.map((e: { action: string; from: string | null; to: string; note: string | null }) => [e.action, e.from, e.to, e.note])).toEqual([
      ['create', null, 'DRAFT', null],
      ['submit', 'DRAFT', 'SUBMITTED', null],
      ['refuse', 'SUBMITTED', 'REFUSED', 'Say which school the fees are for'],
      ['edit', 'REFUSED', 'DRAFT', null],
      ['submit', 'DRAFT', 'SUBMITTED', 'The school is named now'],
    ]);
    expect(history[2].actor).toEqual({ id: DEMO.trustee.id, name: 'Tarun Trustee' });
  });

  test('submitting needs an end date in the future; a refused campaign is submitted again as it is', async () => {
    const id = await draft('beneficiary', { endsAt: Date.now() - 1000 });
    const r = await as('beneficiary', 'POST', `/campaign/${id}/submit`, {});
    expect(r.status).toBe(400);
    expect(r.body.msg).toBe(MSG.campaignEndsAtPast);
    expectBilingual(r.body.msg);
    expect(await statusOf(id)).toBe('DRAFT');
    await as('beneficiary', 'PATCH', `/campaign/${id}`, { endsAt: Date.now() + DAY });
    expect((await as('beneficiary', 'POST', `/campaign/${id}/submit`, {})).status).toBe(200);
    await as('trustee', 'POST', `/campaign/${id}/refuse`, { reason: 'Blurry' });
    expect((await as('beneficiary', 'POST', `/campaign/${id}/submit`, { note: 'Nothing to change' })).body.data.status).toBe('SUBMITTED');
  });

  test('staff submit on a beneficiary’s behalf; another signed-in person may not (404), a trustee only reads (403)', async () => {
    const id = await draft();
    expect((await as('learner', 'POST', `/campaign/${id}/submit`, {})).status).toBe(404);
    expect((await as('trustee', 'POST', `/campaign/${id}/submit`, {})).status).toBe(403);
    expect((await as('admin', 'POST', `/campaign/${id}/submit`, {})).status).toBe(200);
    expect((await eventsOf(id)).at(-1)).toMatchObject({ action: 'submit', actorId: DEMO.admin.id });
  });

  test('50 trustees approving one campaign at once: one approval, one history entry, one activity entry; the others 409', async () => {
    const id = await draft();
    await as('beneficiary', 'POST', `/campaign/${id}/submit`, {});
    const rs = await Promise.all(Array.from({ length: 50 }, () => as('trustee', 'POST', `/campaign/${id}/approve`, {})));
    const tally: Record<number, number> = {};
    for (const r of rs) tally[r.status] = (tally[r.status] ?? 0) + 1;
    expect(tally).toEqual({ 200: 1, 409: 49 });
    expect((await eventsOf(id)).filter((e) => e.action === 'approve')).toHaveLength(1);
    expect((await activityOf(id)).filter((e) => (e.newValue as { move?: string }).move === 'approve')).toHaveLength(1);
    expect(await statusOf(id)).toBe('APPROVED');
  });
});

describe('GET /api/campaigns (the public list)', () => {
  let ids: Record<'books' | 'fees' | 'paused' | 'closed' | 'draft', string>;
  beforeAll(async () => {
    ids = {
      books: await approved({ title: { en: 'Zoology guides for Meera', hi: 'मीरा के लिए प्राणीशास्त्र गाइड' }, endsAt: Date.now() + 5 * DAY }),
      fees: await approved({ title: { en: 'Hostel fees for Arjun', hi: 'अर्जुन की छात्रावास फ़ीस' }, cause: 'FEES', endsAt: Date.now() + 2 * DAY }),
      paused: await approved({ title: { en: 'Zoology lab coat' } }),
      closed: await approved({ title: { en: 'Zoology microscope' } }),
      draft: await draft('beneficiary', { title: { en: 'Zoology draft never shown' } }),
    };
    await as('trustee', 'POST', `/campaign/${ids.paused}/pause`, {});
    await as('trustee', 'POST', `/campaign/${ids.closed}/close`, {});
  });

  const listIds = async (query: string) => {
    const r = await as(null, 'GET', `/campaigns${query}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return { ids: r.body.data.map((c: { id: string }) => c.id) as string[], total: r.body.total as number, body: r.body };
  };

  test('approved, paused and closed campaigns as cards; never a draft', async () => {
    const r = await listIds('?q=Zoology&size=50');
    expect(r.ids.sort()).toEqual([ids.books, ids.paused, ids.closed].sort());
    expect(r.total).toBe(3);
    const card = r.body.data.find((c: { id: string }) => c.id === ids.books);
    expect(Object.keys(card).sort()).toEqual(['cause', 'donors', 'endsAt', 'goal', 'id', 'image', 'raised', 'status', 'title'].sort());
    expect(card).toMatchObject({ status: 'APPROVED', raised: 0, donors: 0, image: null, goal: 60_000 });
  });

  test('q searches the titles in English and in Hindi, whatever the case of English letters; its % and _ are plain characters', async () => {
    expect((await listIds('?q=zoOLOGY%20guides')).ids).toEqual([ids.books]);
    expect((await listIds(`?q=${encodeURIComponent('छात्रावास')}`)).ids).toEqual([ids.fees]);
    expect((await listIds('?q=%25')).ids).toEqual([]);
    expect((await listIds('?q=Zoology_guides')).ids).toEqual([]);
  });

  test('cause filters; sorts: newest, ending-soon (open campaigns by their end first), nearly-funded', async () => {
    const fees = await listIds('?cause=FEES&size=50');
    expect(fees.ids).toContain(ids.fees);
    expect(fees.ids).not.toContain(ids.books);
    const newest = (await listIds('?q=Zoology&sort=newest')).ids;
    expect(newest).toEqual([ids.closed, ids.paused, ids.books]);
    const soon = (await listIds('?sort=ending-soon&size=50')).ids;
    expect(soon.indexOf(ids.fees)).toBeLessThan(soon.indexOf(ids.books));
    // Paused and closed take no donations: after every open campaign.
    expect(soon.indexOf(ids.books)).toBeLessThan(soon.indexOf(ids.closed));
    const funded = await listIds('?sort=nearly-funded&size=50');
    expect(funded.ids.sort()).toEqual((await listIds('?size=50')).ids.sort());
  });

  test('pages: page and size (at most 50) page through every public campaign once', async () => {
    const all = await listIds('?size=50');
    const pages: string[] = [];
    for (let page = 1; page <= Math.ceil(all.total / 2); page++) pages.push(...(await listIds(`?size=2&page=${page}`)).ids);
    expect(pages).toEqual(all.ids);
    for (const bad of ['?size=51', '?size=0', '?page=0', '?sort=oldest', '?cause=HOLIDAY', '?bogus=1']) expect((await as(null, 'GET', `/campaigns${bad}`)).status, bad).toBe(400);
  });
});

describe('My campaigns, the approval queue, the featured campaign', () => {
  test('GET /api/campaign/mine: the caller’s campaigns in every status, newest first, with their totals', async () => {
    const id = await draft();
    const r = await as('beneficiary', 'GET', '/campaign/mine');
    expect(r.status).toBe(200);
    expect(r.body.data[0]).toMatchObject({ id, status: 'DRAFT', raised: 0, donors: 0 });
    expect(r.body.data.map((c: { id: string }) => c.id)).toContain('demo-campaign-1');
    for (const c of r.body.data) expect(c.beneficiaryId).toBe(DEMO.beneficiary.id);
    expect((await as('editor', 'GET', '/campaign/mine')).body.data).toEqual([]);
  });

  test('GET /api/campaign/queue: submitted campaigns, the longest waiting first, each with its beneficiary’s other campaigns', async () => {
    const first_ = await draft();
    const second = await draft();
    await as('beneficiary', 'POST', `/campaign/${first_}/submit`, {});
    await as('beneficiary', 'POST', `/campaign/${second}/submit`, {});
    const r = await as('trustee', 'GET', '/campaign/queue');
    expect(r.status).toBe(200);
    const queue = r.body.data.map((c: { id: string }) => c.id);
    expect(queue.indexOf(first_)).toBeGreaterThanOrEqual(0);
    expect(queue.indexOf(first_)).toBeLessThan(queue.indexOf(second));
    for (const c of r.body.data) expect(c.status).toBe('SUBMITTED');
    const entry = r.body.data.find((c: { id: string }) => c.id === first_);
    expect(entry.others.map((o: { id: string }) => o.id)).toContain('demo-campaign-1');
    expect(entry.others.map((o: { id: string }) => o.id)).not.toContain(first_);
  });

  test('PUT /api/campaign/featured: staff choose an approved campaign; GET answers its card while it is public, then null', async () => {
    expect((await as(null, 'GET', '/campaign/featured')).body).toEqual({ success: true, data: null });
    const id = await approved();
    const set = await as('admin', 'PUT', '/campaign/featured', { id });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ success: true, msg: MSG.campaignFeaturedSet, data: { id } });
    expect((await as(null, 'GET', '/campaign/featured')).body.data).toMatchObject({ id, status: 'APPROVED' });
    const draftId = await draft();
    const refused = await as('admin', 'PUT', '/campaign/featured', { id: draftId });
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toBe(MSG.campaignNotPublic);
    expect((await as('admin', 'PUT', '/campaign/featured', { id: 'no-such-campaign' })).status).toBe(404);
    expect((await as('trustee', 'PUT', '/campaign/featured', { id })).status).toBe(403);
    await as('trustee', 'POST', `/campaign/${id}/pause`, {});
    expect((await as(null, 'GET', '/campaign/featured')).body.data).toMatchObject({ id, status: 'PAUSED' });
    await setStatus(id, 'REFUSED');
    expect((await as(null, 'GET', '/campaign/featured')).body.data).toBeNull();
    expect((await as('admin', 'PUT', '/campaign/featured', { id: null })).body.data).toBeNull();
  });
});

describe('POST /api/campaign/:id/updates', () => {
  test('the owner or staff post on an approved, paused or closed campaign; newest first on its page; not on a draft', async () => {
    const id = await draft();
    const early = await as('beneficiary', 'POST', `/campaign/${id}/updates`, { text: { en: '<p>Bought</p>' } });
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({ msg: MSG.campaignNotUpdatable, status: 'DRAFT' });
    await setStatus(id, 'APPROVED');
    const r = await as('beneficiary', 'POST', `/campaign/${id}/updates`, { text: { en: '<p>The books <script>x</script>arrived</p>', hi: '<p>किताबें आ गईं</p>' } });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ success: true, msg: MSG.campaignUpdatePosted, data: { campaignId: id, authorId: DEMO.beneficiary.id, text: { en: '<p>The books arrived</p>' }, images: [] } });
    await setStatus(id, 'CLOSED');
    expect((await as('admin', 'POST', `/campaign/${id}/updates`, { text: { en: 'The receipt from the shop' } })).status).toBe(201);
    expect((await as('trustee', 'POST', `/campaign/${id}/updates`, { text: { en: 'x' } })).status).toBe(403);
    expect((await as('learner', 'POST', `/campaign/${id}/updates`, { text: { en: 'x' } })).status).toBe(403);
    const page = await as(null, 'GET', `/campaigns/${id}`);
    expect(page.body.data.updates.map((u: { authorName: string }) => u.authorName)).toEqual(['Asha Admin', 'Bina Beneficiary']);
    expect((await as('beneficiary', 'POST', `/campaign/${id}/updates`, { text: { hi: 'केवल हिंदी' } })).body.msg).toBe(`text.en ${MSG.fieldRequired}`);
  });
});
