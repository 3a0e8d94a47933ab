import { expect, type Page, test } from '@playwright/test';

// This spec needs the service worker (playwright.config.ts blocks it elsewhere).
test.use({ serviceWorkers: 'allow' });

/**
 * docs/benchmarks.md "bench:lighthouse": `/` (and `/login`, below) come drawn by the build (dist/home.html, scripts/vite-plugin-prerender.ts),
 * so its first paint (the heading, the first slide's image) waits for no JavaScript; the app then
 * hydrates that markup instead of drawing the page again (client/src/main.tsx).
 */
const HEADING = 'Exam preparation that also helps another learner';

/**
 * Watches a page load for what hydration must not do: remove a node matching `selector` (or one
 * holding it) from the prerendered markup, or log an error. Call before `page.goto`; the returned
 * function reads how many such nodes went and the errors so far.
 */
async function watchHydration(page: Page, selector: string): Promise<() => Promise<{ removed: number; errors: string[] }>> {
  await page.addInitScript((sel) => {
    const w = window as unknown as { removedNodes: number };
    w.removedNodes = 0;
    new MutationObserver((records) => {
      for (const r of records) for (const n of r.removedNodes) if (n instanceof Element && (n.matches(sel) || n.querySelector(sel))) w.removedNodes++;
    }).observe(document, { childList: true, subtree: true });
  }, selector);
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  return async () => ({ removed: await page.evaluate(() => (window as unknown as { removedNodes: number }).removedNodes), errors });
}

test('the page at / is in the HTML itself, starting the app when the visitor reaches for it; other routes are the empty shell', async ({ request }) => {
  const home = await (await request.get('/')).text();
  // Not inert: its links work without the app, and its buttons' presses are held for it.
  expect(home).toContain('<div id="root" data-prerendered="/" data-prerendered-any-query>');
  expect(home).toContain(HEADING);
  // The first slide's illustration is in the page itself (a data URL): painted with the text.
  expect(home).toMatch(/<img src="data:image\/svg\+xml,[^"]+" alt="" width="480" height="320" loading="eager"/);
  // No inline script (the CSP runs none): the page's only script is the one that starts the app
  // once the page is painted (client/src/boot/start-after-paint.ts), and the page names the
  // app's scripts for it, the entry first.
  expect(home.match(/<script\b[^>]*>/g)).toEqual([expect.stringMatching(/^<script type="module" crossorigin src="\/assets\/start-after-paint-[\w-]+\.js">$/)]);
  expect(home).toMatch(/<meta name="pm-app" content="\/assets\/index-[\w-]+\.js [^"]*\/assets\/home-page-[\w-]+\.js[^"]*" data-start="interaction">/);
  const about = await (await request.get('/about')).text();
  expect(about).toContain('<div id="root"></div>');
  expect(about).not.toContain(HEADING);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });
  test('the heading, the first slide with its image, the navigation and the footer are painted', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByText(HEADING)).toBeVisible();
    const slide = page.locator('img[loading="eager"]').first();
    await expect(slide).toBeVisible();
    await expect.poll(() => slide.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await expect(page.locator('header a[href="/login"]').first()).toBeVisible();
    await expect(page.locator('footer a[href="/privacy"]')).toBeVisible();
    // Its styles came with it: the heading is laid out by the page's stylesheet, not the browser's defaults.
    const styled = await page.locator('h1').evaluate((h) => h.className.length > 0 && getComputedStyle(h).fontFamily.includes('system-ui'));
    expect(styled).toBe(true);
  });
});

/** The paths of the scripts a page asks for, as they are requested. */
function scriptsRequested(page: Page): string[] {
  const scripts: string[] = [];
  page.on('request', (r) => r.resourceType() === 'script' && scripts.push(new URL(r.url()).pathname));
  return scripts;
}

test('a first visit reads / without the app; the first press starts it, which hydrates the page (nodes kept, no error) and then plays the press: the carousel turns', async ({ page }) => {
  // Counts nodes removed from the page before and while the app starts: hydration removes none.
  const hydration = await watchHydration(page, 'h1');
  const scripts = scriptsRequested(page);
  await page.goto('/', { waitUntil: 'networkidle' });
  await expect(page.getByRole('heading', { level: 1, name: HEADING })).toBeVisible();
  // The start script only, and the service worker registered for offline use all the same.
  expect(scripts).toEqual([expect.stringMatching(/^\/assets\/start-after-paint-[\w-]+\.js$/)]);
  await expect.poll(() => page.evaluate('navigator.serviceWorker.getRegistration().then((r) => r?.active?.scriptURL ?? r?.installing?.scriptURL ?? null)')).toMatch(/\/sw\.js$/);

  const status = page.locator('[role="status"]').first();
  await expect(status).toHaveText('Slide 1 of 3: Mock tests that feel like the real exam');
  // Pressed before the app is there: held, and played once the app has taken the page over.
  await page.getByRole('button', { name: 'Next slide' }).click();
  await expect(status).toHaveText('Slide 2 of 3: Compete every month, win scholarships');
  expect(scripts.some((s) => /^\/assets\/index-[\w-]+\.js$/.test(s))).toBe(true);
  // Played once, not twice.
  await page.getByRole('button', { name: 'Next slide' }).click();
  await expect(status).toHaveText('Slide 3 of 3: Give a learner the books they need');
  const { removed, errors } = await hydration();
  expect(removed).toBe(0);
  expect(errors).toEqual([]);
});

test('on a first visit to /, the language picked before the app is there switches the page once it is', async ({ page }) => {
  await page.goto('/', { waitUntil: 'networkidle' });
  await page.getByRole('combobox', { name: 'Language' }).selectOption('hi');
  await expect(page.locator('h1')).toHaveText('परीक्षा की ऐसी तैयारी, जो किसी और विद्यार्थी का भी सहारा बने');
  await expect(page.locator('html')).toHaveAttribute('lang', 'hi');
  await expect(page.getByRole('combobox', { name: 'भाषा' })).toHaveValue('hi');
});

test('a link on / is followed before the app is there, to the next page drawn ahead', async ({ page }) => {
  const scripts = scriptsRequested(page);
  await page.goto('/', { waitUntil: 'networkidle' });
  await page.locator('footer').getByRole('link', { name: 'FAQ', exact: true }).click();
  await expect(page).toHaveURL(/\/faq$/);
  await expect(page).toHaveTitle('FAQ | Pariksha Mitra');
  expect(scripts.length).toBeGreaterThan(1);
});

test.describe('signed in', () => {
  // No worker in charge: `/` comes drawn from the server, not the worker's shell.
  test.use({ serviceWorkers: 'block' });
  test('a signed-in learner on / gets the app after the first paint, with their own header', async ({ page }) => {
    await page.goto('/login');
    const panel = page.getByRole('tabpanel', { name: 'Existing users' });
    await panel.getByLabel('Mobile or e-mail').fill('9000000003');
    await panel.getByLabel(/^Password/).fill('learner1234');
    await panel.getByRole('button', { name: 'Login' }).click();
    await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
    const html = await (await page.request.get('/')).text();
    expect(html).toContain('data-start="interaction"');
    await page.goto('/');
    // No press needed: the header is the learner's.
    await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
  });
});

test('a reader who chose Hindi gets the page in Hindi, drawn by the app (the English markup goes), and then the shell', async ({ page }) => {
  await page.goto('/about');
  await page.evaluate(() => localStorage.setItem('lang', 'hi'));
  await page.goto('/');
  await expect(page.locator('#root')).not.toHaveAttribute('inert');
  await expect(page.locator('h1')).toHaveText('परीक्षा की ऐसी तैयारी, जो किसी और विद्यार्थी का भी सहारा बने');
  await expect(page.getByText(HEADING)).toHaveCount(0);
  await expect(page.locator('html')).toHaveAttribute('lang', 'hi');
  // The app has told the server the choice (the lang cookie): from now on `/` is the shell,
  // drawn in Hindi from the start, not the English markup.
  const again = await (await page.request.get('/')).text();
  expect(again).toContain('<div id="root"></div>');
  expect(again).not.toContain(HEADING);
});

test.describe('the login page', () => {
  test('/login is in the HTML itself; with a query (an error, a referral link) it is the shell the app draws', async ({ request }) => {
    const login = await (await request.get('/login')).text();
    expect(login).toContain('<div id="root" data-prerendered="/login" inert>');
    expect(login).toContain('Existing users');
    expect(login.match(/<script\b[^>]*>/g)).toEqual([expect.stringMatching(/^<script type="module" crossorigin src="\/assets\/start-after-paint-[\w-]+\.js">$/)]);
    for (const url of ['/login?referrer=9000000003', '/login?error=Session%20expired']) {
      const shell = await (await request.get(url)).text();
      expect(shell, url).toContain('<div id="root"></div>');
    }
  });

  test.describe('without JavaScript', () => {
    test.use({ javaScriptEnabled: false });
    test('the form is painted with its styles', async ({ page }) => {
      await page.goto('/login');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Login/Signup');
      // Inert until the app runs: present and laid out, not yet in the accessibility tree.
      const mobile = page.locator('input[type="text"], input:not([type])').first();
      await expect(mobile).toBeVisible();
      const tab = page.locator('[role="tab"]').first();
      await expect(tab).toHaveText('Existing users');
      // Mantine's tab styles came with the page: the tab is a flex box, not an unstyled button.
      expect(await tab.evaluate((el) => getComputedStyle(el).display)).toBe('flex');
    });
  });

  test('the app hydrates the form (nodes kept, no error) and the demo learner signs in', async ({ page }) => {
    const hydration = await watchHydration(page, 'form');
    await page.goto('/login');
    await expect(page.locator('#root')).not.toHaveAttribute('inert');
    const { removed, errors } = await hydration();
    expect(removed).toBe(0);
    expect(errors).toEqual([]);
    const panel = page.getByRole('tabpanel', { name: 'Existing users' });
    await panel.getByLabel('Mobile or e-mail').fill('9000000003');
    await panel.getByLabel(/^Password/).fill('learner1234');
    await panel.getByRole('button', { name: 'Login' }).click();
    await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
  });

  test('a referral link is drawn by the app with the signup tab open', async ({ page }) => {
    await page.goto('/login?referrer=9000000003');
    await expect(page.getByRole('tab', { name: 'New users' })).toHaveAttribute('aria-selected', 'true');
  });
});

test.describe('the plan page', () => {
  test('/plan comes drawn by the server with the plans of the database, which the page also carries', async ({ request }) => {
    const plans = (await (await request.get('/api/plan')).json()) as { data: { code: string; name: { en: string } }[] };
    expect(plans.data.length).toBeGreaterThan(0);
    const html = await (await request.get('/plan')).text();
    expect(html).toContain('<div id="root" data-prerendered="/plan" inert>');
    for (const p of plans.data) {
      expect(html).toContain(`data-testid="plan-${p.code}"`);
      expect(html).toContain(p.name.en);
    }
    // Two scripts: the one that starts the app, and the plans as data (never run, so the CSP allows it).
    expect(html.match(/<script\b[^>]*>/g)).toEqual([
      expect.stringMatching(/^<script type="module" crossorigin src="\/assets\/start-after-paint-[\w-]+\.js">$/),
      '<script type="application/json" id="pm-page-data">',
    ]);
  });

  test('the app hydrates the plans without asking for them again, and Buy Now sends a guest to login', async ({ page }) => {
    const hydration = await watchHydration(page, '[data-testid^="plan-"]');
    const asked: string[] = [];
    page.on('request', (r) => r.url().includes('/api/plan') && asked.push(r.url()));
    await page.goto('/plan');
    await expect(page.locator('#root')).not.toHaveAttribute('inert');
    const { removed, errors } = await hydration();
    expect(removed).toBe(0);
    expect(errors).toEqual([]);
    expect(asked).toEqual([]);
    await page.getByRole('button', { name: 'Buy Now' }).first().click();
    await expect(page).toHaveURL(/\/login$/);
  });
});
