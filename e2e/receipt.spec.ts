import { expect, type Page, test } from '@playwright/test';
import { decodeQR } from 'qr/decode.js';
import { shortReceipt } from '@pm/protocol/receipt';
import { loginAs, openAppDb, waitForServiceWorker } from './helpers';

// This spec needs the service worker (playwright.config.ts blocks it elsewhere).
test.use({ serviceWorkers: 'allow' });

/*
 * The offline submission receipt (docs/exams.md "Answers and marking"): a learner submits offline and gets a receipt (the
 * set, the device's and the server's estimated time, a short hash as text and as a QR code); it
 * is kept on the device, so a reload offline still shows it; online, the result page shows the
 * server's hash beside it and says that they match.
 */

const CODE = /^[0-9A-HJKMNP-TV-Z]{4}( [0-9A-HJKMNP-TV-Z]{4}){3}$/;

/** The receipt's QR code as the screen draws it, rasterised in the page and decoded here with `qr`'s own decoder. */
async function scanQr(page: Page): Promise<string> {
  const img = await page.getByTestId('receipt-qr').evaluate(async (svg) => {
    const size = 400;
    // A data: URL (the page's CSP allows data: images, not blob:).
    const image = new Image(size, size);
    image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(new XMLSerializer().serializeToString(svg))}`;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = size;
    canvas.height = size;
    const ctx = canvas.getContext('2d')!;
    ctx.drawImage(image, 0, 0, size, size);
    return { width: size, height: size, data: Array.from(ctx.getImageData(0, 0, size, size).data) };
  });
  return decodeQR({ width: img.width, height: img.height, data: Uint8ClampedArray.from(img.data) });
}

test('a test submitted offline gives a receipt that survives a reload offline and matches the server’s once online', async ({ page, context, request }) => {
  test.setTimeout(120_000);
  // A set of its own (free: no plan allowance used), so that other specs' attempts do not matter.
  const login = await request.post('/api/UserLogin/login', {
    headers: { authorization: `Basic ${Buffer.from('editor@example.com:editor1234').toString('base64')}` },
  });
  const token = (await login.json()).token as string;
  const created = await request.patch('/api/question/updateQuestionSet', {
    headers: { authorization: `Bearer ${token}` },
    data: { l: 'Receipt check', mpq: 1, tm: 3, nm: 0, dur: 30, isM: true, free: true, inst: '<p>Receipt.</p>', q: ['q-gk-002', 'q-gk-004', 'q-gk-006'], sections: {}, pts: Math.floor(Date.now() / 60_000) - 1 },
  });
  expect(created.ok()).toBe(true);
  const { id } = (await created.json()) as { id: string };

  await loginAs(page, 'learner');
  await page.goto('/exam-list');
  await expect(page.getByTestId(`exam-card-${id}`).getByTestId('availability')).toHaveText('On this device', { timeout: 20_000 });
  await page.goto(`/take-exam/${id}`);
  await expect(page.getByRole('button', { name: 'Start Test' })).toBeEnabled();
  await waitForServiceWorker(page);

  await context.setOffline(true);
  await page.getByRole('button', { name: 'Start Test' }).click();
  await page.getByRole('tabpanel').getByRole('radio').nth(2).check();
  await page.getByRole('button', { name: 'Save & Next' }).click();
  await page.getByRole('tabpanel').getByRole('radio').nth(0).check();
  await page.getByRole('button', { name: 'Save & Next' }).click();
  await page.getByRole('contentinfo').getByRole('button', { name: 'Submit' }).click();
  await page.getByRole('dialog', { name: 'Exam summary' }).getByRole('button', { name: 'Submit test' }).click();
  await expect(page).toHaveURL(new RegExp(`/exam-result/${id}/true$`));

  // The receipt, at once and offline.
  const receipt = page.getByTestId('submission-receipt');
  await expect(receipt.getByRole('heading', { name: 'Submission receipt' })).toBeVisible();
  await expect(receipt.getByTestId('receipt-set')).toHaveText('Receipt check');
  await expect(receipt.getByTestId('receipt-device-time')).not.toBeEmpty();
  await expect(receipt.getByTestId('receipt-server-time')).not.toBeEmpty();
  const code = (await receipt.getByTestId('receipt-code').textContent())!.trim();
  expect(code).toMatch(CODE);
  await expect(receipt.getByRole('img', { name: `QR code of receipt ${code}` })).toBeVisible();
  await expect(receipt.getByTestId('receipt-check')).toHaveText('Not confirmed by the server yet: it is checked when this device is online.');
  // The QR code holds the attempt, the set and the full hash, whose short form is the code shown.
  const scanned = await scanQr(page);
  const qr = /^pariksha-mitra\/receipt\/1 attempt=(\S+) set=(\S+) at=(\d+) sha256=([0-9a-f]{64})$/.exec(scanned);
  expect(qr, scanned).not.toBeNull();
  const [, attemptId, setId, , hash] = qr!;
  expect(setId).toBe(id);
  expect(shortReceipt(hash!)).toBe(code);

  // Kept on the device: a reload, still offline, shows the same receipt.
  await page.reload();
  await expect(page.getByTestId('submission-receipt').getByTestId('receipt-code')).toHaveText(code);
  await expect(page.getByTestId('submission-receipt').getByRole('img', { name: `QR code of receipt ${code}` })).toBeVisible();
  await expect(page.getByTestId('result-pending')).toBeVisible();

  // Online: the submission uploads, the server scores it and computes its own receipt.
  await context.setOffline(false);
  await page.evaluate(() => window.dispatchEvent(new Event('online')));
  await expect(page.getByTestId('total-marks')).toHaveText('1 out of 3', { timeout: 30_000 });
  await expect(receipt.getByTestId('server-receipt-code')).toHaveText(code);
  await expect(receipt.getByTestId('receipt-check')).toHaveAttribute('data-state', 'match');
  await expect(receipt.getByTestId('receipt-check')).toHaveText('Matches: the server holds exactly what this device submitted.');

  // What the server stored is that hash, for that attempt.
  const db = openAppDb();
  try {
    const row = db.prepare('select receipt from exam_result where attempt_id = ?').get(attemptId) as { receipt: string } | undefined;
    expect(row?.receipt).toBe(hash);
  } finally {
    db.close();
  }
});
