import { existsSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { startLocalPushService, type LocalPushService, type LocalSubscription } from '../server/src/modules/push/local-push-service';
import { PROTOCOL_VERSION } from '@pm/protocol/version';
import { DEMO, loginAs, openAppDb, waitForServiceWorker } from './helpers';

// This spec needs the service worker (playwright.config.ts blocks it elsewhere), and the full
// browser: the headless shell the other specs run on answers every notification request "denied".
test.use({
  serviceWorkers: 'allow',
  ...(existsSync('/usr/bin/chromium') && { launchOptions: { executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run'] } }),
});

/*
 * Web Push end to end (docs/configuration.md "Push messages (Web Push)"), against the local push endpoint started here
 * (server/src/modules/push/local-push-service.ts): the learner turns notifications on after a
 * submitted test, the subscription reaches the server, the server's real sender (web-push's
 * encryption and VAPID) delivers a result-ready message over HTTP to the local endpoint, which
 * checks the VAPID header and decrypts it, and the decrypted message is delivered to the service
 * worker's push handler, whose notification opens the result page.
 *
 * What headless Chromium cannot do, and what stands in for it:
 * - It has no push service: PushManager.subscribe rejects ("Registration failed - permission
 *   denied"). The page's PushManager.subscribe/getSubscription are replaced (init script below)
 *   by ones that hand out a subscription of the local push endpoint, made in this process with a
 *   real P-256 key pair and auth secret. Everything after that call is the app's own code.
 * - The push service's delivery to the browser is DevTools' ServiceWorker.deliverPushMessage (a
 *   real push event in the worker, as the browser would dispatch it), with the payload the local
 *   endpoint decrypted.
 * - A system notification cannot be clicked headless: the worker's notificationclick handler is
 *   run by dispatching a NotificationEvent for the shown notification inside the worker.
 */

let local: LocalPushService;
test.beforeAll(async () => {
  local = await startLocalPushService();
});
test.afterAll(async () => {
  await local.close();
});

/** Replaces the page's PushManager with one that answers with `sub` (see above). */
function fakePushManager(sub: LocalSubscription) {
  return `(() => {
    const sub = ${JSON.stringify(sub)};
    const bytes = (s) => Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (s.length % 4)) % 4)), (c) => c.charCodeAt(0));
    const b64url = (u8) => btoa(String.fromCharCode(...u8)).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
    let current = null;
    window.__pushSubscribeCalls = [];
    PushManager.prototype.subscribe = async function (options) {
      const k = options.applicationServerKey;
      const key = k instanceof ArrayBuffer ? new Uint8Array(k) : new Uint8Array(k.buffer, k.byteOffset, k.byteLength);
      window.__pushSubscribeCalls.push({ userVisibleOnly: options.userVisibleOnly, applicationServerKey: b64url(key) });
      current = {
        endpoint: sub.endpoint,
        expirationTime: null,
        options: { userVisibleOnly: true, applicationServerKey: key.slice().buffer },
        getKey: (name) => bytes(sub.keys[name]).buffer,
        toJSON: () => sub,
        unsubscribe: async () => ((current = null), true),
      };
      return current;
    };
    PushManager.prototype.getSubscription = async function () {
      return current;
    };
  })();`;
}

test('the learner turns notifications on after a submitted test; a result-ready message reaches the service worker and opens the result', async ({ page, context, request, baseURL }) => {
  test.setTimeout(120_000);
  const origin = new URL(baseURL ?? '').origin;
  const { publicKey } = (await (await request.get('/api/push/public-key')).json()) as { publicKey: string };
  expect(publicKey).toMatch(/^B[A-Za-z0-9_-]{86}$/);
  const sub = local.createSubscription({ applicationServerKey: publicKey });
  await context.addInitScript(fakePushManager(sub));

  // Never on a first visit: signed in, nothing asked.
  await loginAs(page, 'learner');
  await page.goto('/exam-list');
  await expect(page.getByTestId('exam-card-qs-practice-gk')).toBeVisible();
  await expect(page.getByTestId('push-prompt')).toHaveCount(0);

  // A first submitted test (the practice set: its result is worked out on the device).
  const card = page.getByTestId('exam-card-qs-practice-gk');
  await expect(card.getByTestId('availability')).toHaveText('On this device');
  await card.getByRole('link', { name: 'Take Test' }).click();
  // Another spec may have left the demo learner's attempt at this set open (same server, same
  // learner): then it is resumed and submitted here.
  const start = page.getByRole('button', { name: /^(Start|Resume) Test$/ });
  await expect(start).toBeEnabled();
  await waitForServiceWorker(page);
  await start.click();
  await page.getByRole('tabpanel').getByRole('radio').nth(1).check();
  await page.getByRole('complementary').getByRole('button', { name: 'Submit' }).click();
  await page.getByRole('dialog', { name: 'Exam summary' }).getByRole('button', { name: 'Submit test' }).click();
  await expect(page).toHaveURL(/\/exam-result\/qs-practice-gk\//);

  // The question, on the result page (the browser has not been asked yet); yes. The learner's
  // "Allow" in the browser's own dialog is Playwright's grant.
  expect(await page.evaluate('Notification.permission')).toBe('default');
  const prompt = page.getByTestId('push-prompt');
  await expect(prompt).toContainText('Get a notification when your result is ready');
  await context.grantPermissions(['notifications'], { origin });
  await prompt.getByRole('button', { name: 'Turn on notifications' }).click();
  await expect(page.getByText('Notifications are on.')).toBeVisible();
  await expect(prompt).toHaveCount(0);

  // Subscribed with the server's key, and the subscription stored for the learner.
  expect(await page.evaluate('window.__pushSubscribeCalls')).toEqual([{ userVisibleOnly: true, applicationServerKey: publicKey }]);
  const db = openAppDb();
  try {
    const row = db.prepare('select person_id, p256dh, auth, lang from push_subscription where endpoint = ?').get(sub.endpoint) as Record<string, string> | undefined;
    expect(row).toEqual({ person_id: 'demo-learner', p256dh: sub.keys.p256dh, auth: sub.keys.auth, lang: 'en' });
  } finally {
    db.close();
  }

  // A submission made offline five minutes ago reaches the server now (as a device's replication
  // would push it) and is scored: the server sends "result ready" to the local push endpoint.
  const login = await request.post('/api/UserLogin/login', {
    headers: { authorization: `Basic ${Buffer.from(`${DEMO.learner.username}:${DEMO.learner.password}`).toString('base64')}` },
  });
  const token = ((await login.json()) as { token: string }).token;
  const now = Date.now();
  const attempt = {
    id: `e2e-push-${now}`,
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
  const pushed = await request.post('/api/sync/v1/test_summary/push', {
    headers: { authorization: `Bearer ${token}`, 'x-sync-protocol': PROTOCOL_VERSION },
    data: [{ newDocumentState: attempt, assumedMasterState: null }],
  });
  expect(pushed.status()).toBe(200);
  const message = await local.waitForMessage((m) => m.endpoint === sub.endpoint, 20_000);
  expect(message.vapid.key).toBe(publicKey);
  expect(message.vapid.claims.aud).toBe(local.origin);
  expect(message.json).toMatchObject({ kind: 'result-ready', title: 'Your result is ready', url: '/exam-result/qs-practice-gk/false', lang: 'en' });

  // The push service delivers it to the browser: a push event in the service worker.
  await page.goto('/exam-list');
  const cdp = await context.newCDPSession(page);
  const registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] = [];
  cdp.on('ServiceWorker.workerRegistrationUpdated', (e: { registrations: typeof registrations }) => registrations.push(...e.registrations));
  await cdp.send('ServiceWorker.enable');
  await expect.poll(() => registrations.find((r) => r.scopeURL === `${origin}/` && !r.isDeleted)?.registrationId).toBeTruthy();
  const registrationId = registrations.find((r) => r.scopeURL === `${origin}/` && !r.isDeleted)!.registrationId;
  await cdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId, data: message.text });

  // The handler showed it, as the server wrote it.
  const shown = () =>
    page.evaluate<{ title: string; body: string; tag: string; data: { url: string } }[]>(
      'navigator.serviceWorker.ready.then((r) => r.getNotifications()).then((ns) => ns.map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data })))',
    );
  await expect.poll(shown).toHaveLength(1);
  const [notification] = await shown();
  expect(notification).toMatchObject({
    title: 'Your result is ready',
    body: 'Practice Set: General Knowledge and Arithmetic: tap to see your marks and answers.',
    tag: 'result-qs-practice-gk',
    data: { url: '/exam-result/qs-practice-gk/false' },
  });

  // Its click (the worker's notificationclick handler) takes the app's window to the result.
  const worker = context.serviceWorkers().find((w) => w.url() === `${origin}/sw.js`);
  expect(worker).toBeTruthy();
  await worker!.evaluate(
    `self.registration.getNotifications().then(([n]) => { self.dispatchEvent(new NotificationEvent('notificationclick', { notification: n })); })`,
  );
  await expect(page).toHaveURL(`${origin}/exam-result/qs-practice-gk/false`);
  await expect.poll(shown).toHaveLength(0);
  await cdp.detach();
});
