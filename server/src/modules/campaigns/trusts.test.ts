import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { activityLog, donation, purchaseOrder, trust } from '../../db/schema';
import { type Harness, startHarness } from '../../test/harness';

/* Trust settings (docs/charity.md "Trusts"): only MANAGE_TRUST, checked fields, the receipt code fixed once used. */

let h: Harness;
let admin: string;
let trustee: string;
beforeAll(async () => {
  h = await startHarness();
  admin = await h.tokenOf('admin');
  trustee = await h.tokenOf('trustee');
});
afterAll(() => h.destroy());

const valid = { code: 'SVT', name: { en: 'Seva Vidya Trust', hi: 'सेवा विद्या ट्रस्ट' }, address: '2 Station Road, Patna', registrationNo: 'BR/2019/77', pan: 'AAATS1234Q', approval80g: 'AAATS1234QF20211', fcraRegistered: true, shareBps: 500 };

describe('trusts', () => {
  test('an administrator sets one up and changes it; each step is in the activity log with old and new values', async () => {
    const made = await h.request('POST', '/trust', { token: admin, body: valid });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({ msg: 'Trust saved', data: { code: 'SVT', shareBps: 500, fcraRegistered: true } });
    const id = made.body.data.id as string;
    const changed = await h.request('PUT', `/trust/${id}`, { token: admin, body: { ...valid, shareBps: 650 } });
    expect(changed.body.data.shareBps).toBe(650);
    const log = await h.deps.db.select().from(activityLog).where(eq(activityLog.entityId, id));
    expect(log.map((l) => l.actionType).sort()).toEqual(['CREATE', 'UPDATE']);
    expect(log.find((l) => l.actionType === 'UPDATE')).toMatchObject({ oldValue: expect.objectContaining({ shareBps: 500 }), newValue: expect.objectContaining({ shareBps: 650 }) });
    expect((await h.request('GET', '/trust', { token: admin })).body.data.map((t: { code: string }) => t.code)).toContain('SVT');
  });

  test.each([
    [{ shareBps: 1001 }, 'shareBps must be a whole number from 0 to 1000 (the share may never be above 10 percent)'],
    [{ shareBps: 6.5 }, 'shareBps must be a whole number'],
    [{ pan: 'AAAT1234Q' }, 'pan must be 5 letters, 4 digits and a letter'],
    [{ code: 'svt' }, 'code must be 2 to 10 capital letters or digits'],
  ])('%j is refused, naming the field, and nothing is written', async (bad, msg) => {
    const before = (await h.deps.db.select().from(trust)).length;
    const r = await h.request('POST', '/trust', { token: admin, body: { ...valid, code: 'NEW1', ...bad } });
    expect(r.status).toBe(400);
    expect(r.body.msg).toContain(msg);
    expect((await h.deps.db.select().from(trust)).length).toBe(before);
  });

  test('a code is one trust\'s, and fixed once a receipt carries it; a trustee may not change settings', async () => {
    expect((await h.request('POST', '/trust', { token: admin, body: { ...valid, code: 'PMT' } })).status).toBe(409);
    const now = Date.now();
    await h.deps.db.insert(purchaseOrder).values({ id: 'o-receipted', kind: 'DONATION', amount: 100, status: 'PAID', expiresAt: now, createdAt: now, updatedAt: now });
    await h.deps.db.insert(donation).values({ orderId: 'o-receipted', campaignId: 'demo-campaign-1', trustId: 'demo-trust', name: 'A', email: 'a@example.com', mobile: '9000000009', indianPassport: true, shareBps: 600, share: 6, toCampaign: 94, receiptNo: 'PMT/2026-27/999', createdAt: now });
    const demo = (await h.request('GET', '/trust', { token: admin })).body.data.find((t: { id: string }) => t.id === 'demo-trust');
    const rename = await h.request('PUT', '/trust/demo-trust', { token: admin, body: { ...valid, code: 'PMT2', pan: demo.pan } });
    expect(rename.status).toBe(409);
    expect(rename.body.msg).toBe('code cannot change once the trust has given receipts');
    // The same settings with the code kept are taken.
    expect((await h.request('PUT', '/trust/demo-trust', { token: admin, body: { ...valid, code: 'PMT', pan: demo.pan } })).status).toBe(200);
    expect((await h.request('PUT', '/trust/demo-trust', { token: trustee, body: valid })).status).toBe(403);
    expect((await h.request('PUT', '/trust/nope', { token: admin, body: { ...valid, code: 'ZZ' } })).status).toBe(404);
  });
});
