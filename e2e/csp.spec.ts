import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { buyPlanThroughSandbox, loginAs, openAppDb, waitForServiceWorker } from './helpers';

// This spec needs the service worker (playwright.config.ts blocks it elsewhere).
test.use({ serviceWorkers: 'allow' });

/**
 * docs/security.md "Headers, CSP and links": the built app runs under its Content-Security-Policy (server/src/lib/
 * security-headers.ts) without a single violation: the home page in both languages (the
 * Devanagari fonts), login, a test taken offline-capable as the demo learner with the service
 * worker registered and a reload served from its cache, the question editor's route as the demo
 * editor, and the back office's rich-text editor and charts as the demo admin.
 *
 * Violations are watched three ways, and the last test shows that each of them does see one:
 * - `securitypolicyviolation` events, listened for in every document before the app's scripts;
 * - Chromium's console errors about the policy;
 * - the reports the server took at /api/csp-report: each is counted in the endpoint's rate-limit
 *   budget (the `cspReportIp` rule), a row of the e2e server's database. Over plain http (as
 *   here) the policy names report-uri alone, which Chromium sends at once (security-headers.ts).
 */

/** A report is sent as the violation happens; this covers its trip to the server and the write. */
const REPORT_DELIVERY_MS = 2000;

type Watch = { violations: string[] };

/** Starts collecting the violations of every page of `context` (events and console errors). */
async function watch(context: BrowserContext): Promise<Watch> {
  const w: Watch = { violations: [] };
  await context.exposeBinding('__cspViolation', (_source, text: string) => {
    w.violations.push(`event: ${text}`);
  });
  // Capture phase on the document: the event is dispatched at the element that caused it, or at
  // the document itself (eval, connections), and bubbles either way.
  await context.addInitScript(`document.addEventListener('securitypolicyviolation', (e) => {
    window.__cspViolation(e.effectiveDirective + ' blocked ' + (e.blockedURI || '(inline)') + ' at ' + e.sourceFile + ':' + e.lineNumber + ' ' + (e.sample || ''));
  }, true);`);
  context.on('console', (msg) => {
    if (/Content Security Policy|Content-Security-Policy/i.test(msg.text())) w.violations.push(`console: ${msg.text()}`);
  });
  return w;
}

/** How many report windows the server has opened for CSP reports (0 while none came). */
function reportsTaken(): number {
  const db = openAppDb();
  try {
    const row = db.prepare("SELECT count(*) AS n FROM rate_limit WHERE key LIKE 'cspReportIp%'").get() as { n: number };
    return row.n;
  } finally {
    db.close();
  }
}

/** No violation seen by the page, the console, or the server (after reports had time to arrive). */
async function expectNoViolations(page: Page, w: Watch) {
  // Nothing to wait on for an absence: reports Chromium queued are sent within the delay.
  await page.waitForTimeout(REPORT_DELIVERY_MS);
  expect(w.violations).toEqual([]);
  expect(reportsTaken(), 'the server took CSP reports (from this walk or an earlier spec)').toBe(0);
}

test('home, login and a test taken offline-capable as the learner, with the service worker, raise no CSP violation', async ({ page, context, request }) => {
  test.setTimeout(120_000);
  // The Hindi set is not free (docs/payments.md "Without a plan"): the learner holds a plan, bought through the sandbox.
  await buyPlanThroughSandbox(request, 'learner', 'ONE_MONTH_PLAN');
  const w = await watch(context);
  // The locale data is loaded by a worker of the app's own (lib/locale-warmup.worker.ts): worker-src 'self'.
  const workers: string[] = [];
  page.on('worker', (worker) => workers.push(worker.url()));

  const home = await page.goto('/');
  expect(home?.headers()['content-security-policy']).toContain("script-src 'self'");
  await expect(page.getByRole('link', { name: 'Pariksha Mitra' })).toBeVisible();
  // Hindi: the self-hosted Devanagari faces (font-src) and the lazily loaded strings.
  await page.getByRole('combobox', { name: 'Language' }).selectOption('hi');
  await expect(page.locator('html')).toHaveAttribute('lang', 'hi');
  await page.getByRole('combobox', { name: 'भाषा' }).selectOption('en');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');

  await loginAs(page, 'learner');
  await page.goto('/exam-list');
  const card = page.getByTestId('exam-card-qs-hindi-sub');
  // The sets replicate after the login; on a busy machine that takes a while.
  await expect(card.getByTestId('availability')).toHaveText('On this device', { timeout: 30_000 });
  expect(workers.filter((u) => /\/assets\/locale-warmup\.worker-[\w-]+\.js$/.test(u)).length).toBeGreaterThan(0);
  await card.getByRole('link', { name: 'Take Test' }).click();
  await expect(page.getByRole('button', { name: 'Start Test' })).toBeEnabled();
  // The service worker registers once the app is idle (lib/pwa) and takes control.
  await waitForServiceWorker(page);

  await context.setOffline(true);
  await page.getByRole('button', { name: 'Start Test' }).click();
  await expect(page.getByTestId('question-number')).toHaveText('Question 1');
  await page.getByRole('button', { name: 'Save & Next' }).click();
  await expect(page.getByTestId('question-number')).toHaveText('Question 2');
  // Offline the page comes from the worker's cache, with the headers it was cached with.
  const reloaded = await page.reload();
  expect(reloaded?.fromServiceWorker()).toBe(true);
  expect(reloaded?.headers()['content-security-policy']).toContain("script-src 'self'");
  await expect(page.getByTestId('question-number')).toHaveText('Question 2');
  await context.setOffline(false);

  await expectNoViolations(page, w);
});

test('the question editor route as the editor raises no CSP violation', async ({ page, context }) => {
  const w = await watch(context);
  await loginAs(page, 'editor');
  await page.goto('/question-editor');
  await expect(page).toHaveTitle(/\| Pariksha Mitra$/);
  // The editor's code is the largest lazy chunk: on a busy machine its first load takes a while.
  await expect(page.getByRole('heading', { name: 'Question Editor' })).toBeVisible({ timeout: 30_000 });
  // The rich-text fields (tiptap) and a formula drawn by KaTeX in the popover's live preview.
  await expect(page.getByRole('textbox', { name: 'Question', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Insert formula' }).first().click();
  await page.getByLabel('LaTeX').fill('\\sqrt{x^2 + 1}');
  await expect(page.locator('.katex').first()).toBeVisible();
  await expectNoViolations(page, w);
});

test("the back office's rich-text editor and charts as the admin raise no CSP violation", async ({ page, context }) => {
  const w = await watch(context);
  await loginAs(page, 'admin');
  await page.goto('/admin');
  await expect(page.getByRole('heading', { level: 2, name: 'Dashboard', exact: true })).toBeVisible({ timeout: 20_000 });
  await page.goto('/admin/static-pages');
  const editor = page.locator('.ProseMirror').first();
  await expect(editor).toBeVisible();
  await editor.click();
  await page.keyboard.type('Checked under the policy.');
  await expect(editor).toContainText('Checked under the policy.');
  await expectNoViolations(page, w);
});

test('the watchers do see a violation: an injected inline script is blocked, reported in the page, the console and to the server', async ({ page, context }) => {
  const w = await watch(context);
  await page.goto('/');
  await expect(page.getByRole('link', { name: 'Pariksha Mitra' })).toBeVisible();
  const ran = await page.evaluate(`(() => {
    window.__injected = false;
    const s = document.createElement('script');
    s.textContent = 'window.__injected = true';
    document.head.append(s);
    return window.__injected;
  })()`);
  expect(ran).toBe(false);
  await expect.poll(() => w.violations.some((v) => v.startsWith('event: script-src-elem blocked (inline)') || v.startsWith('event: script-src-elem blocked inline'))).toBe(true);
  await expect.poll(() => w.violations.some((v) => v.startsWith('console: '))).toBe(true);
  await expect.poll(reportsTaken, { timeout: 15_000 }).toBeGreaterThan(0);
});
