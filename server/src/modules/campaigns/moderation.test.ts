import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MSG } from '@pm/protocol/messages';
import { activityLog, campaign, ledgerEntry, payment, purchaseOrder } from '../../db/schema';
import { first } from '../../db/transaction';
import { ACCOUNTS, unbalanced } from '../../lib/ledger';
import { DEMO, type Harness, startHarness } from '../../test/harness';
import { type SandboxControl, sandboxControl } from '../payments/providers/sandbox-phonepe';
import { campaignTotals } from './campaign-totals';

/*
 * Moderation through the real app (docs/charity.md "Moderation"): a paused or closed campaign
 * takes no payment at once (also of a donation started before) and its page says why; a
 * suspended beneficiary cannot sign in, their sessions end, their campaign takes no donations,
 * and lifting the suspension undoes it; a double debit is paid back by staff, the ledger
 * reversing only what was owed.
 */

let h: Harness;
let sb: SandboxControl;
let admin: string;
let trustee: string;
const CAMPAIGN = 'demo-campaign-1';

beforeAll(async () => {
  h = await startHarness();
  sb = sandboxControl(h.deps.payments.sandbox);
  admin = await h.tokenOf('admin');
  trustee = await h.tokenOf('trustee');
});
afterAll(async () => {
  await sb.idle();
  await h.destroy();
});

const giver = { name: 'Asha Devi', email: 'asha@example.com', mobile: '9812345678', indianPassport: true };
const start = (amount = 101) => h.request('POST', '/donation', { body: { campaignId: CAMPAIGN, amount, ...giver } });
const pay = (id: string, token: string) => h.request('POST', `/donation/${id}/pay`, { body: { token } });
const page = async () => (await h.request('GET', `/campaigns/${CAMPAIGN}`)).body.data;
const balanced = async () => expect(await unbalanced(h.deps.db)).toEqual({ groups: [], total: 0 });

describe('pausing and closing', () => {
  test('a pause stops donations at once, also one started before it; the page gives the note as the reason; resuming takes them again', async () => {
    const before = await start();
    expect(before.status).toBe(201);
    expect(await page()).toMatchObject({ takingDonations: true, publicReason: null });

    const paused = await h.request('POST', `/campaign/${CAMPAIGN}/pause`, { token: trustee, body: { note: 'The fees are being checked with the school.' } });
    expect(paused.status).toBe(200);
    expect(await page()).toMatchObject({ status: 'PAUSED', takingDonations: false, publicReason: 'The fees are being checked with the school.' });

    // Started before the pause: not sent to the provider after it.
    const late = await pay(before.body.id, before.body.token);
    expect(late.status).toBe(409);
    expect(late.body.msg).toBe(MSG.donationCampaignClosed);
    const order = await first(h.deps.db.select().from(purchaseOrder).where(eq(purchaseOrder.id, before.body.id)));
    expect(order).toMatchObject({ status: 'CREATED', pgOrderId: null });
    expect((await start()).status).toBe(409);
    expect((await h.request('GET', `/donation/quote?campaignId=${CAMPAIGN}&amount=10`)).status).toBe(409);

    expect((await h.request('POST', `/campaign/${CAMPAIGN}/resume`, { token: trustee, body: {} })).status).toBe(200);
    expect(await page()).toMatchObject({ status: 'APPROVED', takingDonations: true, publicReason: null });
    expect((await pay(before.body.id, before.body.token)).status).toBe(200);
  });
});

describe('suspending a beneficiary', () => {
  test('cannot sign in, sessions end, their campaign takes no donations; lifting it undoes all', async () => {
    const own = await h.tokenOf('beneficiary');
    const suspend = await h.request('PUT', '/Person', { token: admin, body: { id: DEMO.beneficiary.id, s: 'BLOCKED' } });
    expect(suspend.status, JSON.stringify(suspend.body)).toBe(200);

    const login = await h.login(DEMO.beneficiary.username, DEMO.beneficiary.password);
    expect(login.status).toBe(403);
    expect(login.body.msg).toBe(MSG.accountInactive);
    expect((await h.request('GET', '/Person', { token: own })).status).toBe(401);

    const refused = await start();
    expect(refused.status).toBe(409);
    // The donor is told what any stopped campaign tells: nothing about the beneficiary's account.
    expect(refused.body.msg).toBe(MSG.donationCampaignClosed);
    expect(await page()).toMatchObject({ status: 'APPROVED', takingDonations: false });

    // Staff cannot request anything for them either: submitting a draft of theirs is refused.
    const draft = await h.request('POST', '/campaign', {
      token: admin,
      body: { title: { en: 'Fees for a term' }, story: { en: '<p>Fees</p>' }, cause: 'FEES', need: [{ what: { en: 'Fees' }, amount: 100_000 }], endsAt: Date.now() + 30 * 86_400_000 },
    });
    expect(draft.status).toBe(201);
    await h.deps.db.update(campaign).set({ beneficiaryId: DEMO.beneficiary.id }).where(eq(campaign.id, draft.body.data.id));
    const submit = await h.request('POST', `/campaign/${draft.body.data.id}/submit`, { token: admin, body: {} });
    expect(submit.status).toBe(409);
    expect(submit.body.msg).toBe(MSG.campaignBeneficiarySuspended);

    expect((await h.request('PUT', '/Person', { token: admin, body: { id: DEMO.beneficiary.id, s: 'ACTIVE' } })).status).toBe(200);
    expect((await h.request('POST', `/campaign/${draft.body.data.id}/submit`, { token: admin, body: {} })).status).toBe(200);
    expect((await h.login(DEMO.beneficiary.username, DEMO.beneficiary.password)).status).toBe(200);
    expect((await start()).status).toBe(201);
    expect(await page()).toMatchObject({ takingDonations: true });
  });
});

describe('paying back a double debit', () => {
  test('staff pay back what was owed; the donation and the campaign stay as they were; once only', async () => {
    const r = await start(21);
    expect((await pay(r.body.id, r.body.token)).status).toBe(200);
    await sb.complete(r.body.id, 'PAY', { captures: 2 });
    await h.deps.webhooks.drain();
    const totals = (await campaignTotals(h.deps.db, [CAMPAIGN])).get(CAMPAIGN)!;

    const listed = await h.request('GET', `/donation/list?q=asha`, { token: admin });
    expect(listed.body.data.find((d: { orderId: string }) => d.orderId === r.body.id)).toMatchObject({ status: 'PAID', refundDue: 2100 });

    // Reading the report is not enough: paying back needs UPDATE_ORDER.
    expect((await h.request('POST', `/donation/${r.body.id}/refund-due`, { token: trustee, body: {} })).status).toBe(403);
    const paid = await h.request('POST', `/donation/${r.body.id}/refund-due`, { token: admin, body: {} });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body).toMatchObject({ msg: MSG.donationRefundDuePaid, data: { orderId: r.body.id, paidBack: 2100 } });

    const owed = await h.deps.db.select().from(ledgerEntry).where(and(eq(ledgerEntry.orderId, r.body.id), eq(ledgerEntry.account, ACCOUNTS.refundsDue)));
    expect(owed.reduce((a, l) => a + l.amount, 0)).toBe(0);
    expect((await campaignTotals(h.deps.db, [CAMPAIGN])).get(CAMPAIGN)).toEqual(totals);
    const payments = await h.deps.db.select().from(payment).where(eq(payment.orderId, r.body.id));
    expect(payments.map((p) => [p.isCredit, p.flag, p.amount]).sort()).toEqual(
      [
        [true, null, 2100],
        [true, 'REFUNDED', 2100],
        [false, null, 2100],
      ].sort(),
    );
    const after = await h.request('GET', `/donation/list?q=asha`, { token: admin });
    expect(after.body.data.find((d: { orderId: string }) => d.orderId === r.body.id)).toMatchObject({ status: 'PAID', refundDue: 0 });
    const logged = await first(h.deps.db.select().from(activityLog).where(and(eq(activityLog.entityAffected, 'payment'), eq(activityLog.personId, DEMO.admin.id))));
    expect(logged?.newValue).toMatchObject({ flag: 'REFUNDED', paidBack: 2100 });

    const again = await h.request('POST', `/donation/${r.body.id}/refund-due`, { token: admin, body: {} });
    expect(again.status).toBe(409);
    expect(again.body.msg).toBe(MSG.donationRefundDueNone);
    expect((await h.request('POST', '/donation/no-such-order/refund-due', { token: admin, body: {} })).status).toBe(404);
    await balanced();
  });
});
