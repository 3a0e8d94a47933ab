import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { loginAs, openAppDb, serverDataDir, waitForServiceWorker } from './helpers';

// This spec needs the service worker (playwright.config.ts blocks it elsewhere).
test.use({ serviceWorkers: 'allow' });

/*
 * Answers by SMS (docs/sms.md "Answers by SMS"): a learner finishes a practice test offline, the
 * result screen offers "Send my answers by SMS"; the test reads the `sms:` link the page built and
 * posts its number and text to the local SMS sandbox's inbound endpoint, as the learner's phone
 * would send it. The server stores and scores the attempt at once and replies with the receipt
 * and the score; when the device comes online the result arrives, its receipt matches the
 * device's, and there is still one result.
 */

const LEARNER_MOBILE = '+919000000003';

function serverState(qsid: string) {
  const db = openAppDb();
  try {
    const attempts = db.prepare('select id, status, person_id as personId, receipt from attempt where qsid = ?').all(qsid) as { id: string; status: string; personId: string; receipt: string }[];
    const results = db.prepare('select attempt_id as attemptId from exam_result where qsid = ?').all(qsid) as { attemptId: string }[];
    return { attempts, results };
  } finally {
    db.close();
  }
}

/** The SMS replies the sandbox delivered to a number (the local inbox, docs/configuration.md). */
function repliesTo(mobile: string): string[] {
  const file = path.join(serverDataDir(), 'local-inbox.jsonl');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as { channel: string; to: string; body: string })
    .filter((m) => m.channel === 'sms' && m.to === mobile && m.body.includes('answers received'))
    .map((m) => m.body);
}

test('a test finished offline goes home by SMS, is scored once, and its receipt arrives when the device comes online', async ({ page, context, request }) => {
  test.setTimeout(150_000);
  // A practice set of its own, so that no other spec's attempts are in the way and the reply has a score.
  const login = await request.post('/api/UserLogin/login', {
    headers: { authorization: `Basic ${Buffer.from('editor@example.com:editor1234').toString('base64')}` },
  });
  const token = (await login.json()).token as string;
  const created = await request.patch('/api/question/updateQuestionSet', {
    headers: { authorization: `Bearer ${token}` },
    data: { l: 'SMS answers check', mpq: 1, tm: 2, nm: 0, dur: 10, isM: false, free: true, inst: '<p>Two questions.</p>', q: ['q-gk-002', 'q-gk-004'], sections: {}, pts: Math.floor(Date.now() / 60_000) - 1 },
  });
  expect(created.ok()).toBe(true);
  const { id: qsid } = (await created.json()) as { id: string };

  await loginAs(page, 'learner');
  // A phone's screen from here on (the sign-in helper reads the wide layout's Logout button).
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto('/exam-list');
  const card = page.getByTestId(`exam-card-${qsid}`);
  await expect(card.getByTestId('availability')).toHaveText('On this device', { timeout: 20_000 });
  await card.getByRole('link', { name: 'Take Test' }).click();
  await expect(page.getByRole('heading', { name: /SMS answers check/ })).toBeVisible();
  await waitForServiceWorker(page);
  // The intro page keeps the session's SMS key on the device while online (docs/sms.md "The key").
  await expect.poll(() => page.evaluate(() => localStorage.getItem('smsAnswerKey'))).toContain('"key"');

  // No data from here on.
  await context.setOffline(true);
  await page.getByRole('button', { name: 'Start Test' }).click();
  await page.getByRole('tabpanel').getByRole('radio').nth(2).check();
  // On a phone, Submit is in the test's own header.
  await page.getByRole('banner').getByRole('button', { name: 'Submit', exact: true }).click();
  await page.getByRole('dialog', { name: 'Exam summary' }).getByRole('button', { name: 'Submit test' }).click();
  await expect(page).toHaveURL(new RegExp(`/exam-result/${qsid}/true$`));
  await expect(page.getByTestId('result-pending')).toBeVisible();
  const deviceCode = (await page.getByTestId('submission-receipt').getByTestId('receipt-code').textContent())!.trim();

  const offer = page.getByTestId('sms-answer-card');
  await expect(offer).toContainText('Send my answers by SMS');
  const link = offer.getByTestId('sms-answer-link');
  await expect(link).toBeInViewport();
  const href = (await link.getAttribute('href'))!;
  const sms = /^sms:(\+\d+)\?body=(.+)$/.exec(href);
  expect(sms).not.toBeNull();
  const text = decodeURIComponent(sms![2]!);
  expect(text).toMatch(/^PM1 [A-Za-z0-9.-]+$/);
  expect(text.length).toBeLessThanOrEqual(160);
  expect(serverState(qsid).attempts).toEqual([]);

  // The learner's phone sends it: the sandbox delivers it to our callback as the provider would.
  const sent = await request.post('/sandbox/sms/inbound', { data: { from: LEARNER_MOBILE, text } });
  expect(sent.ok()).toBe(true);
  expect(await sent.json()).toMatchObject({ ok: true, providerMessageId: expect.any(String) });
  const stored = serverState(qsid);
  expect(stored.attempts).toEqual([{ id: expect.any(String), status: 'SUBMITTED', personId: 'demo-learner', receipt: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
  expect(stored.results).toEqual([{ attemptId: stored.attempts[0]!.id }]);
  // The reply: the receipt the device shows, and the practice score.
  await expect.poll(() => repliesTo(LEARNER_MOBILE).find((b) => b.includes(deviceCode))).toMatch(/Score \d\/2\.$/);

  // Sent twice (the learner pressed send again): nothing changes.
  expect((await request.post('/sandbox/sms/inbound', { data: { from: LEARNER_MOBILE, text } })).ok()).toBe(true);
  expect(serverState(qsid).results).toHaveLength(1);

  // The device comes online: its own push completes the attempt, the result arrives, and the
  // server's receipt is the device's.
  await context.setOffline(false);
  await page.evaluate(() => window.dispatchEvent(new Event('online')));
  await expect(page.getByTestId('total-marks')).toHaveText(/out of 2$/, { timeout: 30_000 });
  await expect(page.getByTestId('receipt-check')).toHaveAttribute('data-state', 'match');
  await expect(page.getByTestId('sms-answer-card')).toHaveCount(0);
  await expect(page.getByTestId('sync-status')).toHaveAccessibleName(/All saved/, { timeout: 30_000 });
  const after = serverState(qsid);
  expect(after.attempts).toHaveLength(1);
  expect(after.results).toHaveLength(1);
});
