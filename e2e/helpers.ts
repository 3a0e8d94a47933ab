import { deflateSync } from 'node:zlib';
import path from 'node:path';
import Database from 'better-sqlite3';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { PROTOCOL_VERSION } from '@pm/protocol/version';

export const DEMO = {
  admin: { username: 'admin@example.com', password: 'admin1234' },
  editor: { username: 'editor@example.com', password: 'editor1234' },
  learner: { username: '9000000003', password: 'learner1234' },
  // The charity half's demo people (fixtures/accounts.json; docs/charity.md "Who does what").
  beneficiary: { username: '9000000004', password: 'beneficiary1234' },
  trustee: { username: '9000000005', password: 'trustee1234' },
  // The second trustee: a withdrawal needs two approvals (docs/charity.md "Withdrawals").
  trustee2: { username: '9000000006', password: 'trustee1234' },
} as const;

/** Signs in through the login page and waits for the signed-in bar. */
export async function loginAs(page: Page, who: keyof typeof DEMO) {
  await loginWith(page, DEMO[who]);
}

/** Signs in through the login page as anyone (a learner made by signUpLearner, say), on a screen wide enough for the signed-in bar. */
export async function loginWith(page: Page, account: { username: string; password: string }) {
  await page.goto('/login');
  const panel = page.getByRole('tabpanel', { name: 'Existing users' });
  await panel.getByLabel('Mobile or e-mail').fill(account.username);
  await panel.getByLabel(/^Password/).fill(account.password);
  await panel.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
}

/** The editor's bearer header, through the API's login. */
export async function editorAuth(request: APIRequestContext): Promise<Record<string, string>> {
  const login = await request.post('/api/UserLogin/login', {
    headers: { authorization: `Basic ${Buffer.from(`${DEMO.editor.username}:${DEMO.editor.password}`).toString('base64')}` },
  });
  expect(login.ok()).toBe(true);
  return { authorization: `Bearer ${(await login.json()).token as string}` };
}

/**
 * A new learner through the public sign-up (the demo plan's referral code), for specs that need
 * more learners than the demo data has. `mobile` is 10 digits, new on this server. Returns the
 * session's token.
 */
export async function signUpLearner(request: APIRequestContext, learner: { name: string; mobile: string; password: string }): Promise<string> {
  const signup = await request.post('/api/UserLogin', {
    data: { n: learner.name, m: learner.mobile, password: learner.password, confirmPassword: learner.password, p: 'demo-learner', terms: true },
  });
  expect(signup.status(), await signup.text()).toBe(201);
  return (await signup.json()).token as string;
}

/**
 * A submitted attempt uploaded as a device's replication uploads it (the test_summary push with
 * the learner's token), started `tookMs` before now and submitted now: for the other learners a
 * spec needs who take a test on phones of their own. `answers` maps question ids to the option
 * chosen. Returns the attempt's id.
 */
export async function pushSubmittedAttempt(
  request: APIRequestContext,
  token: string,
  attempt: { id: string; qsid: string; answers: Record<string, string>; tookMs?: number },
): Promise<string> {
  const now = Date.now();
  const took = attempt.tookMs ?? 2000;
  const doc = {
    id: attempt.id,
    qsid: attempt.qsid,
    st: now - took,
    sfs: 0,
    lsq: null,
    index: 0,
    selectedSection: null,
    answers: Object.fromEntries(Object.entries(attempt.answers).map(([qid, ua]) => [qid, { ua, status: 'ANSWERED' }])),
    status: 'SUBMITTED',
    submittedAt: now,
    elapsed: took,
    updatedAt: now,
    _deleted: false,
  };
  const pushed = await request.post('/api/sync/v1/test_summary/push', {
    headers: { authorization: `Bearer ${token}`, 'x-sync-protocol': PROTOCOL_VERSION },
    data: [{ newDocumentState: doc, assumedMasterState: null }],
  });
  expect(pushed.status(), await pushed.text()).toBe(200);
  return doc.id;
}

/**
 * Signs in through the login page on a phone-sized screen, where Logout sits in the drawer: the
 * login is done when the page leaves /login.
 */
export async function loginOnPhone(page: Page, who: keyof typeof DEMO) {
  await page.goto('/login');
  const panel = page.getByRole('tabpanel', { name: 'Existing users' });
  await panel.getByLabel('Mobile or e-mail').fill(DEMO[who].username);
  await panel.getByLabel(/^Password/).fill(DEMO[who].password);
  await panel.getByRole('button', { name: 'Login' }).click();
  await expect(page).not.toHaveURL(/\/login/);
}

/**
 * The data directory of the server this test runs against: its lane's (playwright.config.ts gives
 * each lane of each run a server and a data directory of its own).
 */
export function serverDataDir(): string {
  const dataDir = test.info().project.metadata?.dataDir as string | undefined;
  if (!dataDir) throw new Error('the project has no metadata.dataDir (playwright.config.ts sets it)');
  return dataDir;
}

/** The e2e server's SQLite file. */
export function openAppDb(): Database.Database {
  return new Database(path.join(serverDataDir(), 'app.db'), { fileMustExist: true });
}

/**
 * Waits until the service worker controls the page (it registers once the app is idle and
 * claims the page when it activates), so that the app reloads offline.
 */
/**
 * Everything the page's replica keeps in the collections whose IndexedDB database is named with
 * `collection`, as JSON text: what the device holds, read from its storage (a pull's response
 * body can be gone by the time a listener asks for it, when the page navigates).
 */
export function replicaText(page: Page, collection: string): Promise<string> {
  return page.evaluate(async (part) => {
    const names = (await indexedDB.databases()).map((d) => d.name ?? '').filter((n) => n.includes(part));
    const texts: string[] = [];
    for (const name of names) {
      const db = await new Promise<IDBDatabase>((ok, ko) => {
        const r = indexedDB.open(name);
        r.onsuccess = () => ok(r.result);
        r.onerror = () => ko(r.error);
      });
      try {
        for (const store of Array.from(db.objectStoreNames)) {
          const all = await new Promise<unknown[]>((ok, ko) => {
            const r = db.transaction(store).objectStore(store).getAll();
            r.onsuccess = () => ok(r.result);
            r.onerror = () => ko(r.error);
          });
          texts.push(JSON.stringify(all));
        }
      } finally {
        db.close();
      }
    }
    return texts.join('');
  }, collection);
}

export async function waitForServiceWorker(page: Page) {
  await page.waitForFunction(async () => Boolean((await navigator.serviceWorker.ready).active), undefined, { timeout: 45_000 });
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller)), { timeout: 15_000 }).toBe(true);
}

/**
 * Buys a plan for a demo account through the real payment flow against the local PhonePe
 * sandbox, over HTTP: order, initiatePayment, the sandbox's hosted page answered "Pay", and the
 * status check. For specs that need a plan without walking through the screens again.
 */
export async function buyPlanThroughSandbox(request: APIRequestContext, who: keyof typeof DEMO, planCode: string) {
  const login = await request.post('/api/UserLogin/login', {
    headers: { authorization: `Basic ${Buffer.from(`${DEMO[who].username}:${DEMO[who].password}`).toString('base64')}` },
  });
  const auth = { authorization: `Bearer ${(await login.json()).token as string}` };
  const order = await request.post('/api/payment', { headers: auth, data: { prodid: planCode, product: planCode } });
  expect(order.ok()).toBe(true);
  const { id, payment } = (await order.json()) as { id: string; payment: { amount: number } };
  const started = await request.post('/api/phonepe/initiatePayment', {
    headers: auth,
    data: { merchantTransactionId: id, amount: payment.amount, merchantUserId: 'anonymous', redirectMode: 'REDIRECT' },
  });
  expect(started.ok()).toBe(true);
  const url = ((await started.json()) as { data: { instrumentResponse: { redirectInfo: { url: string } } } }).data.instrumentResponse.redirectInfo.url;
  const paid = await request.post(url, { form: { outcome: 'PAY' }, maxRedirects: 0 });
  expect(paid.status()).toBe(302);
  await expect
    .poll(async () => ((await (await request.post('/api/phonepe/checkPaymentStatus', { headers: auth, data: { merchantTransactionId: id } })).json()) as { success: boolean }).success)
    .toBe(true);
  return id;
}

/**
 * Buy Now on a plan card of /plan, on to the provider's page. A learner with a plan in force
 * first sees the checkout step (what buying another plan does, docs/payments.md), which is
 * confirmed here.
 */
export async function pressBuyNow(page: Page, planCode: string, lang: 'en' | 'hi' = 'en') {
  const labels = lang === 'hi' ? { buy: 'अभी खरीदें', go: 'भुगतान के लिए आगे बढ़ें' } : { buy: 'Buy Now', go: 'Continue to payment' };
  await page.getByTestId(`plan-${planCode}`).getByRole('button', { name: labels.buy }).click();
  const checkout = page.getByTestId('stack-checkout');
  const onProvider = () => /\/sandbox\/phonepe\/pay\//.test(page.url());
  await expect.poll(async () => onProvider() || (await checkout.isVisible().catch(() => false)), { timeout: 30_000 }).toBe(true);
  if (!onProvider()) await checkout.getByRole('button', { name: labels.go }).click();
  await expect(page).toHaveURL(/\/sandbox\/phonepe\/pay\//, { timeout: 30_000 });
}

/** A real 8×8 PNG of one colour (red unless told), built here so an upload goes through the server's byte check. */
export function pngBytes(rgb: [number, number, number] = [220, 30, 30]): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, sum]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(8, 0);
  ihdr.writeUInt32BE(8, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const rows = Buffer.concat(Array.from({ length: 8 }, () => Buffer.from([0, ...Array.from({ length: 8 }, () => rgb).flat()])));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

/** Every screen of the back office (client/src/config/route-access.ts gives them their permissions). */
export const ADMIN_ROUTES = [
  '/admin',
  '/admin/product',
  '/admin/brand',
  '/admin/banner',
  '/admin/permission',
  '/admin/role',
  '/admin/user-report',
  '/admin/person',
  '/admin/static-pages',
  '/admin/order',
  '/admin/contact-messages',
  '/admin/campaigns',
  '/admin/trusts',
  // docs/charity.md "API": the donations list and the Form 10BD export (VIEW_REPORT).
  '/admin/donations',
  '/admin/activity-log',
  '/dashboard',
  '/transaction-report',
  '/global-earning-report',
  // The trustee's approval queue (docs/charity.md "Who does what": APPROVE_CAMPAIGN).
  '/trustee',
  // The staff's grievance queue (docs/charity.md "Grievances": HANDLE_GRIEVANCE).
  '/grievance-queue',
  // The trustees' withdrawal queue (docs/charity.md "The withdrawal screens": APPROVE_WITHDRAWAL).
  '/withdrawals',
];

/**
 * On a phone's test screen (English), answers the first questions with the options' indexes in
 * `choices`, each on its own question (the next waits until Save & Next has moved on: a check
 * sent too early lands on the previous question), then submits from the banner and waits for
 * the result page of `qsid`.
 */
export async function answerInTurnAndSubmit(page: Page, qsid: string, choices: number[]) {
  for (const [i, choice] of choices.entries()) {
    await expect(page.getByTestId('question-number')).toHaveText(`Question ${i + 1}`);
    await page.getByRole('tabpanel').getByRole('radio').nth(choice).check();
    await page.getByRole('button', { name: 'Save & Next' }).click();
  }
  await expect(page.getByTestId('question-number')).toHaveText(`Question ${choices.length + 1}`);
  await page.getByRole('banner').getByRole('button', { name: 'Submit', exact: true }).click();
  await page.getByRole('dialog', { name: 'Exam summary' }).getByRole('button', { name: 'Submit test' }).click();
  await expect(page).toHaveURL(new RegExp(`/exam-result/${qsid}/true$`));
}
