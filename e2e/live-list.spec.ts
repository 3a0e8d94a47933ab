import { expect, test } from '@playwright/test';
import { loginAs } from './helpers';

/*
 * The exam list marks live tests (docs/live-tests.md "On the exam list"): a learner on a phone
 * (360 px) sees which set is a live test and when it starts, in English and in Hindi, from the
 * set's questions document on the device.
 */

test('a live test is marked on the exam list at 360 px, with its start, in English and Hindi', async ({ page, request }) => {
  test.setTimeout(90_000);
  const title = `Live list ${Date.now().toString(36)}`;
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
  // It opens in 30 minutes, for 15; results two hours later.
  const start = Date.now() + 30 * 60_000;
  const scheduled = await request.put('/api/live/schedule', { headers: auth, data: { qsid, start, winMin: 15, res: start + 2 * 60 * 60_000 } });
  expect(scheduled.ok(), await scheduled.text()).toBe(true);

  // Signed in first: on a phone the login's Logout sits in the drawer (e2e/helpers.ts).
  await loginAs(page, 'learner');
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto('/exam-list');
  const card = page.getByTestId(`exam-card-${qsid}`);
  await expect(card).toBeVisible({ timeout: 30_000 });
  const badge = card.getByTestId('live-badge');
  await expect(badge).toBeVisible({ timeout: 30_000 });
  await expect(badge).toContainText('Live');
  await expect(badge.getByTestId('live-when')).toHaveText(/^Starts \d{1,2} \w{3} \d{4}, \d{1,2}:\d{2}\s?[ap]m$/i);
  // Readable on the phone: the whole badge on screen, nothing wider than the phone.
  await badge.scrollIntoViewIfNeeded();
  await expect(badge).toBeInViewport({ ratio: 1 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  // Other sets carry no badge.
  await expect(page.getByTestId('live-badge')).toHaveCount(1);

  await page.evaluate(() => localStorage.setItem('lang', 'hi'));
  await page.reload();
  const hiBadge = page.getByTestId(`exam-card-${qsid}`).getByTestId('live-badge');
  await expect(hiBadge).toBeVisible({ timeout: 30_000 });
  await expect(hiBadge).toContainText('लाइव');
  await expect(hiBadge.getByTestId('live-when')).toHaveText(/ पर शुरू$/);
  await hiBadge.scrollIntoViewIfNeeded();
  await expect(hiBadge).toBeInViewport({ ratio: 1 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await page.evaluate(() => localStorage.setItem('lang', 'en'));
});
