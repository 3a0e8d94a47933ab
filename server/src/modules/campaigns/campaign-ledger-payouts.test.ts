import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { transaction } from '../../db/transaction';
import { ACCOUNTS, post, unbalanced } from '../../lib/ledger';
import { type Harness, startHarness } from '../../test/harness';
import { payoutSandboxControl } from '../payouts/sandbox-razorpayx';

/*
 * A campaign's public ledger lists its paid withdrawals beside its donations (docs/charity.md
 * "The withdrawal screens"): what left the campaign, as a negative `net`, with no donor. Through
 * the real app, the RazorpayX sandbox and two trustees' approvals.
 */

let h: Harness;
let sb: ReturnType<typeof payoutSandboxControl>;
const tokens: Record<string, string> = {};
const DAY = 86_400_000;

beforeAll(async () => {
  h = await startHarness();
  sb = payoutSandboxControl(h.deps.payouts.sandbox);
  sb.settleAfterMs = 20;
  for (const who of ['beneficiary', 'trustee', 'trustee2'] as const) tokens[who] = await h.tokenOf(who);
});
afterAll(async () => {
  await sb.idle();
  await h.destroy();
});
afterEach(async () => {
  await sb.idle();
  expect(await unbalanced(h.deps.db)).toEqual({ groups: [], total: 0 });
});

const as = (who: string, method: string, url: string, body?: unknown) => h.request(method, url, { token: tokens[who], ...(body === undefined ? {} : { body }) });

test("a paid withdrawal is a row of the campaign's public ledger: what left it, negative, newest first", async () => {
  const created = await as('beneficiary', 'POST', '/campaign', {
    title: { en: 'Ledger of payouts' },
    story: { en: '<p>Books</p>' },
    cause: 'BOOKS',
    need: [{ what: { en: 'Books' }, amount: 500_000 }],
    endsAt: Date.now() + 30 * DAY,
  });
  const cid = created.body.data.id as string;
  expect((await as('beneficiary', 'POST', `/campaign/${cid}/submit`, {})).status).toBe(200);
  expect((await as('trustee', 'POST', `/campaign/${cid}/approve`, {})).status).toBe(200);
  // Money reaches the campaign as a donation's legs would put it there.
  await transaction(h.deps.db, (tx) =>
    post(tx, {
      groupId: `test-fund:${cid}`,
      kind: 'DONATION',
      orderId: `test-fund-${cid}`,
      legs: [
        { account: ACCOUNTS.gateway, amount: 100_000 },
        { account: ACCOUNTS.campaign(cid), amount: -100_000 },
      ],
      at: Date.now() - 1000,
    }),
  );
  const requested = await as('beneficiary', 'POST', `/campaign/${cid}/withdrawals`, { amount: 40_000, purpose: { en: 'Books' }, payoutAccountId: 'demo-payout-vpa' });
  expect(requested.status).toBe(201);
  const id = requested.body.data.id as string;
  expect((await as('trustee', 'POST', `/withdrawal/${id}/approve`, {})).status).toBe(200);
  expect((await as('trustee2', 'POST', `/withdrawal/${id}/approve`, {})).status).toBe(200);
  await sb.idle();
  expect((await as('beneficiary', 'GET', `/withdrawal/${id}`)).body.data.status).toBe('PAID');

  const page = (await h.request('GET', `/campaigns/${cid}`)).body.data;
  expect(page.ledger).toHaveLength(1);
  expect(page.ledger[0]).toMatchObject({ kind: 'PAYOUT', amount: -40_000, gross: 0, share: 0, net: -40_000, donor: '' });
  // The test's money was no donation row, so its raised and recent donations are untouched.
  expect(page.recentDonations).toEqual([]);
});
