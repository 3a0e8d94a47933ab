import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { loginAs, openAppDb, serverDataDir, waitForServiceWorker } from './helpers';

// This spec needs the service worker (playwright.config.ts blocks it elsewhere).
test.use({ serviceWorkers: 'allow' });

/*
 * A live test (docs/live-tests.md "Live tests"): an editor schedules a set to open in under a
 * minute; the learner registers (with the unlock code by SMS), the sealed paper reaches the
 * device, and the device goes offline before the start. At the start the server releases the key
 * and sends the code by SMS (the local SMS sandbox's inbox); the learner types it, the paper opens
 * on the device, the test is taken and submitted offline, and once online the attempt is stored
 * and scored exactly once.
 */

const LEARNER_MOBILE = '+919000000003';

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

function serverState(qsid: string) {
  const db = openAppDb();
  try {
    const attempts = db.prepare('select id, status from attempt where qsid = ?').all(qsid) as { id: string; status: string }[];
    const results = db.prepare('select attempt_id as attemptId from exam_result where qsid = ?').all(qsid) as { attemptId: string }[];
    return { attempts, results };
  } finally {
    db.close();
  }
}

test('a learner offline at the start opens the live test with the code from the SMS, takes it offline, and it is scored once', async ({ page, context, request }) => {
  test.setTimeout(180_000);
  const title = `Live ${Date.now().toString(36)}`;
  const login = await request.post('/api/UserLogin/login', {
    headers: { authorization: `Basic ${Buffer.from('editor@example.com:editor1234').toString('base64')}` },
  });
  const auth = { authorization: `Bearer ${(await login.json()).token as string}` };
  const created = await request.patch('/api/question/updateQuestionSet', {
    headers: auth,
    data: { l: title, mpq: 1, tm: 2, nm: 0, dur: 10, isM: false, free: true, inst: '<p>Two questions.</p>', q: ['q-gk-002', 'q-gk-004'], sections: {}, pts: Math.floor(Date.now() / 60_000) - 1 },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const { id: qsid } = (await created.json()) as { id: string };
  // It opens in 40 s, for 5 minutes; results an hour later.
  const start = Date.now() + 40_000;
  const scheduled = await request.put('/api/live/schedule', { headers: auth, data: { qsid, start, winMin: 5, res: start + 60 * 60_000 } });
  expect(scheduled.ok(), await scheduled.text()).toBe(true);

  await loginAs(page, 'learner');
  await page.goto('/exam-list');
  const card = page.getByTestId(`exam-card-${qsid}`);
  await expect(card).toBeVisible({ timeout: 30_000 });
  await card.getByRole('link', { name: 'Take Test' }).click();
  const panel = page.getByTestId('live-test');
  await expect(panel).toBeVisible({ timeout: 20_000 });
  await expect(panel.getByTestId('live-countdown')).toContainText('Starts in');
  await panel.getByTestId('live-register').click();
  await expect(panel).toContainText('You are registered');
  await waitForServiceWorker(page);
  // Before the start the server gives no key, and nothing is stored yet.
  expect(serverState(qsid).attempts).toEqual([]);

  // No data from here on, before the start.
  await context.setOffline(true);
  // At the start the code comes by SMS (the sandbox's inbox stands for the learner's phone).
  await expect.poll(() => unlockCodeSentTo(LEARNER_MOBILE, title), { timeout: 90_000, intervals: [1000] }).not.toBeNull();
  const code = unlockCodeSentTo(LEARNER_MOBILE, title)!;

  // The device, offline, asks for the code once its server-corrected clock has passed the start.
  const input = panel.getByTestId('live-code');
  await expect(input).toBeVisible({ timeout: 30_000 });
  // A wrong code is told apart and opens nothing.
  await input.fill('AAAA-AAAA-AAAA');
  await panel.getByRole('button', { name: 'Open the paper' }).click();
  await expect(panel).toContainText(/This is not an unlock code: check the 12 characters\.|This code does not open this test\./);
  await expect(panel.getByTestId('live-share-code')).toHaveCount(0);
  await input.fill(code);
  await panel.getByRole('button', { name: 'Open the paper' }).click();
  // Open: the code to pass on to a friend, and the test starts as any test does.
  await expect(panel.getByTestId('live-share-code')).toContainText(code);
  await page.getByRole('button', { name: 'Start Test' }).click();
  await page.getByRole('tabpanel').getByRole('radio').nth(1).check();
  await page.getByRole('button', { name: 'Submit', exact: true }).first().click();
  await page.getByRole('dialog', { name: 'Exam summary' }).getByRole('button', { name: 'Submit test' }).click();
  await expect(page).toHaveURL(new RegExp(`/exam-result/${qsid}/true$`));
  expect(serverState(qsid).attempts).toEqual([]);

  // Online again: the attempt goes up and is stored and scored exactly once.
  await context.setOffline(false);
  await page.evaluate(() => window.dispatchEvent(new Event('online')));
  await expect.poll(() => serverState(qsid).results.length, { timeout: 30_000 }).toBe(1);
  const after = serverState(qsid);
  expect(after.attempts).toEqual([{ id: after.results[0]!.attemptId, status: 'SUBMITTED' }]);
});
