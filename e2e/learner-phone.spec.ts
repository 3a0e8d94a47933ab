import { expect, type Page, test } from '@playwright/test';
import { DEMO, openAppDb } from './helpers';

/*
 * The learner's path on a phone (360×740; 320 px too where it is about layout), as a new user
 * meets it: time taken that adds up (docs/exams.md "Time taken"), My results, search, the test
 * screen's Submit and palette, no page scrolling sideways, a guest's test without signed-in calls,
 * and the small things: percentile, participants, timer colours, Hindi labels.
 */

test.use({ viewport: { width: 360, height: 740 } });

const questionNumber = (page: Page) => page.getByTestId('question-number');
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const seconds = async (page: Page, selector: string) =>
  page.locator(selector).evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-seconds'))));

/** Signs in through the login page at phone width (the Logout button is in the drawer there). */
async function loginPhone(page: Page, lang: 'en' | 'hi' = 'en') {
  await page.goto('/login');
  if (lang === 'hi') await chooseLanguage(page, 'hi');
  const panel = page.getByRole('tabpanel').first();
  await panel.locator('input').first().fill(DEMO.learner.username);
  await panel.locator('input[type="password"]').fill(DEMO.learner.password);
  await panel.locator('button[type="submit"]').click();
  await expect(page).not.toHaveURL(/\/login/, { timeout: 20_000 });
}

/** Stores a language choice as the app does (client/src/lib/i18n.ts) and reloads. */
async function chooseLanguage(page: Page, lang: 'en' | 'hi') {
  await page.evaluate((l) => {
    localStorage.setItem('lang', l);
    document.cookie = `lang=${l}; path=/; max-age=31536000; SameSite=Lax`;
  }, lang);
  await page.reload();
}

/** No page of the learner's path scrolls sideways; when one does, the elements that stick out are named. */
async function expectNoSideScroll(page: Page, screen: string) {
  const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth).catch(() => 1);
  try {
    // Up to 15 s: a page drawn by the build is hydrated by the app, which on a loaded machine
    // (two lanes of specs beside each other) can take several seconds.
    await expect.poll(overflow, { timeout: 15_000 }).toBeLessThanOrEqual(0);
  } catch {
    const offenders = await page.evaluate(() => {
      const out = [`scrollWidth ${document.documentElement.scrollWidth} > innerWidth ${window.innerWidth}`];
      for (const el of document.querySelectorAll('body *')) {
        const r = el.getBoundingClientRect();
        if (r.width > 0 && r.right > window.innerWidth + 0.5) out.push(`${el.tagName.toLowerCase()}.${String(el.className).slice(0, 40)} ${Math.round(r.left)}–${Math.round(r.right)}`);
      }
      return out.slice(0, 12);
    });
    throw new Error(`${screen} scrolls sideways: ${offenders.join('; ')}`);
  }
}

/** The box of an element lies within the window's width. */
async function expectWithinWidth(page: Page, locator: ReturnType<Page['locator']>, what: string) {
  const box = await locator.boundingBox();
  const width = page.viewportSize()!.width;
  expect(box, what).not.toBeNull();
  expect(box!.x, `${what} starts inside the window`).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, `${what} ends inside the window`).toBeLessThanOrEqual(width + 0.5);
}

async function openCard(page: Page, qsid: string) {
  await page.goto('/exam-list');
  const card = page.getByTestId(`exam-card-${qsid}`);
  await expect(card.getByTestId('availability')).toBeVisible({ timeout: 30_000 });
  await expect(card.getByRole('link').first()).toBeVisible();
  return card;
}

test('time taken: the summary is the sum of the sections, each the sum of its questions; My results and the exam list say the same', async ({ page }) => {
  test.setTimeout(180_000);
  await loginPhone(page);
  const card = await openCard(page, 'qs-mock-ssc-1');
  await card.getByRole('link', { name: 'Take Test' }).click();
  await page.getByRole('button', { name: 'Start Test' }).click();
  await expect(questionNumber(page)).toHaveText('Question 1');
  const started = Date.now();
  await page.waitForTimeout(2_200);
  await page.getByRole('tabpanel').getByRole('radio').nth(2).check();
  await page.getByRole('button', { name: 'Save & Next' }).click();
  await expect(questionNumber(page)).toHaveText('Question 2');
  await page.waitForTimeout(1_200);
  await page.getByRole('tab', { name: /^Reasoning/ }).click();
  await expect(questionNumber(page)).toHaveText('Question 17');
  await page.waitForTimeout(1_600);
  // Closing the test keeps the time of the question on screen; the time it is closed is not counted.
  await page.getByRole('button', { name: /^Close/ }).click();
  const closedAt = Date.now();
  await page.waitForTimeout(2_000);
  await page.getByRole('button', { name: 'Resume Test' }).click();
  await expect(questionNumber(page)).toHaveText('Question 17');
  const closedMs = Date.now() - closedAt;
  await page.waitForTimeout(1_000);
  // Submit is in the test's own header on a phone, labelled.
  await page.getByRole('banner').getByRole('button', { name: 'Submit', exact: true }).click();
  await page.getByRole('dialog', { name: 'Exam summary' }).getByRole('button', { name: 'Submit test' }).click();
  const onScreenS = (Date.now() - started - closedMs) / 1000;

  await expect(page.getByTestId('total-marks')).toBeVisible({ timeout: 30_000 });
  const total = Number(await page.getByTestId('time-taken').getAttribute('data-seconds'));
  const parts = await seconds(page, '[data-testid^="part-time-"]');
  const questions = await seconds(page, '[data-testid="question-time"]');
  expect(parts).toHaveLength(3);
  expect(questions).toHaveLength(24);
  expect(sum(parts)).toBe(total);
  expect(sum(questions)).toBe(total);
  // 2.2 + 1.2 + 1.6 + 1.0 s on screen at least, and never more than the test was open.
  expect(total).toBeGreaterThanOrEqual(6);
  expect(total).toBeLessThanOrEqual(Math.ceil(onScreenS) + 1);
  // The Reasoning question kept its time from before the test was closed (1.6 s + 1 s).
  expect(Number(await page.getByTestId('part-time-Reasoning').getAttribute('data-seconds'))).toBeGreaterThanOrEqual(2);
  const shownTime = await page.getByTestId('time-taken').textContent();
  const marks = await page.getByTestId('total-marks').textContent();

  // The learner's first attempt at the set is ranked; earlier specs of the same run may have taken
  // it with this learner already, and then this one is practice. Ranked alone: a rank and no
  // percentile (no one to compare with).
  await expect(page.getByTestId('rank').or(page.getByText('Practice attempt — not ranked'))).toBeVisible({ timeout: 15_000 });
  const ranked = (await page.getByTestId('rank').count()) > 0;
  const rank = ranked ? ((await page.getByTestId('rank').textContent()) ?? '') : '';
  if (ranked) expect(rank).toMatch(/^1 of 1 \(no one else to compare with yet\)$|^\d+ of ([2-9]|\d\d+)\b/);

  // My results, from the header menu: the same score and the same time, ranked, on the server.
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByTestId('app-drawer').getByRole('link', { name: 'My results' }).click();
  await expect(page).toHaveURL(/\/my-results$/);
  // Newest first: this attempt is the first row of the set.
  const row = page.getByTestId('my-results').getByRole('article', { name: /^SSC Mock Test 1/ }).first();
  await expect(row.getByTestId('my-result-score')).toHaveText(marks!);
  await expect(row.getByTestId('my-result-time')).toHaveText(shownTime!);
  await expect(row.getByTestId('my-result-time')).toHaveAttribute('data-seconds', String(total));
  await expect(row.getByTestId('attempt-kind')).toHaveText(ranked ? 'Ranked' : 'Practice');
  await expect(row.getByTestId('sync-state')).toHaveText('On the server');
  if (ranked) await expect(row.getByTestId('my-result-rank')).toHaveText(rank.startsWith('1 of 1 ') ? '1 of 1' : /^\d+ of \d+/);
  await expectNoSideScroll(page, 'my results');

  // From the profile too.
  await page.goto('/profile');
  await page.getByTestId('profile-my-results').click();
  await expect(page).toHaveURL(/\/my-results$/);

  // The exam list marks the set as taken, with its score and a way to the result.
  const again = await openCard(page, 'qs-mock-ssc-1');
  await expect(again.getByTestId('taken-score')).toHaveText(`Taken: ${marks!}`);
  await again.getByRole('link', { name: 'View result' }).click();
  await expect(page).toHaveURL(/\/exam-result\/qs-mock-ssc-1\/false$/);
  await expect(page.getByTestId('time-taken')).toHaveText(shownTime!);
});

test.describe('on a touch phone', () => {
  test.use({ hasTouch: true, isMobile: true });

  test('the test has Submit and the palette in sight, no tooltip stays on touch, the text size survives a reload', async ({ page }) => {
    test.setTimeout(120_000);
    await loginPhone(page);
    const card = await openCard(page, 'qs-practice-gk');
    await card.getByRole('link', { name: 'Take Test' }).tap();
    await page.getByRole('button', { name: /^(Start|Resume) Test$/ }).tap();
    await expect(questionNumber(page)).toBeVisible();
    const header = page.getByRole('banner');
    // A 15-minute test starts green, as a long one does.
    await expect(page.getByTestId('timer')).toHaveAttribute('data-tone', 'green');

    // Submit and the palette, both labelled, in the header.
    await expect(header.getByRole('button', { name: 'Submit', exact: true })).toBeInViewport();
    await header.getByRole('button', { name: 'Questions' }).tap();
    const palette = page.getByRole('complementary', { name: 'Question palette' });
    await expect(palette).toBeInViewport();
    await palette.getByRole('button', { name: 'Back to the question' }).tap();
    await expect(palette).not.toBeInViewport();

    // A tap on Larger text leaves no tooltip over the timer; the text grows by 2 px.
    const body = page.getByRole('tabpanel').locator('[style*="font-size"]').first();
    await expect(body).toHaveCSS('font-size', '16px');
    await header.getByRole('button', { name: 'Larger text' }).tap();
    await expect(body).toHaveCSS('font-size', '18px');
    await page.waitForTimeout(600);
    await expect(page.getByRole('tooltip')).toHaveCount(0);

    // Kept on this device: after a reload the test reopens in the same size.
    await page.reload();
    await expect(questionNumber(page)).toBeVisible({ timeout: 20_000 });
    await expect(page.getByRole('tabpanel').locator('[style*="font-size"]').first()).toHaveCSS('font-size', '18px');
    // Back to the default for the other tests of this browser.
    await page.getByRole('banner').getByRole('button', { name: 'Smaller text' }).tap();
    await expect(page.getByRole('tabpanel').locator('[style*="font-size"]').first()).toHaveCSS('font-size', '16px');
  });
});

test('a guest takes a free test without one request that needs a login; the timer starts green; no "0 participants"', async ({ page }) => {
  test.setTimeout(120_000);
  const unauthorised: string[] = [];
  page.on('response', (r) => {
    if (r.status() === 401) unauthorised.push(`${r.request().method()} ${new URL(r.url()).pathname}`);
  });
  for (const path of ['/', '/plan', '/login']) {
    await page.goto(path);
    await expectNoSideScroll(page, `${path} (guest)`);
  }
  const card = await openCard(page, 'qs-practice-gk');
  await card.getByRole('link', { name: 'Take Test' }).click();
  await page.getByRole('button', { name: 'Start Test' }).click();
  await expect(questionNumber(page)).toHaveText('Question 1');
  await expect(page.getByTestId('timer')).toHaveAttribute('data-tone', 'green');
  await page.getByRole('tabpanel').getByRole('radio').first().check();
  await page.getByRole('button', { name: 'Save & Next' }).click();
  await expect(questionNumber(page)).toHaveText('Question 2');
  await expect(page.getByTestId('participants')).toHaveCount(0);
  await page.getByRole('banner').getByRole('button', { name: 'Submit', exact: true }).click();
  await page.getByRole('dialog', { name: 'Exam summary' }).getByRole('button', { name: 'Submit test' }).click();
  await expect(page).toHaveURL(/\/login/);
  await page.waitForTimeout(1_500);
  expect(unauthorised).toEqual([]);
});

for (const width of [360, 320]) {
  test(`at ${width} px no page of the learner's path scrolls sideways, and nothing is cut off`, async ({ page }) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width, height: 740 });
    for (const path of ['/', '/plan', '/login']) {
      await page.goto(path);
      await expectNoSideScroll(page, path);
    }
    await loginPhone(page);
    await openCard(page, 'qs-mock-ssc-1');
    await expectNoSideScroll(page, 'exam list');
    // The intro of a set with sections: its table scrolls within itself, not the page.
    const card = page.getByTestId('exam-card-qs-mock-ssc-1');
    await card.getByRole('link', { name: 'Take Test' }).click();
    await expect(page.getByRole('button', { name: /^(Start|Resume) Test$/ })).toBeEnabled();
    await expectNoSideScroll(page, 'exam intro');

    // The practice set, scored on the device: its result opens at once.
    const practice = await openCard(page, 'qs-practice-gk');
    await practice.getByRole('link', { name: 'Take Test' }).click();
    await page.getByRole('button', { name: /^(Start|Resume) Test$/ }).click();
    await expect(questionNumber(page)).toBeVisible();
    await expectNoSideScroll(page, 'test');
    await page.getByRole('tabpanel').getByRole('radio').first().check();
    await page.getByRole('banner').getByRole('button', { name: 'Submit', exact: true }).click();
    const summary = page.getByRole('dialog', { name: 'Exam summary' });
    await expect(summary).toBeVisible();
    await expectNoSideScroll(page, 'pre-submit summary');
    await expectWithinWidth(page, summary.getByRole('button', { name: 'Submit test' }), 'the summary’s Submit test');
    await expectWithinWidth(page, summary.getByTestId('summary-parts'), 'the summary’s counts');
    await summary.getByRole('button', { name: 'Submit test' }).click();

    await expect(page.getByTestId('total-marks')).toBeVisible({ timeout: 30_000 });
    await expectNoSideScroll(page, 'result');
    // The receipt's facts read as lines, not a letter per line.
    const setName = page.getByTestId('receipt-set');
    await expect(setName).toBeVisible();
    expect((await setName.boundingBox())!.width).toBeGreaterThan(width / 2);
    expect((await setName.boundingBox())!.height).toBeLessThan(80);

    // The sync status panel opens within the screen.
    await page.getByTestId('sync-status').click();
    const panel = page.getByRole('dialog', { name: 'Sync status' });
    await expect(panel).toBeVisible();
    await expectWithinWidth(page, panel, 'the sync status panel');
    await page.getByTestId('sync-status').click();

    for (const path of ['/profile', '/my-results', '/payment-confirmation?merchantTransactionId=none']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 }).or(page.getByRole('heading', { level: 2 })).first()).toBeVisible({ timeout: 15_000 });
      await page.waitForTimeout(1_000);
      await expectNoSideScroll(page, path);
    }
  });
}

test('in Hindi: the search finds a set by its English or Hindi words, spelt either way; every label of the exam screens is in Hindi', async ({ page }) => {
  test.setTimeout(180_000);
  await loginPhone(page, 'hi');
  await openCard(page, 'qs-mock-ssc-1');
  const search = page.getByRole('searchbox', { name: 'टेस्ट खोजें' });

  // हिन्दी (with a virama) finds the set whose subject is हिंदी भाषा (with an anusvara).
  await search.fill('हिन्दी');
  await expect(page.getByTestId('exam-card-qs-hindi-sub')).toBeVisible();
  await expect(page.getByTestId('exam-card-qs-mock-ssc-1')).toHaveCount(0);
  await expect(page.getByTestId('exam-card-qs-practice-gk')).toHaveCount(0);
  // A subject in Hindi: the sets with General Knowledge questions.
  await search.fill('सामान्य ज्ञान');
  await expect(page.getByTestId('exam-card-qs-mock-ssc-1')).toBeVisible();
  await expect(page.getByTestId('exam-card-qs-practice-gk')).toBeVisible();
  await expect(page.getByTestId('exam-card-qs-hindi-sub')).toHaveCount(0);
  // English words of the title, in any case.
  // (Other specs of the same run may add sets of their own: only the demo sets are counted.)
  await search.fill('ssc MOCK');
  await expect(page.getByTestId('exam-card-qs-mock-ssc-1')).toBeVisible();
  await expect(page.getByTestId('exam-card-qs-practice-gk')).toHaveCount(0);
  await expect(page.getByTestId('exam-card-qs-hindi-sub')).toHaveCount(0);
  await search.fill('कोई ऐसा टेस्ट नहीं');
  await expect(page.getByTestId('no-match')).toBeVisible();
  await search.fill('');
  await expect(page.getByTestId('exam-card-qs-hindi-sub')).toBeVisible();

  // Labels: nothing in English but the data itself (set titles and section names, in English in
  // the demo sets, and the receipt's code), the language picker's "English" and "QR" (कोड).
  // Titles of sets other specs of the run made (and the learner took) are editors' data too.
  const db = openAppDb();
  const setTitles = db.prepare('SELECT l FROM question_set').pluck().all() as string[];
  db.close();
  const data = ['English', 'QR', 'SSC Mock Test 1 (GK, Quantitative Aptitude and Reasoning)', 'Practice Set: General Knowledge and Arithmetic', 'Hindi Language and Reasoning Test', 'Upcoming Mixed Mock Test', 'General Knowledge', 'Quantitative Aptitude', 'Reasoning', 'Hindi', ...setTitles];
  const englishLabels = () =>
    page.evaluate((allowed) => {
      const out: string[] = [];
      for (const el of document.querySelectorAll('[aria-label], [title], [aria-roledescription], [aria-valuetext], [aria-placeholder]')) {
        for (const attr of ['aria-label', 'title', 'aria-roledescription', 'aria-valuetext', 'aria-placeholder']) {
          const value = el.getAttribute(attr);
          if (!value) continue;
          // The receipt's code (Crockford base32, four groups of four) is data too.
          let rest = value.replace(/\b[0-9A-Z]{4}( [0-9A-Z]{4}){3}\b/g, '');
          for (const a of [...allowed].sort((x, y) => y.length - x.length)) rest = rest.split(a).join('');
          if (/[A-Za-z]{2,}/.test(rest)) out.push(`${el.tagName.toLowerCase()}[${attr}="${value}"]`);
        }
      }
      return out;
    }, data);
  expect(await englishLabels(), 'exam list').toEqual([]);
  await page.getByTestId('exam-card-qs-practice-gk').getByRole('link', { name: 'टेस्ट दें' }).click();
  await expect(page.getByRole('button', { name: /^टेस्ट (शुरू करें|जारी रखें)$/ })).toBeEnabled();
  expect(await englishLabels(), 'exam intro').toEqual([]);
  await page.getByRole('button', { name: /^टेस्ट (शुरू करें|जारी रखें)$/ }).click();
  await expect(questionNumber(page)).toBeVisible();
  expect(await englishLabels(), 'test').toEqual([]);
  await page.getByRole('banner').getByRole('button', { name: 'प्रश्न', exact: true }).click();
  expect(await englishLabels(), 'test with the palette open').toEqual([]);
  await page.getByRole('button', { name: 'प्रश्न पर वापस जाएँ' }).click();
  await page.getByRole('banner').getByRole('button', { name: 'जमा करें', exact: true }).click();
  const summary = page.getByRole('dialog', { name: 'परीक्षा सारांश' });
  await expect(summary).toBeVisible();
  expect(await englishLabels(), 'summary').toEqual([]);
  await summary.getByRole('button', { name: 'टेस्ट जमा करें' }).click();
  await expect(page.getByTestId('total-marks')).toBeVisible({ timeout: 30_000 });
  expect(await englishLabels(), 'result').toEqual([]);
  await page.goto('/my-results');
  await expect(page.getByTestId('my-results')).toBeVisible();
  expect(await englishLabels(), 'my results').toEqual([]);
});
