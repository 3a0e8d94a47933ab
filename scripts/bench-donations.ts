/**
 * `npm run bench:donations` (docs/benchmarks.md "bench:donations"): 500 guest donations to one
 * campaign (the demo's `demo-campaign-1`) on the local PhonePe sandbox, through the real started
 * server over HTTP on 127.0.0.1, and beside them in the same run 500 plan orders of signed-in
 * learners, each kind through the same steps: the order and its payment started through the API,
 * settled at the sandbox without its webhooks (IPC), every webhook delivered twice all at once
 * (as bench:payments), then every payer asking for the status at once. The figure is the status
 * answers' p50/p95/p99 with the app's load shedder switched off for the round, so that all of
 * them are answered at once (with it on, as `npm start` answers, most are refused with 503 and
 * asked again after Retry-After: printed beside it); the target, the donations' p99 ≤ 1.5× the
 * plans'. Afterwards the money is
 * checked to the paisa: every donation PAID once, one DONATION and one SHARE_SPLIT movement
 * each, every ledger group balanced, the campaign's raised total the sum of the amounts, distinct
 * receipt numbers. BENCH_DONATIONS (default 500) donations and as many plan orders;
 * BENCH_ROUNDS (default 3) rounds of status answers, alternating which kind goes first.
 */
import { splitDonation } from '@pm/protocol/donation';
import { median, percentile } from './bench-lib';
import {
  type Asked,
  askUntilAnswered,
  type BenchRequest,
  countOf,
  eachTwice,
  errorsOf,
  forkBench,
  inBatches,
  planOrders,
  postJson,
  type SandboxBenchApp,
  serveSandboxApp,
  statusesText,
  storm,
} from './bench-orders';

const DONATIONS = Number(process.env.BENCH_DONATIONS ?? 500);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const LEARNERS = 50;
const CAMPAIGN = 'demo-campaign-1';
/** The donations' status p99 as a multiple of the plans' (docs/benchmarks.md "bench:donations"). */
const TARGET = 1.5;

/** A guest's donation as the parent made it: the order, the link's token, the paise and the split the API answered. */
type Donation = { id: string; token: string; paise: number; split: { amount: number; share: number; toCampaign: number; shareBps: number } };

/** The campaign's money as the ledger says it: campaignTotals, and the balances of its account and its trust's share and running costs. */
type Money = { raised: number; donors: number; campaign: number; share: number; running: number };

/** What the server found of the bench's donations. */
type Checked = {
  money: Money;
  paid: number;
  other: number;
  payments: number;
  flagged: number;
  events: number;
  donationGroups: number;
  donationOrders: number;
  splitGroups: number;
  splitOrders: number;
  otherMovements: number;
  unbalancedGroups: number;
  ledgerTotal: number;
  receipts: number;
};

if (process.env.BENCH_DONATIONS_ROLE === 'server') {
  await serveSandboxApp({ prefix: 'pm-bench-donations-', learners: LEARNERS, onMessage: answerChecks });
} else {
  await drive();
}

/** The paise of donation i: ₹1 + i, and paise on most of them (.25 and .75 make the 6 % share half a paisa, rounded up). */
function paiseOf(i: number): number {
  const PAISE = [0, 25, 50, 75, 1, 99];
  return (1 + i) * 100 + PAISE[i % PAISE.length]!;
}

/** The server's answers to `{ money: true }` (the campaign's money now) and `{ check: { ids } }` (what became of those donations). */
async function answerChecks(m: Record<string, unknown>, { db }: SandboxBenchApp) {
  if (m.money) process.send?.({ money: await moneyOf(db) });
  const check = m.check as { ids: string[] } | undefined;
  if (check) process.send?.({ checked: await checkDonations(db, check.ids) });
}

async function moneyOf(db: SandboxBenchApp['db']): Promise<Money> {
  const { campaignTotals } = await import('../server/src/modules/campaigns/campaign-totals');
  const { ACCOUNTS, balances } = await import('../server/src/lib/ledger');
  const { campaign } = await import('../server/src/db/schema');
  const { eq } = await import('drizzle-orm');
  const [c] = await db.select({ trustId: campaign.trustId }).from(campaign).where(eq(campaign.id, CAMPAIGN));
  const trustId = c!.trustId;
  const totals = (await campaignTotals(db, [CAMPAIGN])).get(CAMPAIGN)!;
  const b = await balances(db, [ACCOUNTS.campaign(CAMPAIGN), ACCOUNTS.trustShare(trustId), ACCOUNTS.trustRunning(trustId)]);
  return { ...totals, campaign: b.get(ACCOUNTS.campaign(CAMPAIGN))!, share: b.get(ACCOUNTS.trustShare(trustId))!, running: b.get(ACCOUNTS.trustRunning(trustId))! };
}

/** Counts, over the donations `ids`, of their orders, payments, stored events, ledger movements and receipt numbers. */
async function checkDonations(db: SandboxBenchApp['db'], ids: string[]): Promise<Checked> {
  const { donation, ledgerEntry, payment, paymentEvent, purchaseOrder } = await import('../server/src/db/schema');
  const { unbalanced } = await import('../server/src/lib/ledger');
  const { and, count, countDistinct, eq, inArray, isNotNull, ne, notInArray } = await import('drizzle-orm');
  const order = inArray(purchaseOrder.id, ids);
  const legs = inArray(ledgerEntry.orderId, ids);
  const movements = async (kind: string) => ({
    groups: await countOf(db.select({ n: countDistinct(ledgerEntry.groupId) }).from(ledgerEntry).where(and(legs, eq(ledgerEntry.kind, kind)))),
    orders: await countOf(db.select({ n: countDistinct(ledgerEntry.orderId) }).from(ledgerEntry).where(and(legs, eq(ledgerEntry.kind, kind)))),
  });
  const gifts = await movements('DONATION');
  const splits = await movements('SHARE_SPLIT');
  const sound = await unbalanced(db);
  return {
    money: await moneyOf(db),
    paid: await countOf(db.select({ n: count() }).from(purchaseOrder).where(and(order, eq(purchaseOrder.status, 'PAID')))),
    other: await countOf(db.select({ n: count() }).from(purchaseOrder).where(and(order, ne(purchaseOrder.status, 'PAID')))),
    payments: await countOf(db.select({ n: count() }).from(payment).where(inArray(payment.orderId, ids))),
    flagged: await countOf(db.select({ n: count() }).from(payment).where(and(inArray(payment.orderId, ids), isNotNull(payment.flag)))),
    events: await countOf(db.select({ n: count() }).from(paymentEvent).where(inArray(paymentEvent.orderId, ids))),
    donationGroups: gifts.groups,
    donationOrders: gifts.orders,
    splitGroups: splits.groups,
    splitOrders: splits.orders,
    otherMovements: await countOf(db.select({ n: countDistinct(ledgerEntry.groupId) }).from(ledgerEntry).where(and(legs, notInArray(ledgerEntry.kind, ['DONATION', 'SHARE_SPLIT'])))),
    unbalancedGroups: sound.groups.length,
    ledgerTotal: sound.total,
    receipts: await countOf(db.select({ n: countDistinct(donation.receiptNo) }).from(donation).where(and(inArray(donation.orderId, ids), isNotNull(donation.receiptNo)))),
  };
}

/** Donation i as a guest gives it: POST /api/donation, then POST /api/donation/:orderId/pay with the link's token. */
async function give(base: string, i: number): Promise<Donation> {
  const paise = paiseOf(i);
  const body = { campaignId: CAMPAIGN, amount: paise / 100, name: `Bench Donor ${i}`, email: `bench-donor-${i}@example.com`, mobile: `98${String(i).padStart(8, '0')}`, indianPassport: true };
  const started = await postJson(base, '/api/donation', {}, body);
  if (started.status !== 201) throw new Error(`POST /api/donation: ${started.status} ${started.text}`);
  const { id, token, split } = JSON.parse(started.text) as Omit<Donation, 'paise'>;
  const paid = await postJson(base, `/api/donation/${id}/pay`, {}, { token });
  if (paid.status !== 200) throw new Error(`POST /api/donation/${id}/pay: ${paid.status} ${paid.text}`);
  return { id, token, paise, split };
}

type Ask = <T>(m: unknown, key: string) => Promise<T>;

/** The webhook storm of one kind: every delivery twice, all at once, then the inbox drained. */
async function deliverTwice(port: number, ask: Ask, deliveries: BenchRequest[]) {
  const s = await storm(port, eachTwice(deliveries));
  const drained = await ask<{ waitedMs: number }>({ drain: true }, 'drained');
  return { ...s, drainedMs: drained.waitedMs };
}

/** One kind's status asks in one round: every payer's requests, and how many answers said PAID. */
type StatusAsks = Asked & { paidAnswers: number };

/** A round: both kinds asked with the shedder off (the figure), then both as `npm start` answers (shedder on). */
type Round = { all: { gift: StatusAsks; plan: StatusAsks }; shed: { gift: StatusAsks; plan: StatusAsks } };

/** Every payer asks at once (again after Retry-After when refused); how many answers say the order is PAID (`data.status`, both routes). */
async function askStatus(port: number, requests: BenchRequest[]): Promise<StatusAsks> {
  const s = await askUntilAnswered(port, requests);
  const paidAnswers = s.bodies.filter((b) => b.includes('"status":"PAID"')).length;
  return { ...s, paidAnswers };
}

/** Both kinds' payers ask, one kind after the other, with the app's load shedder on or off. */
async function askBoth(port: number, ask: Ask, shed: boolean, giftFirst: boolean, asks: { gift: BenchRequest[]; plan: BenchRequest[] }) {
  await ask({ shed }, 'shedding');
  const a = await askStatus(port, giftFirst ? asks.gift : asks.plan);
  const b = await askStatus(port, giftFirst ? asks.plan : asks.gift);
  return giftFirst ? { gift: a, plan: b } : { gift: b, plan: a };
}

/** The status rounds; each alternates which kind goes first. */
async function statusRounds(port: number, ask: Ask, asks: { gift: BenchRequest[]; plan: BenchRequest[] }): Promise<Round[]> {
  const rounds: Round[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const giftFirst = r % 2 === 0;
    const all = await askBoth(port, ask, false, giftFirst, asks);
    const shed = await askBoth(port, ask, true, giftFirst, asks);
    console.log(`status round ${r + 1} (${giftFirst ? 'donations' : 'plans'} first)`);
    console.log(`  all answered:    donations ${pcts(all.gift.times)}; plans ${pcts(all.plan.times)}; p99 ${p99Ratio(all).toFixed(2)}× (${statusesText(all.gift.statuses)}; ${statusesText(all.plan.statuses)})`);
    console.log(`  as npm start:    donations ${shedText(shed.gift)}`);
    console.log(`                   plans     ${shedText(shed.plan)}`);
    rounds.push({ all, shed });
  }
  return rounds;
}

function pcts(xs: number[]) {
  const ms = (p: number) => `${percentile(xs, p).toFixed(1)} ms`;
  return `p50 ${ms(50)}, p95 ${ms(95)}, p99 ${ms(99)}`;
}
/** With the shedder on: per payer until answered, the refusals, the most requests one payer needed, the answered requests alone. */
function shedText(s: StatusAsks) {
  return `until answered ${pcts(s.untilAnswered)} (${statusesText(s.statuses)}, at most ${Math.max(...s.attempts)} requests a payer); answered requests ${pcts(s.answered)}`;
}
function p99Ratio(k: { gift: Asked; plan: Asked }) {
  return percentile(k.gift.times, 99) / percentile(k.plan.times, 99);
}
function yes(ok: boolean) {
  return ok ? 'yes' : 'NO';
}
function rupees(paise: number) {
  return `₹${(paise / 100).toLocaleString('en-IN', { minimumFractionDigits: 2 })}`;
}

/** The parent: both kinds of order through the API, their webhook storms, the status rounds, then the checks. */
async function drive() {
  const server = await forkBench(import.meta.url, { BENCH_DONATIONS_ROLE: 'server' }, { profile: process.env.BENCH_PROFILE });
  const { ask, port } = server;
  const base = `http://127.0.0.1:${port}`;
  try {
    const before = await ask<Money>({ money: true }, 'money');
    // Both kinds made and started through the API, 10 at a time.
    const gifts = await inBatches(DONATIONS, 10, (i) => give(base, i));
    const plans = await planOrders(base, server.tokens, DONATIONS);
    const giftWebhooks = await ask<BenchRequest[]>({ settle: gifts.map((g) => g.id) }, 'deliveries');
    const planWebhooks = await ask<BenchRequest[]>({ settle: plans }, 'deliveries');
    if (giftWebhooks.length !== DONATIONS || planWebhooks.length !== DONATIONS) throw new Error(`expected ${DONATIONS} webhooks of each kind, the sandbox gave ${giftWebhooks.length} and ${planWebhooks.length}`);
    const giftStorm = await deliverTwice(port, ask, giftWebhooks);
    const planStorm = await deliverTwice(port, ask, planWebhooks);
    console.log(`webhooks, each twice, all at once: donations ${statusesText(giftStorm.statuses)}, ${pcts(giftStorm.times)}, all applied ${giftStorm.drainedMs.toFixed(0)} ms after the last answer`);
    console.log(`                                   plans     ${statusesText(planStorm.statuses)}, ${pcts(planStorm.times)}, all applied ${planStorm.drainedMs.toFixed(0)} ms after the last answer`);

    const rounds = await statusRounds(port, ask, {
      gift: gifts.map((g) => ({ method: 'GET', url: `/api/donation/${g.id}?t=${encodeURIComponent(g.token)}`, headers: {} })),
      plan: plans.map((id, i) => ({ method: 'GET', url: `/api/payment/checkPayment?order_id=${id}`, headers: { authorization: `Bearer ${server.tokens[i % LEARNERS]}` } })),
    });
    const checked = await ask<Checked>({ check: { ids: gifts.map((g) => g.id) } }, 'checked');
    const ok = report(before, gifts, rounds, checked, [giftStorm.statuses, planStorm.statuses]);
    if (!ok) process.exitCode = 1;
  } finally {
    server.proc.send('stop');
  }
}

/** The median over the rounds of a percentile of each round's times of one kind. */
function medianOf(rounds: { gift: Asked; plan: Asked }[], kind: 'gift' | 'plan', pick: (a: Asked) => number[]) {
  return [50, 95, 99].map((q) => `p${q} ${median(rounds.map((r) => percentile(pick(r[kind]), q))).toFixed(1)}`).join(', ') + ' ms';
}

/** Prints the status figures (medians over the rounds); the target's ratio: the median of the rounds' p99 ratios, shedder off. */
function reportStatus(rounds: Round[], n: number) {
  const all = rounds.map((r) => r.all);
  const shed = rounds.map((r) => r.shed);
  const times = (a: Asked) => a.times;
  const until = (a: Asked) => a.untilAnswered;
  const ratio = median(all.map(p99Ratio));
  const shedRatio = median(shed.map((k) => percentile(k.gift.untilAnswered, 99) / percentile(k.plan.untilAnswered, 99)));
  const refused = (a: Asked) => a.statuses.get(503) ?? 0;
  const every = [...all, ...shed].flatMap((k) => [k.gift, k.plan]);
  const errors = every.reduce((e, a) => e + errorsOf(a.statuses) - refused(a), 0);
  const paidAnswers = every.every((a) => a.paidAnswers === n);
  console.log(`status answers, medians of ${rounds.length} rounds of ${n} payers of each kind at once; every answer PAID: ${yes(paidAnswers)}`);
  console.log(`  all answered (shedder off): donations ${medianOf(all, 'gift', times)}; plans ${medianOf(all, 'plan', times)}`);
  console.log(`  as npm start (shedder on, ${median(shed.map((k) => refused(k.gift)))} and ${median(shed.map((k) => refused(k.plan)))} refused, asked again after Retry-After): until answered, donations ${medianOf(shed, 'gift', until)}; plans ${medianOf(shed, 'plan', until)}; p99 ${shedRatio.toFixed(2)}×`);
  return { ratio, errors, paidAnswers };
}

/** Prints the figures, the checks and the verdict line: whether every check held. */
function report(before: Money, gifts: Donation[], rounds: Round[], c: Checked, webhookStatuses: Map<number, number>[]): boolean {
  const n = gifts.length;
  const split = gifts.map((g) => splitDonation(g.paise, g.split.shareBps));
  const gross = gifts.reduce((a, g) => a + g.paise, 0);
  const share = split.reduce((a, s) => a + s.share, 0);
  const toCampaign = split.reduce((a, s) => a + s.toCampaign, 0);
  const halves = gifts.filter((g) => (g.paise * g.split.shareBps) % 10000 === 5000).length;
  const quoted = gifts.every((g, i) => g.split.amount === g.paise && g.split.share === split[i]!.share && g.split.toCampaign === split[i]!.toCampaign);
  const status = reportStatus(rounds, n);
  const webhookErrors = webhookStatuses.reduce((a, s) => a + errorsOf(s), 0);

  const once = c.paid === n && c.other === 0 && c.payments === n && c.flagged === 0 && c.events === n;
  const movements = c.donationGroups === n && c.donationOrders === n && c.splitGroups === n && c.splitOrders === n && c.otherMovements === 0;
  const balanced = c.unbalancedGroups === 0 && c.ledgerTotal === 0;
  const raised = c.money.raised - before.raised;
  const exact = raised === gross && c.money.donors - before.donors === n && before.campaign - c.money.campaign === toCampaign && before.running - c.money.running === share && c.money.share === before.share;
  const receipts = c.receipts === n;
  const noError = status.errors + webhookErrors === 0;
  const met = status.ratio <= TARGET ? 'met' : 'NOT met';
  console.log(`donations paid ${c.paid}/${n}, other states ${c.other}; payments ${c.payments}, stored events ${c.events}, flagged ${c.flagged}`);
  console.log(`ledger: DONATION movements ${c.donationGroups} (orders ${c.donationOrders}), SHARE_SPLIT ${c.splitGroups} (orders ${c.splitOrders}), others ${c.otherMovements}; unbalanced groups ${c.unbalancedGroups}, all rows sum to ${c.ledgerTotal}`);
  console.log(
    `raised ${rupees(raised)} for amounts summing to ${rupees(gross)} (donors +${c.money.donors - before.donors}); to the campaign ${rupees(before.campaign - c.money.campaign)} of ${rupees(toCampaign)}, the trust's share ${rupees(before.running - c.money.running)} of ${rupees(share)} (${halves} shares of half a paisa rounded up; every quote the split: ${yes(quoted)})`,
  );
  console.log(`receipt numbers: ${c.receipts} distinct for ${n} donations`);
  console.log(`donations' status p99 against the plans' in this run (all answered, median of the rounds): ${status.ratio.toFixed(2)}× (target ≤ ${TARGET}×: ${met})`);
  console.log(
    `every donation paid exactly once: ${yes(once)}; one DONATION and one SHARE_SPLIT each: ${yes(movements)}; ledger balanced: ${yes(balanced)}; raised exact to the paisa: ${yes(exact)}; receipts distinct: ${yes(receipts)}; no error: ${yes(noError)}; p99 ≤ ${TARGET}× the plans': ${met}`,
  );
  return once && movements && balanced && exact && receipts && quoted && status.paidAnswers && noError;
}
