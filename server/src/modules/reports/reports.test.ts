import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { OrdersByDateReport } from '@pm/protocol/report';
import { activityLog, ledgerEntry, payment, person, plan, purchaseOrder } from '../../db/schema';
import { ACCOUNTS, post as postMovement, unbalanced } from '../../lib/ledger';
import { first } from '../../db/transaction';
import { type Harness, startHarness } from '../../test/harness';

let h: Harness;
let admin: string;
let learner: string;

/** A window long before the demo data (seeded relative to now), so figures are exact. */
const IST = 19_800_000;
const day = (d: string) => Date.parse(`${d}T00:00:00Z`) - IST; // 00:00 India time of that day
const HOUR = 3_600_000;

beforeAll(async () => {
  h = await startHarness();
  admin = await h.tokenOf('admin');
  learner = await h.tokenOf('learner');
  const db = h.deps.db;
  const yearly = await first(db.select().from(plan).where(eq(plan.code, 'ANNUAL_PLAN')));
  const monthly = await first(db.select().from(plan).where(eq(plan.code, 'ONE_MONTH_PLAN')));
  if (!yearly || !monthly) throw new Error('demo plans missing');
  // The database holds paise; the reports answer rupees (the figures below are rupees).
  const order = async (id: string, planId: string, rupees: number, status: string, at: number) => {
    await db.insert(purchaseOrder).values({ id, personId: 'demo-learner', planId, amount: Math.round(rupees * 100), status, expiresAt: at + HOUR, createdAt: at, updatedAt: at });
  };
  // 2005-03-01 India time: two orders (one paid); 2005-03-02 23:59 India time (18:29 UTC): one paid.
  await order('o1', yearly.id, 720, 'PAID', day('2005-03-01') + 1 * HOUR);
  await order('o2', monthly.id, 99, 'CREATED', day('2005-03-01') + 2 * HOUR);
  await order('o3', monthly.id, 99.5, 'PAID', day('2005-03-03') - 60_000);
  await order('o4', monthly.id, 99, 'PAID', day('2005-03-05'));
  const pay = async (id: string, orderId: string, rupees: number, isCredit: boolean, status: string, channel: string, at: number) => {
    const amount = Math.round(rupees * 100);
    await db.insert(payment).values({ id, orderId, personId: 'demo-learner', amount, isCredit, status, channel, transactionId: `T-${id}`, createdAt: at, updatedAt: at });
    // The ledger, which the reports read: a capture in, a refund out, each between the gateway
    // and the plans' revenue (docs/charity.md "The ledger").
    if (status === 'SUCCESS') {
      const moved = isCredit ? amount : -amount;
      await postMovement(db, { groupId: `l-${id}`, orderId, paymentId: id, kind: isCredit ? 'CAPTURE' : 'REFUND', legs: [{ account: ACCOUNTS.gateway, amount: moved }, { account: ACCOUNTS.plans, amount: -moved }], at });
    }
  };
  await pay('p1', 'o1', 720, true, 'SUCCESS', 'UPI', day('2005-03-01') + HOUR);
  await pay('p2', 'o2', 99, true, 'FAILED', 'CARD', day('2005-03-01') + 2 * HOUR);
  await pay('p3', 'o3', 99.5, true, 'SUCCESS', 'CARD', day('2005-03-03') - 60_000);
  await pay('p4', 'o1', 100, false, 'SUCCESS', 'UPI', day('2005-04-10'));
});
afterAll(() => h.destroy());

const get = (url: string, token = admin) => h.request('GET', url, { token });

describe('GET /report/getOrdersByDate', () => {
  test('totals, rows and days in India time over an inclusive range', async () => {
    const r = await get(`/report/getOrdersByDate?startDate=${day('2005-03-01')}&endDate=${day('2005-03-03') - 1}`);
    expect(r.status).toBe(200);
    const data = r.body.data as OrdersByDateReport;
    // The money is the ledger's: the unpaid o2 adds nothing (it used to be in "amount").
    expect(data.totals).toEqual({ count: 3, paidCount: 2, collected: 819.5, refunded: 0, net: 819.5 });
    expect(data.byDay).toEqual([
      { day: '2005-03-01', count: 2, collected: 720, refunded: 0, net: 720 },
      { day: '2005-03-02', count: 1, collected: 99.5, refunded: 0, net: 99.5 },
    ]);
    expect(data.orders.map((o) => o.id)).toEqual(['o3', 'o2', 'o1']);
    expect(data.orders[2]).toMatchObject({ amount: 720, status: 'PAID', plan: { code: 'ANNUAL_PLAN', name: { en: 'Yearly' } }, person: { id: 'demo-learner', n: 'Lata Learner' } });
  });

  test('the end of the range is inclusive to the millisecond', async () => {
    const r = await get(`/report/getOrdersByDate?startDate=${day('2005-03-05')}&endDate=${day('2005-03-05')}`);
    expect(r.body.data.totals.count).toBe(1);
  });

  test('invalid dates are refused with the spec messages', async () => {
    const cases: [string, string][] = [
      ['', 'Invalid start date'],
      [`endDate=${day('2005-03-01')}`, 'Invalid start date'],
      [`startDate=abc&endDate=${day('2005-03-01')}`, 'Invalid start date'],
      [`startDate=${day('2005-03-01')}`, 'Invalid end date'],
      [`startDate=${day('2005-03-02')}&endDate=${day('2005-03-01')}`, 'Invalid end date'],
      [`startDate=${day('2005-03-01')}&endDate=${day('2007-03-01')}`, 'Invalid end date'],
      [`startDate=${day('2005-03-01')}&endDate=1.5`, 'Invalid end date'],
    ];
    for (const [q, msg] of cases) {
      const r = await get(`/report/getOrdersByDate?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body, q).toMatchObject({ success: false, msg });
    }
    const extra = await get(`/report/getOrdersByDate?startDate=${day('2005-03-01')}&endDate=${day('2005-03-02')}&x=1`);
    expect(extra.status).toBe(400);
  });

  test('needs VIEW_REPORT', async () => {
    const q = `?startDate=${day('2005-03-01')}&endDate=${day('2005-03-02')}`;
    expect((await h.request('GET', `/report/getOrdersByDate${q}`)).status).toBe(401);
    expect((await get(`/report/getOrdersByDate${q}`, learner)).status).toBe(403);
  });
});

describe('GET /report/transactions and /report/globalEarnings', () => {
  test('payments with filters and totals of successful ones', async () => {
    const range = `startDate=${day('2005-03-01')}&endDate=${day('2005-04-30')}`;
    const all = await get(`/report/transactions?${range}`);
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(4);
    expect(all.body.totals).toEqual({ count: 4, credit: 819.5, debit: 100, net: 719.5 });
    expect(all.body.data.map((p: { id: string }) => p.id)).toEqual(['p4', 'p3', 'p2', 'p1']);
    expect(all.body.channels).toEqual(expect.arrayContaining(['CARD', 'UPI']));
    const card = await get(`/report/transactions?${range}&channel=CARD&status=SUCCESS`);
    expect(card.body.data.map((p: { id: string }) => p.id)).toEqual(['p3']);
    const debit = await get(`/report/transactions?${range}&type=debit`);
    expect(debit.body.totals).toEqual({ count: 1, credit: 0, debit: 100, net: -100 });
    const byTxn = await get(`/report/transactions?${range}&q=T-p2`);
    expect(byTxn.body.data).toHaveLength(1);
    expect(byTxn.body.data[0]).toMatchObject({ id: 'p2', status: 'FAILED', order: { id: 'o2', plan: { code: 'ONE_MONTH_PLAN' } } });
    const paged = await get(`/report/transactions?${range}&limit=2&offset=2`);
    expect(paged.body.data.map((p: { id: string }) => p.id)).toEqual(['p2', 'p1']);
    expect((await get(`/report/transactions?${range}&status=DONE`)).status).toBe(400);
    expect((await get(`/report/transactions?${range}`, learner)).status).toBe(403);
  });

  test('earnings by day and month keep 6 percent and give the rest to the trust', async () => {
    const range = `startDate=${day('2005-03-01')}&endDate=${day('2005-04-30')}`;
    const byMonth = await get(`/report/globalEarnings?${range}&groupBy=month`);
    expect(byMonth.status).toBe(200);
    expect(byMonth.body.data.rows).toEqual([
      { period: '2005-03', count: 2, collected: 819.5, refunded: 0, retained: 49.17, toTrust: 770.33 },
      { period: '2005-04', count: 1, collected: 0, refunded: 100, retained: -6, toTrust: -94 },
    ]);
    expect(byMonth.body.data.totals).toEqual({ count: 3, collected: 819.5, refunded: 100, retained: 43.17, toTrust: 676.33 });
    expect(byMonth.body.data.retainedPercent).toBe(6);
    const byDay = await get(`/report/globalEarnings?${range}`);
    expect(byDay.body.data.rows.map((r: { period: string }) => r.period)).toEqual(['2005-03-01', '2005-03-02', '2005-04-10']);
    expect((await get(`/report/globalEarnings?${range}&groupBy=year`)).status).toBe(400);
  });
});

describe('GET /report/getUsersByDate', () => {
  test('signups per day and per referrer', async () => {
    const db = h.deps.db;
    const mk = async (id: string, m: string, parentId: string | null, at: number) => {
      await db.insert(person).values({ id, name: id, mobile: m, parentId, passwordHash: 'x', createdAt: at, updatedAt: at });
    };
    await mk('u1', '+918000000001', 'demo-admin', day('2006-01-01') + HOUR);
    await mk('u2', '+918000000002', 'demo-admin', day('2006-01-02') + HOUR);
    await mk('u3', '+918000000003', null, day('2006-01-02') + 2 * HOUR);
    const r = await get(`/report/getUsersByDate?startDate=${day('2006-01-01')}&endDate=${day('2006-01-03')}`);
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({
      total: 3,
      byDay: [
        { day: '2006-01-01', count: 1 },
        { day: '2006-01-02', count: 2 },
      ],
      byReferrer: [
        { referrer: { id: 'demo-admin', n: 'Asha Admin', m: '+919000000001' }, count: 2 },
        { referrer: null, count: 1 },
      ],
    });
  });
});

describe('orders', () => {
  test('list with filters, and a logged status change that needs UPDATE_ORDER', async () => {
    const range = `startDate=${day('2005-03-01')}&endDate=${day('2005-03-31')}`;
    const all = await get(`/order?${range}`);
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(4);
    const created = await get(`/order?${range}&status=CREATED`);
    expect(created.body.data.map((o: { id: string }) => o.id)).toEqual(['o2']);
    const byName = await get(`/order?${range}&q=lata&limit=1&offset=1`);
    expect(byName.body.total).toBe(4);
    expect(byName.body.data).toHaveLength(1);

    expect((await h.request('PATCH', '/order/status', { token: learner, body: { id: 'o2', status: 'CANCELLED' } })).status).toBe(403);
    const bad = await h.request('PATCH', '/order/status', { token: admin, body: { id: 'o2', status: 'GONE' } });
    expect(bad.status).toBe(400);
    const extra = await h.request('PATCH', '/order/status', { token: admin, body: { id: 'o2', status: 'CANCELLED', amount: 1 } });
    expect(extra.status).toBe(400);
    const missing = await h.request('PATCH', '/order/status', { token: admin, body: { id: 'nope', status: 'CANCELLED' } });
    expect(missing.status).toBe(404);
    expect((await first(h.deps.db.select().from(purchaseOrder).where(eq(purchaseOrder.id, 'o2'))))?.status).toBe('CREATED');

    const ok = await h.request('PATCH', '/order/status', { token: admin, body: { id: 'o2', status: 'CANCELLED' } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ success: true, msg: 'Order updated successfully', data: { id: 'o2', status: 'CANCELLED' } });
    const entry = await first(h.deps.db.select().from(activityLog).where(eq(activityLog.entityId, 'o2')));
    expect(entry).toMatchObject({ actionType: 'UPDATE', entityAffected: 'order', oldValue: { status: 'CREATED' }, newValue: { status: 'CANCELLED' } });
  });
});

describe('a paid order never goes back', () => {
  test('PAID only moves on to REFUNDED, which the ledger records; REFUNDED is final', async () => {
    const patch = (id: string, status: string) => h.request('PATCH', '/order/status', { token: admin, body: { id, status } });
    for (const status of ['CANCELLED', 'CREATED', 'PENDING', 'FAILED', 'EXPIRED']) {
      const r = await patch('o4', status);
      expect(r.status, status).toBe(400);
      expect(r.body).toMatchObject({ success: false, msg: 'A paid order cannot go back' });
    }
    expect((await first(h.deps.db.select().from(purchaseOrder).where(eq(purchaseOrder.id, 'o4'))))?.status).toBe('PAID');

    const refunded = await patch('o1', 'REFUNDED');
    expect(refunded.status).toBe(200);
    expect(refunded.body.data).toMatchObject({ id: 'o1', status: 'REFUNDED', amount: 720 });
    // The refund: from the plans' revenue back through the gateway, one movement (docs/charity.md "The ledger").
    const refundLegs = async () => (await h.deps.db.select().from(ledgerEntry).where(eq(ledgerEntry.groupId, 'refund:o1'))).map((l) => [l.account, l.amount]).sort();
    expect(await refundLegs()).toEqual([
      [ACCOUNTS.gateway, -72000],
      [ACCOUNTS.plans, 72000],
    ]);
    // A repeat refunds nothing twice; and a refunded order stays refunded.
    expect((await patch('o1', 'REFUNDED')).status).toBe(200);
    expect(await refundLegs()).toHaveLength(2);
    expect(await unbalanced(h.deps.db)).toEqual({ groups: [], total: 0 });
    expect((await patch('o1', 'PAID')).status).toBe(400);
  });

  test('an admin marking an unpaid order PAID gives it a receipt number', async () => {
    const db = h.deps.db;
    const monthly = await first(db.select().from(plan).where(eq(plan.code, 'ONE_MONTH_PLAN')));
    if (!monthly) throw new Error('demo plan missing');
    const at = day('2005-06-01');
    await db.insert(purchaseOrder).values({ id: 'o9', personId: 'demo-member-1', planId: monthly.id, amount: 15000, status: 'PENDING', expiresAt: at, createdAt: at, updatedAt: at });
    const max = Math.max(0, ...(await db.select().from(purchaseOrder)).map((o) => o.receiptNo ?? 0));
    const r = await h.request('PATCH', '/order/status', { token: admin, body: { id: 'o9', status: 'PAID' } });
    expect(r.status).toBe(200);
    const o9 = await first(db.select().from(purchaseOrder).where(eq(purchaseOrder.id, 'o9')));
    expect(o9).toMatchObject({ status: 'PAID', receiptNo: max + 1 });
    expect(o9?.paidAt).toBeGreaterThan(0);
  });
});
