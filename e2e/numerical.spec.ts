import { expect, type Page, test } from '@playwright/test';
import { DEMO } from './helpers';

/**
 * Numerical questions (docs/exams.md "Numerical questions"), as a learner on a phone would: the
 * demo set "JEE-style Practice: Numerical Answers" at 360 px. Each answer goes into a field that
 * opens the decimal keypad; Devanagari digits are taken, a word is said not to be a number; the
 * result scores exact, tolerance and range answers and a negative number as the server does.
 */

const SET = 'qs-practice-numerical';

async function loginAt360(page: Page) {
  await page.goto('/login');
  const panel = page.getByRole('tabpanel', { name: 'Existing users' });
  await panel.getByLabel('Mobile or e-mail').fill(DEMO.learner.username);
  await panel.getByLabel(/^Password/).fill(DEMO.learner.password);
  await panel.getByRole('button', { name: 'Login' }).click();
  // At 360 px Logout sits in the drawer: the login is done when the page leaves /login.
  await expect(page).not.toHaveURL(/\/login/);
}

test('a learner answers numerical questions with the decimal keypad at 360 px and sees them scored', async ({ page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 360, height: 740 });
  await loginAt360(page);
  await page.goto('/exam-list');
  const card = page.getByTestId(`exam-card-${SET}`);
  await expect(card.getByTestId('availability')).toHaveText('On this device', { timeout: 30_000 });
  await card.getByRole('link', { name: 'Take Test' }).click();
  await expect(page.getByText('numerical-answer questions')).toBeVisible();
  await page.getByRole('button', { name: 'Start Test' }).click();

  const panel = page.getByRole('tabpanel');
  const answer = panel.getByRole('textbox', { name: 'Your answer' });
  const next = () => page.getByRole('button', { name: 'Save & Next' }).click();

  // 1. Exact 60, typed in Devanagari digits.
  await expect(panel).toContainText('150 km in 2.5 hours');
  await expect(answer).toHaveAttribute('inputmode', 'decimal');
  await answer.fill('६०');
  await expect(panel.getByRole('alert')).toHaveCount(0);
  await next();

  // 2. √2 to two places (1.41 ± 0.01): a word first is not a number, then the value.
  await expect(page.getByTestId('question-number')).toHaveText('Question 2');
  await answer.fill('one point four');
  await expect(panel.getByRole('alert')).toContainText('This is not a number');
  await expect(answer).toHaveAttribute('aria-invalid', 'true');
  await answer.fill('1.414');
  await expect(panel.getByRole('alert')).toHaveCount(0);
  await next();

  // 3. Any x from 2 to 5: 7 is outside.
  await expect(page.getByTestId('question-number')).toHaveText('Question 3');
  await answer.fill('7');
  await next();

  // 4. A negative number.
  await expect(page.getByTestId('question-number')).toHaveText('Question 4');
  await answer.fill('-5');
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await page.getByRole('contentinfo').getByRole('button', { name: 'Submit' }).click();
  await page.getByRole('dialog', { name: 'Exam summary' }).getByRole('button', { name: 'Submit test' }).click();
  await expect(page).toHaveURL(new RegExp(`/exam-result/${SET}/true$`));

  // 4 + 4 − 1 + 4 (mpq 4, nm 1), on the device at once and then by the server.
  await expect(page.getByTestId('total-marks')).toHaveText('11 out of 16', { timeout: 30_000 });
  const outcome = (n: number) => page.getByTestId(`outcome-q-numerical-00${n}`);
  await expect(outcome(1).getByTestId('verdict')).toHaveText('Correct');
  await expect(outcome(1).getByTestId('your-answer')).toHaveText('60');
  await expect(outcome(2).getByTestId('verdict')).toHaveText('Correct');
  await expect(outcome(2).getByTestId('correct-answer')).toHaveText('1.41 ± 0.01 (1.4 to 1.42)');
  await expect(outcome(3).getByTestId('verdict')).toHaveText('Incorrect');
  await expect(outcome(3).getByTestId('marks-gained')).toHaveText('Marks: -1');
  await expect(outcome(3).getByTestId('correct-answer')).toHaveText('from 2 to 5');
  await expect(outcome(4).getByTestId('verdict')).toHaveText('Correct');
  await expect(outcome(4).getByTestId('your-answer')).toHaveText('-5');
  // The demo questions carry worked explanations.
  await expect(outcome(3).getByTestId('explanation')).toContainText('2 ≤ x ≤ 5');

  // The server scored the same answers the same way (shared marking, sync-protocol/src/marking.ts).
  const login = await page.request.post('/api/UserLogin/login', {
    headers: { authorization: `Basic ${Buffer.from(`${DEMO.learner.username}:${DEMO.learner.password}`).toString('base64')}` },
  });
  const auth = { authorization: `Bearer ${(await login.json()).token as string}` };
  await expect
    .poll(async () => (await (await page.request.get(`/api/question/getExamResult?qsid=${SET}`, { headers: auth })).json()).totalMarks, { timeout: 30_000 })
    .toBe(11);
  const result = await (await page.request.get(`/api/question/getExamResult?qsid=${SET}`, { headers: auth })).json();
  expect(result.userRes.wos).toEqual({
    'q-numerical-001': { ua: '60', mg: 4 },
    'q-numerical-002': { ua: '1.414', mg: 4 },
    'q-numerical-003': { ua: '7', mg: -1 },
    'q-numerical-004': { ua: '-5', mg: 4 },
  });
});
