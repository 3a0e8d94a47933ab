import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { splitDonation } from '@pm/protocol/donation';
import { campaign, donation, ledgerEntry, purchaseOrder, trust } from '../../db/schema';
import { first } from '../../db/transaction';
import { ACCOUNTS, unbalanced } from '../../lib/ledger';
import { readLocalInbox } from '../../lib/outbox';
import { type Harness, startHarness } from '../../test/harness';
import { type SandboxControl, sandboxControl } from '../payments/providers/sandbox-phonepe';
import { campaignTotals } from '../campaigns/campaign-totals';

/*
 * Donations through the real app, the order machine and the PhonePe sandbox (nothing of ours is
 * mocked): the split before paying, the refusals that write nothing, a guest's and a signed-in
 * donor's way, the ledger's movements (balanced after every flow), the receipt numbered per
 * trust and financial year and e-mailed, a double debit, a refund, 50 donations at once, the
 * Form 10BD export (docs/charity.md).
 */

let h: Harness;
let sb: SandboxControl;
let learner: string;
let admin: string;
const CAMPAIGN = 'demo-campaign-1';

beforeAll(async () => {
  h = await startHarness();
  sb = sandboxControl(h.deps.payments.sandbox);
  learner = await h.tokenOf('learner');
  admin = await h.tokenOf('admin');
});
afterAll(async () => {
  await sb.idle();
  h.destroy();
});

const settled = () => h.deps.webhooks.drain();
const giver = { name: 'Asha Devi', email: 'asha@example.com', mobile: '9812345678', indianPassport: true };
const start = (body: Record<string, unknown>, token?: string) => h.request('POST', '/donation', { body: { campaignId: CAMPAIGN, amount: 101, ...giver, ...body }, ...(token ? { token } : {}) });
const orders = async () => (await h.deps.db.select().from(purchaseOrder)).length;
const balanced = async () => expect(await unbalanced(h.deps.db)).toEqual({ groups: [], total: 0 });

/** A guest's donation paid through the sandbox: the order id and its token. */
async function paidDonation(rupees: number, extra: Record<string, unknown> = {}, token?: string) {
  const r = await start({ amount: rupees, ...extra }, token);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  const pay = await h.request('POST', `/donation/${r.body.id}/pay`, { body: { token: r.body.token }, ...(token ? { token } : {}) });
  expect(pay.status, JSON.stringify(pay.body)).toBe(200);
  await sb.complete(r.body.id, 'PAY');
  await settled();
  return { id: r.body.id as string, token: r.body.token as string };
}

describe('before paying', () => {
  test('the quote is the split to the paisa: ₹101 at 6 % is ₹6.06 to the trust and ₹94.94 to the campaign', async () => {
    const q = await h.request('GET', `/donation/quote?campaignId=${CAMPAIGN}&amount=101`);
    expect(q.status).toBe(200);
    expect(q.body.data).toMatchObject({ amount: 10100, share: 606, toCampaign: 9494, shareBps: 600, trust: { fcraRegistered: false } });
    // Half a paisa rounds up, once; the campaign gets the exact rest.
    expect(splitDonation(25, 600)).toEqual({ amount: 25, share: 2, toCampaign: 23 });
    expect(splitDonation(100, 600)).toEqual({ amount: 100, share: 6, toCampaign: 94 });
  });

  test.each([
    [{ amount: 0 }, 'Amount cannot be less than 1'],
    [{ amount: 0.99 }, 'Amount cannot be less than 1'],
    [{ amount: 'abc' }, 'Invalid amount!!!'],
    [{ amount: '1e2' }, 'Invalid amount!!!'],
    [{ amount: 100_001 }, 'Invalid amount!!!'],
    [{ pan: 'ABCDE12345' }, 'PAN must be 5 letters, 4 digits and a letter (for example ABCDE1234F)'],
    [{ email: 'not-an-email' }, 'Please provide a valid email'],
    [{ mobile: '12345' }, 'Please provide a valid 10 digit mobile number'],
    [{ indianPassport: 'yes' }, 'indianPassport must be true or false'],
    [{ indianPassport: undefined }, 'indianPassport is required: say whether you hold an Indian passport'],
  ])('%j is refused with its message (the spec\'s own where it gives one) and nothing written', async (bad, msg) => {
    const before = await orders();
    const r = await start(bad);
    expect(r.status).toBe(400);
    expect(r.body.msg).toContain(msg);
    expect(await orders()).toBe(before);
  });

  test('a donor without an Indian passport is refused before any payment when the trust is not registered for foreign contributions', async () => {
    const before = await orders();
    const r = await start({ indianPassport: false, country: 'US' });
    expect(r.status).toBe(403);
    expect(r.body.msg).toBe('This trust is not registered to accept foreign contributions: a donor without an Indian passport cannot give to it');
    expect(await orders()).toBe(before);
    // A trust that is registered takes them.
    await h.deps.db.update(trust).set({ fcraRegistered: true }).where(eq(trust.id, 'demo-trust'));
    try {
      expect((await start({ indianPassport: false, country: 'US' })).status).toBe(201);
    } finally {
      await h.deps.db.update(trust).set({ fcraRegistered: false }).where(eq(trust.id, 'demo-trust'));
    }
  });

  test('a paused, closed or ended campaign takes none (409); a draft is not found (404)', async () => {
    for (const [status, endsAt, code] of [
      ['PAUSED', Date.now() + 86_400_000, 409],
      ['CLOSED', Date.now() + 86_400_000, 409],
      ['APPROVED', Date.now() - 1000, 409],
      ['DRAFT', Date.now() + 86_400_000, 404],
    ] as const) {
      const saved = await first(h.deps.db.select().from(campaign).where(eq(campaign.id, CAMPAIGN)));
      await h.deps.db.update(campaign).set({ status, endsAt }).where(eq(campaign.id, CAMPAIGN));
      try {
        const before = await orders();
        const r = await start({});
        expect(r.status, status).toBe(code);
        if (code === 409) expect(r.body.msg).toBe('This campaign is not taking donations now');
        expect(await orders()).toBe(before);
      } finally {
        await h.deps.db.update(campaign).set({ status: saved!.status, endsAt: saved!.endsAt }).where(eq(campaign.id, CAMPAIGN));
      }
    }
  });
});

describe('a guest gives', () => {
  test('through the sandbox: PAID, the ledger moves the gift to the campaign and the share to the trust, the receipt is numbered and e-mailed', async () => {
    const totalsBefore = (await campaignTotals(h.deps.db, [CAMPAIGN])).get(CAMPAIGN)!;
    const { id, token } = await paidDonation(101, { pan: 'abcde1234f', address: '1 MG Road, Jaipur', anonymous: true });
    const status = await h.request('GET', `/donation/${id}?t=${token}`);
    expect(status.body).toMatchObject({ success: true, data: { status: 'PAID', amount: 10100, share: 606, toCampaign: 9494, anonymous: true } });
    expect(status.body.data.receiptNo).toMatch(/^PMT\/\d{4}-\d{2}\/\d+$/);

    const legs = (await h.deps.db.select().from(ledgerEntry).where(eq(ledgerEntry.orderId, id))).map((l) => [l.kind, l.account, l.amount]).sort();
    expect(legs).toEqual(
      [
        ['DONATION', ACCOUNTS.gateway, 10100],
        ['DONATION', ACCOUNTS.campaign(CAMPAIGN), -9494],
        ['DONATION', ACCOUNTS.trustShare('demo-trust'), -606],
        ['SHARE_SPLIT', ACCOUNTS.trustShare('demo-trust'), 606],
        ['SHARE_SPLIT', ACCOUNTS.trustRunning('demo-trust'), -606],
      ].sort(),
    );
    await balanced();
    expect((await campaignTotals(h.deps.db, [CAMPAIGN])).get(CAMPAIGN)).toEqual({ raised: totalsBefore.raised + 10100, donors: totalsBefore.donors + 1 });

    // The campaign's page shows it, anonymised as chosen, with its public ledger row.
    const page = await h.request('GET', `/campaigns/${CAMPAIGN}`);
    expect(page.body.data.recentDonations[0]).toMatchObject({ name: 'Anonymous', amount: 10100 });
    expect(page.body.data.ledger[0]).toMatchObject({ kind: 'DONATION', gross: 10100, share: 606, net: 9494, donor: 'Anonymous' });
    expect(JSON.stringify(page.body)).not.toContain('Asha');

    const receipt = await h.request('GET', `/donation/${id}/receipt?t=${token}`);
    expect(receipt.body.data).toMatchObject({
      receiptNo: status.body.data.receiptNo,
      trust: { pan: 'AAATP0000D', approval80g: 'DEMO80G20200001' },
      donor: { name: 'Asha Devi', pan: 'ABCDE1234F', address: '1 MG Road, Jaipur' },
      amount: 10100,
      amountInWords: { en: 'One Hundred One Rupees Only', hi: expect.stringContaining('रुपये') },
      sandbox: true,
    });
    const mail = readLocalInbox(path.join(h.dataDir, 'local-inbox.jsonl')).filter((m) => m.to === 'asha@example.com' && m.subject.includes(status.body.data.receiptNo));
    expect(mail).toHaveLength(1);
    expect(mail[0]!.body).toContain('No goods or services were given in return for this donation.');
    expect(mail[0]!.body).toContain(`/donations/${id}?t=${token}`);
  });

  test('a stranger, a wrong token or another signed-in person learns nothing of it (404)', async () => {
    const { id, token } = await paidDonation(5);
    for (const url of [`/donation/${id}`, `/donation/${id}?t=x${token.slice(1)}`, `/donation/${id}/receipt`]) {
      const r = await h.request('GET', url, { token: learner });
      expect(r.status, url).toBe(404);
      expect(r.body.msg).toBe('Donation not found');
    }
    expect((await h.request('POST', `/donation/${id}/pay`, { body: {} })).status).toBe(404);
  });

  test('the receipt waits for the payment (409)', async () => {
    const r = await start({ amount: 7 });
    const receipt = await h.request('GET', `/donation/${r.body.id}/receipt?t=${r.body.token}`);
    expect(receipt.status).toBe(409);
    expect(receipt.body.msg).toBe('This donation is not paid yet: its receipt comes once it is');
  });
});

describe('a signed-in donor', () => {
  test('sees their donations without a token, and only theirs', async () => {
    const { id } = await paidDonation(11, {}, learner);
    const mine = await h.request('GET', '/donation/mine', { token: learner });
    expect(mine.body.data.map((d: { orderId: string }) => d.orderId)).toContain(id);
    expect((await h.request('GET', `/donation/${id}`, { token: learner })).body.data.status).toBe('PAID');
    expect((await h.request('GET', '/donation/mine', { token: admin })).body.data.map((d: { orderId: string }) => d.orderId)).not.toContain(id);
  });
});

describe('the Person money figures', () => {
  test('the beneficiary\'s tac and aw and the donor\'s paid amount are the ledger\'s sums', async () => {
    const before = (await h.request('POST', '/UserLogin/login', { headers: { authorization: `Basic ${Buffer.from('9000000004:beneficiary1234').toString('base64')}` } })).body;
    const paidOf = async () => (await h.request('GET', '/Person', { token: learner })).body.data.paidAmount as number;
    const paidBefore = await paidOf();
    await paidDonation(50, {}, learner);
    const after = (await h.request('POST', '/UserLogin/login', { headers: { authorization: `Basic ${Buffer.from('9000000004:beneficiary1234').toString('base64')}` } })).body;
    const net = splitDonation(5000, 600).toCampaign / 100;
    expect(after.tac).toBeCloseTo(before.tac + net, 2);
    expect(after.aw).toBeCloseTo(before.aw + net, 2);
    expect(after.taw).toBe(0);
    expect(await paidOf()).toBeCloseTo(paidBefore + 50, 2);
  });
});

describe('money that goes wrong', () => {
  test('a double debit is owed back, not given to the campaign; a refund takes the gift back out', async () => {
    const r = await start({ amount: 21 });
    await h.request('POST', `/donation/${r.body.id}/pay`, { body: { token: r.body.token } });
    const before = (await campaignTotals(h.deps.db, [CAMPAIGN])).get(CAMPAIGN)!;
    await sb.complete(r.body.id, 'PAY', { captures: 2 });
    await settled();
    const after = (await campaignTotals(h.deps.db, [CAMPAIGN])).get(CAMPAIGN)!;
    expect(after).toEqual({ raised: before.raised + 2100, donors: before.donors + 1 });
    const owed = await h.deps.db.select().from(ledgerEntry).where(eq(ledgerEntry.account, ACCOUNTS.refundsDue));
    expect(owed.filter((l) => l.orderId === r.body.id).map((l) => l.amount)).toEqual([-2100]);
    await balanced();

    const refunded = await h.request('PATCH', '/order/status', { token: admin, body: { id: r.body.id, status: 'REFUNDED' } });
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);
    expect((await campaignTotals(h.deps.db, [CAMPAIGN])).get(CAMPAIGN)).toEqual(before);
    const page = await h.request('GET', `/campaigns/${CAMPAIGN}`);
    expect(page.body.data.ledger.find((l: { kind: string }) => l.kind === 'REFUND')).toMatchObject({ gross: -2100, share: -126, net: -1974 });
    await balanced();
  });

  test('50 donations to one campaign at once: each applied once, totals exact to the paisa, receipt numbers distinct and in sequence', async () => {
    const before = (await campaignTotals(h.deps.db, [CAMPAIGN])).get(CAMPAIGN)!;
    const started = await Promise.all(Array.from({ length: 50 }, (_, i) => start({ amount: 1 + i, email: `d${i}@example.com` })));
    expect(started.map((r) => r.status)).toEqual(Array(50).fill(201));
    await Promise.all(started.map((r) => h.request('POST', `/donation/${r.body.id}/pay`, { body: { token: r.body.token } })));
    await Promise.all(started.map((r) => sb.complete(r.body.id, 'PAY')));
    await settled();
    const gross = Array.from({ length: 50 }, (_, i) => (1 + i) * 100).reduce((a, b) => a + b, 0);
    expect((await campaignTotals(h.deps.db, [CAMPAIGN])).get(CAMPAIGN)).toEqual({ raised: before.raised + gross, donors: before.donors + 50 });
    const rows = await h.deps.db.select().from(donation);
    const ours = rows.filter((d) => started.some((r) => r.body.id === d.orderId));
    expect(new Set(ours.map((d) => d.receiptNo)).size).toBe(50);
    const seqs = rows.filter((d) => d.receiptSeq !== null && d.financialYear === ours[0]!.financialYear).map((d) => d.receiptSeq!).sort((a, b) => a - b);
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
    const campaignLegs = await h.deps.db.select().from(ledgerEntry).where(eq(ledgerEntry.account, ACCOUNTS.campaign(CAMPAIGN)));
    const expected = Array.from({ length: 50 }, (_, i) => splitDonation((1 + i) * 100, 600).toCampaign).reduce((a, b) => a + b, 0);
    expect(-campaignLegs.filter((l) => ours.some((d) => d.orderId === l.orderId)).reduce((a, l) => a + l.amount, 0)).toBe(expected);
    await balanced();
  });
});

describe('the earning report', () => {
  test('splits the money of the range by where it went, from the ledger, to the paisa', async () => {
    const range = `startDate=${Date.now() - 86_400_000}&endDate=${Date.now() + 86_400_000}&groupBy=day`;
    const before = (await h.request('GET', `/report/globalEarnings?${range}`, { token: admin })).body.data;
    await paidDonation(77);
    const after = (await h.request('GET', `/report/globalEarnings?${range}`, { token: admin })).body.data;
    const { share, toCampaign } = splitDonation(7700, 600);
    expect(after.byAccount.campaigns).toBeCloseTo(before.byAccount.campaigns + toCampaign / 100, 2);
    expect(after.byAccount.trustRunning).toBeCloseTo(before.byAccount.trustRunning + share / 100, 2);
    expect(after.byAccount.plans).toBe(before.byAccount.plans);
    expect(after.totals.collected).toBeCloseTo(before.totals.collected + 77, 2);
    // Every rupee received went somewhere: the classes add up to the gateway's net.
    const placed = Object.values(after.byAccount as Record<string, number>).reduce((a, b) => a + b, 0);
    expect(placed).toBeCloseTo(after.totals.collected - after.totals.refunded, 2);
  });
});

describe('the staff\'s list', () => {
  test('finds a donation by the donor\'s name or receipt number, pages, and is only for VIEW_REPORT', async () => {
    const { id } = await paidDonation(13, { name: 'Meera Listwala', email: 'meera@example.com' });
    const found = await h.request('GET', '/donation/list?q=Listwala', { token: admin });
    expect(found.status).toBe(200);
    expect(found.body.data).toEqual([expect.objectContaining({ orderId: id, name: 'Meera Listwala', email: 'meera@example.com', amount: 1300, status: 'PAID' })]);
    const receiptNo = found.body.data[0].receiptNo as string;
    expect((await h.request('GET', `/donation/list?q=${encodeURIComponent(receiptNo)}`, { token: admin })).body.data.map((d: { orderId: string }) => d.orderId)).toEqual([id]);
    const page = await h.request('GET', `/donation/list?campaignId=${CAMPAIGN}&size=2&page=1`, { token: admin });
    expect(page.body.data).toHaveLength(2);
    expect(page.body.total).toBeGreaterThan(2);
    expect((await h.request('GET', '/donation/list', { token: learner })).status).toBe(403);
    expect((await h.request('GET', '/donation/list?size=101', { token: admin })).status).toBe(400);
  });
});

describe('the Form 10BD export', () => {
  test('lists the year\'s paid donations in the form\'s column order; only for VIEW_REPORT', async () => {
    const { id } = await paidDonation(31, { pan: 'PQRST6789K', name: 'Ravi, Kumar' });
    const d = (await first(h.deps.db.select().from(donation).where(eq(donation.orderId, id))))!;
    const csv = await h.request('GET', `/donation/export?fy=${d.financialYear}`, { token: admin });
    expect(csv.status).toBe(200);
    const lines = (csv.body as string).trim().split('\n');
    expect(lines[0]).toBe(
      'ID Code,Unique Identification Number,Section Code,Unique Identification Number of the Donation,Name of donor,Address of donor,Donation Type,Mode of receipt,Amount of donation (Indian rupees)',
    );
    expect(lines).toContain(`PAN,PQRST6789K,Section 80G,${d.receiptNo},"Ravi, Kumar",,Specific grant,Electronic modes including account payee cheque/draft,31.00`);
    expect((await h.request('GET', `/donation/export?fy=${d.financialYear}`, { token: learner })).status).toBe(403);
    expect((await h.request('GET', '/donation/export?fy=2026', { token: admin })).body.msg).toContain('fy must be a financial year such as 2026-27');
  });
});
