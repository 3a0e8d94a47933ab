import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { MSG } from '@pm/protocol/messages';
import { activityLog, campaign, ledgerEntry, withdrawal } from '../../db/schema';
import { first, transaction } from '../../db/transaction';
import { hmacSha256Hex } from '../payments/providers/common';
import { ACCOUNTS, post, unbalanced } from '../../lib/ledger';
import { readLocalInbox } from '../../lib/outbox';
import path from 'node:path';
import { type Harness, startHarness } from '../../test/harness';
import { payoutSandboxControl } from './sandbox-razorpayx';

/*
 * Withdrawals through the real app, the RazorpayX sandbox and the real adapter (docs/charity.md
 * "Withdrawals"): four eyes, the refusals, fifty requests at once never holding more than the
 * campaign has, the payout paid once per key, the signed webhook, PAID in the ledger (and the
 * beneficiary's aw/taw), a reversal, a failure and its retry, the update owed before the next
 * request, foreign money only for the campaign's own need. The ledger is balanced after each test.
 */

type Who = 'beneficiary' | 'learner' | 'admin' | 'trustee' | 'trustee2';
let h: Harness;
let sb: ReturnType<typeof payoutSandboxControl>;
const tokens = {} as Record<Who, string>;
const DAY = 86_400_000;

beforeAll(async () => {
  h = await startHarness();
  sb = payoutSandboxControl(h.deps.payouts.sandbox);
  sb.settleAfterMs = 20;
  for (const who of ['beneficiary', 'learner', 'admin', 'trustee', 'trustee2'] as const) tokens[who] = await h.tokenOf(who);
});
afterAll(async () => {
  await sb.idle();
  await h.destroy();
});
afterEach(async () => {
  await sb.idle();
  expect(await unbalanced(h.deps.db)).toEqual({ groups: [], total: 0 });
});

const as = (who: Who, method: string, url: string, body?: unknown) => h.request(method, url, { token: tokens[who], ...(body === undefined ? {} : { body }) });

let seq = 0;
/** A new APPROVED campaign of the demo beneficiary, its need naming a supplier. */
async function approvedCampaign(): Promise<string> {
  const r = await as('beneficiary', 'POST', '/campaign', {
    title: { en: `Payout test ${++seq}` },
    story: { en: '<p>Books</p>' },
    cause: 'BOOKS',
    need: [{ what: { en: 'Books' }, from: 'Saraswati Book Depot', amount: 500_000 }],
    endsAt: Date.now() + 30 * DAY,
  });
  const id = r.body.data.id as string;
  expect((await as('beneficiary', 'POST', `/campaign/${id}/submit`, {})).status).toBe(200);
  expect((await as('trustee', 'POST', `/campaign/${id}/approve`, {})).status).toBe(200);
  return id;
}

/** Money reaches the campaign as a donation's legs would put it there (domestic, or foreign contributions). */
async function fund(campaignId: string, paise: number, foreign = false) {
  await transaction(h.deps.db, (tx) =>
    post(tx, {
      groupId: `test-fund:${campaignId}:${++seq}`,
      kind: 'DONATION',
      orderId: `test-fund-${seq}`,
      legs: [
        { account: ACCOUNTS.gateway, amount: paise },
        { account: foreign ? ACCOUNTS.campaignForeign(campaignId) : ACCOUNTS.campaign(campaignId), amount: -paise },
      ],
      at: Date.now(),
    }),
  );
}

const request = (cid: string, amount: number, over: Record<string, unknown> = {}, who: Who = 'beneficiary') =>
  as(who, 'POST', `/campaign/${cid}/withdrawals`, { amount, purpose: { en: 'Books from the depot' }, payoutAccountId: 'demo-payout-vpa', ...over });

async function requested(cid: string, amount: number): Promise<string> {
  const r = await request(cid, amount);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.data.id as string;
}

/** Two trustees approve; resolves once the sandbox has settled the payout and its webhook is applied. */
async function approvedAndSettled(id: string) {
  expect((await as('trustee', 'POST', `/withdrawal/${id}/approve`, { note: 'Bills seen' })).status).toBe(200);
  const second = await as('trustee2', 'POST', `/withdrawal/${id}/approve`, {});
  expect(second.status, JSON.stringify(second.body)).toBe(200);
  await sb.idle();
  return (await as('admin', 'GET', `/withdrawal/${id}`)).body.data;
}

const ledgerOf = (id: string) => h.deps.db.select().from(ledgerEntry).where(eq(ledgerEntry.orderId, id)).orderBy(ledgerEntry.id);

describe('requesting', () => {
  test('the owner requests from a verified account: REQUESTED, due 48 working hours later, money held; history and activity written', async () => {
    const cid = await approvedCampaign();
    await fund(cid, 100_000);
    const r = await request(cid, 40_000);
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ success: true, msg: MSG.withdrawalRequested });
    const w = r.body.data;
    expect(w).toMatchObject({ campaignId: cid, amount: 40_000, fromDomestic: 40_000, fromForeign: 0, status: 'REQUESTED', requester: { id: 'demo-beneficiary' }, payee: { id: 'demo-payout-vpa', vpa: 'beneficiary@upi' }, approvals: [], overdue: false, payoutId: null, paidAt: null });
    expect(w.dueAt).toBeGreaterThanOrEqual(w.createdAt + 2 * DAY);
    expect(w.history).toMatchObject([{ action: 'request', from: null, to: 'REQUESTED', actor: { id: 'demo-beneficiary' } }]);
    const funds = await as('beneficiary', 'GET', `/campaign/${cid}/withdrawable`);
    expect(funds.body.data).toEqual({ domestic: 100_000, foreign: 0, held: 40_000, available: 60_000, updateRequired: false });
    expect((await as('learner', 'GET', `/campaign/${cid}/withdrawable`)).status).toBe(404);
    expect(await h.deps.db.select().from(activityLog).where(and(eq(activityLog.entityAffected, 'withdrawal'), eq(activityLog.entityId, w.id)))).toHaveLength(1);
    // Only its requester cancels it.
    expect((await as('trustee', 'POST', `/withdrawal/${w.id}/cancel`)).status).toBe(403);
    expect((await as('beneficiary', 'POST', `/withdrawal/${w.id}/cancel`)).body.data.status).toBe('CANCELLED');
    expect((await as('beneficiary', 'POST', `/withdrawal/${w.id}/cancel`)).status).toBe(409);
  });

  test('refused: more than available (naming it), an unverified or someone else\'s account, a campaign that is not approved', async () => {
    const cid = await approvedCampaign();
    await fund(cid, 50_000);
    const above = await request(cid, 50_001);
    expect(above.status).toBe(409);
    expect(above.body.msg).toBe(`${MSG.withdrawalAboveAvailable} (₹500.00)`);
    const failed = await as('beneficiary', 'POST', '/payout-account', { kind: 'VPA', holderName: 'Bina Beneficiary', vpa: 'invalid-bina@upi' });
    expect(failed.body.data.status).toBe('FAILED');
    expect((await request(cid, 1000, { payoutAccountId: failed.body.data.id })).body.msg).toBe(MSG.withdrawalAccountUnverified);
    const others = await as('learner', 'POST', '/payout-account', { kind: 'VPA', holderName: 'Lata Learner', vpa: 'lata@upi' });
    expect((await request(cid, 1000, { payoutAccountId: others.body.data.id })).body.msg).toBe(MSG.withdrawalAccountNotAllowed);
    expect((await request(cid, 99)).status).toBe(400);
    expect((await as('learner', 'POST', `/campaign/${cid}/withdrawals`, { amount: 1000, purpose: { en: 'x' }, payoutAccountId: others.body.data.id })).status).toBe(403);
    await h.deps.db.update(campaign).set({ status: 'SUBMITTED' }).where(eq(campaign.id, cid));
    expect((await request(cid, 1000)).body.msg).toBe(MSG.withdrawalCampaignStatus);
    expect(await h.deps.db.select().from(withdrawal).where(eq(withdrawal.campaignId, cid))).toHaveLength(0);
    await as('beneficiary', 'DELETE', `/payout-account/${failed.body.data.id}`);
  });

  test('50 requests at once never hold more than the campaign has', async () => {
    const cid = await approvedCampaign();
    await fund(cid, 100_000);
    const results = await Promise.all(Array.from({ length: 50 }, () => request(cid, 7_000)));
    const ok = results.filter((r) => r.status === 201);
    expect(ok).toHaveLength(14);
    expect(results.filter((r) => r.status === 409).every((r) => r.body.msg.startsWith(MSG.withdrawalAboveAvailable))).toBe(true);
    const funds = (await as('beneficiary', 'GET', `/campaign/${cid}/withdrawable`)).body.data;
    expect(funds).toMatchObject({ held: 98_000, available: 2_000 });
  });
});

describe('approving and paying', () => {
  test('four eyes: the requester never approves, one person once; the second approval pays; PAID enters the ledger and the beneficiary\'s aw/taw', async () => {
    const cid = await approvedCampaign();
    await fund(cid, 100_000);
    const before = (await h.login('beneficiary@example.com', 'beneficiary1234')).body;
    const id = await requested(cid, 30_000);
    // The admin requests for a supplier payee; the admin may not approve their own.
    const payee = await as('admin', 'POST', `/campaign/${cid}/payees`, { kind: 'VPA', holderName: 'Saraswati Book Depot', vpa: 'depot@upi', supplierName: 'Saraswati Book Depot' });
    const staffOwn = await request(cid, 1_000, { payoutAccountId: payee.body.data.id }, 'admin');
    expect(staffOwn.status).toBe(201);
    const own = await as('admin', 'POST', `/withdrawal/${staffOwn.body.data.id}/approve`, {});
    expect(own.status).toBe(403);
    expect(own.body.msg).toBe(MSG.withdrawalOwnApproval);

    const first1 = await as('trustee', 'POST', `/withdrawal/${id}/approve`, { note: 'Bills seen' });
    expect(first1.body.data).toMatchObject({ status: 'REQUESTED', approvals: [{ by: { id: 'demo-trustee' }, note: 'Bills seen' }] });
    expect((await as('trustee', 'POST', `/withdrawal/${id}/approve`, {})).body.msg).toBe(MSG.withdrawalApprovedTwice);
    const second = await as('trustee2', 'POST', `/withdrawal/${id}/approve`);
    expect(second.status).toBe(200);
    expect(second.body.data.status).toBe('PAYING');
    expect(second.body.data.payoutId).toMatch(/^pout_/);
    await sb.idle();
    const w = (await as('beneficiary', 'GET', `/withdrawal/${id}`)).body.data;
    expect(w).toMatchObject({ status: 'PAID', utr: expect.stringMatching(/^SBX/), overdue: false });
    expect(w.history.map((e: { action: string }) => e.action)).toEqual(['request', 'approve', 'approve', 'pay', 'paid']);
    expect((await ledgerOf(id)).map((l) => [l.kind, l.account, l.amount])).toEqual([
      ['PAYOUT', ACCOUNTS.payout(cid), 30_000],
      ['PAYOUT', ACCOUNTS.gateway, -30_000],
    ]);
    const after = (await h.login('beneficiary@example.com', 'beneficiary1234')).body;
    expect(after.taw - before.taw).toBe(300);
    expect(after.aw - before.aw).toBe(-300);
    // The beneficiary is told by e-mail.
    const inbox = readLocalInbox(path.join(h.dataDir, 'local-inbox.jsonl'));
    expect(inbox.some((m) => m.to === 'beneficiary@example.com' && m.subject.startsWith('Withdrawal paid'))).toBe(true);
    // One payout at the sandbox for it.
    expect(sb.payouts().filter((p) => p.reference_id === id)).toHaveLength(1);
  });

  test('a name that does not match needs acceptNameMismatch, and the refusal names both names', async () => {
    const cid = await approvedCampaign();
    await fund(cid, 10_000);
    const acc = await as('beneficiary', 'POST', '/payout-account', { kind: 'VPA', holderName: 'Mismatch Bina', vpa: 'bina.other@upi' });
    const id = (await request(cid, 5_000, { payoutAccountId: acc.body.data.id })).body.data.id;
    const r = await as('trustee', 'POST', `/withdrawal/${id}/approve`, {});
    expect(r.status).toBe(409);
    expect(r.body.msg).toContain('Rakesh Kumar Verma');
    expect(r.body.msg).toContain('Bina Beneficiary');
    expect(r.body).toMatchObject({ registeredName: 'Rakesh Kumar Verma', payeeName: 'Bina Beneficiary' });
    expect((await as('trustee', 'POST', `/withdrawal/${id}/approve`, { acceptNameMismatch: true })).status).toBe(200);
    const rejected = await as('trustee2', 'POST', `/withdrawal/${id}/reject`, { reason: 'Use your own account' });
    expect(rejected.body.data).toMatchObject({ status: 'REJECTED', reason: 'Use your own account' });
    expect((await as('trustee2', 'POST', `/withdrawal/${id}/reject`, { reason: '' })).status).toBe(400);
  });

  test('the same idempotency key never makes a second payout', async () => {
    const adapter = h.deps.payouts.adapter!;
    const fa = await adapter.fundAccount({ kind: 'VPA', name: 'Bina Beneficiary', vpa: 'beneficiary@upi' }, 'ref');
    const input = { fundAccountId: fa.fundAccountId, amount: 1_000, mode: 'UPI' as const, referenceId: 'key-test', key: 'key-test-1', narration: 'test' };
    const [a, b, c] = await Promise.all([adapter.createPayout(input), adapter.createPayout(input), adapter.createPayout(input)]);
    expect(new Set([a.id, b.id, c.id]).size).toBe(1);
    expect(sb.payouts().filter((p) => p.reference_id === 'key-test')).toHaveLength(1);
  });

  test('a payout that fails frees the money; retry pays with a new key; a PAYING one is never sent again', async () => {
    const cid = await approvedCampaign();
    await fund(cid, 10_000);
    const id = await requested(cid, 2_013);
    const failed = await approvedAndSettled(id);
    expect(failed).toMatchObject({ status: 'FAILED', failure: expect.stringContaining('rejected') });
    expect((await as('beneficiary', 'GET', `/campaign/${cid}/withdrawable`)).body.data.available).toBe(10_000);
    expect(await ledgerOf(id)).toHaveLength(0);
    // Retried with a new key (the sandbox fails ₹x.13 again: the failed payout stays final at the bank).
    const retried = await as('admin', 'POST', `/withdrawal/${id}/retry`);
    expect(retried.status).toBe(200);
    expect(retried.body.data.status).toBe('PAYING');
    expect((await as('admin', 'POST', `/withdrawal/${id}/retry`)).status).toBe(409);
    await sb.idle();
    const keys = sb.payouts().filter((p) => p.reference_id === id).map((p) => p.notes.payout_key);
    expect(keys).toEqual([`${id}-1`, `${id}-2`]);
  });

  test('the webhook: a bad signature is refused (401); a good one applies once however often it comes; a reversal after PAID posts PAYOUT_REVERSAL', async () => {
    const cid = await approvedCampaign();
    await fund(cid, 10_000);
    const id = await requested(cid, 4_000);
    const paid = await approvedAndSettled(id);
    expect(paid.status).toBe('PAID');
    const bad = await h.request('POST', '/webhook/razorpayx', { rawBody: '{"event":"payout.reversed"}', headers: { 'content-type': 'application/json', 'x-razorpay-signature': 'f'.repeat(64) } });
    expect(bad.status).toBe(401);
    expect(bad.body.msg).toBe('Invalid signature');
    // Redelivered: nothing changes twice.
    expect(await sb.redeliver(paid.payoutId)).toBe(200);
    expect(await ledgerOf(id)).toHaveLength(2);
    // The bank returns it.
    sb.change(paid.payoutId, 'reversed');
    await sb.idle();
    expect(await sb.redeliver(paid.payoutId)).toBe(200);
    const w = (await as('admin', 'GET', `/withdrawal/${id}`)).body.data;
    expect(w).toMatchObject({ status: 'FAILED' });
    expect((await ledgerOf(id)).map((l) => l.kind).sort()).toEqual(['PAYOUT', 'PAYOUT', 'PAYOUT_REVERSAL', 'PAYOUT_REVERSAL']);
    expect((await as('beneficiary', 'GET', `/campaign/${cid}/withdrawable`)).body.data).toMatchObject({ domestic: 10_000, available: 10_000, updateRequired: false });
    // A signed delivery about a payout we do not know is acknowledged and ignored.
    const body = JSON.stringify({ event: 'payout.processed', payload: { payout: { entity: { id: 'pout_unknown', amount: 100, status: 'processed' } } } });
    const unknown = await h.request('POST', '/webhook/razorpayx', { rawBody: body, headers: { 'content-type': 'application/json', 'x-razorpay-signature': hmacSha256Hex(sb.credentials.webhookSecret, body) } });
    expect(unknown.status).toBe(200);
  });

  test('after a PAID withdrawal the next waits for an update saying what it bought', async () => {
    const cid = await approvedCampaign();
    await fund(cid, 10_000);
    expect((await approvedAndSettled(await requested(cid, 1_000))).status).toBe('PAID');
    expect((await as('beneficiary', 'GET', `/campaign/${cid}/withdrawable`)).body.data.updateRequired).toBe(true);
    const refused = await request(cid, 1_000);
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toBe(MSG.withdrawalUpdateRequired);
    expect((await as('beneficiary', 'POST', `/campaign/${cid}/updates`, { text: { en: '<p>Bought the books</p>' } })).status).toBe(201);
    expect((await request(cid, 1_000)).status).toBe(201);
  });

  test('foreign contributions pay only the campaign\'s own need: the beneficiary or a supplier its need names', async () => {
    const cid = await approvedCampaign();
    await fund(cid, 1_000);
    await fund(cid, 5_000, true);
    const other = await as('admin', 'POST', `/campaign/${cid}/payees`, { kind: 'VPA', holderName: 'Another Shop', vpa: 'another@upi', supplierName: 'Another Shop' });
    const refused = await request(cid, 2_000, { payoutAccountId: other.body.data.id }, 'admin');
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toBe(MSG.withdrawalForeignRefused);
    // Domestic money alone may go to any payee.
    expect((await request(cid, 1_000, { payoutAccountId: other.body.data.id }, 'admin')).status).toBe(201);
    const named = await as('admin', 'POST', `/campaign/${cid}/payees`, { kind: 'VPA', holderName: 'Saraswati Book Depot', vpa: 'saraswati@upi', supplierName: 'saraswati book depot' });
    const ok = await request(cid, 2_000, { payoutAccountId: named.body.data.id }, 'admin');
    expect(ok.status).toBe(201);
    expect(ok.body.data).toMatchObject({ fromDomestic: 0, fromForeign: 2_000 });
    const own = await request(cid, 3_000);
    expect(own.body.data).toMatchObject({ fromDomestic: 0, fromForeign: 3_000 });
  });

  test('the queue: requested, approved, paying and failed ones, overdue first, then by due time', async () => {
    const cid = await approvedCampaign();
    await fund(cid, 10_000);
    const a = await requested(cid, 1_000);
    const b = await requested(cid, 1_000);
    await h.deps.db.update(withdrawal).set({ dueAt: Date.now() - 1000 }).where(eq(withdrawal.id, b));
    const q = await as('trustee', 'GET', '/withdrawal/queue');
    const ids = q.body.data.map((w: { id: string }) => w.id);
    expect(ids.indexOf(b)).toBeLessThan(ids.indexOf(a));
    expect(q.body.data.find((w: { id: string }) => w.id === b).overdue).toBe(true);
    expect((await as('learner', 'GET', '/withdrawal/queue')).status).toBe(403);
    expect((await as('beneficiary', 'GET', '/withdrawal/mine')).body.data.map((w: { id: string }) => w.id)).toEqual(expect.arrayContaining([a, b]));
    expect((await as('learner', 'GET', `/withdrawal/${a}`)).status).toBe(404);
    expect((await first(h.deps.db.select().from(withdrawal).where(eq(withdrawal.id, a))))?.status).toBe('REQUESTED');
  });
});

describe('a suspended beneficiary', () => {
  test("their campaign's money stays: no request and no approval until the suspension is lifted (docs/charity.md \"Moderation\")", async () => {
    const cid = await approvedCampaign();
    await fund(cid, 10_000);
    const id = await requested(cid, 1_000);
    const payee = await as('admin', 'POST', `/campaign/${cid}/payees`, { kind: 'VPA', holderName: 'Saraswati Book Depot', vpa: 'depot@upi', supplierName: 'Saraswati Book Depot' });
    expect((await as('admin', 'PUT', '/Person', { id: 'demo-beneficiary', s: 'BLOCKED' })).status).toBe(200);
    try {
      const approve = await as('trustee', 'POST', `/withdrawal/${id}/approve`, {});
      expect(approve.status).toBe(409);
      expect(approve.body.msg).toBe(MSG.campaignBeneficiarySuspended);
      const byStaff = await request(cid, 1_000, { payoutAccountId: payee.body.data.id }, 'admin');
      expect(byStaff.status).toBe(409);
      expect(byStaff.body.msg).toBe(MSG.campaignBeneficiarySuspended);
      expect((await first(h.deps.db.select().from(withdrawal).where(eq(withdrawal.id, id))))?.status).toBe('REQUESTED');
    } finally {
      expect((await as('admin', 'PUT', '/Person', { id: 'demo-beneficiary', s: 'ACTIVE' })).status).toBe(200);
      tokens.beneficiary = await h.tokenOf('beneficiary');
    }
    expect((await as('trustee', 'POST', `/withdrawal/${id}/approve`, {})).status).toBe(200);
    expect((await request(cid, 1_000, { payoutAccountId: payee.body.data.id }, 'admin')).status).toBe(201);
  });
});
