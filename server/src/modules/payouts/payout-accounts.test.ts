import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { MSG } from '@pm/protocol/messages';
import { activityLog, payoutAccount } from '../../db/schema';
import { first } from '../../db/transaction';
import { unbalanced } from '../../lib/ledger';
import { DEMO, type Harness, startHarness } from '../../test/harness';
import { SANDBOX_OTHER_NAME } from './sandbox-razorpayx';

/*
 * Payout accounts through the real app and the RazorpayX sandbox (docs/charity.md "Payout
 * accounts"): verification (valid, invalid, a registered name that is not the person's), the
 * form's refusals, never the full number in an answer, the limit of five under fifty requests at
 * once, removal, and the supplier payees of a campaign.
 */

let h: Harness;
const tokens: Record<'beneficiary' | 'learner' | 'admin' | 'trustee' | 'editor', string> = { beneficiary: '', learner: '', admin: '', trustee: '', editor: '' };

beforeAll(async () => {
  h = await startHarness();
  for (const who of Object.keys(tokens) as (keyof typeof tokens)[]) tokens[who] = await h.tokenOf(who);
});
afterAll(() => h.destroy());
afterEach(async () => expect(await unbalanced(h.deps.db)).toEqual({ groups: [], total: 0 }));

const as = (who: keyof typeof tokens, method: string, url: string, body?: unknown) => h.request(method, url, { token: tokens[who], ...(body === undefined ? {} : { body }) });
const bank = (over: Record<string, unknown> = {}) => ({ kind: 'BANK', holderName: 'Lata Learner', ifsc: 'SBIN0001234', accountNumber: '123456789012', accountNumberConfirm: '123456789012', ...over });

describe('POST /api/payout-account', () => {
  test('a bank account in the person\'s own name is VERIFIED, its name matches, and the answer never holds the full number', async () => {
    const r = await as('learner', 'POST', '/payout-account', bank({ holderName: 'LATA LEARNER' }));
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({ success: true, msg: MSG.payoutAccountVerified });
    expect(r.body.data).toMatchObject({ kind: 'BANK', ifsc: 'SBIN0001234', accountLast4: '9012', status: 'VERIFIED', verifiedName: 'LATA LEARNER', nameMatches: true, campaignId: null });
    expect(JSON.stringify(r.body)).not.toContain('123456789012');
    const mine = await as('learner', 'GET', '/payout-account/mine');
    expect(JSON.stringify(mine.body)).not.toContain('123456789012');
    expect(mine.body.data.map((a: { id: string }) => a.id)).toContain(r.body.data.id);
    const log = await h.deps.db.select().from(activityLog).where(eq(activityLog.entityId, r.body.data.id));
    // Both steps logged (compared as a set: no order without ORDER BY on PostgreSQL).
    expect(log.map((l) => l.actionType).sort()).toEqual(['CREATE', 'UPDATE']);
    await as('learner', 'DELETE', `/payout-account/${r.body.data.id}`);
  });

  test('an account the provider registers to someone else is VERIFIED with nameMatches false and both names shown', async () => {
    const r = await as('learner', 'POST', '/payout-account', { kind: 'VPA', holderName: 'Mismatch Lata', vpa: 'lata@okaxis' });
    expect(r.status).toBe(201);
    expect(r.body.data).toMatchObject({ kind: 'VPA', vpa: 'lata@okaxis', holderName: 'Mismatch Lata', status: 'VERIFIED', verifiedName: SANDBOX_OTHER_NAME, nameMatches: false });
    await as('learner', 'DELETE', `/payout-account/${r.body.data.id}`);
  });

  test('an invalid account (number ending 0000, UPI id starting invalid) is FAILED', async () => {
    const a = await as('learner', 'POST', '/payout-account', bank({ accountNumber: '12345670000', accountNumberConfirm: '12345670000' }));
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({ msg: MSG.payoutAccountNotVerified, data: { status: 'FAILED', verifiedName: null, nameMatches: null } });
    const v = await as('learner', 'POST', '/payout-account', { kind: 'VPA', holderName: 'Lata Learner', vpa: 'invalid.id@upi' });
    expect(v.body.data.status).toBe('FAILED');
    for (const id of [a.body.data.id, v.body.data.id]) expect((await as('learner', 'DELETE', `/payout-account/${id}`)).status).toBe(200);
  });

  test.each([
    [bank({ ifsc: 'SBIN1234567' }), MSG.payoutIfscFormat],
    [bank({ accountNumber: '12345678', accountNumberConfirm: '12345678' }), MSG.payoutAccountNumberFormat],
    [bank({ accountNumberConfirm: '123456789013' }), MSG.payoutAccountNumberConfirm],
    [{ kind: 'VPA', holderName: 'Lata', vpa: 'no-at-sign' }, MSG.payoutVpaFormat],
    [{ kind: 'CASH', holderName: 'Lata' }, MSG.payoutKind],
    [bank({ extra: 1 }), 'Unknown field: extra'],
    [bank({ holderName: '' }), `holderName ${MSG.fieldEmpty}`],
  ])('%j is refused (400) with its message and nothing is written', async (body, msg) => {
    const before = (await h.deps.db.select().from(payoutAccount)).length;
    const r = await as('learner', 'POST', '/payout-account', body);
    expect(r.status).toBe(400);
    expect(r.body.msg).toBe(msg);
    expect((await h.deps.db.select().from(payoutAccount)).length).toBe(before);
  });

  test('at most 5 accounts a person, also when 50 requests come at once', async () => {
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => as('editor', 'POST', '/payout-account', { kind: 'VPA', holderName: 'Eshan Editor', vpa: `eshan${i}@upi` })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(5);
    const refused = results.filter((r) => r.status !== 201);
    expect(refused.every((r) => r.status === 409 && r.body.msg === MSG.payoutAccountLimit)).toBe(true);
    const mine = await as('editor', 'GET', '/payout-account/mine');
    expect(mine.body.data).toHaveLength(5);
    // Removing one makes room for another.
    expect((await as('editor', 'DELETE', `/payout-account/${mine.body.data[0].id}`)).status).toBe(200);
    expect((await as('editor', 'POST', '/payout-account', { kind: 'VPA', holderName: 'Eshan Editor', vpa: 'eshan-again@upi' })).status).toBe(201);
  });

  test('an account is removed only by its owner (404 to anyone else)', async () => {
    const r = await as('learner', 'POST', '/payout-account', bank());
    expect((await as('beneficiary', 'DELETE', `/payout-account/${r.body.data.id}`)).status).toBe(404);
    expect((await as('learner', 'DELETE', `/payout-account/${r.body.data.id}`)).body).toMatchObject({ success: true, msg: MSG.payoutAccountRemoved });
    expect((await as('learner', 'DELETE', `/payout-account/${r.body.data.id}`)).status).toBe(404);
    expect((await first(h.deps.db.select().from(payoutAccount).where(eq(payoutAccount.id, r.body.data.id))))?.deletedAt).toBeGreaterThan(0);
  });

  test('the demo beneficiary has a verified UPI id', async () => {
    const mine = await as('beneficiary', 'GET', '/payout-account/mine');
    expect(mine.body.data).toEqual([expect.objectContaining({ id: 'demo-payout-vpa', kind: 'VPA', vpa: 'beneficiary@upi', status: 'VERIFIED', nameMatches: true })]);
    expect(DEMO.beneficiary.id).toBe('demo-beneficiary');
  });
});

describe('supplier payees of a campaign', () => {
  test('staff add one (its name compared with the supplier\'s); the owner, staff and trustees read them; others get 404', async () => {
    const r = await as('admin', 'POST', '/campaign/demo-campaign-1/payees', bank({ holderName: 'Saraswati Book Depot', supplierName: 'Saraswati Book Depot, Jaipur' }));
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.data).toMatchObject({ campaignId: 'demo-campaign-1', supplierName: 'Saraswati Book Depot, Jaipur', status: 'VERIFIED', nameMatches: false });
    for (const who of ['beneficiary', 'admin', 'trustee'] as const) {
      const list = await as(who, 'GET', '/campaign/demo-campaign-1/payees');
      expect(list.status, who).toBe(200);
      expect(list.body.data.map((a: { id: string }) => a.id)).toContain(r.body.data.id);
    }
    expect((await as('learner', 'GET', '/campaign/demo-campaign-1/payees')).status).toBe(404);
    // A payee is not the staff member's own account.
    expect((await as('admin', 'GET', '/payout-account/mine')).body.data.map((a: { id: string }) => a.id)).not.toContain(r.body.data.id);
    expect((await as('beneficiary', 'POST', '/campaign/demo-campaign-1/payees', bank({ supplierName: 'X' }))).status).toBe(403);
  });
});
