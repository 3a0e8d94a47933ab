import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { loginAs, loginOnPhone, openAppDb, waitForServiceWorker } from './helpers';

// The receiving phone reloads nothing offline, but its lazy pages come from the service worker.
test.use({ serviceWorkers: 'allow' });

/*
 * A test handed from phone to phone (docs/live-tests.md "A test handed from phone to phone"): one
 * browser shares a set as a signed file; a phone that is offline, and has never had the set,
 * refuses a changed copy, opens the file, takes the test and submits it offline; online again, its
 * own push uploads the attempt, scored once.
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

test('a set shared as a file is opened on an offline phone, taken there and scored once when it connects', async ({ page, browser, request }) => {
  test.setTimeout(180_000);
  // The receiving phone: signed in while online (it holds the server's keys), then offline.
  const phone = await browser.newContext({ viewport: { width: 360, height: 740 }, serviceWorkers: 'allow' });
  try {
    const receiver = await phone.newPage();
    await loginOnPhone(receiver, 'learner');
    await receiver.goto('/exam-list');
    await expect.poll(() => receiver.evaluate(() => localStorage.getItem('bundleKeys')), { timeout: 20_000 }).toContain('"kid"');
    await waitForServiceWorker(receiver);
    await phone.setOffline(true);

    // A set published after the phone went offline: it cannot have it but by the file.
    const login = await request.post('/api/UserLogin/login', { headers: { authorization: `Basic ${Buffer.from('editor@example.com:editor1234').toString('base64')}` } });
    const token = (await login.json()).token as string;
    const created = await request.patch('/api/question/updateQuestionSet', {
      headers: { authorization: `Bearer ${token}` },
      data: { l: 'Handed over', mpq: 1, tm: 2, nm: 0, dur: 10, isM: true, free: true, inst: '<p>Two questions.</p>', q: ['q-gk-002', 'q-gk-004'], sections: {}, pts: Math.floor(Date.now() / 60_000) - 1 },
    });
    expect(created.ok()).toBe(true);
    const { id: qsid } = (await created.json()) as { id: string };

    // The sharer: "Share this test" on the set's page; the Web Share API takes no files here, so it downloads.
    await page.addInitScript(() => Object.defineProperty(Navigator.prototype, 'canShare', { value: undefined, configurable: true }));
    await loginAs(page, 'beneficiary');
    await page.goto('/exam-list');
    const card = page.getByTestId(`exam-card-${qsid}`);
    await expect(card.getByTestId('availability')).toHaveText('On this device', { timeout: 20_000 });
    await card.getByRole('link', { name: 'Take Test' }).click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Share this test' }).click()]);
    expect(download.suggestedFilename()).toBe(`${qsid}.pmtest`);
    const file = readFileSync(await download.path());
    expect(file.subarray(0, 4).toString('latin1')).toBe('PMB1');
    await expect(page.getByText(/Saved the test file/)).toBeVisible();

    // The phone, offline: a changed copy is refused; the file as shared opens.
    await receiver.getByRole('button', { name: 'Open a shared test' }).click();
    const dialog = receiver.getByRole('dialog', { name: 'Open a shared test' });
    const tampered = Buffer.from(file);
    tampered[tampered.length - 10]! ^= 0x01;
    await dialog.locator('input[type=file]').setInputFiles({ name: `${qsid}.pmtest`, mimeType: 'application/octet-stream', buffer: tampered });
    await dialog.getByRole('button', { name: 'Open test' }).click();
    await expect(dialog.getByTestId('shared-test-refused')).toHaveText('This test file has been changed or damaged, so it cannot be opened.');
    await dialog.locator('input[type=file]').setInputFiles({ name: `${qsid}.pmtest`, mimeType: 'application/octet-stream', buffer: file });
    await dialog.getByRole('button', { name: 'Open test' }).click();
    await expect(dialog.getByTestId('shared-test-opened')).toContainText('“Handed over” is on this phone now.');
    await dialog.getByRole('link', { name: 'Take Test' }).click();

    await expect(receiver.getByRole('heading', { name: /Handed over/ })).toBeVisible();
    await receiver.getByRole('button', { name: 'Start Test' }).click();
    await receiver.getByRole('tabpanel').getByRole('radio').nth(2).check();
    await receiver.getByRole('banner').getByRole('button', { name: 'Submit', exact: true }).click();
    await receiver.getByRole('dialog', { name: 'Exam summary' }).getByRole('button', { name: 'Submit test' }).click();
    await expect(receiver).toHaveURL(new RegExp(`/exam-result/${qsid}/true$`));
    await expect(receiver.getByTestId('result-pending')).toBeVisible();
    expect(serverState(qsid).attempts).toEqual([]);

    // Online again: the phone's own push uploads the attempt, scored once.
    await phone.setOffline(false);
    await receiver.evaluate(() => window.dispatchEvent(new Event('online')));
    await expect(receiver.getByTestId('total-marks')).toHaveText(/out of 2$/, { timeout: 30_000 });
    await expect.poll(() => serverState(qsid).results.length, { timeout: 15_000 }).toBe(1);
    const stored = serverState(qsid);
    expect(stored.attempts).toEqual([{ id: expect.any(String), status: 'SUBMITTED', personId: 'demo-learner' }]);
    expect(stored.results).toEqual([{ attemptId: stored.attempts[0]!.id }]);
  } finally {
    await phone.close();
  }
});
