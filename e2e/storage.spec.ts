import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { DEMO, loginAs, pngBytes } from './helpers';

// This spec needs the service worker (playwright.config.ts blocks it elsewhere).
test.use({ serviceWorkers: 'allow' });

/**
 * docs/exams.md "Two tabs, storage and eviction": the storage pre-flight and evicted attempts. Chromium's quota for the site is
 * limited through the DevTools protocol (Storage.overrideQuotaForOrigin), as a phone with a full
 * disk would have it; eviction is IndexedDB deleted under the app (Storage.clearDataForOrigin),
 * as the browser does under storage pressure.
 */

const stamp = Date.now().toString(36);

async function editorAuth(request: APIRequestContext) {
  const login = await request.post('/api/UserLogin/login', {
    headers: { authorization: `Basic ${Buffer.from(`${DEMO.editor.username}:${DEMO.editor.password}`).toString('base64')}` },
  });
  return { authorization: `Bearer ${(await login.json()).token as string}` };
}

/** A published set of `n` approved questions, each with an image of its own. */
async function setWithImages(request: APIRequestContext, n: number): Promise<{ id: string; images: string[] }> {
  const auth = await editorAuth(request);
  const qids: string[] = [];
  const images: string[] = [];
  for (let i = 0; i < n; i++) {
    const upload = await request.post('/api/media', { headers: { ...auth, 'content-type': 'image/png' }, data: pngBytes([10 + i * 20, (Date.now() >> 4) % 250, 90]) });
    expect(upload.status()).toBe(201);
    const image = ((await upload.json()) as { url: string }).url;
    images.push(image);
    const option = (w: string) => `<p>${w}</p>`;
    const created = await request.post('/api/question', {
      headers: auth,
      data: {
        q: `<p>Storage ${stamp} question ${i}: <img src="${image}" alt="figure ${i}"></p>`,
        ops: { a: option('one'), b: option('two') },
        ca: ['a'],
        qt: 'mcq1',
        st: 'REVIEWED',
        trans: {},
      },
    });
    expect(created.status(), await created.text()).toBe(201);
    const { id } = (await created.json()) as { id: string };
    expect((await request.patch('/api/question/updateStatus', { headers: auth, data: { id, st: 'APPROVED' } })).ok()).toBe(true);
    qids.push(id);
  }
  const set = await request.patch('/api/question/updateQuestionSet', {
    headers: auth,
    // Free for everyone: what is proved here is storage, whatever plan the learner holds by now (docs/payments.md).
    data: { l: `Storage check ${stamp}`, mpq: 1, tm: n, nm: 0, dur: 30, isM: true, free: true, inst: '<p>Images.</p>', q: qids, sections: {}, pts: Math.floor(Date.now() / 60_000) - 1 },
  });
  expect(set.ok(), await set.text()).toBe(true);
  return { id: ((await set.json()) as { id: string }).id, images };
}

const cachedImages = (page: Page, urls: string[]) =>
  page.evaluate(async (list) => {
    const cache = await caches.open('pm-media-v1');
    let n = 0;
    for (const url of list) if (await cache.match(url)) n++;
    return n;
  }, urls);

test('too little space: the download of a set\'s images stops and the learner is told, in English and Hindi', async ({ page, request, baseURL }) => {
  test.setTimeout(150_000);
  await loginAs(page, 'learner');
  await page.goto('/exam-list');
  await expect(page.getByTestId('exam-card-qs-mock-ssc-1').getByTestId('availability')).toHaveText(/On this device/, { timeout: 30_000 });
  await expect(page.getByTestId('storage-short')).toHaveCount(0);

  // The device has half a megabyte left (Chromium enforces the quota on writes, though its
  // estimate() keeps reporting 10 GiB free: the pre-flight's probe write finds out); then a set
  // with eight images is published.
  const cdp = await page.context().newCDPSession(page);
  const origin = new URL(baseURL!).origin;
  const usage = await page.evaluate(async () => (await navigator.storage.estimate()).usage ?? 0);
  await cdp.send('Storage.overrideQuotaForOrigin', { origin, quotaSize: usage + 512 * 1024 });
  const { id, images } = await setWithImages(request, 8);

  const card = page.getByTestId(`exam-card-${id}`);
  await expect(card).toBeVisible({ timeout: 30_000 });
  const short = page.getByTestId('storage-short');
  await expect(short).toContainText('Not enough space on this device', { timeout: 30_000 });
  await expect(short).toContainText(/need about \d+(\.\d)? MB/);
  await expect(short).toContainText('Images of questions are not being downloaded');
  // The questions are here (small); the images were not downloaded.
  await expect(card.getByTestId('availability')).toHaveText('Images missing');
  expect(await cachedImages(page, images)).toBe(0);

  await page.getByTestId('language-select').first().selectOption('hi');
  await expect(short).toContainText('इस डिवाइस पर पर्याप्त जगह नहीं है');
  await expect(card.getByTestId('availability')).toHaveText('चित्र बाकी हैं');
  await page.getByTestId('language-select').first().selectOption('en');

  // Space again (the learner cleared some): the next start downloads the images.
  await cdp.send('Storage.overrideQuotaForOrigin', { origin });
  await page.reload();
  await expect(card.getByTestId('availability')).toHaveText(/On this device/, { timeout: 30_000 });
  await expect(page.getByTestId('storage-short')).toHaveCount(0);
  expect(await cachedImages(page, images)).toBe(images.length);
});

test('an unsent attempt evicted by the browser is reported at the next start, never silently', async ({ page, context, request, baseURL }) => {
  test.setTimeout(120_000);
  const auth = await editorAuth(request);
  const label = `Eviction check ${stamp}`;
  const created = await request.patch('/api/question/updateQuestionSet', {
    headers: auth,
    data: { l: label, mpq: 1, tm: 2, nm: 0, dur: 30, isM: true, free: true, inst: '<p>Eviction.</p>', q: ['q-gk-005', 'q-gk-006'], sections: {}, pts: Math.floor(Date.now() / 60_000) - 1 },
  });
  const { id } = (await created.json()) as { id: string };

  await loginAs(page, 'learner');
  await page.goto('/exam-list');
  await expect(page.getByTestId(`exam-card-${id}`).getByTestId('availability')).toHaveText(/On this device/, { timeout: 30_000 });
  await page.goto(`/take-exam/${id}`);
  await expect(page.getByRole('button', { name: 'Start Test' })).toBeEnabled({ timeout: 30_000 });

  // Offline: the attempt never reaches the server.
  await context.setOffline(true);
  await page.getByRole('button', { name: 'Start Test' }).click();
  await page.getByRole('tabpanel').getByRole('radio').nth(1).check();
  await expect(page.getByRole('button', { name: /^Question 1, Answered/ })).toBeVisible();
  // The attempt is remembered outside IndexedDB as waiting to upload.
  await expect.poll(() => page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('pm-unsent:') && localStorage.getItem(k)!.includes('"qsid"')).length)).toBe(1);

  // The browser evicts the site's IndexedDB while no tab is open.
  const blank = await context.newPage();
  await page.close();
  const cdp = await context.newCDPSession(blank);
  await cdp.send('Storage.clearDataForOrigin', { origin: new URL(baseURL!).origin, storageTypes: 'indexeddb' });

  // The next start, online: the server has no such attempt either. Said plainly.
  await context.setOffline(false);
  await blank.goto('/exam-list');
  const report = blank.getByTestId('lost-attempts');
  await expect(report).toContainText('Answers deleted from this device', { timeout: 30_000 });
  await expect(report).toContainText(label);
  await expect(report).toContainText('cannot be recovered');
  // Read and dismissed: it stays away after a reload.
  await report.getByRole('button', { name: 'I understand' }).click();
  await expect(report).toHaveCount(0);
  await blank.reload();
  await expect(blank.getByTestId(`exam-card-${id}`)).toBeVisible({ timeout: 20_000 });
  await expect(blank.getByTestId('lost-attempts')).toHaveCount(0);
});
