import { createECDH, randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import webpush from 'web-push';
import type { PushPayload } from '@pm/protocol/push';
import type { TestSummaryDoc } from '@pm/protocol/sync/test-summary';
import { PROTOCOL_VERSION } from '@pm/protocol/version';
import { entitlement, examResult, pushOnce, pushSubscription, questionSet } from '../../db/schema';
import { exec, first, transaction } from '../../db/transaction';
import { loadConfig, parseEnv } from '../../env';
import { DEMO, type Harness, startHarness } from '../../test/harness';
import { nextRev } from '../../lib/revision';
import { scoreUnscored } from '../results/results.service';
import { publishDue } from '../questions/publish';
import { type LocalPushService, startLocalPushService } from './local-push-service';
import { announceNewSets, endpointAllowed, isDaytimeInIndia, MAX_DEVICES, remindPlansEnding } from './push.service';
import { webPushSender } from './sender';
import { loadVapid, VAPID_FILE } from './vapid';

/*
 * Web Push through the real app (docs/configuration.md "Push messages (Web Push)"): subscriptions registered over the API, and messages
 * sent by the real sender (web-push's encryption and VAPID, over HTTP) to the local push endpoint,
 * which checks the VAPID header and decrypts them as a push service and a browser would.
 */

let h: Harness;
let local: LocalPushService;
let learner: string;
let editor: string;
let publicKey: string;

beforeAll(async () => {
  [h, local] = await Promise.all([startHarness(), startLocalPushService()]);
  [learner, editor] = await Promise.all([h.tokenOf('learner'), h.tokenOf('editor')]);
  publicKey = (await h.request('GET', '/push/public-key')).body.publicKey;
});
afterAll(async () => {
  await h.deps.push.idle();
  h.destroy();
  await local.close();
});

const subscribe = (token: string | undefined, body: unknown) => h.request('PATCH', '/generic/update-firebase-token', { ...(token && { token }), body });
const rowsOf = async (personId: string) => await h.deps.db.select().from(pushSubscription).where(eq(pushSubscription.personId, personId));
const rowOf = (endpoint: string) => first(h.deps.db.select().from(pushSubscription).where(eq(pushSubscription.endpoint, endpoint)));
const subscriptionCount = async () => (await h.deps.db.select().from(pushSubscription)).length;
const payloadOf = (m: { json: unknown }) => m.json as PushPayload;
const idle = () => h.deps.push.idle();
/** Lets callbacks queued after a commit (setImmediate) run, then waits for the send queue. */
const settled = async () => {
  for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
  await idle();
};

function p256dh() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return ecdh.getPublicKey().toString('base64url');
}
const validBody = () => ({ endpoint: `http://127.0.0.1:9/push/${randomBytes(12).toString('base64url')}`, expirationTime: null, keys: { p256dh: p256dh(), auth: randomBytes(16).toString('base64url') } });

describe('VAPID keys', () => {
  test('generated on first start into DATA_DIR (600) and published; a restart reads the same pair', () => {
    const file = path.join(h.dataDir, VAPID_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(publicKey).toMatch(/^B[A-Za-z0-9_-]{86}$/);
    expect(loadVapid(h.deps.config).publicKey).toBe(publicKey);
    expect(loadVapid(h.deps.config).subject).toBe('mailto:no-reply@localhost');
  });

  test('VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY / VAPID_SUBJECT from the environment win; half a pair is refused', () => {
    const keys = webpush.generateVAPIDKeys();
    const config = loadConfig(
      parseEnv({ DATA_DIR: h.dataDir, VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: keys.privateKey, VAPID_SUBJECT: 'https://pariksha.example.org/contact' }),
    );
    expect(loadVapid(config)).toEqual({ ...keys, subject: 'https://pariksha.example.org/contact' });
    expect(() => parseEnv({ VAPID_PUBLIC_KEY: keys.publicKey })).toThrow(/VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together/);
    expect(() => parseEnv({ VAPID_PUBLIC_KEY: 'abc', VAPID_PRIVATE_KEY: keys.privateKey })).toThrow(/VAPID_PUBLIC_KEY/);
    expect(() => parseEnv({ VAPID_SUBJECT: 'http://example.org' })).toThrow(/VAPID_SUBJECT/);
  });
});

describe('PATCH /generic/update-firebase-token: the Web Push subscription', () => {
  test('a guest is 401 and nothing is stored', async () => {
    const before = await subscriptionCount();
    const r = await subscribe(undefined, validBody());
    expect(r.status).toBe(401);
    expect(await subscriptionCount()).toBe(before);
  });

  test('bad input is 400 with a message, unknown fields are refused, and nothing is stored', async () => {
    const ok = validBody();
    const cases: [unknown, RegExp][] = [
      [{}, /endpoint is required/],
      // The spec's Firebase token is not a Web Push subscription.
      [{ token: 'fcm-token-of-the-spec' }, /endpoint is required/],
      [{ ...ok, token: 'fcm-token-of-the-spec' }, /Unknown field: token/],
      [{ ...ok, extra: 1 }, /Unknown field: extra/],
      [{ ...ok, keys: { ...ok.keys, x: 'y' } }, /Unknown field: x/],
      [{ ...ok, keys: undefined }, /keys is required/],
      [{ ...ok, endpoint: 'not a url' }, /endpoint must be an http\(s\) URL/],
      [{ ...ok, endpoint: 'ftp://127.0.0.1/push/x' }, /endpoint must be an http\(s\) URL/],
      [{ ...ok, endpoint: `https://fcm.googleapis.com/fcm/send/${'x'.repeat(2100)}` }, /endpoint is too long/],
      // Not a push service: the server would be made to POST wherever a learner said.
      [{ ...ok, endpoint: 'https://intranet.example.com/admin' }, /This push service is not supported/],
      [{ ...ok, endpoint: 'http://fcm.googleapis.com/fcm/send/abc' }, /This push service is not supported/],
      [{ ...ok, keys: { ...ok.keys, p256dh: 'short' } }, /keys.p256dh must be a P-256 public key/],
      [{ ...ok, keys: { ...ok.keys, p256dh: `B${'A'.repeat(86)}` } }, /keys.p256dh is not a P-256 public key/],
      [{ ...ok, keys: { ...ok.keys, auth: 'x'.repeat(40) } }, /keys.auth must be 16 bytes/],
      [{ ...ok, keys: { p256dh: ok.keys.p256dh } }, /keys.auth is required/],
      [{ ...ok, lang: 'fr' }, /.+/],
      [{ ...ok, expirationTime: 'soon' }, /.+/],
    ];
    const before = await subscriptionCount();
    for (const [body, msg] of cases) {
      const r = await subscribe(learner, body);
      expect(r.status, JSON.stringify(body).slice(0, 120)).toBe(400);
      expect(r.body).toMatchObject({ success: false, code: 'BAD_REQUEST' });
      expect(r.body.msg).toMatch(msg);
    }
    expect((await h.request('PATCH', '/generic/update-firebase-token', { token: learner, rawBody: '{"endpoint":' })).status).toBe(400);
    expect(await subscriptionCount()).toBe(before);
  });

  test('endpoints: the browsers’ push services over https; the loopback only outside production', () => {
    for (const e of [
      'https://fcm.googleapis.com/fcm/send/abc:def',
      'https://updates.push.services.mozilla.com/wpush/v2/gAAA',
      'https://wns2-par02p.notify.windows.com/w/?token=x',
      'https://web.push.apple.com/QGz',
    ]) {
      expect(endpointAllowed(e, true), e).toBe(true);
    }
    expect(endpointAllowed('http://127.0.0.1:4000/push/x', false)).toBe(true);
    expect(endpointAllowed('http://127.0.0.1:4000/push/x', true)).toBe(false);
    expect(endpointAllowed('https://fcm.googleapis.com.evil.example/x', false)).toBe(false);
    expect(endpointAllowed('https://10.0.0.1/x', false)).toBe(false);
  });

  test('stored for the caller and the session; the same endpoint sent again replaces keys and language; DELETE removes it', async () => {
    const body = { ...validBody(), lang: 'hi' };
    const r = await subscribe(learner, body);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: true });
    const row = (await rowOf(body.endpoint))!;
    expect(row).toMatchObject({ personId: DEMO.learner.id, p256dh: body.keys.p256dh, auth: body.keys.auth, lang: 'hi' });

    const again = { ...body, keys: { p256dh: p256dh(), auth: randomBytes(16).toString('base64url') }, lang: 'en' };
    expect((await subscribe(learner, again)).status).toBe(200);
    const rows = await h.deps.db.select().from(pushSubscription).where(eq(pushSubscription.endpoint, body.endpoint));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: row.id, p256dh: again.keys.p256dh, auth: again.keys.auth, lang: 'en' });

    // DELETE: another person's call removes nothing; the owner's removes it.
    expect((await h.request('DELETE', '/generic/update-firebase-token', { token: editor, body: { endpoint: body.endpoint } })).body).toEqual({ success: true });
    expect(await rowOf(body.endpoint)).toBeDefined();
    expect((await h.request('DELETE', '/generic/update-firebase-token', { token: learner, body: { endpoint: body.endpoint } })).body).toEqual({ success: true });
    expect(await rowOf(body.endpoint)).toBeUndefined();
    expect((await h.request('DELETE', '/generic/update-firebase-token', { token: learner, body: { endpoint: body.endpoint, more: 1 } })).status).toBe(400);
  });

  test(`one person may have several devices, at most ${MAX_DEVICES}: the oldest registration goes`, async () => {
    const admin = await h.tokenOf('admin');
    const endpoints: string[] = [];
    for (let i = 0; i < MAX_DEVICES + 2; i++) {
      const b = validBody();
      endpoints.push(b.endpoint);
      expect((await subscribe(admin, b)).status).toBe(200);
      await new Promise((r) => setTimeout(r, 2));
    }
    const kept = (await rowsOf(DEMO.admin.id)).map((r) => r.endpoint);
    expect(kept).toHaveLength(MAX_DEVICES);
    expect(kept).not.toContain(endpoints[0]);
    expect(kept).not.toContain(endpoints[1]);
    expect(kept).toContain(endpoints.at(-1));
  });
});

describe('sending: web-push to the local push endpoint over HTTP', () => {
  let endpoint: string;
  beforeAll(async () => {
    const sub = local.createSubscription({ applicationServerKey: publicKey });
    endpoint = sub.endpoint;
    expect((await subscribe(learner, { ...sub, lang: 'en' })).status).toBe(200);
  });

  test('the message arrives encrypted to the device, decrypts, and its VAPID header checks out', async () => {
    const queued = await h.deps.push.notify([DEMO.learner.id], {
      kind: 'result-ready',
      title: { en: 'Hello', hi: 'नमस्ते' },
      body: { en: 'Body', hi: 'संदेश' },
      url: '/exam-list',
      tag: 't1',
    });
    expect(queued).toBeGreaterThanOrEqual(1);
    const m = await local.waitForMessage((x) => x.endpoint === endpoint && payloadOf(x).tag === 't1');
    expect(payloadOf(m)).toEqual({ kind: 'result-ready', title: 'Hello', body: 'Body', url: '/exam-list', tag: 't1', lang: 'en' });
    expect(m.vapid.key).toBe(publicKey);
    expect(m.vapid.claims.aud).toBe(local.origin);
    expect(m.vapid.claims.sub).toBe('mailto:no-reply@localhost');
    expect(m.vapid.claims.exp * 1000).toBeGreaterThan(Date.now());
    expect(m.ttl).toBe(86_400);
    expect(m.urgency).toBe('normal');
  });

  test('a device that gave no language gets English and Hindi', async () => {
    const sub = local.createSubscription({ applicationServerKey: publicKey });
    expect((await subscribe(editor, sub)).status).toBe(200);
    await h.deps.push.notify([DEMO.editor.id], { kind: 'plan-ending', title: { en: 'T', hi: 'टी' }, body: { en: 'B', hi: 'बी' }, url: '/plan', tag: 't2' });
    const m = await local.waitForMessage((x) => x.endpoint === sub.endpoint);
    expect(payloadOf(m)).toEqual({ kind: 'plan-ending', title: 'T · टी', body: 'B\nबी', url: '/plan', tag: 't2' });
    await h.request('DELETE', '/generic/update-firebase-token', { token: editor, body: { endpoint: sub.endpoint } });
  });

  test('a push signed with another VAPID key is refused by the push service (403)', async () => {
    const other = { ...webpush.generateVAPIDKeys(), subject: 'mailto:x@example.org' };
    const sub = local.createSubscription({ applicationServerKey: publicKey });
    const r = await webPushSender(other)(sub, 'hello', { ttl: 60 });
    expect(r.status).toBe(403);
    expect(local.refusals.at(-1)).toMatchObject({ endpoint: sub.endpoint, status: 403 });
    expect((await webPushSender({ ...loadVapid(h.deps.config) })(sub, 'hello', { ttl: 60 })).status).toBe(201);
  });

  test('subscriptions answered 410 or 404 are removed; other failures keep them', async () => {
    const gone = local.createSubscription({ applicationServerKey: publicKey });
    const expired = local.createSubscription({ applicationServerKey: publicKey });
    const failing = local.createSubscription({ applicationServerKey: publicKey });
    for (const s of [gone, expired, failing]) expect((await subscribe(learner, s)).status).toBe(200);
    local.answerWith(gone.endpoint, 410);
    local.answerWith(expired.endpoint, 404);
    local.answerWith(failing.endpoint, 500);
    await h.deps.push.notify([DEMO.learner.id], { kind: 'result-ready', title: { en: 'x', hi: 'x' }, body: { en: 'x', hi: 'x' }, url: '/', tag: 't3' });
    await idle();
    expect(await rowOf(gone.endpoint)).toBeUndefined();
    expect(await rowOf(expired.endpoint)).toBeUndefined();
    expect(await rowOf(failing.endpoint)).toBeDefined();
    // The learner's working device got it all the same.
    await local.waitForMessage((x) => x.endpoint === endpoint && payloadOf(x).tag === 't3');
    await h.request('DELETE', '/generic/update-firebase-token', { token: learner, body: { endpoint: failing.endpoint } });
  });
});

/** An attempt at the GK practice set submitted offline five minutes ago, one answer given. */
function submittedOffline(prefix: string): TestSummaryDoc {
  const now = Date.now();
  return {
    id: `${prefix}-${randomBytes(6).toString('hex')}`,
    qsid: 'qs-practice-gk',
    st: now - 10 * 60_000,
    sfs: 0,
    lsq: null,
    index: 0,
    selectedSection: null,
    answers: { 'q-gk-001': { ua: 'b', status: 'ANSWERED' } },
    status: 'SUBMITTED',
    submittedAt: now - 5 * 60_000,
    elapsed: 5 * 60_000,
    updatedAt: now - 5 * 60_000,
    _deleted: false,
  };
}

describe('(a) result ready when a submission made offline is scored', () => {
  const V = { 'x-sync-protocol': PROTOCOL_VERSION };
  let endpoint: string;
  beforeAll(async () => {
    const sub = local.createSubscription({ applicationServerKey: publicKey });
    endpoint = sub.endpoint;
    expect((await subscribe(learner, { ...sub, lang: 'hi' })).status).toBe(200);
  });

  test('an attempt submitted offline five minutes ago and pushed now is scored, and the learner is told', async () => {
    const doc = submittedOffline('offline');
    const r = await h.request('POST', '/sync/v1/test_summary/push', { token: learner, headers: V, body: [{ newDocumentState: doc, assumedMasterState: null }] });
    expect(r.status).toBe(200);
    expect(await first(h.deps.db.select().from(examResult).where(eq(examResult.attemptId, doc.id)))).toBeDefined();
    const m = await local.waitForMessage((x) => x.endpoint === endpoint && payloadOf(x).kind === 'result-ready');
    expect(payloadOf(m)).toMatchObject({
      kind: 'result-ready',
      title: 'आपका परिणाम तैयार है',
      url: '/exam-result/qs-practice-gk/false',
      tag: 'result-qs-practice-gk',
      lang: 'hi',
    });
    expect(payloadOf(m).body).toContain('General Knowledge');

    // The same submission pushed again is not scored again, and not told again.
    const before = local.messages.length;
    await h.request('POST', '/sync/v1/test_summary/push', { token: learner, headers: V, body: [{ newDocumentState: doc, assumedMasterState: doc }] });
    await settled();
    expect(local.messages.length).toBe(before);
  });

  test('an offline submission whose scoring failed at the push is told when the start-up repair scores it', async () => {
    const before = (await first(h.deps.db.select().from(questionSet).where(eq(questionSet.id, 'qs-practice-gk'))))!;
    // A set row that scoring cannot read (as a bug would): the push stores the attempt unscored.
    await exec(h.deps.db, sql`update question_set set sections = 'null', detail_rev = detail_rev + 100000 where id = 'qs-practice-gk'`);
    const doc = submittedOffline('repair');
    const r = await h.request('POST', '/sync/v1/test_summary/push', { token: learner, headers: V, body: [{ newDocumentState: doc, assumedMasterState: null }] });
    expect(r.status).toBe(200);
    await settled();
    expect(await first(h.deps.db.select().from(examResult).where(eq(examResult.attemptId, doc.id)))).toBeUndefined();
    const told = () => local.messages.filter((x) => x.endpoint === endpoint && payloadOf(x).kind === 'result-ready').length;
    const toldBefore = told();

    await transaction(h.deps.db, async (tx) => {
      await tx.update(questionSet).set({ sections: before.sections, detailRev: await nextRev(tx) }).where(eq(questionSet.id, 'qs-practice-gk'));
    });
    expect(await scoreUnscored(h.deps)).toBe(1);
    expect(await first(h.deps.db.select().from(examResult).where(eq(examResult.attemptId, doc.id)))).toBeDefined();
    await expect.poll(told, { timeout: 10_000 }).toBe(toldBefore + 1);
  });

  test('a submission made online (the learner is looking at the result) sends nothing', async () => {
    const before = local.messages.length;
    const r = await h.request('POST', '/question/submitUserResponse', { token: learner, body: { qsid: 'qs-practice-gk', ures: { 'q-gk-001': 'b' } } });
    expect(r.status).toBe(200);
    await settled();
    expect(local.messages.length).toBe(before);
  });
});

describe('(b) a new set in a subject the learner has taken', () => {
  test('publishing a set sharing a subject with one the learner took tells them, once, and nobody without such a result', async () => {
    const learnerSub = local.createSubscription({ applicationServerKey: publicKey });
    const editorSub = local.createSubscription({ applicationServerKey: publicKey });
    await subscribe(learner, { ...learnerSub, lang: 'en' });
    await subscribe(editor, { ...editorSub, lang: 'en' });
    // The learner has results in qs-practice-gk (GK and Arithmetic, above); qs-future-mock is
    // mostly Arithmetic and Reasoning, with two GK questions: the message names Arithmetic.
    const now = Date.now();
    await h.deps.db.update(questionSet).set({ pts: Math.floor(now / 60_000) }).where(eq(questionSet.id, 'qs-future-mock'));
    expect(await publishDue(h.deps, now)).toBe(1);

    expect(await announceNewSets(h.deps, now + 10_000)).toBeGreaterThanOrEqual(1);
    const m = await local.waitForMessage((x) => x.endpoint === learnerSub.endpoint);
    const title = (await first(h.deps.db.select({ l: questionSet.l }).from(questionSet).where(eq(questionSet.id, 'qs-future-mock'))))!.l;
    expect(payloadOf(m)).toEqual({
      kind: 'new-set',
      title: `New test: ${title}`,
      body: 'A new Arithmetic test is out. Download it and take it, even offline.',
      url: '/take-exam/qs-future-mock',
      tag: 'new-sets',
      lang: 'en',
    });
    expect(m.topic).toBe('new-sets');
    await settled();
    expect(local.messages.some((x) => x.endpoint === editorSub.endpoint)).toBe(false);
    // Announced once.
    expect(await announceNewSets(h.deps, now + 20_000)).toBe(0);
  });
});

describe('(c) plan ending in three days', () => {
  const noonIst = (() => {
    const d = new Date();
    d.setUTCHours(6, 30, 0, 0); // 12:00 in India
    return d.getTime();
  })();

  test('a plan ending within three days with nothing after it is reminded of once; a renewed one is not', async () => {
    const sub = local.createSubscription({ applicationServerKey: publicKey });
    await subscribe(learner, { ...sub, lang: 'en' });
    const base = { personId: DEMO.learner.id, planCode: 'ANNUAL_PLAN', mockLimit: null, practiceLimit: null };
    await h.deps.db.delete(entitlement).where(eq(entitlement.personId, DEMO.learner.id));
    await h.deps.db
      .insert(entitlement)
      .values({ ...base, id: 'ent-ending', orderId: 'order-ending', startsAt: noonIst - 362 * 86_400_000, endsAt: noonIst + 2.5 * 86_400_000 });
    expect(await remindPlansEnding(h.deps, noonIst)).toBeGreaterThanOrEqual(1);
    const m = await local.waitForMessage((x) => x.endpoint === sub.endpoint && payloadOf(x).kind === 'plan-ending');
    expect(payloadOf(m)).toMatchObject({ kind: 'plan-ending', title: 'Your plan ends in 3 days', url: '/plan', tag: 'plan-ent-ending', lang: 'en' });
    expect(payloadOf(m).body).toMatch(/^Yearly ends on .+\. Renew it to keep taking tests\.$/);
    expect(await first(h.deps.db.select().from(pushOnce).where(eq(pushOnce.key, 'plan-ending:ent-ending')))).toBeDefined();
    // Once per plan.
    expect(await remindPlansEnding(h.deps, noonIst + 3_600_000)).toBe(0);

    // A plan followed by a renewal is not ending.
    await h.deps.db
      .insert(entitlement)
      .values({ ...base, id: 'ent-renewed', orderId: 'order-renewed', startsAt: noonIst - 360 * 86_400_000, endsAt: noonIst + 2 * 86_400_000 });
    await h.deps.db
      .insert(entitlement)
      .values({ ...base, id: 'ent-next', orderId: 'order-next', startsAt: noonIst + 2 * 86_400_000, endsAt: noonIst + 367 * 86_400_000 });
    expect(await remindPlansEnding(h.deps, noonIst)).toBe(0);
    await h.request('DELETE', '/generic/update-firebase-token', { token: learner, body: { endpoint: sub.endpoint } });
  });

  test('reminders go out in the daytime in India only', async () => {
    expect(isDaytimeInIndia(noonIst)).toBe(true);
    expect(isDaytimeInIndia(noonIst + 10 * 3_600_000)).toBe(false); // 22:00 IST
    expect(isDaytimeInIndia(noonIst - 4 * 3_600_000)).toBe(false); // 08:00 IST
    expect(await remindPlansEnding(h.deps, noonIst + 10 * 3_600_000)).toBe(0);
  });
});
