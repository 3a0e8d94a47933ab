import { type APIRequestContext, expect, test } from '@playwright/test';
import { answerInTurnAndSubmit, DEMO, loginAs, openAppDb, replicaText, waitForServiceWorker } from './helpers';

// Offline reloads (the Hindi check) need the service worker (playwright.config.ts blocks it elsewhere).
test.use({ serviceWorkers: 'allow' });

/*
 * A provisional rank on the device (docs/live-tests.md "Provisional rank on the device"): ten
 * learners take a practice set online and the server publishes its score distribution; the demo
 * learner's phone replicates it, takes the set offline, and the result page shows the score and
 * a provisional rank worked out on the phone (in English and in Hindi, at 360 px). Online again,
 * the server's rank replaces it, and the two agree.
 */

const stamp = Date.now().toString(36);
const SET_LABEL = `Provisional rank ${stamp}`;

async function editorAuth(request: APIRequestContext) {
  const login = await request.post('/api/UserLogin/login', {
    headers: { authorization: `Basic ${Buffer.from(`${DEMO.editor.username}:${DEMO.editor.password}`).toString('base64')}` },
  });
  expect(login.ok()).toBe(true);
  return { authorization: `Bearer ${(await login.json()).token as string}` };
}

/** An approved single-answer question whose answer is `b`, in English and Hindi. */
async function question(request: APIRequestContext, auth: Record<string, string>, n: number) {
  const created = await request.post('/api/question', {
    headers: auth,
    data: {
      q: `<p>Rank check ${stamp} question ${n}: pick beta.</p>`,
      ops: { a: '<p>alpha</p>', b: '<p>beta</p>', c: '<p>gamma</p>' },
      ca: ['b'],
      qt: 'mcq1',
      st: 'REVIEWED',
      trans: { hi: { q: `<p>रैंक जाँच ${stamp} प्रश्न ${n}: बीटा चुनें।</p>`, ops: { a: '<p>अल्फ़ा</p>', b: '<p>बीटा</p>', c: '<p>गामा</p>' }, ca: ['b'] } },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  expect((await request.patch('/api/question/updateStatus', { headers: auth, data: { id, st: 'APPROVED' } })).ok()).toBe(true);
  return id;
}

/** What the other learners answer (null: unanswered); 1 mark right, −0.25 wrong: 4, 2.75, 3, 2, 0.75, 1, −0.5, 0, 1.5, 4. */
const OTHERS: (string | null)[][] = [
  ['b', 'b', 'b', 'b'],
  ['b', 'b', 'b', 'a'],
  ['b', 'b', 'b', null],
  ['b', 'b', null, null],
  ['b', 'a', null, null],
  ['b', null, null, null],
  ['a', 'a', null, null],
  [null, null, null, null],
  ['b', 'b', 'a', 'a'],
  ['b', 'b', 'b', 'b'],
];

const distributionOnServer = (qsid: string) => {
  const db = openAppDb();
  try {
    return (db.prepare('select n from score_dist where qsid = ? and deleted = 0').get(qsid) as { n: number } | undefined)?.n ?? 0;
  } finally {
    db.close();
  }
};

test('a learner offline sees a provisional rank from the replicated distribution; online, the server rank replaces it and agrees', async ({ page, context, request }) => {
  test.setTimeout(180_000);
  const auth = await editorAuth(request);
  const ids = [await question(request, auth, 1), await question(request, auth, 2), await question(request, auth, 3), await question(request, auth, 4)];
  const set = await request.patch('/api/question/updateQuestionSet', {
    headers: auth,
    data: { l: SET_LABEL, mpq: 1, tm: 4, nm: 0.25, dur: 10, isM: false, free: true, inst: '<p>Four questions.</p>', q: ids, sections: {}, pts: Math.floor(Date.now() / 60_000) - 1 },
  });
  expect(set.ok(), await set.text()).toBe(true);
  const { id: qsid } = (await set.json()) as { id: string };

  // Ten learners take it online, each their first attempt.
  for (const [i, answers] of OTHERS.entries()) {
    const mobile = `98${stamp.slice(-5).replace(/\D/g, '7').padStart(5, '7')}${String(i).padStart(3, '0')}`;
    const signup = await request.post('/api/UserLogin', { data: { n: `Ranked Learner ${i}`, m: mobile, password: 'ranked1234', confirmPassword: 'ranked1234', p: 'demo-learner', terms: true } });
    expect(signup.status(), await signup.text()).toBe(201);
    const token = (await signup.json()).token as string;
    const ures = Object.fromEntries(ids.map((id, k) => [id, answers[k] ?? null]));
    const submitted = await request.post('/api/question/submitUserResponse', { headers: { authorization: `Bearer ${token}` }, data: { qsid, ures } });
    expect(submitted.ok(), await submitted.text()).toBe(true);
  }
  // The distribution job (every second in the e2e servers) publishes it.
  await expect.poll(() => distributionOnServer(qsid), { timeout: 30_000 }).toBe(10);

  // The demo learner's phone: a fresh replica pulls the distribution with everything else.
  await loginAs(page, 'learner');
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto('/exam-list');
  const card = page.getByTestId(`exam-card-${qsid}`);
  await expect(card.getByTestId('availability')).toHaveText('On this device', { timeout: 30_000 });
  await expect.poll(async () => (await replicaText(page, 'score_dist')).includes(qsid), { timeout: 30_000 }).toBe(true);
  await card.getByRole('link', { name: 'Take Test' }).click();
  await expect(page.getByRole('heading', { name: new RegExp(SET_LABEL) })).toBeVisible();
  await waitForServiceWorker(page);

  // No data from here on. Right, right, wrong, unanswered: 1.75 marks; five others have more.
  await context.setOffline(true);
  await page.getByRole('button', { name: 'Start Test' }).click();
  // Each answer on its own question: the next check waits until Save & Next has moved on.
  await answerInTurnAndSubmit(page, qsid, [1, 1, 0]);
  await expect(page.getByTestId('total-marks')).toHaveText(/^1\.75 out of 4$/);
  const provisional = page.getByTestId('rank-provisional');
  await expect(provisional).toHaveText(/^6 of 11 \(percentile 54\.[56]\)$/);
  const provisionalText = (await provisional.textContent())!;
  await expect(page.getByTestId('rank-provisional-note')).toContainText('from the scores of 10 learners');
  await expect(page.getByTestId('rank')).toHaveCount(0);
  // The analysis the summary lacks: one wrong answer cost 0.25.
  await expect(page.getByTestId('marks-lost')).toHaveText('0.25');
  // Below the cards that offer to send the answers (first on a phone while they have not reached the server).
  await provisional.scrollIntoViewIfNeeded();
  await expect(provisional).toBeInViewport({ ratio: 1 });
  // Nothing wider than the phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

  // The same, in Hindi (an offline reload: the service worker serves the app).
  await page.evaluate(() => localStorage.setItem('lang', 'hi'));
  await page.goto(`/exam-result/${qsid}/false`);
  await expect(page.getByText('अस्थायी रैंक')).toBeVisible();
  await expect(page.getByTestId('rank-provisional')).toHaveText(/^11 में से 6 \(पर्सेंटाइल 54\.[56]\)$/);
  await expect(page.getByTestId('rank-provisional-note')).toContainText('10 विद्यार्थियों');
  await expect(page.getByText('नकारात्मक अंकन से कटे अंक')).toBeVisible();
  await page.evaluate(() => localStorage.setItem('lang', 'en'));
  await page.goto(`/exam-result/${qsid}/false`);
  await expect(page.getByTestId('rank-provisional')).toHaveText(provisionalText);

  // Online again: the attempt goes up, the server scores it, and its rank replaces the provisional one.
  await context.setOffline(false);
  await page.evaluate(() => window.dispatchEvent(new Event('online')));
  await expect(page.getByTestId('rank')).toHaveText(provisionalText, { timeout: 30_000 });
  await expect(page.getByTestId('rank-provisional')).toHaveCount(0);
  await expect(page.getByTestId('total-marks')).toHaveText(/^1\.75 out of 4$/);
});
