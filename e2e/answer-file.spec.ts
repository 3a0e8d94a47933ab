import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { loginAs, openAppDb, waitForServiceWorker } from './helpers';

// This spec needs the service worker (playwright.config.ts blocks it elsewhere).
test.use({ serviceWorkers: 'allow' });

/*
 * The last-resort answer file (docs/answer-file.md): a learner submits offline, saves the attempt as a
 * file on the device (still offline), and someone else — a second browser, not signed in —
 * uploads it. The server stores and scores it once; a tampered copy is refused; the learner's
 * own device coming online later changes nothing.
 */

function serverState(qsid: string) {
  const db = openAppDb();
  try {
    const attempts = db.prepare('select id, status, person_id as personId from attempt where qsid = ?').all(qsid) as { id: string; status: string; personId: string }[];
    const results = db.prepare('select attempt_id as attemptId from exam_result where qsid = ?').all(qsid) as { attemptId: string }[];
    return { attempts, results };
  } finally {
    db.close();
  }
}

test('a test submitted offline is saved as an answer file, uploaded from another browser, scored once; a tampered copy is refused', async ({ page, context, browser, request }) => {
  test.setTimeout(150_000);
  // A set of its own, so no other spec's attempts are in the way.
  const login = await request.post('/api/UserLogin/login', {
    headers: { authorization: `Basic ${Buffer.from('editor@example.com:editor1234').toString('base64')}` },
  });
  const token = (await login.json()).token as string;
  const created = await request.patch('/api/question/updateQuestionSet', {
    headers: { authorization: `Bearer ${token}` },
    data: { l: 'Answer file check', mpq: 1, tm: 2, nm: 0, dur: 10, isM: true, free: true, inst: '<p>Two questions.</p>', q: ['q-gk-002', 'q-gk-004'], sections: {}, pts: Math.floor(Date.now() / 60_000) - 1 },
  });
  expect(created.ok()).toBe(true);
  const { id: qsid } = (await created.json()) as { id: string };

  await loginAs(page, 'learner');
  await page.goto('/exam-list');
  const card = page.getByTestId(`exam-card-${qsid}`);
  await expect(card.getByTestId('availability')).toHaveText('On this device', { timeout: 20_000 });
  await card.getByRole('link', { name: 'Take Test' }).click();
  await expect(page.getByRole('heading', { name: /Answer file check/ })).toBeVisible();
  await waitForServiceWorker(page);
  // The intro page keeps the server's key on the device while online.
  await expect.poll(() => page.evaluate(() => localStorage.getItem('answerFileKey'))).toContain('"kid"');

  // Offline from here on: the test, the submission and the file.
  await context.setOffline(true);
  await page.getByRole('button', { name: 'Start Test' }).click();
  await page.getByRole('tabpanel').getByRole('radio').nth(2).check();
  await page.getByRole('button', { name: 'Submit', exact: true }).click();
  await page.getByRole('dialog', { name: 'Exam summary' }).getByRole('button', { name: 'Submit test' }).click();
  await expect(page).toHaveURL(new RegExp(`/exam-result/${qsid}/true$`));
  await expect(page.getByTestId('result-pending')).toBeVisible();

  const offer = page.getByTestId('answer-file-card');
  await expect(offer).toContainText('Not on the server yet');
  const [download] = await Promise.all([page.waitForEvent('download'), offer.getByRole('button', { name: 'Save answer file' }).click()]);
  const name = download.suggestedFilename();
  expect(name).toMatch(new RegExp(`^${qsid}-[A-Za-z0-9_-]+\\.pmans$`));
  await expect(page.getByTestId('answer-file-saved')).toContainText(name);
  const file = readFileSync(await download.path());
  expect(file.toString('latin1')).toMatch(/^[A-Za-z0-9_-]+\.\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
  // Nothing has reached the server.
  expect(serverState(qsid).attempts).toEqual([]);

  // Another browser, nobody signed in: an invigilator's computer.
  const other = await browser.newContext();
  try {
    const desk = await other.newPage();
    await desk.goto('/answer-file');
    await expect(desk.getByRole('heading', { name: 'Upload an answer file' })).toBeVisible();
    await expect(desk.getByRole('button', { name: 'Logout' })).toHaveCount(0);
    const fileInput = desk.locator('input[type=file]');

    // One character of the ciphertext changed: refused, nothing stored.
    const tampered = Buffer.from(file);
    const at = Math.floor(tampered.length * 0.75);
    tampered[at] = tampered[at] === 0x41 ? 0x42 : 0x41;
    await fileInput.setInputFiles({ name, mimeType: 'application/octet-stream', buffer: tampered });
    await desk.getByRole('button', { name: 'Upload' }).click();
    await expect(desk.getByTestId('answer-file-refused')).toContainText('This answer file is damaged or has been changed, so it cannot be accepted.');
    expect(serverState(qsid).attempts).toEqual([]);

    // The file as saved: stored and scored.
    await desk.getByRole('button', { name: 'Upload another file' }).click();
    await fileInput.setInputFiles({ name, mimeType: 'application/octet-stream', buffer: file });
    await desk.getByRole('button', { name: 'Upload' }).click();
    await expect(desk.getByTestId('answer-file-result')).toContainText('Received: the test is stored and scored.');
    const stored = serverState(qsid);
    expect(stored.attempts).toEqual([{ id: expect.any(String), status: 'SUBMITTED', personId: 'demo-learner' }]);
    expect(stored.results).toEqual([{ attemptId: stored.attempts[0]!.id }]);

    // Uploaded again: already received, still one result.
    await desk.getByRole('button', { name: 'Upload another file' }).click();
    await fileInput.setInputFiles({ name, mimeType: 'application/octet-stream', buffer: file });
    await desk.getByRole('button', { name: 'Upload' }).click();
    await expect(desk.getByTestId('answer-file-result')).toContainText('Already received');
    expect(serverState(qsid).results).toHaveLength(1);

    // In Hindi too.
    await desk.getByRole('button', { name: 'Upload another file' }).click();
    await desk.evaluate(() => localStorage.setItem('lang', 'hi'));
    await desk.reload();
    await expect(desk.getByRole('heading', { name: 'उत्तर फ़ाइल अपलोड करें' })).toBeVisible();
    await desk.locator('input[type=file]').setInputFiles({ name, mimeType: 'application/octet-stream', buffer: tampered });
    await desk.getByRole('button', { name: 'अपलोड करें' }).click();
    await expect(desk.getByTestId('answer-file-refused')).toContainText('यह उत्तर फ़ाइल खराब है');
  } finally {
    await other.close();
  }

  // The learner's device comes online: its own push of the attempt changes nothing, and the
  // result the server scored from the file replicates to it.
  await context.setOffline(false);
  await page.evaluate(() => window.dispatchEvent(new Event('online')));
  await expect(page.getByTestId('total-marks')).toHaveText(/out of 2$/, { timeout: 30_000 });
  await expect(page.getByTestId('answer-file-card')).toHaveCount(0);
  await expect(page.getByTestId('sync-status')).toHaveAccessibleName(/All saved/, { timeout: 30_000 });
  const state = serverState(qsid);
  expect(state.attempts).toHaveLength(1);
  expect(state.results).toHaveLength(1);
});
