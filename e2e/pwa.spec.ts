import { expect, type Page, test } from '@playwright/test';
import { BUNDLE_EXT, BUNDLE_MIME } from '@pm/protocol/bundle';

// This spec needs the service worker (playwright.config.ts blocks it elsewhere).
test.use({ serviceWorkers: 'allow' });

/**
 * The installable, offline app (docs/pwa.md): the web app manifest and its icons, the service
 * worker taking control, the shell and a deep route working offline, the API never served by
 * the worker, and the drawer's Install app entry. (Browser code is passed as strings: the e2e
 * project is type-checked without the DOM library.)
 */

type Manifest = {
  name: string;
  short_name: string;
  description: string;
  start_url: string;
  scope: string;
  display: string;
  theme_color: string;
  background_color: string;
  lang: string;
  icons: { src: string; sizes: string; type: string; purpose?: string }[];
  file_handlers?: { action: string; accept: Record<string, string[]> }[];
};

/** Waits until the service worker (registered once the app is idle) is active, then reloads so
 *  that it controls the page (registerType 'prompt': a first worker does not claim open pages). */
async function controlledByServiceWorker(page: Page) {
  const script = await page.evaluate<string>('navigator.serviceWorker.ready.then((r) => r.active.scriptURL)');
  expect(new URL(script).pathname).toBe('/sw.js');
  await page.reload();
  await expect.poll(() => page.evaluate('Boolean(navigator.serviceWorker.controller)')).toBe(true);
}

test('the manifest is linked and complete, and every icon it names is a PNG', async ({ page, request }) => {
  await page.goto('/');
  const href = await page.locator('link[rel="manifest"]').getAttribute('href');
  expect(href).toBeTruthy();
  const res = await request.get(new URL(href ?? '', page.url()).toString());
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toBe('application/manifest+json');
  expect(res.headers()['cache-control']).toBe('no-cache');
  const manifest = (await res.json()) as Manifest;
  expect(manifest).toMatchObject({
    name: 'Pariksha Mitra',
    short_name: 'Pariksha Mitra',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    lang: 'en',
  });
  expect(manifest.description).toBeTruthy();
  // The installed app opens test files handed from phone to phone (docs/live-tests.md "On the
  // receiving phone"): their type and extension (sync-protocol/src/bundle.ts), on the exam list.
  expect(manifest.file_handlers).toEqual([{ action: '/exam-list', accept: { [BUNDLE_MIME]: [`.${BUNDLE_EXT}`] } }]);
  expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/i);
  expect(manifest.background_color).toMatch(/^#[0-9a-f]{6}$/i);
  await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute('content', manifest.theme_color);

  const icon = (sizes: string, purpose: string) => manifest.icons.find((i) => i.sizes === sizes && (i.purpose ?? 'any').split(' ').includes(purpose));
  for (const [sizes, purpose] of [
    ['192x192', 'any'],
    ['512x512', 'any'],
    ['192x192', 'maskable'],
    ['512x512', 'maskable'],
  ] as const) {
    expect(icon(sizes, purpose), `${sizes} ${purpose}`).toBeTruthy();
  }
  const appleIcon = await page.locator('link[rel="apple-touch-icon"]').getAttribute('href');
  for (const src of [...manifest.icons.map((i) => i.src), appleIcon ?? '/apple-touch-icon.png']) {
    const r = await request.get(new URL(src, page.url()).toString());
    expect(r.status(), src).toBe(200);
    expect(r.headers()['content-type'], src).toBe('image/png');
    // PNG signature.
    expect([...(await r.body()).subarray(0, 4)], src).toEqual([0x89, 0x50, 0x4e, 0x47]);
  }
});

test('the service worker takes control; offline, / and a deep route still open, the API is not cached', async ({ page, context }) => {
  await page.goto('/');
  await controlledByServiceWorker(page);

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Home' })).toBeVisible();
  await expect(page.getByRole('main').getByRole('heading').first()).toBeVisible();

  // A deep route that was never opened: index.html and its lazy page chunk come from the precache.
  await page.goto('/about-us');
  await expect(page.getByRole('heading', { name: 'About Us' })).toBeVisible();
  await page.goto('/faq');
  await expect(page).toHaveTitle('FAQ | Pariksha Mitra');

  // The API is never answered by the worker (no fallback page, no runtime cache).
  expect(await page.evaluate("fetch('/api/health').then((r) => 'answered ' + r.status, () => 'network error')")).toBe('network error');
  await context.setOffline(false);
  const health = await page.evaluate<{ type: string; status: number }>("fetch('/api/health').then((r) => ({ type: r.headers.get('content-type'), status: r.status }))");
  expect(health.status).toBe(200);
  expect(health.type).toMatch(/^application\/json/);
});

test('navigations to /api are not given the app page by the worker', async ({ page }) => {
  await page.goto('/');
  await controlledByServiceWorker(page);
  const res = await page.goto('/api/no-such-thing');
  expect(res?.status()).toBe(404);
  expect(res?.fromServiceWorker()).toBe(false);
  expect(await res?.json()).toMatchObject({ success: false, msg: 'Not found' });
});

test('the drawer offers Install app when the browser does, and drops it once installed', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto('/');
  await expect(page.getByRole('button', { name: 'Open menu' })).toBeVisible();
  // Chromium fires beforeinstallprompt only for an installable app outside automation; a
  // synthetic one, sent before the drawer's chunk has loaded, shows that it is kept from start-up.
  await page.evaluate(`(() => {
    const e = new Event('beforeinstallprompt', { cancelable: true });
    e.prompt = () => { window.__installPrompted = true; return Promise.resolve(); };
    e.userChoice = Promise.resolve({ outcome: 'dismissed' });
    window.dispatchEvent(e);
  })()`);
  await page.getByRole('button', { name: 'Open menu' }).click();
  const drawer = page.getByRole('dialog');
  const install = drawer.getByRole('button', { name: 'Install app' });
  await expect(install).toBeVisible();
  await install.click();
  await expect.poll(() => page.evaluate('window.__installPrompted === true')).toBe(true);
  await expect(install).toBeHidden();

  // Offered again, then installed from the browser's own menu: the entry goes away.
  await page.evaluate(`(() => {
    const e = new Event('beforeinstallprompt', { cancelable: true });
    e.prompt = () => Promise.resolve();
    e.userChoice = Promise.resolve({ outcome: 'accepted' });
    window.dispatchEvent(e);
  })()`);
  await expect(install).toBeVisible();
  await page.evaluate("window.dispatchEvent(new Event('appinstalled'))");
  await expect(install).toBeHidden();
});

test('a new version waits for the learner: Update available, Not now, then Update reloads into it', async ({ page }) => {
  await page.goto('/');
  await controlledByServiceWorker(page);
  const TEXT = 'Update available for the app. Would you like to update?';
  await expect(page.getByText(TEXT)).toHaveCount(0);
  const waiting = () => page.evaluate('navigator.serviceWorker.getRegistration().then((r) => Boolean(r.waiting))');

  // A new version appears. (The e2e server cannot swap sw.js under a running suite, and
  // Playwright does not intercept the browser's own worker-script requests; a worker under a
  // new script URL installs just as a changed sw.js would, and then waits the same way.)
  await page.evaluate("navigator.serviceWorker.register('/sw.js?next-release', { scope: '/' })");
  await expect.poll(waiting).toBe(true);
  const prompt = page.getByTestId('update-prompt');
  await expect(prompt).toContainText(TEXT);
  expect(await page.evaluate('Boolean(navigator.serviceWorker.controller)')).toBe(true);

  await prompt.getByRole('button', { name: 'Not now' }).click();
  await expect(prompt).toBeHidden();
  // Still waiting: the next visit asks again (once the app has registered, when it is idle).
  await page.reload();
  await expect(prompt).toContainText(TEXT, { timeout: 45_000 });
  expect(await waiting()).toBe(true);

  // Keyboard: focus the Update button and press Enter; the page reloads under the new worker.
  await prompt.getByRole('button', { name: 'Update' }).focus();
  const reloaded = page.waitForEvent('load');
  await page.keyboard.press('Enter');
  await reloaded;
  await expect.poll(waiting).toBe(false);
  expect(await page.evaluate('new URL(navigator.serviceWorker.controller.scriptURL).pathname')).toBe('/sw.js');
  await expect(page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Home' })).toBeVisible();
  await expect(page.getByText(TEXT)).toHaveCount(0);
});
