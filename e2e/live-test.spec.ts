import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { answerInTurnAndSubmit, editorAuth, loginAs, loginWith, openAppDb, pushSubmittedAttempt, serverDataDir, signUpLearner, waitForServiceWorker } from './helpers';

// The offline phone needs the service worker (playwright.config.ts blocks it elsewhere).
test.use({ serviceWorkers: 'allow' });

/*
 * A live test on two phones (docs/live-tests.md "Live tests", "Provisional rank on the device"):
 * an editor schedules a set to open in a few seconds, with the shortest window and duration the
 * schedule allows (a minute each) and its results right after. Both phones, at 360 px, register.
 * The demo learner's phone (English) goes offline before the start, gets the unlock code by SMS
 * (the local SMS sandbox's inbox), opens the paper with it, and takes and submits the test
 * offline; back online inside the window, the attempt is stored and scored once. A second
 * learner's phone (Hindi) stays online: the key arrives through the stream and it shows the very
 * code of the SMS. Eight more learners take it inside the window through the replication push, so
 * that ten are ranked (the fewest a distribution is published for). At the result time both phones
 * show a provisional rank worked out on the device, and then the server's rank, the same on each.
 */

const stamp = Date.now().toString(36);
const TITLE = `Live ${stamp}`;
const LEARNER_MOBILE = '+919000000003';
/** Ten digits, new on this server: `9`, six from the clock, and `n`. */
const mobileOf = (n: number) => `9${String(Date.now() % 1_000_000).padStart(6, '0')}${String(n).padStart(3, '0')}`;

/** The set: four demo questions (right answers c, b, b, d: fixtures/questions.json), one mark each, a quarter off for a wrong answer. */
const QUESTIONS = ['q-gk-002', 'q-gk-004', 'q-gk-001', 'q-gk-003'];
/** The options' order on the screen. */
const OPTION = { a: 0, b: 1, c: 2, d: 3 } as const;
/**
 * What the eight other learners answer: 4, 3, 2, 1.75, 1, 0.75, 0, −0.25 marks. With the offline
 * phone's 1.75 and the online phone's 1, the ten totals are 4, 3, 2, 1.75, 1.75, 1, 1, 0.75, 0,
 * −0.25: the offline phone is 4th of 10 (7 at or below: percentile 70), the online one 6th (50).
 */
const OTHERS: Record<string, string>[] = [
  { 'q-gk-002': 'c', 'q-gk-004': 'b', 'q-gk-001': 'b', 'q-gk-003': 'd' },
  { 'q-gk-002': 'c', 'q-gk-004': 'b', 'q-gk-001': 'b' },
  { 'q-gk-002': 'c', 'q-gk-004': 'b' },
  { 'q-gk-002': 'c', 'q-gk-004': 'b', 'q-gk-001': 'a' },
  { 'q-gk-003': 'd' },
  { 'q-gk-002': 'c', 'q-gk-004': 'a' },
  {},
  { 'q-gk-001': 'c' },
];

function unlockCodeSentTo(mobile: string, title: string): string | null {
  const file = path.join(serverDataDir(), 'local-inbox.jsonl');
  if (!existsSync(file)) return null;
  const bodies = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as { channel: string; to: string; body: string })
    .filter((m) => m.channel === 'sms' && m.to === mobile && m.body.includes(title))
    .map((m) => m.body);
  return /unlock code ([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4})/.exec(bodies.at(-1) ?? '')?.[1] ?? null;
}

function serverState(qsid: string, personId = 'demo-learner') {
  const db = openAppDb();
  try {
    const attempts = db.prepare('select id, status from attempt where qsid = ? and person_id = ?').all(qsid, personId) as { id: string; status: string }[];
    const results = db.prepare('select attempt_id as attemptId from exam_result where qsid = ? and person_id = ?').all(qsid, personId) as { attemptId: string }[];
    const all = (db.prepare('select count(*) as n from exam_result where qsid = ?').get(qsid) as { n: number }).n;
    return { attempts, results, all };
  } finally {
    db.close();
  }
}

/** At 360 px: nothing wider than the screen, and `box`, its text and every control in it wholly inside it. */
async function fitsThePhone(page: Page, box: Locator) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  const outer = (await box.boundingBox())!;
  expect(outer.x).toBeGreaterThanOrEqual(0);
  expect(outer.x + outer.width).toBeLessThanOrEqual(360);
  for (const part of await box.locator('p, button, input, label').all()) {
    if (!(await part.isVisible())) continue;
    const b = (await part.boundingBox())!;
    expect(b.x, await part.innerText()).toBeGreaterThanOrEqual(outer.x);
    expect(b.x + b.width, await part.innerText()).toBeLessThanOrEqual(outer.x + outer.width);
  }
}

/**
 * Holds the page's requests for the server's rank until the returned function is called: the
 * server's rank arriving after the distribution, as on a slow connection, so that the provisional
 * rank is seen before it (online, it is replaced as soon as the server answers).
 */
async function holdServerRank(page: Page): Promise<() => void> {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/question/getRank?**', async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

test('two phones take a live test, one offline with the code from the SMS; both see a provisional rank, then the same rank from the server', async ({ page, context, browser, request }) => {
  test.setTimeout(300_000);
  const auth = await editorAuth(request);
  const created = await request.patch('/api/question/updateQuestionSet', {
    headers: auth,
    data: { l: TITLE, mpq: 1, tm: 4, nm: 0.25, dur: 1, isM: false, free: true, inst: '<p>Four questions.</p>', q: QUESTIONS, sections: {}, pts: Math.floor(Date.now() / 60_000) - 1 },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const { id: qsid } = (await created.json()) as { id: string };
  const second = { name: 'Second Phone', username: mobileOf(0), password: 'second1234' };
  await signUpLearner(request, { ...second, mobile: second.username });
  const others = await Promise.all(OTHERS.map((_, i) => signUpLearner(request, { name: `Live Learner ${i + 1}`, mobile: mobileOf(i + 1), password: 'others1234' })));

  // Phone 1, the demo learner's, in English: the set on the device, the app able to reload offline.
  await loginAs(page, 'learner');
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto('/exam-list');
  const card = page.getByTestId(`exam-card-${qsid}`);
  await expect(card.getByTestId('availability')).toHaveText('On this device', { timeout: 30_000 });
  await card.getByRole('link', { name: 'Take Test' }).click();
  await waitForServiceWorker(page);

  // Phone 2, the second learner's, in Hindi.
  const context2 = await browser.newContext();
  const page2 = await context2.newPage();
  await loginWith(page2, second);
  await page2.setViewportSize({ width: 360, height: 740 });
  await page2.evaluate(() => localStorage.setItem('lang', 'hi'));
  await page2.goto('/exam-list');
  await page2.getByTestId(`exam-card-${qsid}`).getByRole('link', { name: 'टेस्ट दें' }).click();

  // It opens in 10 s (registering on both phones takes two); the window and the test a minute
  // each, the least the schedule takes; results as soon as both are over.
  const start = Date.now() + 10_000;
  const res = start + 2 * 60_000;
  const scheduled = await request.put('/api/live/schedule', { headers: auth, data: { qsid, start, winMin: 1, res } });
  expect(scheduled.ok(), await scheduled.text()).toBe(true);

  // The sealed paper reaches both phones through the stream: the panel, its countdown, registration.
  const panel = page.getByTestId('live-test');
  await expect(panel).toBeVisible({ timeout: 10_000 });
  await expect(panel.getByTestId('live-countdown')).toContainText('Starts in');
  await fitsThePhone(page, panel);
  await panel.getByTestId('live-register').click();
  await expect(panel).toContainText('You are registered');
  const panel2 = page2.getByTestId('live-test');
  await expect(panel2).toBeVisible({ timeout: 10_000 });
  await expect(panel2).toContainText('लाइव टेस्ट');
  await expect(panel2.getByTestId('live-countdown')).toContainText('में शुरू');
  await fitsThePhone(page2, panel2);
  await panel2.getByRole('button', { name: 'पंजीकरण करें' }).click();
  await expect(panel2).toContainText('आप पंजीकृत हैं');
  for (const token of others) {
    const registered = await request.post('/api/live/register', { headers: { authorization: `Bearer ${token}` }, data: { qsid, sms: false, lang: 'en' } });
    expect(registered.ok(), await registered.text()).toBe(true);
  }
  // Before the start the server gives no key, and nothing is stored yet.
  expect(serverState(qsid).attempts).toEqual([]);

  // Phone 1: no data from here on, before the start.
  await context.setOffline(true);
  // At the start the code comes by SMS (the sandbox's inbox stands for the learner's phone).
  await expect.poll(() => unlockCodeSentTo(LEARNER_MOBILE, TITLE), { timeout: 60_000, intervals: [1000] }).not.toBeNull();
  const code = unlockCodeSentTo(LEARNER_MOBILE, TITLE)!;

  // The other learners start and submit inside the window, each from a phone of their own.
  for (const [i, answers] of OTHERS.entries()) await pushSubmittedAttempt(request, others[i]!, { id: `live-other-${stamp}-${i}`, qsid, answers });

  // Phone 1, offline, asks for the code once its server-corrected clock has passed the start.
  const input = panel.getByTestId('live-code');
  await expect(input).toBeVisible({ timeout: 30_000 });
  await fitsThePhone(page, panel);
  // A wrong code is told apart and opens nothing.
  await input.fill('AAAA-AAAA-AAAA');
  await panel.getByRole('button', { name: 'Open the paper' }).click();
  await expect(panel).toContainText(/This is not an unlock code: check the 12 characters\.|This code does not open this test\./);
  await expect(panel.getByTestId('live-share-code')).toHaveCount(0);
  await input.fill(code);
  await panel.getByRole('button', { name: 'Open the paper' }).click();
  // Open: the code to pass on to a friend, and the test starts as any test does.
  await expect(panel.getByTestId('live-share-code')).toContainText(code);
  await fitsThePhone(page, panel);
  await page.getByRole('button', { name: 'Start Test' }).click();
  // Right, right, wrong, unanswered: 1.75 marks.
  await answerInTurnAndSubmit(page, qsid, [OPTION.c, OPTION.b, OPTION.a]);
  expect(serverState(qsid).attempts).toEqual([]);

  // Phone 2, online: the key came through the stream; it shows the code the SMS carried.
  await expect(panel2.getByTestId('live-share-code')).toContainText(code);
  await expect(panel2.getByTestId('live-share-code')).toContainText('जिस मित्र का फ़ोन ऑफ़लाइन है');
  await fitsThePhone(page2, panel2);
  await page2.getByRole('button', { name: 'टेस्ट शुरू करें' }).click();
  // Right, then nothing more: 1 mark.
  await page2.getByRole('tabpanel').getByRole('radio').nth(OPTION.c).check();
  await page2.getByRole('banner').getByRole('button', { name: 'जमा करें', exact: true }).click();
  await page2.getByRole('dialog', { name: 'परीक्षा सारांश' }).getByRole('button', { name: 'टेस्ट जमा करें' }).click();
  await expect(page2).toHaveURL(new RegExp(`/exam-result/${qsid}/true$`));

  // Phone 1 online again: the attempt goes up and is stored and scored exactly once.
  await context.setOffline(false);
  await page.evaluate(() => window.dispatchEvent(new Event('online')));
  await expect.poll(() => serverState(qsid).results.length, { timeout: 30_000 }).toBe(1);
  const after = serverState(qsid);
  expect(after.attempts).toEqual([{ id: after.results[0]!.attemptId, status: 'SUBMITTED' }]);
  // Ten learners are ranked; before the result time no phone has a mark or a rank.
  await expect.poll(() => serverState(qsid).all, { timeout: 15_000 }).toBe(10);
  await expect(page.getByTestId('result-pending')).toContainText("This live test's results, answers and ranks open for everyone at");
  await expect(page.getByTestId('total-marks')).toHaveCount(0);
  await expect(page2.getByTestId('result-pending')).toContainText('इस लाइव टेस्ट के परिणाम, उत्तर और रैंक');
  await expect(page2.getByTestId('total-marks')).toHaveCount(0);

  // At the result time each phone gets its result and the distribution; the server's rank is held
  // back a moment, so that the provisional rank shows first.
  const releases = [await holdServerRank(page), await holdServerRank(page2)];
  const untilResults = { timeout: res - Date.now() + 30_000 };
  await expect(page.getByTestId('rank-provisional')).toHaveText('4 of 10 (percentile 70.0)', untilResults);
  await expect(page.getByText('Provisional rank')).toBeVisible();
  await expect(page.getByTestId('rank-provisional-note')).toContainText('from the scores of 10 learners');
  await expect(page.getByTestId('total-marks')).toHaveText(/^1\.75 out of 4$/);
  await expect(page.getByTestId('rank')).toHaveCount(0);
  await expect(page2.getByTestId('rank-provisional')).toHaveText('10 में से 6 (पर्सेंटाइल 50.0)', { timeout: 30_000 });
  await expect(page2.getByText('अस्थायी रैंक')).toBeVisible();
  await expect(page2.getByTestId('rank-provisional-note')).toContainText('10 विद्यार्थियों');
  await expect(page2.getByTestId('total-marks')).toHaveText('4 में से 1');
  await expect(page2.getByTestId('rank')).toHaveCount(0);

  // The server's ranks arrive and replace them: the same on each phone.
  for (const release of releases) release();
  await expect(page.getByTestId('rank')).toHaveText('4 of 10 (percentile 70.0)', { timeout: 30_000 });
  await expect(page.getByTestId('rank-provisional')).toHaveCount(0);
  await expect(page2.getByTestId('rank')).toHaveText('10 में से 6 (पर्सेंटाइल 50.0)', { timeout: 30_000 });
  await expect(page2.getByTestId('rank-provisional')).toHaveCount(0);
  expect(await page2.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await context2.close();
});
