import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { splitDonation, splitForeignDonation } from '@pm/protocol/donation';
import { donation, ledgerEntry, purchaseOrder, trust } from '../../db/schema';
import { first } from '../../db/transaction';
import { ACCOUNTS, balances, unbalanced } from '../../lib/ledger';
import { type Harness, startHarness } from '../../test/harness';
import { type SandboxControl, sandboxControl } from '../payments/providers/sandbox-phonepe';
import { campaignTotals } from '../campaigns/campaign-totals';

/*
 * Foreign contributions (docs/charity.md "Foreign contributions") through the real app and the
 * PhonePe sandbox: a donor without an Indian passport gives to a trust registered for them; the
 * money goes to the campaign's and the trust's foreign-contribution accounts, the trust's share
 * capped; a refund takes it back out of them; the export and the summary for staff; the refusals.
 * The ledger is balanced after every flow.
 */

let h: Harness;
let sb: SandboxControl;
let admin: string;
let learner: string;
const CAMPAIGN = 'demo-campaign-1';
const TRUST = 'demo-trust';

beforeAll(async () => {
  h = await startHarness();
  sb = sandboxControl(h.deps.payments.sandbox);
  admin = await h.tokenOf('admin');
  learner = await h.tokenOf('learner');
  await h.deps.db.update(trust).set({ fcraRegistered: true }).where(eq(trust.id, TRUST));
});
afterAll(async () => {
  await sb.idle();
  h.destroy();
});

const balanced = async () => expect(await unbalanced(h.deps.db)).toEqual({ groups: [], total: 0 });
const foreigner = { name: 'Emily Clark', email: 'emily@example.com', mobile: '9812345670', indianPassport: false, country: 'gb', address: '10 High Street, Leeds' };
const start = (body: Record<string, unknown>) => h.request('POST', '/donation', { body: { campaignId: CAMPAIGN, amount: 100, ...foreigner, ...body } });
const orders = async () => (await h.deps.db.select().from(purchaseOrder)).length;
const setCap = (fcShareCapBps: number) => h.deps.db.update(trust).set({ fcShareCapBps }).where(eq(trust.id, TRUST));

async function paidForeign(rupees: number, extra: Record<string, unknown> = {}) {
  const r = await start({ amount: rupees, ...extra });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  await h.request('POST', `/donation/${r.body.id}/pay`, { body: { token: r.body.token } });
  await sb.complete(r.body.id, 'PAY');
  await h.deps.webhooks.drain();
  return { id: r.body.id as string, token: r.body.token as string, split: r.body.split };
}

const legsOf = async (orderId: string) => (await h.deps.db.select().from(ledgerEntry).where(eq(ledgerEntry.orderId, orderId))).map((l) => [l.kind, l.account, l.amount]).sort();

describe('a foreign contribution', () => {
  test('its legs are in the foreign-contribution accounts, the campaign totals and public ledger count it, and the country is kept', async () => {
    const before = (await campaignTotals(h.deps.db, [CAMPAIGN])).get(CAMPAIGN)!;
    const domesticBefore = await balances(h.deps.db, [ACCOUNTS.campaign(CAMPAIGN), ACCOUNTS.trustShare(TRUST), ACCOUNTS.trustRunning(TRUST)]);
    const { id, token, split } = await paidForeign(100);
    // The trust's 6 % is below the 20 % cap: the share is 6 %.
    expect(split).toEqual({ amount: 10000, share: 600, toCampaign: 9400, shareBps: 600 });
    expect(await legsOf(id)).toEqual(
      [
        ['DONATION', ACCOUNTS.gateway, 10000],
        ['DONATION', ACCOUNTS.campaignForeign(CAMPAIGN), -9400],
        ['DONATION', ACCOUNTS.trustForeignShare(TRUST), -600],
        ['SHARE_SPLIT', ACCOUNTS.trustForeignShare(TRUST), 600],
        ['SHARE_SPLIT', ACCOUNTS.trustForeignRunning(TRUST), -600],
      ].sort(),
    );
    // No domestic account moved.
    expect(await balances(h.deps.db, [ACCOUNTS.campaign(CAMPAIGN), ACCOUNTS.trustShare(TRUST), ACCOUNTS.trustRunning(TRUST)])).toEqual(domesticBefore);
    await balanced();
    expect((await campaignTotals(h.deps.db, [CAMPAIGN])).get(CAMPAIGN)).toEqual({ raised: before.raised + 10000, donors: before.donors + 1 });

    const page = await h.request('GET', `/campaigns/${CAMPAIGN}`);
    expect(page.body.data.ledger[0]).toMatchObject({ kind: 'DONATION', gross: 10000, share: 600, net: 9400, donor: 'Emily Clark', foreign: true });
    expect(page.body.data.raised).toBe(before.raised + 10000);

    const status = await h.request('GET', `/donation/${id}?t=${token}`);
    expect(status.body.data).toMatchObject({ status: 'PAID', foreign: true, country: 'GB', share: 600, toCampaign: 9400 });
    expect((await first(h.deps.db.select().from(donation).where(eq(donation.orderId, id))))!.country).toBe('GB');
  });

  test('the beneficiary\'s collected money counts it', async () => {
    const login = async () => (await h.request('POST', '/UserLogin/login', { headers: { authorization: `Basic ${Buffer.from('9000000004:beneficiary1234').toString('base64')}` } })).body;
    const before = await login();
    await paidForeign(50);
    const after = await login();
    expect(after.tac).toBeCloseTo(before.tac + 47, 2);
    expect(after.aw).toBeCloseTo(before.aw + 47, 2);
    await balanced();
  });

  test('the trust\'s share is capped: min(shareBps, fcShareCapBps), shown in the quote, and a domestic donor\'s split is unchanged', async () => {
    await setCap(250);
    try {
      const q = await h.request('GET', `/donation/quote?campaignId=${CAMPAIGN}&amount=101&indianPassport=false`);
      expect(q.status).toBe(200);
      expect(q.body.data).toEqual({ ...splitForeignDonation(10100, 600, 250), foreign: true, trust: expect.objectContaining({ fcraRegistered: true, fcShareCapBps: 250 }) });
      // 2.5 % of ₹101 is 252.5 paise: rounded down, never above the cap.
      expect(q.body.data).toMatchObject({ share: 252, toCampaign: 9848, shareBps: 250 });
      const domestic = await h.request('GET', `/donation/quote?campaignId=${CAMPAIGN}&amount=101`);
      expect(domestic.body.data).toMatchObject({ ...splitDonation(10100, 600), shareBps: 600, foreign: false });
      expect((await h.request('GET', `/donation/quote?campaignId=${CAMPAIGN}&amount=101&indianPassport=true`)).body.data.share).toBe(606);

      const { id } = await paidForeign(101);
      expect(await legsOf(id)).toContainEqual(['DONATION', ACCOUNTS.trustForeignShare(TRUST), -252]);
      const d = (await first(h.deps.db.select().from(donation).where(eq(donation.orderId, id))))!;
      expect(d).toMatchObject({ shareBps: 250, share: 252, toCampaign: 9848 });
      await balanced();
    } finally {
      await setCap(2000);
    }
  });

  test('a refund takes it back out of the foreign-contribution accounts', async () => {
    const { id } = await paidForeign(40);
    const refunded = await h.request('PATCH', '/order/status', { token: admin, body: { id, status: 'REFUNDED' } });
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);
    const refund = (await h.deps.db.select().from(ledgerEntry).where(eq(ledgerEntry.orderId, id))).filter((l) => l.kind === 'REFUND');
    expect(refund.map((l) => [l.account, l.amount]).sort()).toEqual(
      [
        [ACCOUNTS.gateway, -4000],
        [ACCOUNTS.campaignForeign(CAMPAIGN), 3760],
        [ACCOUNTS.trustForeignShare(TRUST), 0],
        [ACCOUNTS.trustForeignRunning(TRUST), 240],
      ]
        .filter(([, a]) => a !== 0)
        .sort(),
    );
    const page = await h.request('GET', `/campaigns/${CAMPAIGN}`);
    expect(page.body.data.ledger.find((l: { kind: string }) => l.kind === 'REFUND')).toMatchObject({ gross: -4000, share: -240, net: -3760, foreign: true });
    await balanced();
  });
});

describe('refused', () => {
  test.each([
    [{ country: undefined }, 'country is required for a donor without an Indian passport'],
    [{ country: '' }, 'country must be a two-letter ISO 3166 country code'],
    [{ country: 'XX' }, 'country must be a two-letter ISO 3166 country code'],
    [{ country: 'United Kingdom' }, 'country must be a two-letter ISO 3166 country code'],
    [{ country: 'in' }, 'country cannot be IN for a donor without an Indian passport'],
  ])('%j: 400 naming the field, nothing written', async (bad, msg) => {
    const before = await orders();
    const r = await start(bad);
    expect(r.status).toBe(400);
    expect(r.body.msg).toContain(msg);
    expect(await orders()).toBe(before);
  });

  test('a trust not registered for foreign contributions takes none (403); a donor with an Indian passport needs no country and keeps none', async () => {
    await h.deps.db.update(trust).set({ fcraRegistered: false }).where(eq(trust.id, TRUST));
    try {
      const before = await orders();
      const r = await start({});
      expect(r.status).toBe(403);
      expect(await orders()).toBe(before);
    } finally {
      await h.deps.db.update(trust).set({ fcraRegistered: true }).where(eq(trust.id, TRUST));
    }
    const domestic = await start({ indianPassport: true, country: 'US' });
    expect(domestic.status).toBe(201);
    expect((await first(h.deps.db.select().from(donation).where(eq(donation.orderId, domestic.body.id))))!.country).toBeNull();
  });

  test('the cap is a trust setting from 0 to 2,000 basis points, 2,000 by default, changed by MANAGE_TRUST only', async () => {
    const t = (await h.request('GET', '/trust', { token: admin })).body.data.find((x: { id: string }) => x.id === TRUST);
    expect(t.fcShareCapBps).toBe(2000);
    const { id: _id, createdAt: _c, updatedAt: _u, ...settings } = t;
    for (const bad of [2001, -1, 12.5]) {
      const r = await h.request('PUT', `/trust/${TRUST}`, { token: admin, body: { ...settings, fcShareCapBps: bad } });
      expect(r.status).toBe(400);
      expect(r.body.msg).toContain(bad === 12.5 ? 'fcShareCapBps must be a whole number' : 'fcShareCapBps must be a whole number from 0 to 2000');
    }
    const ok = await h.request('PUT', `/trust/${TRUST}`, { token: admin, body: { ...settings, fcShareCapBps: 1500 } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data.fcShareCapBps).toBe(1500);
    expect((await h.request('PUT', `/trust/${TRUST}`, { token: learner, body: { ...settings, fcShareCapBps: 0 } })).status).toBe(403);
    await h.request('PUT', `/trust/${TRUST}`, { token: admin, body: { ...settings, fcShareCapBps: 2000 } });
  });
});

describe('for staff', () => {
  test('the foreign export lists the year\'s paid foreign contributions; the Form 10BD export leaves them out', async () => {
    const { id } = await paidForeign(123, { name: 'Jean, Dupont', country: 'FR', address: '3 rue de la Paix, Paris' });
    const d = (await first(h.deps.db.select().from(donation).where(eq(donation.orderId, id))))!;
    const fy = d.financialYear!;
    const csv = await h.request('GET', `/donation/export?fy=${fy}&foreign=1`, { token: admin });
    expect(csv.status).toBe(200);
    const lines = (csv.body as string).trim().split('\n');
    expect(lines[0]).toBe('Receipt number,Date,Name of donor,Address of donor,Country,Amount (Indian rupees),Campaign,Purpose');
    const day = new Date(d.paidAt! + 5.5 * 3600_000).toISOString().slice(0, 10);
    expect(lines).toContain(`${d.receiptNo},${day},"Jean, Dupont","3 rue de la Paix, Paris",FR,123.00,Books and board fees for Class 12 science (${CAMPAIGN}),EDUCATION`);
    // Only the paid foreign contributions in it (a refunded one is not); none of them in Form 10BD's.
    const foreignRows = await h.deps.db.select({ d: donation, status: purchaseOrder.status }).from(donation).innerJoin(purchaseOrder, eq(purchaseOrder.id, donation.orderId)).where(eq(donation.indianPassport, false));
    const paidForeignReceipts = foreignRows.filter((r) => r.status === 'PAID' && r.d.financialYear === fy).map((r) => r.d.receiptNo!);
    expect(lines).toHaveLength(1 + paidForeignReceipts.length);
    const domestic = (await h.request('GET', `/donation/export?fy=${fy}`, { token: admin })).body as string;
    for (const no of paidForeignReceipts) expect(domestic).not.toContain(`,${no},`);
    expect(domestic).not.toContain('Dupont');
    expect((await h.request('GET', `/donation/export?fy=${fy}&foreign=1`, { token: learner })).status).toBe(403);
    expect((await h.request('GET', `/donation/export?fy=${fy}&foreign=maybe`, { token: admin })).status).toBe(400);
  });

  test('the foreign summary: per trust, what the year received, the share kept, the cap and whether it is within it', async () => {
    const { id } = await paidForeign(10);
    const fy = (await first(h.deps.db.select().from(donation).where(eq(donation.orderId, id))))!.financialYear!;
    const r = await h.request('GET', `/donation/foreign-summary?fy=${fy}`, { token: admin });
    expect(r.status).toBe(200);
    const row = r.body.data.find((x: { trust: { id: string } }) => x.trust.id === TRUST);
    // The sums of the ledger's legs of the year's foreign donations.
    const foreignOrders = (await h.deps.db.select().from(donation).where(eq(donation.indianPassport, false))).filter((d) => d.financialYear === fy).map((d) => d.orderId);
    const legs = (await h.deps.db.select().from(ledgerEntry)).filter((l) => foreignOrders.includes(l.orderId) && ['DONATION', 'SHARE_SPLIT', 'REFUND'].includes(l.kind));
    const received = legs.filter((l) => l.account === ACCOUNTS.gateway).reduce((a, l) => a + l.amount, 0);
    const shareKept = -legs.filter((l) => l.account === ACCOUNTS.trustForeignShare(TRUST) || l.account === ACCOUNTS.trustForeignRunning(TRUST)).reduce((a, l) => a + l.amount, 0);
    expect(row).toMatchObject({ received, shareKept, capBps: 2000, withinCap: true, trust: { code: 'PMT', fcraRegistered: true } });
    expect(received).toBeGreaterThan(0);
    expect(shareKept).toBeGreaterThan(0);
    // A cap lowered below what was kept says so.
    await setCap(100);
    try {
      const low = (await h.request('GET', `/donation/foreign-summary?fy=${fy}`, { token: admin })).body.data.find((x: { trust: { id: string } }) => x.trust.id === TRUST);
      expect(low).toMatchObject({ capBps: 100, withinCap: false });
    } finally {
      await setCap(2000);
    }
    expect((await h.request('GET', `/donation/foreign-summary?fy=${fy}`, { token: learner })).status).toBe(403);
    expect((await h.request('GET', '/donation/foreign-summary?fy=26', { token: admin })).body.msg).toContain('fy must be a financial year');
    await balanced();
  });
});
