import { expect, type Page, test } from '@playwright/test';
import { loginAs, waitForServiceWorker } from './helpers';

// This spec needs the service worker (playwright.config.ts blocks it elsewhere).
test.use({ serviceWorkers: 'allow' });

const questionNumber = (page: Page) => page.getByTestId('question-number');
const options = (page: Page) => page.getByRole('tabpanel');
const palette = (page: Page, n: number) => page.getByRole('button', { name: new RegExp(`^Question ${n},`) });

async function pick(page: Page, index: number) {
  await options(page).getByRole('radio').nth(index).check();
}

test('the whole mock test offline: answers of every type, review marks, a reload mid-way, submit offline, result online', async ({ page, context }) => {
  test.setTimeout(120_000);
  await loginAs(page, 'learner');
  await page.goto('/exam-list');
  const card = page.getByTestId('exam-card-qs-mock-ssc-1');
  await expect(card.getByTestId('availability')).toHaveText('On this device');
  await card.getByRole('link', { name: 'Take Test' }).click();
  await expect(page.getByRole('heading', { name: /SSC Mock Test 1/ })).toBeVisible();
  await expect(page.getByRole('row', { name: /General Knowledge 8/ })).toBeVisible();
  await waitForServiceWorker(page);

  await context.setOffline(true);
  await page.getByRole('button', { name: 'Start Test' }).click();
  await expect(questionNumber(page)).toHaveText('Question 1');
  await expect(page.getByTestId('timer')).toHaveText(/0 Hour, 59 Min|1 Hour, 0 Min/);

  // Q1 mcq1 right (c), Q2 mcq1 wrong (a instead of b), Q3 marked without an answer,
  // Q4 answered (c) and marked for review.
  await pick(page, 2);
  await page.getByRole('button', { name: 'Save & Next' }).click();
  await expect(questionNumber(page)).toHaveText('Question 2');
  await pick(page, 0);
  await page.getByRole('button', { name: 'Save & Next' }).click();
  await page.getByRole('button', { name: 'Mark for Review & Next' }).click();
  await expect(questionNumber(page)).toHaveText('Question 4');
  await pick(page, 2);
  await page.getByRole('button', { name: 'Mark for Review & Next' }).click();

  // Q7 mcq2 exactly a, c, d; Q8 fill-in with Devanagari digits (१९५० = 1950).
  await palette(page, 7).click();
  await expect(questionNumber(page)).toHaveText('Question 7');
  for (const i of [0, 2, 3]) await options(page).getByRole('checkbox').nth(i).check();
  await page.getByRole('button', { name: 'Save & Next' }).click();
  await expect(questionNumber(page)).toHaveText('Question 8');
  await options(page).getByRole('textbox').fill('१९५०');
  await page.getByRole('button', { name: 'Save & Next' }).click();
  await expect(questionNumber(page)).toHaveText('Question 9');
  await expect(page.getByRole('tab', { name: /Quantitative Aptitude/ })).toHaveAttribute('aria-selected', 'true');

  // A reload mid-way lands on the same question with every answer intact.
  await page.reload();
  await expect(questionNumber(page)).toHaveText('Question 9');
  await expect(palette(page, 1)).toHaveAccessibleName('Question 1, Answered');
  await expect(palette(page, 2)).toHaveAccessibleName('Question 2, Answered');
  await expect(palette(page, 3)).toHaveAccessibleName('Question 3, Marked for Review');
  await expect(palette(page, 4)).toHaveAccessibleName('Question 4, Answered & Marked for Review');
  await expect(palette(page, 5)).toHaveAccessibleName('Question 5, Not Answered'); // opened after Q4, left without an answer
  await expect(palette(page, 6)).toHaveAccessibleName('Question 6, Not Visited');
  await expect(palette(page, 7)).toHaveAccessibleName('Question 7, Answered');
  await expect(palette(page, 8)).toHaveAccessibleName('Question 8, Answered');
  await palette(page, 8).click();
  await expect(options(page).getByRole('textbox')).toHaveValue('१९५०');

  // Q9 right (b); Q15 mcq2 partly chosen (only a of a, c) is wrong; Q24 fill-in with spaces.
  await palette(page, 9).click();
  await pick(page, 1);
  await palette(page, 15).click();
  await options(page).getByRole('checkbox').nth(0).check();
  await palette(page, 24).click();
  await expect(questionNumber(page)).toHaveText('Question 24');
  await options(page).getByRole('textbox').fill('  112 ');
  // Q6 subjective: stored, awaiting an editor's evaluation. Clearing Q5 takes it back to Not Answered.
  // (Q24 has a text box too: the fill waits until Q6 is on screen, or it would type into Q24's.)
  await palette(page, 6).click();
  await expect(questionNumber(page)).toHaveText('Question 6');
  await options(page).getByRole('textbox').fill('Green plants make glucose from carbon dioxide and water using sunlight.');
  await palette(page, 5).click();
  await pick(page, 0);
  await expect(palette(page, 5)).toHaveAccessibleName('Question 5, Answered');
  await page.getByRole('button', { name: 'Clear Response' }).click();
  await expect(palette(page, 5)).toHaveAccessibleName('Question 5, Not Answered');
  await expect(options(page).getByRole('radio', { checked: true })).toHaveCount(0);
  await palette(page, 24).click();
  await expect(page.getByRole('button', { name: 'Submit', exact: true }).first()).toBeVisible();
  await page.getByRole('contentinfo').getByRole('button', { name: 'Submit' }).click();

  const summary = page.getByRole('dialog', { name: 'Exam summary' });
  // General Knowledge: answered 1, 2, 6, 7, 8; not answered 5; marked 3; answered & marked 4.
  await expect(summary.getByRole('row', { name: /General Knowledge/ })).toHaveText('General Knowledge51110');
  await summary.getByRole('button', { name: 'Submit test' }).click();
  await expect(page).toHaveURL(/\/exam-result\/qs-mock-ssc-1\/true$/);
  await expect(page.getByTestId('result-pending')).toHaveText('Your test is submitted. The result will appear when this device is online.');

  // Online again: the attempt uploads, the server scores it, the result replicates back.
  await context.setOffline(false);
  await page.evaluate(() => window.dispatchEvent(new Event('online')));
  await expect(page.getByTestId('total-marks')).toHaveText('11 out of 48', { timeout: 30_000 });
  const summaryCard = page.getByTestId('result-summary');
  await expect(summaryCard).toContainText('Right answers6');
  await expect(summaryCard).toContainText('Wrong answers2');
  await expect(summaryCard).toContainText('Total answers9');
  await expect(page.getByText('1 answer awaiting evaluation')).toBeVisible();
  await expect(page.getByTestId('outcome-q-gk-017').getByTestId('verdict')).toHaveText('Awaiting evaluation');
  await expect(page.getByTestId('part-marks-General Knowledge')).toContainText('7.5 out of 16');
  await expect(page.getByTestId('outcome-q-gk-015').getByTestId('verdict')).toHaveText('Correct');
  await expect(page.getByTestId('outcome-q-arithmetic-011').getByTestId('verdict')).toHaveText('Incorrect');
  await expect(page.getByTestId('outcome-q-gk-006').getByTestId('verdict')).toHaveText('Unanswered');
  await expect(page.getByTestId('outcome-q-gk-009').getByTestId('verdict')).toHaveText('Unanswered');
});

test('a one-minute test submits itself at zero and is scored', async ({ page, request }) => {
  test.setTimeout(150_000);
  // The editor publishes a one-minute mock through the question-set API.
  const login = await request.post('/api/UserLogin/login', {
    headers: { authorization: `Basic ${Buffer.from('editor@example.com:editor1234').toString('base64')}` },
  });
  const token = (await login.json()).token as string;
  const created = await request.patch('/api/question/updateQuestionSet', {
    headers: { authorization: `Bearer ${token}` },
    data: { l: 'One-minute check', mpq: 1, tm: 2, nm: 0, dur: 1, isM: true, free: true, inst: '<p>Quick.</p>', q: ['q-gk-002', 'q-gk-004'], sections: {}, pts: Math.floor(Date.now() / 60_000) - 1 },
  });
  expect(created.ok()).toBe(true);
  const { id } = (await created.json()) as { id: string };

  await loginAs(page, 'learner');
  await page.goto('/exam-list');
  const card = page.getByTestId(`exam-card-${id}`);
  await expect(card.getByTestId('availability')).toHaveText('On this device', { timeout: 20_000 });
  await card.getByRole('link', { name: 'Take Test' }).click();
  await page.getByRole('button', { name: 'Start Test' }).click();
  await expect(page.getByTestId('timer')).toHaveText(/0 Hour, 0 Min, [0-9]+ Sec/);
  // Red in the last quarter of a test shorter than an hour (docs/exams.md "The exam screens").
  await expect(page.getByTestId('timer')).toHaveAttribute('data-tone', 'red', { timeout: 60_000 });
  await pick(page, 0);
  // No click on Submit: at zero the test submits itself (docs/exams.md "The exam screens").
  await expect(page).toHaveURL(new RegExp(`/exam-result/${id}/true$`), { timeout: 75_000 });
  await expect(page.getByText('Time is up. Your test was submitted automatically.')).toBeVisible();
  await expect(page.getByTestId('total-marks')).toHaveText(/out of 2$/, { timeout: 30_000 });
});

test('a practice set shows its result at once, offline, worked out on the device', async ({ page, context }) => {
  await loginAs(page, 'learner');
  await page.goto('/exam-list');
  const card = page.getByTestId('exam-card-qs-practice-gk');
  await expect(card.getByTestId('availability')).toHaveText('On this device');
  await card.getByRole('link', { name: 'Take Test' }).click();
  // An earlier spec on this lane's server may have left the learner's attempt at this set open
  // (its tab closed before the submission went up): then it resumes, as it would for them.
  const begin = page.getByRole('button', { name: /^(Start|Resume) Test$/ });
  await expect(begin).toBeEnabled();
  // The result screen is a chunk of its own: offline it comes from the service worker.
  await waitForServiceWorker(page);
  await context.setOffline(true);
  await begin.click();
  await palette(page, 1).click();
  await pick(page, 1); // q-gk-001: b is right
  await page.getByRole('button', { name: 'Save & Next' }).click();
  await pick(page, 0);
  await page.getByRole('complementary').getByRole('button', { name: 'Submit' }).click();
  await page.getByRole('dialog', { name: 'Exam summary' }).getByRole('button', { name: 'Submit test' }).click();
  await expect(page.getByText('Practice result worked out on this device')).toBeVisible();
  await expect(page.getByTestId('outcome-q-gk-001').getByTestId('verdict')).toHaveText('Correct');
  await expect(page.getByTestId('total-marks')).toHaveText(/ out of 10$/);
  await context.setOffline(false);
});

test('a tab that dies right after an answer loses nothing: the answer is back when the test resumes', async ({ page, context, request }) => {
  test.setTimeout(90_000);
  const login = await request.post('/api/UserLogin/login', {
    headers: { authorization: `Basic ${Buffer.from('editor@example.com:editor1234').toString('base64')}` },
  });
  const token = (await login.json()).token as string;
  const created = await request.patch('/api/question/updateQuestionSet', {
    headers: { authorization: `Bearer ${token}` },
    data: { l: 'Crash check', mpq: 1, tm: 3, nm: 0, dur: 30, isM: true, free: true, inst: '<p>Crash.</p>', q: ['q-gk-002', 'q-gk-004', 'q-gk-006'], sections: {}, pts: Math.floor(Date.now() / 60_000) - 1 },
  });
  const { id } = (await created.json()) as { id: string };

  await loginAs(page, 'learner');
  await page.goto('/exam-list');
  await expect(page.getByTestId(`exam-card-${id}`).getByTestId('availability')).toHaveText('On this device', { timeout: 20_000 });
  await page.goto(`/take-exam/${id}`);
  await page.getByRole('button', { name: 'Start Test' }).click();
  await pick(page, 2);
  await page.getByRole('button', { name: 'Save & Next' }).click();
  await expect(questionNumber(page)).toHaveText('Question 2');
  await pick(page, 3);
  await expect(palette(page, 2)).toHaveAccessibleName('Question 2, Answered');
  // The tab is gone at once: no unload handlers, no time for anything to finish.
  await page.close({ runBeforeUnload: false });

  const again = await context.newPage();
  await again.goto(`/take-exam/${id}`);
  await again.getByRole('button', { name: 'Resume Test' }).click();
  await expect(questionNumber(again)).toHaveText('Question 2');
  await expect(options(again).getByRole('radio').nth(3)).toBeChecked();
  await expect(palette(again, 1)).toHaveAccessibleName('Question 1, Answered');
  await expect(palette(again, 2)).toHaveAccessibleName('Question 2, Answered');
  await expect(palette(again, 3)).toHaveAccessibleName('Question 3, Not Visited');
});
